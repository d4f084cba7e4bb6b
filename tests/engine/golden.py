"""Reference outputs of the carrier engine, kept to prove speed work changes nothing.

Whole campaigns between seeded random commanders (every round's decision lists, events
and the final state with its history, as JSON) and odds previews from fixed seeds are
reduced to SHA-256 digests of their exact bytes. ``tests/fixtures/carrier-golden.json``
holds the digests taken before the engine was made faster (issue 13); a change that alters
a single byte of any of them fails ``test_golden``.

    python -m tests.engine.golden --write   # only when the rules change on purpose
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from engine.rng import Rng
from engine.rulesets.carrier import CarrierRules
from engine.zero.loader import default_catalog

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "carrier-golden.json"
SCENARIOS = ("coral-sea", "midway")
SEEDS = tuple(range(8))
ODDS_SAMPLES = 40


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# Fields a Decision gained after the recording (the seam's input kinds, issue 26): at their
# defaults they say nothing new, and are left out so that the digests say what they said.
ADDED_SINCE = {"input": "menu", "label": "", "steps": 0}


def _decision(decision: Any) -> dict[str, Any]:
    data: dict[str, Any] = decision.model_dump(mode="json")
    for key, default in ADDED_SINCE.items():
        if data.get(key) == default:
            data.pop(key)
    return data


def campaign(rules: CarrierRules, scenario: str, seed: int) -> dict[str, str]:
    """Digests of one campaign: its rounds (decisions + events) and its final state."""
    draw = random.Random(f"golden|{scenario}|{seed}")
    state = rules.new(scenario, f"golden-{seed}")
    rounds = hashlib.sha256()
    while not state.finished:
        decisions = rules.pending(state)
        rounds.update(json.dumps([_decision(d) for d in decisions]).encode())
        choices: dict[str, dict[str, str]] = {}
        for decision in decisions:
            choices.setdefault(decision.side, {})[decision.field] = draw.choice(decision.options).id
        rng = Rng(f"golden-{seed}", state.turn, state.round.value)
        state, events = rules.resolve(state, choices, rng)
        rounds.update(json.dumps([e.model_dump(mode="json") for e in events]).encode())
    return {"rounds": rounds.hexdigest(), "state": _digest(rules.dump(state))}


def odds(rules: CarrierRules, scenario: str, seed: int) -> dict[str, str]:
    """Digests of previews asked in a turn's orders round and in its resource round."""
    draw = random.Random(f"golden-odds|{scenario}|{seed}")
    state = rules.new(scenario, f"golden-odds-{seed}")
    out: dict[str, str] = {}
    for turn in range(1, 4):
        if state.finished:
            break
        for _ in ("orders", "resource"):
            decisions = rules.pending(state)
            side = draw.choice(("japanese", "allied"))
            picks = {
                d.field: draw.choice(d.options).id
                for d in decisions
                if d.side == side and draw.random() < 0.5
            }
            result = rules.odds(
                state, side, picks, ("doctrine",), samples=ODDS_SAMPLES, seed=f"g{seed}"
            )
            key = f"t{turn}-{state.round.value}"
            out[key] = _digest(json.dumps(asdict(result) if result else None))
            choices: dict[str, dict[str, str]] = {}
            for decision in decisions:
                choices.setdefault(decision.side, {})[decision.field] = draw.choice(
                    decision.options
                ).id
            rng = Rng(f"golden-odds-{seed}", state.turn, state.round.value)
            state, _ = rules.resolve(state, choices, rng)
    return out


def compute() -> dict[str, dict[str, str]]:
    rules = CarrierRules(default_catalog())
    result: dict[str, dict[str, str]] = {}
    for scenario in SCENARIOS:
        for seed in SEEDS:
            result[f"campaign {scenario} {seed}"] = campaign(rules, scenario, seed)
        for seed in SEEDS[:3]:
            result[f"odds {scenario} {seed}"] = odds(rules, scenario, seed)
    return result


def write_fixture(fixture: Path, outputs: Callable[[], object], module: str) -> None:
    """``python -m <module> --write``: the outputs written as the fixture, on purpose only."""
    if "--write" not in sys.argv:
        raise SystemExit(f"usage: python -m {module} --write")
    fixture.write_text(json.dumps(outputs(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {fixture}")


if __name__ == "__main__":
    write_fixture(FIXTURE, compute, "tests.engine.golden")

"""Odds previews on played carrier states, pinned figure for figure (issue 29's odds work).

The golden digests (``tests/engine/golden.py``) hold previews of 40 plays in the first
three turns. These are bigger and later: each scenario is played by seeded random
commanders to a turn with damage on its tracks and resources spent, and both sides ask
in its orders round and in its resource round, with and without picks of their own.
``tests/fixtures/carrier-odds-pinned.json`` holds every figure each preview gave before
the preview was made cheaper; a preview that moves one play moves a figure.

    python -m tests.engine.odds_pinned --write   # only when the rules change on purpose
"""

from __future__ import annotations

import random
from dataclasses import asdict
from pathlib import Path
from typing import Any

from engine.rng import Rng
from engine.rulesets.carrier import CarrierRules
from engine.rulesets.carrier.state import State
from engine.zero.loader import default_catalog
from tests.engine.golden import write_fixture

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "carrier-odds-pinned.json"
SAMPLES = 120
# (scenario, campaign seed, the turn its previews are asked in)
CAMPAIGNS = (("coral-sea", "pin-a", 3), ("midway", "pin-b", 3), ("midway", "pin-c", 2))


def played(rules: CarrierRules, scenario: str, seed: str, turn: int) -> list[State]:
    """The campaign's states at ``turn``'s orders round and at its resource round."""
    draw = random.Random(f"odds-pinned|{seed}")
    state = rules.new(scenario, seed)
    states: list[State] = []
    while not state.finished and state.turn <= turn:
        if state.turn == turn:
            states.append(state)
        choices = rules.drawn(rules.pending(state), draw)
        state, _ = rules.resolve(state, choices, Rng(seed, state.turn, state.round.value))
    return states


def questions(rules: CarrierRules, state: State, draw: random.Random) -> list[dict[str, Any]]:
    """One question per side: the Japanese with every field of theirs picked, the Allied
    with none (every value of theirs drawn in each play)."""
    decisions = rules.pending(state)
    mine = {d.field: draw.choice(d.options).id for d in decisions if d.side == "japanese"}
    return [{"side": "japanese", "picks": mine}, {"side": "allied", "picks": {}}]


def compute() -> dict[str, Any]:
    rules = CarrierRules(default_catalog())
    out: dict[str, Any] = {}
    for scenario, seed, turn in CAMPAIGNS:
        draw = random.Random(f"odds-pinned-picks|{seed}")
        for state in played(rules, scenario, seed, turn):
            for asked in questions(rules, state, draw):
                result = rules.odds(
                    state,
                    asked["side"],
                    asked["picks"],
                    ("doctrine",),
                    samples=SAMPLES,
                    seed=f"pinned|{seed}",
                )
                key = f"{scenario} {seed} t{state.turn}-{state.round.value} {asked['side']}"
                out[key] = asdict(result) if result is not None else None
    return out


if __name__ == "__main__":
    write_fixture(FIXTURE, compute, "tests.engine.odds_pinned")

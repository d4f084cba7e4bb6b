"""Recorded games of every ruleset, replayed to prove a refactoring changed no outcome.

Each game was played once by seeded random commanders (a random legal option for every
decision). The fixture keeps, round by round, the choices that were locked and a SHA-256
digest of the events the round produced; the test replays those very choices through
``resolve`` and compares the digests. Replaying recorded choices, rather than drawing them
again, lets the seam change how decisions are *asked* (field names, menus, typed input)
without touching the proof: a change that renames a field rewrites the fixture's choices
mechanically (``--rename``), never its digests.

    python -m tests.golden_rulesets --write      # only when a rule changes on purpose
    python -m tests.golden_rulesets --add        # record the listed games the fixture lacks
    python -m tests.golden_rulesets --check      # what the test does, with a summary
    python -m tests.golden_rulesets --reseal     # events gained data on purpose: new digests,
                                                 # only if every round leaves the game as recorded

Only the game's outcome is digested: each public event's kind, turn and data, and the
final progress (turn, winner, VP). How a ruleset labels an event's audience or stores its
state may change without touching it; an event that was dropped before and is now kept
sealed (a Wings damage card, opened into the export at the campaign's end) is not public,
so it is not digested: what everyone read as the game went stays what it was.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from bot.rulesets import Registry
from engine.rng import Rng
from engine.ruleset import Event, Rules

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "golden-rulesets.json"

# (ruleset, scenario, seed): every game system, its variants that play differently.
GAMES: tuple[tuple[str, str, int], ...] = (
    ("carrier", "coral-sea", 1),
    ("carrier", "midway", 2),
    ("carrier", "midway-historical", 3),
    ("land", "burma-dec41-jan42", 1),
    ("land", "malaya-all", 2),
    ("pearl-harbor", "pearl-harbor", 1),
    ("pearl-harbor", "pearl-harbor", 2),
    ("wings", "wings-1917", 1),
    ("wings", "wings-1917-front", 2),
    ("wings", "wings-1917-balloons", 3),
    ("wings", "wings-1918", 4),
    ("wings", "wings-1917-east", 5),
    ("wings", "wings-1917-basic", 6),
    *(("wings", "wings-1917", seed) for seed in range(10, 18)),
    *(("wings", "wings-1918", seed) for seed in range(10, 14)),
    ("wings", "dambuster-eder", 1),
    ("wings", "dambuster-mohne", 2),
    ("wings", "dambuster-eder-short", 4),
    ("wings", "lancaster-industrial", 3),
    ("dambuster", "dambuster-eder", 1),
    ("dambuster", "dambuster-mohne", 2),
    ("dambuster", "dambuster-eder-short", 3),
    ("dambuster", "lancaster-industrial", 4),
    ("memoir44", "western-1944", 1),
    ("memoir44", "d-day", 2),
    ("memoir44", "eastern-1942", 3),
    ("memoir44", "desert-1941", 4),
    ("memoir44", "pacific-1944", 5),
)
MAX_ROUNDS = 2000  # a guard: a game that never ends is a bug, not a long test


@cache
def _registry() -> Registry:

    return Registry()


def outcome(events: Iterable[Event]) -> list[dict[str, Any]]:
    """What an event says happened, without how it is labelled or stored."""
    return [{"kind": e.kind, "turn": e.turn, "data": e.data} for e in events]


def digest(events: Iterable[Event]) -> str:
    text = json.dumps(outcome(events), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _progress(rules: Rules[Any, Any], state: Any) -> dict[str, Any]:
    progress = rules.progress(state)
    return {
        "turn": progress.turn,
        "round": progress.round,
        "finished": progress.finished,
        "winner": progress.winner,
        "vp": dict(sorted(progress.vp.items())),
    }


def record(rules: Rules[Any, Any], scenario: str, seed: int) -> dict[str, Any]:
    """Play one game with seeded random commanders and keep its choices and digests."""
    draw = random.Random(f"golden-rulesets|{rules.key}|{scenario}|{seed}")
    game_seed = f"golden-{seed}"
    state = rules.new(scenario, game_seed)
    rounds: list[dict[str, Any]] = []
    for _ in range(MAX_ROUNDS):
        progress = rules.progress(state)
        if progress.finished:
            break
        choices: dict[str, dict[str, str]] = {}
        for decision in rules.pending(state):
            pick = draw.choice(decision.options).id if decision.options else decision.default
            choices.setdefault(decision.side, {})[decision.field] = pick
        rng = Rng(game_seed, progress.turn, progress.round)
        state, events = rules.resolve(state, choices, rng)
        rounds.append(
            {
                "choices": choices,
                "events": digest(rules.public_events(events)),
                "after": _progress(rules, state),
            }
        )
    else:
        raise AssertionError(f"{rules.key} {scenario} {seed}: no end in {MAX_ROUNDS} rounds")
    return {
        "ruleset": rules.key,
        "scenario": scenario,
        "seed": seed,
        "opening": digest(rules.public_events(rules.opening(rules.new(scenario, game_seed)))),
        "rounds": rounds,
        "final": _progress(rules, state),
    }


def replay(rules: Rules[Any, Any], game: Mapping[str, Any], *, reseal: bool = False) -> list[str]:
    """Replay a recorded game's choices; the differences from the record, in words.

    With ``reseal`` a round whose events say more (a key added to an event's data) but
    leave the game where the record has it (turn, round, VP, winner after every round) gets
    its digest rewritten in ``game``; any other difference is still reported."""
    game_seed = f"golden-{game['seed']}"
    name = f"{game['ruleset']} {game['scenario']} {game['seed']}"
    state = rules.new(game["scenario"], game_seed)
    problems: list[str] = []
    if digest(rules.public_events(rules.opening(state))) != game["opening"]:
        problems.append(f"{name}: the opening events differ")
    for index, recorded in enumerate(game["rounds"]):
        progress = rules.progress(state)
        rng = Rng(game_seed, progress.turn, progress.round)
        state, events = rules.resolve(state, recorded["choices"], rng)
        events = rules.public_events(events)
        if _progress(rules, state) != recorded["after"]:
            problems.append(
                f"{name}: round {index} (turn {progress.turn}, {progress.round}) leaves the "
                f"game at {_progress(rules, state)}, not {recorded['after']}"
            )
            return problems
        if reseal:
            recorded["events"] = digest(events)
        elif digest(events) != recorded["events"]:
            problems.append(
                f"{name}: round {index} (turn {progress.turn}, {progress.round}) "
                f"events differ: {json.dumps(outcome(events))[:400]}"
            )
            return problems  # later rounds follow from a different state: one is enough
    if _progress(rules, state) != game["final"]:
        problems.append(f"{name}: final {_progress(rules, state)} != {game['final']}")
    return problems


def compute(games: Sequence[tuple[str, str, int]] = GAMES) -> list[dict[str, Any]]:
    registry = _registry()
    return [record(registry.get(key).rules, scenario, seed) for key, scenario, seed in games]


def load() -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return games


def rename(ruleset: str, old: str, new: str) -> None:
    """Rename a decision field in the recorded choices (the digests stay as they are)."""
    games = load()
    for game in games:
        if game["ruleset"] != ruleset:
            continue
        for recorded in game["rounds"]:
            for fields in recorded["choices"].values():
                if old in fields:
                    fields[new] = fields.pop(old)
    _write(games)


def _write(games: list[dict[str, Any]]) -> None:
    FIXTURE.write_text(json.dumps(games, indent=0, sort_keys=True) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    if argv[:1] == ["--add"]:  # record the games listed but not recorded yet, keep the rest
        games = load()
        known = {(g["ruleset"], g["scenario"], g["seed"]) for g in games}
        games += compute([game for game in GAMES if game not in known])
        _write(games)
        print(f"added to {FIXTURE}")
        return 0
    if argv[:1] == ["--write"]:
        _write(compute())
        print(f"wrote {FIXTURE}")
        return 0
    if argv[:1] == ["--rename"] and len(argv) == 4:
        rename(argv[1], argv[2], argv[3])
        return 0
    if argv[:1] == ["--reseal"]:
        registry = _registry()
        games = load()
        problems = [
            p
            for game in games
            for p in replay(registry.get(game["ruleset"]).rules, game, reseal=True)
        ]
        if problems:
            print("\n".join(problems))
            return 1
        _write(games)
        print(f"resealed {FIXTURE}: every round left the game as recorded")
        return 0
    if argv[:1] == ["--check"]:
        registry = _registry()
        problems = [p for game in load() for p in replay(registry.get(game["ruleset"]).rules, game)]
        print("\n".join(problems) or f"OK: {len(load())} games replayed")
        return 1 if problems else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

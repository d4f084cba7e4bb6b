"""Recorded games of every ruleset, replayed to prove a refactoring changed no outcome.

Each game was played once by seeded random commanders (a random legal option for every
decision; for a game whose rules judge a side's picks together at Lock, ``check_choice``,
a random combination they accept: see ``ACCEPTED_ONLY``). The fixture keeps, round by
round, the choices that were locked and a SHA-256 digest of the events the round
produced; the test replays those very choices through ``resolve`` and compares the
digests. Replaying recorded choices, rather than drawing them again, lets the seam change
how decisions are *asked* (field names, menus, typed input) without touching the proof: a
change that renames a field rewrites the fixture's choices mechanically (``--rename``),
never its digests.

    python -m tests.golden_rulesets --write      # only when a rule changes on purpose
    python -m tests.golden_rulesets --write memoir44   # re-record that ruleset's games only
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
import itertools
import json
import math
import random
import sys
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from bot.rulesets import Registry
from engine.rng import Rng
from engine.ruleset import Decision, Event, Rules

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

# Games whose rules refuse some combinations of a side's options as a whole at Lock
# (Memoir '44: a deployment needs a Section card and an Air Combat card): their commanders
# draw among the combinations the service would take, so a recording never holds a round
# no player could lock. Drawn uniformly over those, a side mostly acts (deploys, flies,
# fires), as the accepted combinations mostly do; ending the game at once (Memoir '44's
# "victory" claim) is drawn rarely, or the games would stop before they show anything.
ACCEPTED_ONLY = frozenset({"memoir44"})
SUDDEN_ENDS = frozenset({"victory"})
MAX_COMBINATIONS = 50_000  # a side's whole menu; above it, random combinations are tried


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
        choices = _choices(rules, state, draw)
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


def _choices(rules: Rules[Any, Any], state: Any, draw: random.Random) -> dict[str, dict[str, str]]:
    """Every asked side's picks for the round: one random option a decision, or, for a game
    of ``ACCEPTED_ONLY``, one random combination its rules accept (the defaults if none)."""
    choices: dict[str, dict[str, str]] = {}
    pending = rules.pending(state)
    if rules.key not in ACCEPTED_ONLY:
        for decision in pending:
            pick = draw.choice(decision.options).id if decision.options else decision.default
            choices.setdefault(decision.side, {})[decision.field] = pick
        return choices
    for side in dict.fromkeys(d.side for d in pending):
        asked = [d for d in pending if d.side == side]
        menus = [_menu(rules, state, d) for d in asked]
        fields = [d.field for d in asked]
        if math.prod(len(menu) for menu in menus) <= MAX_COMBINATIONS:
            drawn = [dict(zip(fields, combo, strict=True)) for combo in itertools.product(*menus)]
        else:
            drawn = [
                {f: draw.choice(m) for f, m in zip(fields, menus, strict=True)} for _ in range(500)
            ]
        accepted = [c for c in drawn if rules.check_choice(state, side, c) is None]
        lasting = [c for c in accepted if not SUDDEN_ENDS & set(c.values())]
        if lasting and (len(lasting) < len(accepted)) and draw.random() < 0.95:
            accepted = lasting
        choices[side] = draw.choice(accepted) if accepted else {d.field: d.default for d in asked}
    return choices


def _menu(rules: Rules[Any, Any], state: Any, decision: Decision) -> list[str]:
    """What a recorded commander may pick for ``decision``: its options, and for a typed
    field the texts a player could type beyond its quick picks (``TYPED``), as the rules
    read them back; the default where it has neither."""
    menu = [o.id for o in decision.options]
    if decision.input != "text":
        return menu or [decision.default]
    # A text is stored as the rules read it ("inf" at a landed plane: "inf 3"), as the
    # service stores what a player typed or a quick pick he pressed.
    texts = [*menu, *TYPED.get((rules.key, decision.field), _no_text)(menu)]
    read = [rules.read_text(state, decision, text) for text in texts]
    return list(dict.fromkeys(r for r in read if isinstance(r, str))) or [decision.default]


def _no_text(_picks: Sequence[str]) -> list[str]:
    return []


def _memoir_flights(picks: Sequence[str]) -> list[str]:
    """A Memoir '44 flight's quick picks ("E6, D6, C6") with what only typing adds: ground
    attack tokens on an unbroken run of its hexes (not the last), or an ending after it; the
    rules refuse what the plane or the board does not allow."""
    texts = []
    for pick in picks:
        hexes = pick.split(", ")
        for first, last in itertools.combinations(range(len(hexes)), 2):
            for kind, target in itertools.product(("mg", "bomb"), ("inf", "arm", "art", "other")):
                marked = [
                    f"{h} {kind} {target}" if first <= i < last else h for i, h in enumerate(hexes)
                ]
                texts.append(", ".join(marked))
        texts += [f"{pick} {ending}" for ending in ("objective", "dogfight", "airfield", "carrier")]
    return texts


# Typed fields whose recorded commanders type more than the quick picks (ruleset, field).
TYPED = {("memoir44", "flight"): _memoir_flights}


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
    if argv[:1] == ["--write"] and len(argv) == 2:  # one ruleset's games, the rest kept
        if not any(key == argv[1] for key, _scenario, _seed in GAMES):
            print(f"no game of {argv[1]!r} is listed")
            return 2
        fresh = {
            (g["ruleset"], g["scenario"], g["seed"]): g
            for g in compute([game for game in GAMES if game[0] == argv[1]])
        }
        games = [fresh.pop((g["ruleset"], g["scenario"], g["seed"]), g) for g in load()]
        _write(games + list(fresh.values()))
        print(f"re-recorded the {argv[1]} games in {FIXTURE}")
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

"""CPU of a view: the secrecy gate (``engine.sight.keep``) and the whole ``Rules.view`` on
late-game states, for every viewer (issue 29: three views per resolution on the loop).

    python bench/views.py [--batches 15] [--calls 40]    # CPU per keep and per view
    python bench/views.py --digest                       # one digest of every view's bytes

The states are the recorded games' (``tests/fixtures``) two thirds of the way through, of
the games the capacity benchmark plays: the carrier (Coral Sea), land (Malaya) and Wings
(1917). Viewers: the public, each side's player, the GM allowed to peek. Each figure is the
median over ``--batches`` of the process's CPU time (``time.process_time``) for ``--calls``
rounds of every viewer, per call. Prints which ``engine.sight`` ran (compiled: ``.so``).

``--digest`` walks every recorded game round by round and hashes what the gate keeps and
the view made of it, for every viewer, each value with its type, in order (a set's members
sorted): equal digests mean the same views, byte for byte, whichever way they were made.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pydantic import BaseModel

from bench.common import machine, median
from engine import sight
from engine.rng import Rng
from engine.sight import Eyes
from tests.golden_rulesets import _registry, load

GAMES = (("carrier", "coral-sea", 1), ("land", "malaya-all", 2), ("wings", "wings-1917", 1))


def viewers(rules: Any) -> list[Eyes]:
    return [Eyes.public(), *(Eyes.of(side) for side in rules.side_ids), Eyes.gm(True)]


def states(game: dict[str, Any], upto: int | None = None) -> Any:
    """Each state of a recorded game from its start, ``upto`` rounds played at most."""
    rules = _registry().get(game["ruleset"]).rules
    seed = f"golden-{game['seed']}"
    state = rules.new(game["scenario"], seed)
    yield state
    for recorded in game["rounds"][:upto]:
        progress = rules.progress(state)
        rng = Rng(seed, progress.turn, progress.round)
        state, _events = rules.resolve(state, recorded["choices"], rng)
        yield state


def late(ruleset: str, scenario: str, seed: int) -> tuple[Any, Any]:
    game = next(
        g for g in load() if (g["ruleset"], g["scenario"], g["seed"]) == (ruleset, scenario, seed)
    )
    *_, state = states(game, 2 * len(game["rounds"]) // 3)
    return _registry().get(ruleset).rules, state


def cpu_per_call(call: Any, state: Any, eyes: list[Eyes], batches: int, calls: int) -> float:
    """Median over batches of the CPU seconds per ``call(state, eyes)``."""
    for e in eyes:
        call(state, e)  # the plans and caches filled once
    times = []
    for _ in range(batches):
        start = time.process_time()
        for _ in range(calls):
            for e in eyes:
                call(state, e)
        times.append((time.process_time() - start) / (calls * len(eyes)))
    return median(times)


def canonical(value: Any) -> Any:
    """``value`` as nested tuples: every model, field, key and item in order, with its
    type; a set's members sorted (a set's order is its table's, not its content's)."""
    kind = type(value).__qualname__
    if isinstance(value, BaseModel):
        return (kind, tuple((k, canonical(v)) for k, v in value.__dict__.items()))
    if isinstance(value, dict):
        return (kind, tuple((k, canonical(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (kind, tuple(canonical(v) for v in value))
    if isinstance(value, (set, frozenset)):
        return (kind, tuple(sorted(repr(canonical(v)) for v in value)))
    return (kind, repr(value))


def first_games() -> list[dict[str, Any]]:
    """The first recorded game of each ruleset."""
    return list({g["ruleset"]: g for g in reversed(load())}.values())


def digest(games: list[dict[str, Any]] | None = None) -> str:
    """Every recorded game (or those given), every state, every viewer: what the gate kept
    and the view."""
    out = hashlib.sha256()
    for game in load() if games is None else games:
        rules = _registry().get(game["ruleset"]).rules
        for state in states(game):
            for eyes in viewers(rules):
                kept = rules.seen(state, eyes)
                out.update(repr(canonical(kept)).encode())
                out.update(repr(canonical(rules.project(kept, eyes))).encode())
    return out.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--batches", type=int, default=15)
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--digest", action="store_true")
    args = parser.parse_args()
    print(f"engine.sight: {Path(sight.__file__ or '?').name}")
    if args.digest:
        print(f"views digest {digest()}")
        return
    print(machine())
    for ruleset, scenario, seed in GAMES:
        rules, state = late(ruleset, scenario, seed)
        eyes = viewers(rules)
        keep = cpu_per_call(rules.seen, state, eyes, args.batches, args.calls)
        view = cpu_per_call(rules.view, state, eyes, args.batches, args.calls)
        print(
            f"{ruleset:8} {scenario:12} keep {keep * 1e6:7.1f} us  view {view * 1e6:7.1f} us"
            f"  ({len(eyes)} viewers, load {os.getloadavg()[0]:.2f})"
        )


if __name__ == "__main__":
    main()

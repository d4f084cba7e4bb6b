"""Engine benchmark and balance report: whole campaigns between random legal commanders.

Prints campaigns per second and strikes per second on one core, peak memory of one
campaign, and the balance figures: winner split, turns played, and how many campaigns were
still open going into the last two turns (VP gap at most OPEN_GAP, about one good strike).

    python bench/engine.py [campaigns per scenario, default 1000]
    python bench/engine.py 200 land      # the land theatres only
"""

from __future__ import annotations

import random
import statistics
import sys
import time
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.campaign import new_campaign, pending, resolve
from engine.loader import default_catalog
from engine.rng import Rng
from engine.state import State
from engine.types import Side

OPEN_GAP = 10


def play(catalog, scenario: str, seed: int) -> tuple[State, int, bool]:  # type: ignore[no-untyped-def]
    rnd = random.Random(seed)
    state = new_campaign(catalog, scenario, str(seed))
    turns = catalog.scenarios[scenario].turns
    open_late = True
    while not state.finished:
        if state.turn == turns - 1 and state.round.value == "orders":
            open_late = abs(state.vp[Side.JAPANESE] - state.vp[Side.ALLIED]) <= OPEN_GAP
        choices: dict[Side, dict[str, str]] = {side: {} for side in Side}
        for decision in pending(catalog, state):
            choices[decision.side][decision.field] = rnd.choice(decision.options).id
        state, _ = resolve(catalog, state, choices, Rng(str(seed), state.turn, state.round.value))
    strikes = sum(len(record.strikes) for record in state.history)
    return state, strikes, open_late


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    catalog = default_catalog()
    for scenario in ("coral-sea", "midway"):
        winners: Counter[str] = Counter()
        turns: Counter[int] = Counter()
        open_late = 0
        strikes = 0
        margins: list[int] = []
        start = time.perf_counter()
        for seed in range(count):
            state, n, still_open = play(catalog, scenario, seed)
            strikes += n
            winner = state.winner if isinstance(state.winner, str) else "?"
            winners[str(winner)] += 1
            turns[len(state.history)] += 1
            open_late += still_open
            margins.append(state.vp[Side.JAPANESE] - state.vp[Side.ALLIED])
        elapsed = time.perf_counter() - start
        tracemalloc.start()
        play(catalog, scenario, 12345)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"== {scenario}: {count} campaigns, random legal commanders")
        print(f"campaigns/s      {count / elapsed:8.1f}   ({elapsed / count * 1000:.1f} ms each)")
        print(f"strikes/s        {strikes / elapsed:8.1f}   ({strikes / count:.1f} per campaign)")
        print(f"peak memory      {peak / 1024:8.0f} KiB for one campaign (tracemalloc)")
        split = ", ".join(f"{k} {v / count:.1%}" for k, v in sorted(winners.items()))
        print(f"winners          {split}")
        print(f"turns played     {dict(sorted(turns.items()))}")
        late = open_late / count
        print(f"open late        {late:.1%} within {OPEN_GAP} VP before the last two turns")
        median, mean = statistics.median(margins), statistics.mean(margins)
        print(f"VP margin J-A    median {median}, mean {mean:.1f}")
    land(max(1, count // 5))


def play_land(rules, scenario: str, seed: int) -> tuple[Any, bool]:  # type: ignore[no-untyped-def]
    """A land campaign between random legal commanders; whether it was still open (VP gap
    at most OPEN_GAP) going into its last third."""
    rnd = random.Random(seed)
    state = rules.new(scenario, str(seed))
    last_third = state.missions - state.missions // 3 + 1
    open_late = True
    while not state.finished:
        if state.turn == last_third:
            open_late = abs(state.vp[Side.JAPANESE] - state.vp[Side.ALLIED]) <= OPEN_GAP
        choices: dict[str, dict[str, str]] = {}
        for decision in rules.pending(state):
            choices.setdefault(decision.side, {})[decision.field] = rnd.choice(decision.options).id
        state, _ = rules.resolve(state, choices, Rng(str(seed), state.turn, "mission"))
    return state, open_late


def land(count: int) -> None:
    """Balance of every land theatre and period (24.0), ``count`` campaigns each."""
    from engine.rulesets.land import LandRules

    rules = LandRules(default_catalog())
    for scenario in rules.scenarios():
        if scenario.endswith("-all"):
            continue
        winners: Counter[str] = Counter()
        open_late = 0
        margins: list[int] = []
        start = time.perf_counter()
        for seed in range(count):
            state, still_open = play_land(rules, scenario, seed)
            winners[str(state.winner)] += 1
            open_late += still_open
            margins.append(state.vp[Side.JAPANESE] - state.vp[Side.ALLIED])
        elapsed = time.perf_counter() - start
        split = ", ".join(f"{k} {v / count:.1%}" for k, v in sorted(winners.items()))
        print(
            f"== land {scenario}: {count} campaigns, {count / elapsed:.1f}/s; winners {split}; "
            f"open before the last third {open_late / count:.1%}; "
            f"VP margin J-A median {statistics.median(margins)}"
        )


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[2] == "land":
        land(int(sys.argv[1]))
    else:
        main()

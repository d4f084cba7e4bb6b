"""Engine benchmark and balance report: a strike alone, a whole campaign alone, and balance.

- A strike alone: the strikes of real campaigns are recorded (their frozen set-up and a
  copy of their shuffled deck, sharing the catalog's cards, taken before they fly), then
  each is flown again on its own through ``engine.zero.strike.fly_strike`` and timed, on the
  clock and in CPU time (which other processes do not inflate); the deck copies are made
  before the clock starts.
- A campaign alone: each campaign between random legal commanders (``pending`` to list the
  decisions, a random legal choice for each, ``resolve``) is timed from ``new_campaign`` to
  its end; the balance figures come from the same campaigns.
- The floor: a 1,000-step pure-Python loop, timed once beside every strike and every
  campaign (so it sees the same machine load); the ratios compare across machines.
- Start-up (modules, catalog) is first put out of the garbage collector's reach, as the
  bot does once ready, so full collections walk only what the campaigns made.

- The engine: compiled when ``scripts/build_native.py`` has built the strike's modules,
  interpreted with ``SORTIE_PURE=1`` or without a build; the first line says which ran.

Targets (issue 13): a strike <= 100 us; a Coral Sea campaign <= 5 ms.

    python bench/engine.py [campaigns per scenario, default 1000] [--strikes 1000] [--quick]
    python bench/engine.py 200 --land-only   # the land theatres only

Balance: winner split, turns played, and how many campaigns were still open going into the
last two turns (VP gap at most OPEN_GAP, about one good strike).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine.rulesets.carrier.turn
from bench.common import line, machine, median, percentile, verdict
from engine.rng import Rng
from engine.rulesets.carrier.campaign import new_campaign, pending, resolve
from engine.rulesets.carrier.state import State
from engine.zero.cards import Deck
from engine.zero.loader import default_catalog
from engine.zero.strike import fly_strike
from engine.zero.types import Side

OPEN_GAP = 10
STRIKE_TARGET_US = 100.0
CAMPAIGN_TARGET_MS = 5.0


def play(catalog: Any, scenario: str, seed: int) -> tuple[State, bool]:
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
    return state, open_late


def engine_mode() -> str:
    """Which engine ran: the modules compiled by mypyc, or none (interpreted)."""
    native = sorted(
        name.removeprefix("engine.")
        for name, module in sys.modules.items()
        if name.startswith("engine.") and (getattr(module, "__file__", "") or "").endswith(".so")
    )
    return f"compiled by mypyc ({', '.join(native)})" if native else "interpreted"


def freeze_start_up() -> None:
    """What the bot does once it is ready (``bot.runtime.freeze_start_up``): the modules
    and the catalog put out of the garbage collector's reach, so that its full passes walk
    only what the campaigns made, as they do in the service."""
    gc.collect()
    gc.freeze()


def reference_floor(runs: int) -> list[float]:
    """Seconds for a 1,000-step pure-Python loop: the machine's floor for the ratios."""
    out: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        total = 0
        for i in range(1000):
            total += i * i
        out.append(time.perf_counter() - start)
    return out


def floor_sample() -> float:
    return reference_floor(1)[0]


def copy_deck(deck: Deck, catalog: Any) -> Deck:
    """The deck in its shuffled order, the cards themselves shared (not copied), as in play:
    the ``Card`` each deck deals in place of the catalog's models."""
    return deck.copy()


def record_strikes(catalog: Any, scenario: str, wanted: int) -> list[tuple[Any, Any]]:
    """Set-ups and decks of the strikes real campaigns fly (copied before each flies)."""
    recorded: list[tuple[Any, Any]] = []
    original = engine.rulesets.carrier.turn.fly_strike

    def recording(setup: Any, cat: Any, deck: Any) -> Any:
        recorded.append((setup, copy_deck(deck, cat)))  # a set-up is frozen: kept as is
        return original(setup, cat, deck)

    engine.rulesets.carrier.turn.fly_strike = recording  # type: ignore[assignment]
    try:
        seed = 10_000
        while len(recorded) < wanted and seed < 10_000 + 10 * wanted:
            play(catalog, scenario, seed)
            seed += 1
    finally:
        engine.rulesets.carrier.turn.fly_strike = original
    return recorded


def time_strikes(
    catalog: Any, recorded: list[tuple[Any, Any]], samples: int, floors: list[float]
) -> tuple[list[float], list[float]]:
    """Each strike timed alone, a floor sample taken beside each (same load): the seconds
    it took on the clock, and the CPU seconds this process spent on it (which other
    processes on a loaded machine do not inflate, pre-emptions aside)."""
    wall: list[float] = []
    cpu: list[float] = []
    for index in range(samples):
        floors.append(floor_sample())
        setup, deck = recorded[index % len(recorded)]
        deck_copy = copy_deck(deck, catalog)  # before the clock
        start, start_cpu = time.perf_counter(), time.process_time()
        fly_strike(setup, catalog, deck_copy)
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start)
    return wall, cpu


def _p99(values: list[float], scale: float, unit: str) -> str:
    try:
        return f"p99 {percentile(values, 0.99) * scale:.1f} {unit}"
    except ValueError:
        return f"p99 - (needs 100 samples, has {len(values)})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("count", nargs="?", type=int, default=1000, help="campaigns/scenario")
    parser.add_argument("--strikes", type=int, default=1000, help="strikes timed alone")
    parser.add_argument("--quick", action="store_true", help="smoke run: 5 campaigns, 20 strikes")
    args = parser.parse_args(argv)
    count, strike_samples = (5, 20) if args.quick else (args.count, args.strikes)
    catalog = default_catalog()
    freeze_start_up()
    print(f"machine: {machine()}")
    print(f"engine: {engine_mode()}")
    recorded = record_strikes(catalog, "coral-sea", min(strike_samples, 300))
    floors: list[float] = []
    strikes, strikes_cpu = time_strikes(catalog, recorded, strike_samples, floors)
    floor = median(floors)
    print(
        line(
            "floor: 1,000-step Python loop",
            f"{floor * 1e6:.1f} us (median of {len(floors)}, one beside each strike)",
        )
    )
    strike_us = median(strikes) * 1e6
    print(
        line(
            "strike alone (Coral Sea strikes)",
            f"median {strike_us:.0f} us, {_p99(strikes, 1e6, 'us')}, "
            f"x{median(strikes) / floor:.1f} floor ({len(strikes)} samples, "
            f"{len(recorded)} distinct strikes; CPU median {median(strikes_cpu) * 1e6:.0f} us)",
            f"<= {STRIKE_TARGET_US:.0f} us",
            verdict(strike_us, STRIKE_TARGET_US),
        )
    )

    for scenario in ("coral-sea", "midway"):
        winners: Counter[str] = Counter()
        turns: Counter[int] = Counter()
        open_late = 0
        margins: list[int] = []
        times: list[float] = []
        cpu: list[float] = []
        floors = []
        strikes_per = 0
        for seed in range(count):
            floors.append(floor_sample())
            start, start_cpu = time.perf_counter(), time.process_time()
            state, still_open = play(catalog, scenario, seed)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            strikes_per += sum(len(record.strikes) for record in state.history)
            winner = state.winner if isinstance(state.winner, str) else "?"
            winners[str(winner)] += 1
            turns[len(state.history)] += 1
            open_late += still_open
            margins.append(state.vp[Side.JAPANESE] - state.vp[Side.ALLIED])
        tracemalloc.start()
        play(catalog, scenario, 12345)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        campaign_ms = median(times) * 1000
        print(f"\n== {scenario}: {count} campaigns, random legal commanders, each timed alone")
        target = (
            (f"<= {CAMPAIGN_TARGET_MS:g} ms", verdict(campaign_ms, CAMPAIGN_TARGET_MS))
            if scenario == "coral-sea"
            else (None, None)
        )
        print(
            line(
                "campaign alone",
                f"median {campaign_ms:.1f} ms, {_p99(times, 1000, 'ms')}, "
                f"x{median(times) / median(floors):.0f} floor (beside each campaign: "
                f"{median(floors) * 1e6:.1f} us); CPU median {median(cpu) * 1000:.1f} ms",
                *target,
            )
        )
        print(line("strikes per campaign", f"{strikes_per / count:.1f}"))
        print(line("peak memory", f"{peak / 1024:.0f} KiB for one campaign (tracemalloc)"))
        split = ", ".join(f"{k} {v / count:.1%}" for k, v in sorted(winners.items()))
        print(f"winners          {split}")
        print(f"turns played     {dict(sorted(turns.items()))}")
        late = open_late / count
        print(f"open late        {late:.1%} within {OPEN_GAP} VP before the last two turns")
        med, mean = statistics.median(margins), statistics.mean(margins)
        print(f"VP margin J-A    median {med}, mean {mean:.1f}")
    land(max(1, count // 5))
    return 0


def land(count: int) -> None:
    """Balance of every land theatre and period (24.0), ``count`` campaigns each; the
    figures and what "still open" means are those of ``bench/land.py``."""
    from bench.land import land_scenarios, measure, report
    from engine.rulesets.land import LandRules

    rules = LandRules(default_catalog())
    print(f"\n== land: {count} campaigns per period, random legal commanders")
    for scenario in land_scenarios(rules):
        print(report(measure(rules, scenario, count)))


if __name__ == "__main__":
    if "--land-only" in sys.argv:
        land(int(next((a for a in sys.argv[1:] if a.isdigit()), "200")))
        raise SystemExit(0)
    raise SystemExit(main())

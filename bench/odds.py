"""Odds preview benchmark: what 1,000 simulated plays of the coming turn cost (issue 13).

The preview (``engine.rulesets.carrier.odds``) is timed in chunks of 50 samples from the
first turn's orders round of each carrier scenario, the Japanese side asking with its
Flight Ops drafted. Between chunks the floor is timed on the same state: the same turn
played once, plainly, by ``resolve`` with each side's first legal option for every field
(both sides strike), so it sees the same machine load. The ratio says what the preview
adds over playing its turns one by one.

A second floor, the 1,000-step pure-Python loop of ``bench/engine.py`` timed beside every
chunk, gives a ratio that does not move when the engine itself gets faster or slower, so
figures from different commits and different machine loads compare.

The panel's button spreads a preview over worker processes, one per core (``bot/odds.py``):
after the one-thread chunks, whole previews of the same size are timed through that pool
(``--pool-runs`` of them, wall time, the pool started and warmed first), and one preview is
played both ways to check the pool gives the same figures. The one-thread figures also
give the CPU time per sample, which machine load moves far less than wall time.

Target (issue 13): 1,000 samples <= 1 s.

    python bench/odds.py [samples, default 1000] [--pool-runs 5] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import line, machine, median, percentile, verdict
from bench.engine import reference_floor
from engine.rng import Rng
from engine.rulesets.carrier import CarrierRules
from engine.rulesets.carrier.state import State
from engine.zero.loader import default_catalog

TARGET_S = 1.0
CHUNK = 50
FLOOR_PER_CHUNK = 10  # 20 chunks of a 1,000-sample run give 200 floor samples
TICK_S = 0.001  # the event loop's ticker beside a running preview
STEP_WORK = 20_000  # its work after each tick: about 1 ms of pure Python on an idle core


def plain_turn(rules: CarrierRules, state: State, index: int) -> float:
    """One play of the coming turn, each side picking its first option; seconds.

    The first Flight Ops option is a Large Strike, so both sides fly (the defaults would
    fly nothing and make a floor no preview sample could reach).
    """
    start = time.perf_counter()
    current = state
    for kind in ("orders", "resource"):
        choices: dict[str, dict[str, str]] = {}
        for decision in rules.pending(current):
            choices.setdefault(decision.side, {})[decision.field] = decision.options[0].id
        current, _ = rules.resolve(current, choices, Rng(f"floor|{index}", current.turn, kind))
    return time.perf_counter() - start


def pooled(
    rules: CarrierRules, state: State, picks: dict[str, str], samples: int, runs: int
) -> None:
    """Whole previews through the panel's worker processes, shared out as the panel shares
    them (``bot.odds.sharing``): wall seconds, same figures?"""
    from dataclasses import asdict

    from bot import odds as panel_odds

    processes = panel_odds.workers()
    question = panel_odds.Ask(rules, state, "japanese", picks, ("doctrine",), "", "en")

    def spread(size: int, seed: str) -> Any:
        # Through the pool whatever the size (``--quick``), shared out as the panel's are.
        sharing = panel_odds.sharing(max(size, panel_odds.SPREAD_FROM))
        return replace(question, seed=seed).play(size, **sharing)

    spread(processes * 20, "pool-warm-up")  # starts the processes, loads their catalog
    check = min(samples, 200)
    one_thread = replace(question, seed="pool-check").play(check)
    same = one_thread is not None and asdict(spread(check, "pool-check")) == asdict(one_thread)
    walls: list[float] = []
    for index in range(runs):
        start = time.perf_counter()
        spread(samples, f"pool|{index}")
        walls.append(time.perf_counter() - start)
    scaled = statistics.median(walls) * 1000 / samples
    broken = " (the pool failed: played in one thread)" if panel_odds._broken else ""
    print(
        line(
            f"preview 1000 samples, {processes} processes ({state.scenario})",
            f"median {scaled:.2f} s over {runs} previews (min {min(walls) * 1000 / samples:.2f}"
            f" s), figures as one thread's: {'yes' if same else 'NO'}{broken}",
            "<= 1 s",
            verdict(scaled, TARGET_S),
        )
    )


def _work(steps: int) -> None:
    """Pure-Python work standing for an interaction the event loop handles."""
    total = 0
    for i in range(steps):
        total += i * i


async def _lateness(stop: asyncio.Event, late: list[float]) -> float:
    """Until ``stop``: the event loop sleeps 1 ms, then does ``STEP_WORK`` of work; each
    step's wall seconds (wake-up and work), what an interaction meets as the loop runs.
    Returns the loop thread's CPU seconds meanwhile."""
    cpu = time.thread_time()
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(TICK_S)
        _work(STEP_WORK)
        late.append(time.perf_counter() - start)
    return time.thread_time() - cpu


async def _beside(
    question: Any, rounds: int, where: str
) -> tuple[list[float], list[float], list[float]]:
    """Event-loop steps while panel previews run as the button runs them (``bot.odds.run``,
    from the event loop), each preview's wall seconds, and the CPU seconds the bot's process
    spent beside its event loop during each (the preview's, if it plays there); ``where``:
    "pool" or "thread"."""
    from bot import odds as panel_odds

    sharing = panel_odds.sharing
    if where == "thread":  # what main did on two cores until s13
        panel_odds.sharing = lambda samples: {"spread": None, "parts": 1}  # type: ignore[assignment]
    late: list[float] = []
    walls: list[float] = []
    beside: list[float] = []
    try:
        for index in range(rounds):
            stop = asyncio.Event()
            ticker = asyncio.create_task(_lateness(stop, late))
            start, cpu = time.perf_counter(), time.process_time()
            seed = f"loop|{question.state.scenario}|{where}|{index}"  # never a cached answer
            await panel_odds.run(replace(question, seed=seed), 0, index)
            walls.append(time.perf_counter() - start)
            stop.set()
            loop_cpu = await ticker
            beside.append(time.process_time() - cpu - loop_cpu)
    finally:
        panel_odds.sharing = sharing  # type: ignore[assignment]
    return late, walls, beside


def event_loop(rules: CarrierRules, state: State, picks: dict[str, str], rounds: int) -> None:
    """The bot's event loop while a panel's preview runs (``bot.odds.SAMPLES`` plays), in
    the worker process as the bot runs it and, for comparison, in a thread of the bot (what
    a 2-core bot did before s13); the floor is the same ticker with nothing running."""
    from bot import odds as panel_odds

    question = panel_odds.Ask(rules, state, "japanese", picks, ("doctrine",), "", "en")
    # The pool started and its catalog loaded first, as in a bot that has answered once.
    panel_odds.simulate(replace(question, seed="loop-warm-up"), panel_odds.SAMPLES)

    async def measure() -> dict[str, tuple[list[float], list[float], list[float]]]:
        floor: list[float] = []
        stop = asyncio.Event()
        ticker = asyncio.create_task(_lateness(stop, floor))
        await asyncio.sleep(1.0)
        stop.set()
        await ticker
        return {
            "floor": (floor, [], []),
            "pool": await _beside(question, rounds, "pool"),
            "thread": await _beside(question, rounds, "thread"),
        }

    found = asyncio.run(measure())
    base = median(found["floor"][0])
    for where, (steps, walls, beside) in found.items():
        label = {"floor": "nothing running", "pool": "worker process", "thread": "bot thread"}
        wall = ""
        if walls:
            wall = (
                f", preview wall median {statistics.median(walls):.2f} s, the bot's CPU beside "
                f"its loop {statistics.median(beside) * 1000:.0f} ms a preview"
            )
        p99 = f"p99 {percentile(steps, 0.99) * 1000:.1f} ms, " if len(steps) >= 100 else ""
        print(
            line(
                f"event loop, {label[where]} ({state.scenario})",
                f"a step (1 ms sleep + work) p50 {median(steps) * 1000:.2f} ms "
                f"(x{median(steps) / base:.2f} the floor), {p99}worst "
                f"{max(steps) * 1000:.1f} ms over {len(steps)}{wall}",
                *(("worst <= 20 ms", verdict(max(steps) * 1000, 20.0)) if walls else ()),
            )
        )


def run(scenario: str, samples: int, pool_runs: int, loop_runs: int) -> None:
    rules = CarrierRules(default_catalog())
    state = rules.new(scenario, "bench-odds")
    flight_ops = next(
        d for d in rules.pending(state) if d.side == "japanese" and d.field == "flight_ops"
    )
    picks = {"flight_ops": flight_ops.options[0].id}
    hidden = ("doctrine",)
    rules.odds(state, "japanese", picks, hidden, samples=5, seed="warm-up")
    preview = cpu = 0.0
    floor: list[float] = []
    loop: list[float] = []
    done = 0
    while done < samples:
        size = min(CHUNK, samples - done)
        loop += reference_floor(FLOOR_PER_CHUNK)
        start, start_cpu = time.perf_counter(), time.process_time()
        result = rules.odds(state, "japanese", picks, hidden, samples=size, seed=f"bench|{done}")
        preview += time.perf_counter() - start
        cpu += time.process_time() - start_cpu
        assert result is not None and result.samples == size
        floor += [plain_turn(rules, state, len(floor) + i) for i in range(FLOOR_PER_CHUNK)]
        done += size
    per_turn = median(floor)
    scaled = preview * 1000 / samples
    print(
        line(
            f"floor: one plain turn ({scenario})",
            f"median {per_turn * 1000:.2f} ms over {len(floor)}",
        )
    )
    scaled_note = "" if samples == 1000 else f" (scaled from {samples})"
    print(
        line(
            f"preview 1000 samples ({scenario})",
            f"x{preview / (per_turn * samples):.2f} the floor per sample, "
            f"x{preview / samples / median(loop):.0f} the loop floor "
            f"({median(loop) * 1e6:.1f} us), {scaled:.2f} s{scaled_note} in one thread, "
            f"CPU {cpu * 1000 / samples:.2f} ms per sample",
            "<= 1 s",
            verdict(scaled, TARGET_S),
        )
    )
    if pool_runs:
        pooled(rules, state, picks, samples, pool_runs)
    if loop_runs:
        event_loop(rules, state, picks, loop_runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("samples", nargs="?", type=int, default=1000)
    parser.add_argument("--pool-runs", type=int, default=5, help="previews through the pool")
    parser.add_argument(
        "--loop-runs", type=int, default=3, help="panel previews beside the event loop, each way"
    )
    parser.add_argument("--quick", action="store_true", help="100 samples, for the smoke test")
    args = parser.parse_args()
    samples, pool_runs = (100, 1) if args.quick else (args.samples, args.pool_runs)
    loop_runs = 1 if args.quick else args.loop_runs
    print(f"machine: {machine()}")
    for scenario in ("coral-sea", "midway"):
        run(scenario, samples, pool_runs, loop_runs)
    from bot import odds as panel_odds

    panel_odds.shut_down()


if __name__ == "__main__":
    main()

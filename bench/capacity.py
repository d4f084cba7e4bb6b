"""Capacity with campaigns of every age: 1,000 campaigns spread over rounds 1-20, calls that
read panels, draft, lock and resolve rounds, as interactions per second at p99 <= 50 ms.

    python bench/capacity.py [--campaigns 1000] [--rates 50,100,200,500] [--seconds 20]

``bench/service.py`` starts every rate from campaigns at their first round, where a state
is small and a resolution cheap. Here the set-up plays each campaign, through the service,
to a round drawn evenly from 1 to 20 (untimed): carrier campaigns (Coral Sea, Midway: 12
rounds), land campaigns (Malaya, 18 missions) and Wings campaigns (1917, its rounds of
programs, debriefs and the rest), one in three each, each stopped before its last round so
it stays live. Then, for each rate, on a fresh copy of that file and with the parsed-state
caches emptied (nothing carried over from the previous rate): calls at Poisson times, each
one commander's call on a random campaign (its panel, a draft, a Lock; the second Lock of a
round resolves it: ``bench/load.py``), timed from the scheduled arrival to the answer. A
call is one Discord interaction's service work (the answer's drawing is not in it:
``bench/players.py`` times those). The floor, in the same run: a read transaction with one
``SELECT 1`` and a one-row write transaction, alternating. Prints p50/p99 per rate and per
kind of call, the capacity (the highest rate whose p99 <= 50 ms, every lower rate passing),
the worst garbage-collection pause and RSS, with the load average. Every side's orders are
drafted in the set-up (untimed), so the load's first calls are Locks and resolutions.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# Service work only: no picture drawn ahead of a round (``bot.drawing``), whose worker
# processes would take the cores from the calls timed; bench/players.py times drawing.
os.environ.setdefault("SORTIE_DRAW_WORKERS", "0")

from bench.common import machine, median, percentile, rss_mib
from bench.load import Actor, open_loop
from bench.rounds import Game, cold
from bench.service import _full_pause_probe, _ms, _open, floor_ms
from bot import service_rounds
from bot.runtime import freeze_start_up
from bot.service_model import Pace, ServiceError

P99_TARGET_MS = 50.0
RATE_TARGET = 500.0
RSS_TARGET_MB = 200.0
PLAYS = (
    ("carrier", "coral-sea", 11),  # (ruleset, scenario, the last round it may stand at)
    ("land", "malaya-all", 17),
    ("carrier", "midway", 11),
    ("wings", "wings-1917", 20),
)


async def set_up(folder: str, count: int, seed: int) -> tuple[list[Actor], dict[int, int]]:
    """``count`` campaigns, each played to a round drawn from 1-20 (capped below its end)."""
    rng = random.Random(seed)
    actors: list[Actor] = []
    ages: dict[int, int] = {}
    async with _open(folder, "setup.db", count) as (_, svc):
        for index in range(count):
            ruleset, scenario, last = PLAYS[index % len(PLAYS)]
            rules = svc.rulesets.get(ruleset).rules
            info = await svc.create_campaign(
                1,
                10_000_000 + index,
                1_000_000 + index,
                scenario,
                Pace(),
                f"c{index}",
                ruleset=ruleset,
            )
            users = {}
            for number, side in enumerate(rules.side_ids):
                users[side] = 10 * index + number + 1
                await svc.join(info.id, users[side], side)
            await svc.start(info.id, 1_000_000 + index)
            game = Game(info.id, users, index)
            target = min(rng.randint(1, 20), last)
            while game.resolved < target - 1 and not game.over:
                await game.step_round(svc)
            await svc.settle()
            ages[game.resolved + 1] = ages.get(game.resolved + 1, 0) + 1
            actor = Actor(info.id, users, random.Random(index))
            # Every side's orders drafted, untimed: the first calls of the load are Locks
            # and resolutions, then the next round's panels and drafts.
            for number, user in enumerate(users.values()):
                try:
                    panel = await svc.panel(info.id, user)
                    for field in panel.missing:
                        option = next(d for d in panel.decisions if d.field == field).options[0]
                        panel = await svc.draft(info.id, user, panel.round_id, field, option.id)
                except ServiceError:
                    break
                if number == 0:
                    actor.panel = panel
            actors.append(actor)
            if index % 100 == 99:
                print(f"  set up {index + 1} campaigns", flush=True)
    return actors, ages


async def one_rate(
    folder: str, template: list[Actor], rate: float, seconds: float
) -> tuple[float, bool, str]:
    name = f"load-{rate:g}.db"
    shutil.copyfile(Path(folder) / "setup.db", Path(folder) / name)
    cold()  # nothing parsed for the previous rate's copy counts for this one
    async with _open(folder, name, len(template)) as (_, svc):
        actors = [
            Actor(a.campaign_id, a.users, random.Random(a.campaign_id), panel=a.panel)
            for a in template
        ]
        load = os.getloadavg()[0]
        result = await open_loop(svc, actors, rate, int(rate * seconds), seed=int(rate))
        await svc.settle()
    (Path(folder) / name).unlink()
    every = result.all()
    p99 = percentile(every, 0.99) * 1000 if len(every) >= 100 else float("inf")
    achieved = len(every) / result.wall
    kinds = ", ".join(
        f"{kind} {_ms(v, 0.5)}/{_ms(v, 0.99)} ({len(v)})"
        for kind, v in sorted(result.latencies.items())
    )
    state = "SATURATED, stopped" if result.saturated else ""
    print(
        f"{rate:>7.0f}/s {achieved:>7.0f}/s {len(every):>6} {median(every) * 1000:>8.1f} "
        f"{p99:>8.1f}  load {load:.1f} {state}"
    )
    print(f"{'':>9} by kind, p50/p99 ms (calls): {kinds}")
    ok = p99 <= P99_TARGET_MS and not result.saturated and achieved >= 0.9 * rate
    return p99, ok, kinds


def cache_mib() -> tuple[float, float]:
    """What the service's caches estimate they hold: parsed states, engine results (MiB)."""
    mib = 1024 * 1024
    return service_rounds._states._items.used / mib, service_rounds._memo._items.used / mib


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with _open(folder, "floor.db", 1) as (repo, _svc):
            writes, reads = await floor_ms(repo, 300)
        print(
            f"floor: read tx + SELECT 1 median {median(reads):.3f} ms; one-row write tx median "
            f"{median(writes):.2f} ms ({len(reads)} each, alternating)"
        )
        freeze_start_up()
        pauses: list[float] = []
        gc.callbacks.append(_full_pause_probe(pauses))
        start, cpu = time.perf_counter(), time.process_time()
        template, ages = await set_up(folder, args.campaigns, 1)
        spread = ", ".join(f"{age}: {n}" for age, n in sorted(ages.items()))
        print(
            f"set-up: {args.campaigns} campaigns in {time.perf_counter() - start:.0f} s "
            f"({time.process_time() - cpu:.0f} s CPU); round they stand at: {spread}"
        )
        rss_setup, _ = rss_mib()
        print(f"\n== open loop over {args.campaigns} campaigns, latency ms from scheduled arrival")
        print(f"{'offered':>9} {'achieved':>8} {'calls':>6} {'p50':>8} {'p99':>8}")
        passing: list[float] = []
        for rate in args.rates:
            _p99, ok, _kinds = await one_rate(folder, template, rate, args.seconds)
            if not ok:
                break
            passing.append(rate)
        capacity = max(passing, default=0.0)
        verdict = "meets" if capacity >= RATE_TARGET else "MISSES"
        print(
            f"\ncapacity at p99 <= {P99_TARGET_MS:g} ms: {capacity:.0f} interactions/s of the rates"
            f" tried (target >= {RATE_TARGET:.0f}: {verdict})"
        )
        worst = max(pauses, default=0.0)
        print(f"full GC: {len(pauses)} collections, worst pause {worst:.0f} ms (target <= 50)")
        now, peak = rss_mib()
        states, results = cache_mib()
        print(
            f"caches: estimate {states + results:.0f} MiB (states {states:.0f}, engine results "
            f"{results:.0f}) of RSS {now:.0f} MiB"
        )
        print(
            f"RSS: after set-up {rss_setup:.0f} MiB, peak {peak:.0f} MiB, now {now:.0f} MiB "
            f"(target <= {RSS_TARGET_MB:.0f} MB: {'meets' if peak * 1.048576 <= 200 else 'MISSES'})"
        )
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=1000)
    parser.add_argument("--rates", default="50,100,200,300,500")
    parser.add_argument("--seconds", type=float, default=20.0, help="per rate")
    parser.add_argument("--quick", action="store_true", help="smoke run: tiny sizes")
    args = parser.parse_args(argv)
    args.rates = [float(r) for r in str(args.rates).split(",")]
    if args.quick:
        args.campaigns, args.rates, args.seconds = 8, [20.0], 6.0
    print(f"machine: {machine()}")
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

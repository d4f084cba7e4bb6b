"""What a round's resolution costs as a campaign ages: round 1 against round 12 and later.

    python bench/rounds.py [--campaigns 12] [--at 1,6,12] [--rulesets carrier,land,wings]

Campaigns of each ruleset play themselves through the service (every commander drafts
random legal options and locks). The Lock that resolves round ``r`` (the ``r``-th
resolution of the campaign) is timed at each ``--at``, with the service's parsed-state
caches emptied first (cold: a bot serving a thousand campaigns rarely still holds this
one's state), from the click to its answer and to the follow-up work done
(``svc.settle()``: the next round's decisions and views worked out). Beside each sample,
interleaved in the same run, the floor: a read of the campaign's card (``svc.info``, one
read transaction). Figures are medians of the process's CPU time (what a loaded machine
inflates least), each also as a ratio to the floor, with the wall time and the load.

Counted rather than timed, per resolving Lock: history rows read from the database and
bytes of stored state text parsed (snapshots and history records), to the answer / to
settled (the largest over the samples): work that must not grow with the campaign's age.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import contextlib

from bench.common import machine, median
from bot import drawing, service_states
from bot.clock import ManualClock
from bot.demo import SeededTokens
from bot.runtime import open_services
from bot.service_model import Pace, ServiceError

SCENARIOS = {"carrier": "coral-sea", "land": "malaya-all", "wings": "wings-1917"}


class Work:
    """History rows read and stored text parsed, while ``on``."""

    def __init__(self) -> None:
        self.on = False
        self.rows = 0
        self.parsed = 0

    def reset(self) -> None:
        self.rows = self.parsed = 0


WORK = Work()


def count_work(services: Any) -> None:
    """Wrap the repository's history read and every ruleset's state parse with counters."""
    repo = services.repo
    for name in ("read", "glance", "transaction"):
        real = getattr(repo, name)
        setattr(repo, name, lambda *a, real=real, **k: _CountedTx(real(*a, **k)))
    registry = services.campaigns.rulesets
    keys = registry.keys()  # a Registry is not iterable
    for key in keys:
        rules = registry.get(key).rules
        real_load = rules.load_stored

        def load_stored(current: str, records: Any, real_load: Any = real_load) -> Any:
            if WORK.on:
                WORK.parsed += len(current) + sum(len(r) for r in records)
            return real_load(current, records)

        rules.load_stored = load_stored
        real_records = rules.load_records

        def load_records(bare: Any, records: Any, real_records: Any = real_records) -> Any:
            if WORK.on:  # the history read on top of a snapshot parsed alone
                WORK.parsed += sum(len(r) for r in records)
            return real_records(bare, records)

        rules.load_records = load_records


class _CountedTx:
    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __aenter__(self) -> Any:
        tx = await self.inner.__aenter__()
        real_history = tx.history

        async def history(*args: Any, **kwargs: Any) -> Any:
            rows = await real_history(*args, **kwargs)
            if WORK.on:
                WORK.rows += len(rows)
            return rows

        with contextlib.suppress(AttributeError):
            tx.history = history
        return tx

    async def __aexit__(self, *exc: Any) -> Any:
        return await self.inner.__aexit__(*exc)


def cold() -> None:
    """Forget every parsed state and engine result, as a busy bot's caches would have."""
    service_states._states._items.clear()
    service_states._memo._items.clear()


class Game:
    def __init__(self, cid: int, users: dict[str, int], seed: int) -> None:
        self.cid = cid
        self.users = users
        self.rng = random.Random(seed)
        self.resolved = 0
        self.over = False

    async def step_round(self, svc: Any, timed: Any = None) -> None:
        """Play until the open round resolves; ``timed`` wraps the resolving Lock."""
        for _attempt in range(20):
            waiting = []
            for side, user in self.users.items():
                try:
                    panel = await svc.panel(self.cid, user)
                except ServiceError:
                    self.over = True
                    return
                if panel.status != "open":
                    self.over = True
                    return
                if panel.locked or not panel.is_commander:
                    continue
                for field in panel.missing:
                    decision = next(d for d in panel.decisions if d.field == field)
                    choice = self.rng.choice(decision.options).id
                    panel = await svc.draft(self.cid, user, panel.round_id, field, choice)
                waiting.append((side, user, panel.round_id))
            if not waiting:
                self.over = True
                return
            for index, (_side, user, round_id) in enumerate(waiting):
                last = index == len(waiting) - 1
                if last and timed is not None:
                    result = await timed(svc.lock(self.cid, user, round_id))
                else:
                    result = await svc.lock(self.cid, user, round_id)
                await svc.settle()
                if result.resolved:
                    self.resolved += 1
                    return


async def _measure(svc: Any, game: Game, out: dict[str, list[float]]) -> None:
    """One floor sample and one resolving Lock, back to back."""
    cold()
    cpu, wall = time.process_time(), time.perf_counter()
    await svc.info(game.cid)
    out["floor cpu"].append(time.process_time() - cpu)
    out["floor wall"].append(time.perf_counter() - wall)
    cold()

    async def timed(call: Any) -> Any:
        cold()  # the panels just read and drafted warmed them: cold again, as for the floor
        WORK.reset()
        WORK.on = True
        cpu, wall = time.process_time(), time.perf_counter()
        result = await call
        out["answer cpu"].append(time.process_time() - cpu)
        out["answer wall"].append(time.perf_counter() - wall)
        out["answer rows"].append(WORK.rows)
        out["answer parsed"].append(WORK.parsed)
        await svc.settle()
        out["settled cpu"].append(time.process_time() - cpu)
        out["settled wall"].append(time.perf_counter() - wall)
        WORK.on = False
        out["rows"].append(WORK.rows)
        out["parsed"].append(WORK.parsed)
        return result

    await game.step_round(svc, timed)


async def run(ruleset: str, campaigns: int, at: list[int]) -> dict[int, dict[str, list[float]]]:
    scenario = SCENARIOS[ruleset]
    figures: dict[int, dict[str, list[float]]] = {r: defaultdict(list) for r in at}
    with tempfile.TemporaryDirectory() as folder:
        clock = ManualClock()
        services = await open_services(Path(folder) / "rounds.db", clock, seeds=SeededTokens(7))
        try:
            count_work(services)
            svc = services.campaigns
            rules = svc.rulesets.get(ruleset).rules
            games = []
            for index in range(campaigns):
                gm = 900_000 + index
                info = await svc.create_campaign(
                    1, 800_000 + index, gm, scenario, Pace(), f"r{index}", ruleset=ruleset
                )
                users = {}
                for number, side in enumerate(rules.side_ids):
                    users[side] = 10 * index + number + 1
                    await svc.join(info.id, users[side], side)
                await svc.start(info.id, gm)
                games.append(Game(info.id, users, index))
            # Round by round across the campaigns, so every point is measured under the
            # same load and the figures of one round are taken close together in time.
            for target in range(1, max(at) + 1):
                for game in games:
                    if game.over:
                        continue
                    if target in at:
                        await _measure(svc, game, figures[target])
                    else:
                        await game.step_round(svc)
        finally:
            await services.campaigns.settle()
            await services.close()
            drawing.shut_down()  # the picture processes end with the run
    return figures


def report(ruleset: str, figures: dict[int, dict[str, list[float]]]) -> None:
    print(f"\n== {ruleset} ({SCENARIOS[ruleset]}), resolving Lock, caches cold")
    print(
        f"{'round':>5}{'n':>4}{'answer ms':>11}{'settled ms':>12}{'floor ms':>10}"
        f"{'x floor':>9}{'wall ms':>9}{'hist rows':>11}{'KiB parsed':>14}"
    )
    first = None
    for at, out in sorted(figures.items()):
        if not out["answer cpu"]:
            print(f"{at:>5}   - (no campaign reached it)")
            continue
        answer = median(out["answer cpu"]) if len(out["answer cpu"]) > 1 else out["answer cpu"][0]
        settled = median(out["settled cpu"]) if len(out["settled cpu"]) > 1 else answer
        floor = median(out["floor cpu"]) if len(out["floor cpu"]) > 1 else out["floor cpu"][0]
        wall = median(out["answer wall"]) if len(out["answer wall"]) > 1 else 0.0
        rows = f"{max(out['answer rows'])}/{max(out['rows'])}"
        parsed = f"{max(out['answer parsed']) / 1024:.1f}/{max(out['parsed']) / 1024:.1f}"
        first = first if first is not None else answer
        print(
            f"{at:>5}{len(out['answer cpu']):>4}{answer * 1000:>11.2f}{settled * 1000:>12.2f}"
            f"{floor * 1000:>10.2f}{answer / floor:>9.1f}{wall * 1000:>9.2f}{rows:>11}"
            f"{parsed:>14}   (round {at} / round {min(figures)}: x{answer / first:.2f})"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=12, help="campaigns per ruleset")
    parser.add_argument("--at", default="1,6,12", help="resolutions timed (1-based)")
    parser.add_argument("--rulesets", default="carrier,land,wings")
    parser.add_argument("--quick", action="store_true", help="smoke run: tiny sizes")
    args = parser.parse_args(argv)
    if args.quick:
        args.campaigns, args.at, args.rulesets = 2, "1,2", "carrier"
    at = sorted({int(a) for a in args.at.split(",")})
    print(f"machine: {machine()}")
    print("CPU medians of the process (ms); 'x floor' = answer CPU / the floor's CPU")
    for ruleset in args.rulesets.split(","):
        figures = asyncio.run(run(ruleset, args.campaigns, at))
        report(ruleset, figures)
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Memory with many campaigns late in their game: RSS against what the caches estimate.

    python bench/memory.py [--campaigns 1000] [--keep setup.db] [--trace]

Set-up (untimed, skipped when ``--keep`` names a file already set up): campaigns played
through the service to a round drawn from 8 to 20 (capped below the game's end): carrier
(Coral Sea, Midway), land (Malaya) and Wings (1917) in turn. Then, in a fresh process
(``--phase measure``, run by this script), as a bot serving them would: the bot's start-up
(``freeze_start_up``, the tuned collector), then every commander's panel of every
campaign (its round's decisions, its side's view, what a click needs), then each
commander drafts what is missing and locks (the second Lock resolves the round). Prints
the RSS after start-up and after the calls, what the service's caches estimate they hold
(``SORTIE_CACHE_MB``'s budget) and, with ``--trace``, the bytes tracemalloc sees them
actually hold (the drop when they are emptied; tracemalloc slows the calls and adds its
own memory to RSS, so RSS is read from a run without it).
Counted, never timed. **Leaves out**: drawing (its worker processes' memory is their own;
``SORTIE_DRAW_WORKERS=0`` here), Discord (discord.py keeps no message cache,
``max_messages=None``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("SORTIE_DRAW_WORKERS", "0")

from bench.common import machine, rss_mib
from bench.rounds import Game
from bench.service import _open
from bot import service_rounds
from bot.service_model import Pace, ServiceError

RSS_TARGET_MB = 200.0
PLAYS = (
    ("carrier", "coral-sea", 11),  # (ruleset, scenario, the last round it may stand at)
    ("land", "malaya-all", 17),
    ("carrier", "midway", 11),
    ("wings", "wings-1917", 20),
)
MIB = 1024 * 1024


async def set_up(path: Path, count: int) -> None:
    rng = random.Random(8)
    ages: dict[int, int] = {}
    async with _open(str(path.parent), path.name, count) as (_, svc):
        for index in range(count):
            ruleset, scenario, last = PLAYS[index % len(PLAYS)]
            rules = svc.rulesets.get(ruleset).rules
            info = await svc.create_campaign(
                1, 10_000_000 + index, 1_000_000 + index, scenario, Pace(), f"c{index}",
                ruleset=ruleset,
            )  # fmt: skip
            users = {}
            for number, side in enumerate(rules.side_ids):
                users[side] = 10 * index + number + 1
                await svc.join(info.id, users[side], side)
            await svc.start(info.id, 1_000_000 + index)
            game = Game(info.id, users, index)
            target = min(rng.randint(8, 20), last)
            while game.resolved < target - 1 and not game.over:
                await game.step_round(svc)
            await svc.settle()
            ages[game.resolved + 1] = ages.get(game.resolved + 1, 0) + 1
            if index % 50 == 49:
                print(f"  set up {index + 1} campaigns", flush=True)
    spread = ", ".join(f"{age}: {n}" for age, n in sorted(ages.items()))
    print(f"set-up: {count} campaigns; the round they stand at: {spread}")


def caches() -> tuple[float, float, int, int]:
    """The caches' estimates (MiB): parsed states, engine results; their entries."""
    states, memo = service_rounds._states._items, service_rounds._memo._items
    return states.used / MIB, memo.used / MIB, len(states), len(memo)


async def measure(path: Path, trace: bool) -> None:
    import tracemalloc

    from bot.runtime import freeze_start_up

    try:
        from bot import collector
    except ImportError:  # a tree from before the collector was tuned, to compare
        collector = None  # type: ignore[assignment]

    async with _open(str(path.parent), path.name, 1) as (repo, svc):
        freeze_start_up()
        if collector is not None:
            collector.install()
        start, _ = rss_mib()
        if trace:
            tracemalloc.start()
        async with repo.read() as tx:
            rows = await tx.raw.execute_fetchall(
                "SELECT campaign_id, user_id FROM players WHERE commander ORDER BY campaign_id"
            )
        campaigns: dict[int, list[int]] = {}
        for campaign_id, user_id in rows:
            campaigns.setdefault(campaign_id, []).append(user_id)
        calls = 0
        for campaign_id, users in campaigns.items():
            for user in users:
                try:
                    await svc.panel(campaign_id, user)
                    calls += 1
                except ServiceError:
                    continue
        await svc.settle()
        gc.collect()
        panels, _ = rss_mib()
        # Then each commander drafts what is missing and locks: the second lock resolves the
        # round, and the next round's decisions and views are worked out.
        locks = 0
        for campaign_id, users in campaigns.items():
            for user in users:
                try:
                    panel = await svc.panel(campaign_id, user)
                    for field in panel.missing:
                        option = next(d for d in panel.decisions if d.field == field).options[0]
                        panel = await svc.draft(campaign_id, user, panel.round_id, field, option.id)
                    if panel.decisions and not panel.locked:
                        await svc.lock(campaign_id, user, panel.round_id)
                        locks += 1
                except ServiceError:
                    continue
        await svc.settle()
        gc.collect()
        now, peak = rss_mib()
        states, memo, n_states, n_memo = caches()
        print(
            f"{len(campaigns)} campaigns: {calls} panels (every commander's), then {locks} "
            f"Locks (each side's missing orders drafted first); cache budget "
            f"{os.environ.get('SORTIE_CACHE_MB', '80')} MiB"
        )
        print(
            f"caches estimate {states + memo:.1f} MiB: parsed states {states:.1f} MiB "
            f"({n_states} entries), engine results {memo:.1f} MiB ({n_memo} entries)"
        )
        if trace:
            held = tracemalloc.get_traced_memory()[0]
            service_rounds._memo._items.clear()
            gc.collect()
            after_memo = tracemalloc.get_traced_memory()[0]
            service_rounds._states._items.clear()
            gc.collect()
            after_states = tracemalloc.get_traced_memory()[0]
            tracemalloc.stop()
            freed_memo, freed_states = (held - after_memo) / MIB, (after_memo - after_states) / MIB
            freed = freed_memo + freed_states
            print(
                f"tracemalloc: emptying the caches freed {freed:.1f} MiB: engine results "
                f"{freed_memo:.1f} (estimate x{memo / freed_memo:.2f}), then parsed states "
                f"{freed_states:.1f} (x{states / freed_states:.2f}); in all "
                f"x{(states + memo) / freed:.2f}"
            )
        else:
            verdict = "meets" if peak * MIB / 1e6 <= RSS_TARGET_MB else "MISSES"
            print(
                f"RSS: after start-up {start:.0f} MiB, after the panels {panels:.0f} MiB, after "
                f"the Locks {now:.0f} MiB, peak "
                f"{peak:.0f} MiB = {peak * MIB / 1e6:.0f} MB (target <= {RSS_TARGET_MB:.0f} MB: "
                f"{verdict}); load average {os.getloadavg()[0]:.1f}"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=1000)
    parser.add_argument("--keep", help="the set-up's file: reused when it exists")
    parser.add_argument("--trace", action="store_true", help="also the caches' bytes, traced")
    parser.add_argument("--phase", choices=("all", "measure"), default="all")
    parser.add_argument("--quick", action="store_true", help="smoke run: 8 campaigns")
    args = parser.parse_args(argv)
    if args.quick:
        args.campaigns = 8
    if args.phase == "measure":
        asyncio.run(measure(Path(args.keep), args.trace))
        return 0
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(args.keep) if args.keep else Path(folder) / "memory.db"
        if not path.exists():
            asyncio.run(set_up(path.resolve(), args.campaigns))
        for trace in (False, True) if args.trace else (False,):
            # A fresh process each (the set-up's own memory is not the bot's), on a copy (the
            # Locks move the campaigns on: the kept set-up stays as it was).
            copy = Path(folder) / "measured.db"
            for suffix in ("", "-wal"):
                if Path(f"{path}{suffix}").exists():
                    shutil.copyfile(f"{path}{suffix}", f"{copy}{suffix}")
            command = [sys.executable, __file__, "--phase", "measure", "--keep", str(copy)]
            subprocess.run([*command, *(["--trace"] if trace else [])], check=True)
            for suffix in ("", "-wal", "-shm"):
                Path(f"{copy}{suffix}").unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

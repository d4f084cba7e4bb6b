"""Benchmark: many campaigns progressing at once on one store, through the service.

    python bench/service.py [N ...] [--turns T] [--db postgresql://…]
    (default: 100 campaigns, 2 turns, a temporary SQLite file; with --db, a new schema on
    that PostgreSQL server, dropped afterwards)

Each campaign is a coroutine whose two commanders draft every field and lock, round after
round, all campaigns interleaved on one event loop and one database connection (as in the
bot). Prints the lock-to-committed latency (the time a commander waits for ``lock``; the
last lock of a round includes the resolution), resolutions per second, and the database
size per campaign-turn. The outbox is filled but not delivered (rendering is another
benchmark's business).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.clock import ManualClock  # noqa: E402
from bot.demo import SeededTokens  # noqa: E402
from bot.service import CampaignService  # noqa: E402
from bot.service_model import Pace  # noqa: E402
from db.backend import open_repository  # noqa: E402
from db.sqlite import SqliteRepository  # noqa: E402
from engine.loader import default_catalog  # noqa: E402
from engine.types import Side  # noqa: E402


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def _campaign(
    service: CampaignService,
    campaign_id: int,
    users: dict[Side, int],
    turns: int,
    rng: random.Random,
    plain: list[float],
    resolving: list[float],
) -> int:
    resolutions = 0
    for _ in range(turns * 2):
        status = await service.status(campaign_id)
        if status.round is None:
            break
        for side in Side:
            panel = await service.panel(campaign_id, users[side])
            for decision in panel.decisions:
                choice = rng.choice(decision.options).id
                user = users[side]
                await service.draft(campaign_id, user, panel.round_id, decision.field, choice)
            started = time.perf_counter()
            result = await service.lock(campaign_id, users[side], panel.round_id)
            elapsed = time.perf_counter() - started
            (resolving if result.resolved else plain).append(elapsed)
            resolutions += int(result.resolved)
    return resolutions


async def _schema(server: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(server)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def bench(count: int, turns: int, server: str | None = None) -> None:
    catalog = default_catalog()
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    with tempfile.TemporaryDirectory() as folder:
        if server is None:
            repo = await open_repository(Path(folder) / "bench.db")
        else:
            await _schema(server, f"CREATE SCHEMA {schema}")
            joiner = "&" if "?" in server else "?"
            repo = await open_repository(f"{server}{joiner}search_path={schema}")
        clock = ManualClock()
        service = CampaignService(repo, catalog, clock, rng_seed_source=SeededTokens(count))
        scenarios = sorted(catalog.scenarios)
        ids: list[tuple[int, dict[Side, int]]] = []
        setup = time.perf_counter()
        for index in range(count):
            gm = 1_000_000 + index
            info = await service.create_campaign(
                1, 10_000 + index, gm, scenarios[index % len(scenarios)], Pace(), seed=f"b{index}"
            )
            users = {Side.JAPANESE: 2 * index + 1, Side.ALLIED: 2 * index + 2}
            for side, user in users.items():
                await service.join(info.id, user, side)
            await service.start(info.id, gm)
            ids.append((info.id, users))
        setup = time.perf_counter() - setup
        plain: list[float] = []
        resolving: list[float] = []
        started = time.perf_counter()
        totals = await asyncio.gather(
            *(
                _campaign(service, cid, users, turns, random.Random(cid), plain, resolving)
                for cid, users in ids
            )
        )
        wall = time.perf_counter() - started
        turns_played = 0
        async with repo.read() as tx:
            for cid, _ in ids:
                rounds = await tx.rounds(cid)
                turns_played += sum(
                    1 for r in rounds if r.status == "resolved" and r.kind == "resource"
                )
        if isinstance(repo, SqliteRepository):
            await repo.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = await repo.size_bytes()
        await repo.close()
        if server is not None:
            await _schema(server, f"DROP SCHEMA {schema} CASCADE")
    resolutions = sum(totals)
    where = "one SQLite file" if server is None else "PostgreSQL, one process"
    print(f"== {count} campaigns, up to {turns} turns each, {where}")
    per_campaign = 1000 * setup / count
    print(f"set-up (create, 2 joins, start): {setup:.1f} s ({per_campaign:.1f} ms/campaign)")
    print(
        f"lock-to-committed, plain lock:     median {1000 * statistics.median(plain):.1f} ms,"
        f" p99 {1000 * _percentile(plain, 0.99):.1f} ms ({len(plain)} locks)"
    )
    print(
        f"lock-to-committed, resolving lock: median {1000 * statistics.median(resolving):.1f} ms,"
        f" p99 {1000 * _percentile(resolving, 0.99):.1f} ms ({len(resolving)} locks)"
    )
    print(f"resolutions: {resolutions} in {wall:.1f} s = {resolutions / wall:.0f}/s")
    print(
        f"database: {size / 1e6:.1f} MB = {size / max(1, turns_played) / 1024:.0f} KiB"
        f" per campaign-turn ({turns_played} turns)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("counts", nargs="*", type=int, default=[100])
    parser.add_argument("--turns", type=int, default=2)
    parser.add_argument("--db", default=None, help="a PostgreSQL URL (default: SQLite in tmp)")
    args = parser.parse_args(argv)
    for count in args.counts:
        asyncio.run(bench(count, args.turns, args.db))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The service benchmark's load phase on PostgreSQL, over 1, 2 or 3 bot processes.

    python bench/service.py --db postgresql://user@host:port/postgres --processes 1|2|3

The same open loop as on SQLite (``bench/load.py``): N started campaigns, calls at Poisson
times at each rate, latency from scheduled arrival to answer, p50/p99 per rate, capacity =
the highest rate with p99 <= 50 ms. With ``--processes P`` the campaigns are split
between P OS processes as shards would split them, each offered rate/P on its share, all
starting at the same instant; their latencies are pooled.

Every rate starts from the same data: the campaigns are set up once in a database that is
then the template of a fresh database per rate (``CREATE DATABASE … TEMPLATE``), so the
user in the URL must be allowed to create databases. The floor, measured in the same run
on the same server: a read transaction with one ``SELECT 1``, with no load.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import line, median, percentile, verdict
from bench.load import Actor, LoadResult, create_actors, open_loop, rates_met
from bot.clock import ManualClock
from bot.demo import SeededTokens
from bot.runtime import open_services
from db.backend import redact
from engine.zero.types import Side

P99_TARGET_MS = 50.0
ROOT = Path(__file__).resolve().parents[1]


def database_url(server: str, name: str) -> str:
    parts = urlsplit(server)
    return urlunsplit(parts._replace(path=f"/{name}"))


async def admin(server: str, sql: str) -> None:
    conn = await asyncpg.connect(server)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


DURABLE = {"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on"}


async def durability(server: str) -> str:
    """The server's durability settings, and whether a figure from it may be called durable
    (PostgreSQL's defaults: a commit is on disk when it returns, a crash loses nothing)."""
    conn = await asyncpg.connect(server)
    try:
        found = {name: await conn.fetchval(f"SHOW {name}") for name in DURABLE}
    finally:
        await conn.close()
    settings = ", ".join(f"{name}={value}" for name, value in found.items())
    if found == DURABLE:
        return f"durable server ({settings})"
    return f"NOT DURABLE server ({settings}): a crash may lose commits; not a production figure"


async def floor_ms(url: str, samples: int = 500) -> list[float]:
    services = await open_services(url, ManualClock())
    out = []
    try:
        for _ in range(samples):
            start = time.perf_counter()
            async with services.repo.read() as tx:
                await tx.raw.fetchval("SELECT 1")  # type: ignore[attr-defined]
            out.append((time.perf_counter() - start) * 1000)
    finally:
        await services.close()
    return out


async def write_floor_ms(url: str, samples: int = 500) -> list[float]:
    """An empty write transaction: BEGIN, the cross-process writer lock, COMMIT. Every
    write of every process holds that lock in turn, so its cost bounds the write rate."""
    services = await open_services(url, ManualClock())
    out = []
    try:
        for _ in range(samples):
            start = time.perf_counter()
            async with services.repo.transaction():
                pass
            out.append((time.perf_counter() - start) * 1000)
    finally:
        await services.close()
    return out


async def set_up(url: str, campaigns: int) -> list[dict[str, object]]:
    services = await open_services(url, ManualClock(), seeds=SeededTokens(campaigns))
    try:
        actors = await create_actors(services.campaigns, campaigns)
    finally:
        await services.close()
    return [{"id": a.campaign_id, "users": [a.users[s] for s in Side]} for a in actors]


def one_rate(
    url: str, actors_file: str, rate: float, calls: int, processes: int
) -> tuple[LoadResult, int]:
    """Run the rate over ``processes`` workers; the pooled result and the calls issued."""
    start_at = time.time() + 3.0  # every worker has connected and waits for this instant
    script = [sys.executable, str(Path(__file__).resolve()), "--worker", url, actors_file]
    share = [str(rate / processes), str(calls // processes)]
    workers = [
        subprocess.Popen(
            [*script, *share, str(index), str(processes), str(start_at)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        for index in range(processes)
    ]
    pooled = LoadResult(rate)
    for worker in workers:
        out, _ = worker.communicate(timeout=900)
        if worker.returncode != 0:
            raise RuntimeError(f"a bench worker failed (exit {worker.returncode})")
        part = json.loads(out.strip().splitlines()[-1])
        for kind, values in part["latencies"].items():
            pooled.latencies.setdefault(kind, []).extend(values)
        pooled.wall = max(pooled.wall, part["wall"])
        pooled.saturated = pooled.saturated or part["saturated"]
        pooled.issued += part["issued"]
    return pooled, pooled.issued


async def worker(
    url: str, actors_file: str, rate: float, calls: int, index: int, count: int, at: float
) -> None:
    rows = json.loads(Path(actors_file).read_text())
    sides = list(Side)
    actors = [
        Actor(int(row["id"]), dict(zip(sides, row["users"], strict=True)), random.Random(row["id"]))
        for n, row in enumerate(rows)
        if n % count == index  # this process's shard of the campaigns
    ]
    services = await open_services(url, ManualClock())
    try:
        await asyncio.sleep(max(0.0, at - time.time()))
        result = await open_loop(services.campaigns, actors, rate, calls, seed=int(rate) + index)
    finally:
        await services.close()
    print(
        json.dumps(
            {
                "latencies": result.latencies,
                "wall": result.wall,
                "saturated": result.saturated,
                "issued": result.issued,
            }
        )
    )


def _ms(values: list[float], share: float) -> str:
    try:
        return f"{percentile(values, share) * 1000:.1f}"
    except ValueError:
        return "-"


async def load(args: argparse.Namespace) -> None:
    server = args.db
    tag = f"sortie_bench_{os.getpid()}"
    template = f"{tag}_setup"
    print(f"PostgreSQL: {await durability(server)}")
    await admin(server, f"CREATE DATABASE {template}")
    made: list[str] = [template]
    try:
        setup_url = database_url(server, template)
        floor_values = await floor_ms(setup_url)
        floor = median(floor_values)
        print(
            line(
                "floor: read tx + SELECT 1",
                f"median {floor:.2f} ms, p99 {percentile(floor_values, 0.99):.2f} ms "
                f"({len(floor_values)} samples, no load, {redact(server)})",
            )
        )
        writes = await write_floor_ms(setup_url)
        print(
            line(
                "empty write tx (writer lock)",
                f"median {median(writes):.2f} ms, p99 {percentile(writes, 0.99):.2f} ms "
                f"({len(writes)} samples, no load)",
            )
        )
        start = time.perf_counter()
        actors = await set_up(setup_url, args.campaigns)
        print(
            line(
                f"set-up of {args.campaigns} campaigns",
                f"{time.perf_counter() - start:.1f} s (untimed; every rate runs on a fresh"
                " copy of this database)",
            )
        )
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
            json.dump(actors, handle)
            actors_file = handle.name
        print(
            f"\n== open loop over {args.campaigns} campaigns, PostgreSQL, "
            f"{args.processes} process(es); latency from scheduled arrival to answer, ms"
        )
        print(f"{'offered':>9} {'achieved':>8} {'calls':>6} {'p50':>8} {'p99':>8}")

        async def measure(rate: float) -> tuple[LoadResult, float]:
            name = f"{tag}_r{len(made)}"
            await admin(server, f"CREATE DATABASE {name} TEMPLATE {template}")
            made.append(name)
            calls = max(args.calls, int(rate * args.seconds))
            result, _ = await asyncio.to_thread(
                one_rate, database_url(server, name), actors_file, rate, calls, args.processes
            )
            await admin(server, f"DROP DATABASE {name}")
            made.remove(name)
            every = result.all()
            p50, p99 = percentile(every, 0.5) * 1000, percentile(every, 0.99) * 1000
            achieved = len(every) / result.wall
            state = "SATURATED, stopped" if result.saturated else f"p99 x{p99 / floor:.0f} floor"
            ok = verdict(p99, P99_TARGET_MS) if not result.saturated else "MISSES target"
            print(
                f"{rate:>7.0f}/s {achieved:>7.0f}/s {len(every):>6} {p50:>8.1f} {p99:>8.1f}  "
                f"{state}; p99 <= {P99_TARGET_MS:g} ms: {ok}",
                flush=True,
            )
            kinds = ", ".join(
                f"{kind} {_ms(v, 0.5)}/{_ms(v, 0.99)} ({len(v)})"
                for kind, v in sorted(result.latencies.items())
            )
            print(f"{'':>9} by kind, p50/p99 ms (calls): {kinds}", flush=True)
            return result, p99

        passing, _ = await rates_met(args.rates, args.refine, P99_TARGET_MS, measure)
        capacity = max(passing) if passing else 0.0
        print()
        print(
            line(
                "capacity at p99 <= 50 ms",
                f"{capacity:.0f} calls/s ({args.campaigns} campaigns, PostgreSQL, "
                f"{args.processes} process(es), of the rates tried)",
            )
        )
        Path(actors_file).unlink()
    finally:
        for name in made:
            await admin(server, f"DROP DATABASE IF EXISTS {name}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        url, actors_file, rate, calls, index, count, at = sys.argv[2:9]
        asyncio.run(
            worker(url, actors_file, float(rate), int(calls), int(index), int(count), float(at))
        )

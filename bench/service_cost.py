"""What one service call costs, call by call: the split the open loop cannot show.

    python bench/service_cost.py --db postgresql://user@host:port/postgres [--campaigns 40]
    python bench/service_cost.py --db /tmp/cost.sqlite3

Campaigns play themselves (``bench/load.py``'s actors) one call at a time, so nothing waits
for anything but the server; every call is measured for: round trips to the server and
statements sent (PostgreSQL), rows and bytes fetched, the process's CPU time
(``process_time``, what a shared machine cannot inflate much), and where the wall time went:
waiting for a pooled connection, waiting in the writer gate, waiting for the server,
parsing stored states (``load_stored``) and the engine's decision lists and views. The
floor, in the same run: a read transaction with one ``SELECT 1``. Figures are medians per
kind of call (panel, draft, lock, resolve) over at least ``--calls`` calls.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import sys
import time
import uuid
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import line, machine, median, percentile
from bench.load import create_actors
from bot import service as service_module
from bot import service_panels, service_rounds, service_states
from bot.clock import ManualClock
from bot.demo import SeededTokens
from bot.runtime import open_services
from db import writer_gate
from db.backend import is_postgres


@dataclass
class Tally:
    round_trips: int = 0
    statements: int = 0
    rows: int = 0
    bytes: int = 0
    server_s: float = 0.0
    acquire_s: float = 0.0
    gate_s: float = 0.0
    parse_s: float = 0.0
    engine_s: float = 0.0


NOW = Tally()
TRACE: list[str] | None = None  # the statements of the call being traced, if one is


def _size(value: Any) -> int:
    if isinstance(value, str | bytes):
        return len(value)
    if isinstance(value, asyncpg.Record):
        return sum(_size(v) for v in value.values())
    if isinstance(value, list | tuple):
        return sum(_size(v) for v in value)
    return 8


def _count_rows(result: Any) -> tuple[int, int]:
    if isinstance(result, list):
        return len(result), sum(_size(r) for r in result)
    if isinstance(result, asyncpg.Record):
        return 1, _size(result)
    if result is None or isinstance(result, str):  # execute's status tag
        return 0, 0
    return 1, _size(result)


def _statements(args: tuple[Any, ...]) -> int:
    sql = args[0] if args and isinstance(args[0], str) else ""
    return max(1, len([part for part in sql.split(";") if part.strip()]))


def _timed_server(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    async def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            result = await method(self, *args, **kwargs)
        finally:
            NOW.server_s += time.perf_counter() - start
        NOW.round_trips += 1
        NOW.statements += _statements(args)
        if TRACE is not None:
            TRACE.append(f"{method.__name__}: {args[0] if args else ''}"[:160])
        rows, size = _count_rows(result)
        NOW.rows += rows
        NOW.bytes += size
        return result

    return wrapper


def _timed(method: Callable[..., Any], slot: str) -> Callable[..., Any]:
    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return method(*args, **kwargs)
        finally:
            setattr(NOW, slot, getattr(NOW, slot) + time.perf_counter() - start)

    return wrapper


def instrument() -> None:
    """Patch the driver, the gate and the hot functions to count into ``NOW``."""
    conn = asyncpg.connection.Connection
    for name in ("execute", "fetch", "fetchrow", "fetchval", "executemany"):
        setattr(conn, name, _timed_server(getattr(conn, name)))
    pool_acquire = asyncpg.pool.Pool._acquire

    async def acquire(self: Any, timeout: Any) -> Any:
        start = time.perf_counter()
        try:
            return await pool_acquire(self, timeout)
        finally:
            NOW.acquire_s += time.perf_counter() - start

    asyncpg.pool.Pool._acquire = acquire  # type: ignore[method-assign]
    enter = writer_gate.WriterGate.enter

    @contextlib.asynccontextmanager
    async def gated(self: Any, campaign: int | None = None) -> AsyncIterator[None]:
        start = time.perf_counter()
        async with enter(self, campaign):
            NOW.gate_s += time.perf_counter() - start
            yield

    writer_gate.WriterGate.enter = gated  # type: ignore[method-assign]
    from engine.rulesets import carrier, land, pearl_harbor, wings

    for module in (carrier, land, pearl_harbor, wings):
        for value in vars(module).values():
            if isinstance(value, type) and "load_stored" in vars(value):
                value.load_stored = _timed(value.load_stored, "parse_s")  # type: ignore[attr-defined]
    for module in (service_panels, service_rounds, service_states, service_module):
        for name in ("side_decisions", "view_of"):
            if hasattr(module, name):
                setattr(module, name, _timed(getattr(module, name), "engine_s"))


def schema_url(server: str, schema: str) -> str:
    parts = urlsplit(server)
    query = dict(parse_qsl(parts.query))
    query["search_path"] = schema
    return urlunsplit(parts._replace(query=urlencode(query)))


async def run(args: argparse.Namespace) -> None:
    made_schema = None
    url = args.db
    if is_postgres(url):
        made_schema = f"cost_{uuid.uuid4().hex[:12]}"
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(f"CREATE SCHEMA {made_schema}")
        finally:
            await conn.close()
        url = schema_url(url, made_schema)
    else:
        Path(url).unlink(missing_ok=True)
    instrument()
    services = await open_services(url, ManualClock(), seeds=SeededTokens(args.campaigns))
    try:
        actors = await create_actors(services.campaigns, args.campaigns)
        floor_cpu, floor_trips = [], []
        samples: dict[str, list[tuple[float, Tally]]] = defaultdict(list)
        calls = 0
        index = 0
        traced: dict[str, list[str]] = {}
        while calls < args.calls:
            live = [a for a in actors if not a.finished]
            if not live:
                break
            actor = live[index % len(live)]
            index += 1
            global NOW
            NOW = Tally()
            cpu = time.process_time()
            async with services.repo.read() as tx:
                await tx.campaign(actor.campaign_id)
            floor_cpu.append(time.process_time() - cpu)
            floor_trips.append(NOW.round_trips)
            NOW = Tally()
            global TRACE
            TRACE = [] if args.trace else None
            cpu = time.process_time()
            kind = await actor.step(services.campaigns)
            samples[kind].append((time.process_time() - cpu, NOW))
            calls += 1
            if TRACE is not None and kind not in traced:
                traced[kind] = TRACE
            TRACE = None
        print(machine())
        print(
            line(
                "floor: read tx + one row",
                f"CPU {median(floor_cpu) * 1e3:.2f} ms, {median(floor_trips)} round trips",
            )
        )
        print(
            f"\n{'call':>8} {'n':>5} {'CPU ms':>7} {'p99':>7} {'mean':>7} {'trips':>5}"
            f" {'stmts':>5} {'rows':>5} {'KiB':>6}"
            f" {'server':>7} {'pool':>6} {'gate':>6} {'parse':>6} {'engine':>6}"
        )
        for kind, values in sorted(samples.items()):
            if len(values) < 2:
                continue

            def mid(pick: Callable[[tuple[float, Tally]], float], v: Any = values) -> float:
                return median([pick(x) for x in v])

            def mean(pick: Callable[[tuple[float, Tally]], float], v: Any = values) -> float:
                return sum(pick(x) for x in v) / len(v)

            cpu = [x[0] for x in values]
            tail = f"{percentile(cpu, 0.99) * 1e3:>7.2f}" if len(cpu) >= 100 else f"{'-':>7}"

            print(
                f"{kind:>8} {len(values):>5} {mid(lambda x: x[0]) * 1e3:>7.2f} {tail}"
                f" {mean(lambda x: x[0]) * 1e3:>7.2f}"
                f" {mid(lambda x: x[1].round_trips):>5.0f}"
                f" {mid(lambda x: x[1].statements):>5.0f} {mid(lambda x: x[1].rows):>5.0f}"
                f" {mid(lambda x: x[1].bytes) / 1024:>6.1f}"
                f" {mid(lambda x: x[1].server_s) * 1e3:>7.2f}"
                f" {mid(lambda x: x[1].acquire_s) * 1e3:>6.2f}"
                f" {mid(lambda x: x[1].gate_s) * 1e3:>6.2f}"
                f" {mean(lambda x: x[1].parse_s) * 1e3:>6.2f}"
                f" {mean(lambda x: x[1].engine_s) * 1e3:>6.2f}"
            )
        for kind, statements in sorted(traced.items()):
            print(f"\n-- the statements of one {kind}:")
            print("\n".join(statements))
        if not is_postgres(args.db):
            print("\n(SQLite: its statements run in its own thread and are not counted)")
        print(
            "\n(per call: CPU = process_time of the whole call, median, p99 and mean; trips to"
            " server, pool, gate: medians; parse and engine: means, ms of wall time in each)"
        )
    finally:
        try:
            await services.close()
        finally:
            if made_schema is not None:
                conn = await asyncpg.connect(args.db)
                try:
                    await conn.execute(f"DROP SCHEMA {made_schema} CASCADE")
                finally:
                    await conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", required=True, help="postgresql://… server or a SQLite path")
    parser.add_argument("--campaigns", type=int, default=40)
    parser.add_argument("--calls", type=int, default=600)
    parser.add_argument("--trace", action="store_true", help="print one call's statements")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()

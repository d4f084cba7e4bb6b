"""Every query the scheduler, the outbox worker and the log make finds its rows through an
index (issue 13): on a store of many campaigns, whatever SQL the repository actually runs
for them is planned by SQLite without reading a whole events, outbox, timers or rounds table.

The statements are caught as SQLite runs them (with their values), so a query changed in
``db/sql.py`` or ``db/sqlite.py`` (or its spelling in SQLite's dialect there), or an index
dropped by a migration, is checked as it is, not as a copy.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from db.repository import NewEvent, NewOutbox, Transaction
from db.sqlite import SqliteRepository, SqliteTransaction
from tests.db.test_contract import new_campaign

BIG_TABLES = ("events", "outbox", "timers", "rounds")
# "SCAN outbox", "SCAN o" (an alias): a whole table read; a subquery's rows are fine.
_SCAN = re.compile(r"^SCAN (\w+)(?: USING|$)")


async def _store(tx: Transaction, campaigns: int) -> tuple[int, int]:
    """Campaigns with events, timers and delivered outbox items; (a campaign, its round)."""
    cid = rid = 0
    for index in range(campaigns):
        cid = await tx.insert_campaign(new_campaign(channel=1000 + index))
        snapshot = await tx.insert_snapshot(cid, 1, 1, "orders", "{}", 10)
        rid = await tx.insert_round(cid, 1, 1, "orders", 10, 1000, snapshot)
        await tx.insert_timer(cid, rid, "deadline", 1000)
        burst = [NewEvent("strike-flak", 1, {"row": i}) for i in range(5)]
        await tx.append_events(cid, rid, 1, burst, 10)
        await tx.append_events(cid, rid, 1, [NewEvent("side-locked", 1, {})], 10)
        for n in range(4):
            item = await tx.enqueue(cid, NewOutbox("report", "channel", 1000 + index, {"n": n}), 10)
            if item is not None and n < 3:
                await tx.mark_delivered(item, 99, 11)
    return cid, rid


def _scans(conn: sqlite3.Connection, statements: list[str]) -> list[tuple[str, str]]:
    found = []
    for sql in statements:
        if not sql.lstrip().upper().startswith(("SELECT", "UPDATE", "WITH", "DELETE")):
            continue
        for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}"):
            match = _SCAN.match(row[3])
            if match is None:
                continue
            alias = match.group(1)
            table = {"o": "outbox", "w": "outbox"}.get(alias, alias)
            if table in BIG_TABLES:
                found.append((row[3], sql))
    return found


@asynccontextmanager
async def _traced(
    path: Path, campaigns: int
) -> AsyncIterator[tuple[SqliteTransaction, int, int, list[str]]]:
    """A store of ``campaigns`` campaigns (a campaign and its round given), and a write
    transaction on it whose statements are caught as SQLite runs them."""
    repo = await SqliteRepository.open(path)
    try:
        async with repo.transaction() as tx:
            cid, rid = await _store(tx, campaigns)
        async with repo.transaction() as tx:
            assert isinstance(tx, SqliteTransaction)
            statements: list[str] = []
            tx._conn.set_trace_callback(statements.append)
            try:
                yield tx, cid, rid, statements
            finally:
                tx._conn.set_trace_callback(None)
    finally:
        await repo.close()


async def test_hot_queries_use_an_index(tmp_path: Path) -> None:
    async with _traced(tmp_path / "store.db", 60) as (tx, cid, rid, statements):
        await tx.due_timers(500)
        await tx.round_timers(rid)
        await tx.rounds_with_status("resolving")
        await tx.live_round(cid)
        await tx.pending_outbox()
        await tx.claim_outbox(20, 40)
        await tx.enqueue(
            cid, NewOutbox("round-message", "channel", 5, {}, "round:1", coalesce=True), 30
        )
        await tx.redeliver(cid, 30)
        await tx.events(cid, newest_first=True, limit=3, offset=2)
        await tx.events(cid, turn=1, newest_first=True, limit=3)
        await tx.events(cid, round_id=rid)
        await tx.count_events(cid, turn=1)
        await tx.void_events(cid, [rid])
        await tx.append_events(cid, rid, 1, [NewEvent("a", 1), NewEvent("b", 1)], 40)
        assert len(statements) >= 14
        assert _scans(tx._conn, list(statements)) == []


async def test_a_turns_rounds_and_events_are_found_by_the_turn(tmp_path: Path) -> None:
    """A reveal and a turn's summary read one turn (issue 29): searched by the turn, not
    by the campaign with every round and event it has played filtered out one by one."""
    async with _traced(tmp_path / "store.db", 3) as (tx, cid, _, statements):
        assert [r.turn for r in await tx.turn_rounds(cid, 1, 1)] == [1]
        assert await tx.turn_rounds(cid, 1, 2) == []
        await tx.events(cid, turn=1)
        asked = [sql for sql in statements if sql.lstrip().upper().startswith("SELECT")]
        plans = [
            " ".join(row[3] for row in tx._conn.execute(f"EXPLAIN QUERY PLAN {sql}"))
            for sql in asked
        ]
    assert len(plans) == 3, asked
    for plan in plans[:2]:
        assert "rounds_by_turn (campaign_id=? AND branch=? AND turn=?)" in plan, plan
    assert "events_by_turn (campaign_id=? AND turn=?)" in plans[2], plans[2]

"""What the Lock that resolves a round writes and reads, counted in statements (issue 29:
capacity): its campaign, rounds, snapshot, roster and locks are read once each until a
statement writes their table, and its dozen announcements reach the outbox in one INSERT
(the rows they coalesce with found in one SELECT), inside the Lock's transaction."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from db.repository import NewOutbox
from db.sql import SqlTransaction
from tests.service.support import ALL, JAP, Env


class Statements:
    def __init__(self) -> None:
        # (the transaction, the statement, its values)
        self.run: list[tuple[int, str, tuple[Any, ...]]] = []
        # Every transaction seen, held so that none is freed and its id given to a later
        # one: two transactions each reading a row once must not count as one reading it
        # twice.
        self.held: list[SqlTransaction] = []

    def count(self, start: str) -> int:
        return sum(1 for _, sql, _ in self.run if sql.startswith(start))

    def reread(self) -> list[str]:
        """The reads a transaction made again with the same values while it wrote nothing
        to their table."""
        seen: Counter[tuple[int, str, tuple[Any, ...]]] = Counter()
        again: list[str] = []
        for tx, sql, params in self.run:
            if not sql.startswith("SELECT"):
                # A write: the reads of the tables it names may be made again.
                seen = Counter({k: n for k, n in seen.items() if _table(k[1]) not in sql})
                continue
            seen[(tx, sql, params)] += 1
            if seen[(tx, sql, params)] > 1:
                again.append(sql)
        return again

    def transactions(self, start: str) -> int:
        """How many transactions ran a statement starting with ``start``."""
        return len({tx for tx, sql, _ in self.run if sql.startswith(start)})


def _table(sql: str) -> str:
    return sql.split(" FROM ", 1)[1].split()[0]


@pytest.fixture
def statements(monkeypatch: pytest.MonkeyPatch) -> Statements:
    counted = Statements()
    real = SqlTransaction._all

    async def counting(self: SqlTransaction, sql: str, params: Any = ()) -> list[Any]:
        counted.run.append((id(self), sql, tuple(params)))
        counted.held.append(self)
        return await real(self, sql, params)

    monkeypatch.setattr(SqlTransaction, "_all", counting)
    return counted


async def _resolving_lock(env: Env, statements: Statements) -> int:
    """The last side's Lock, which resolves the round, its statements counted; the outbox
    rows it added."""
    cid = await env.campaign()
    await env.svc.lock(cid, JAP, await env.fill(cid, JAP))
    round_id = await env.fill(cid, ALL)
    await env.svc.settle()
    async with env.repo.read() as tx:
        before = len(await tx.outbox(cid))
    statements.run.clear()
    result = await env.svc.lock(cid, ALL, round_id)
    await env.svc.settle()
    assert result.resolved
    async with env.repo.read() as tx:
        return len(await tx.outbox(cid)) - before


async def test_the_resolving_lock_reads_each_row_once(env: Env, statements: Statements) -> None:
    await _resolving_lock(env, statements)
    assert statements.reread() == []


async def test_the_resolving_lock_queues_its_announcements_in_one_insert(
    env: Env, statements: Statements
) -> None:
    added = await _resolving_lock(env, statements)
    assert added >= 2  # the reveal, the new round's message and panels (some coalesce)
    # One INSERT for the new rows; one look-up of the rows they coalesce with in each
    # transaction that queues (the Lock's, the resolution's), none an item.
    assert statements.count("INSERT INTO outbox") == 1
    lookups = "SELECT id, message_key, kind, payload FROM outbox"
    assert statements.count(lookups) == statements.transactions(lookups) <= 2
    assert statements.count("SELECT id FROM outbox") == 0


async def test_queued_items_end_as_one_at_a_time_would(env: Env) -> None:
    """A message updated twice in one transaction is one pending row with the last payload,
    one already pending takes a later transaction's payload in place, and a dedupe key
    taken (in the queue or in the table) is skipped."""
    cid = await env.campaign(start=False)
    card = NewOutbox("campaign-card", "channel", 5, {"v": 1}, message_key="probe", coalesce=True)
    report = NewOutbox("report", "channel", 5, {"n": 1}, dedupe_key="probe:1")
    async with env.repo.transaction() as tx:
        await tx.queue(cid, card, 1)
        await tx.queue(cid, replace(card, payload={"v": 2}), 2)
        await tx.queue(cid, report, 3)
        await tx.queue(cid, replace(report, payload={"n": 2}), 4)
    async with env.repo.transaction() as tx:
        await tx.queue(cid, replace(card, payload={"v": 3}), 5)
        await tx.queue(cid, replace(report, payload={"n": 3}), 6)
        # A statement on the outbox sees what the transaction queued before it.
        probes = [
            row
            for row in await tx.outbox(cid)
            if row.message_key == "probe" or row.dedupe_key == "probe:1"
        ]
    assert [(row.kind, row.payload) for row in probes] == [
        ("campaign-card", {"v": 3}),
        ("report", {"n": 1}),
    ]


async def test_a_lock_leaves_a_pending_round_message_that_already_says_it(
    env: Env, statements: Statements
) -> None:
    """The round message asked again by a Lock, its pending delivery unchanged: no write."""
    cid = await env.campaign()
    round_id = await env.fill(cid, JAP)
    async with env.repo.read() as tx:
        pending = [row for row in await tx.outbox(cid) if row.message_key == f"round:{round_id}"]
    assert [row.status for row in pending] == ["pending"]
    statements.run.clear()
    await env.svc.lock(cid, JAP, round_id)
    assert statements.count("SELECT id, message_key, kind, payload FROM outbox") == 1
    assert statements.count("UPDATE outbox") == 0
    async with env.repo.read() as tx:
        after = [row for row in await tx.outbox(cid) if row.message_key == f"round:{round_id}"]
    assert after == pending

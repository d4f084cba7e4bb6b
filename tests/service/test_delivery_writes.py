"""What delivering a resolution writes, counted (issue 29: the resolving Lock's CPU).

A resolving Lock queues a dozen announcements. Each sent row is marked delivered, every
mark of the batch in one lazy transaction, on disk before the batch ends; an edit of a
known message rewrites no message reference (the same id again). A row that names a new
message (a new round's message, a new panel) stores its reference with its mark; the
batch's later edits of that message go to it from the moment it is posted. Counted in
transactions and statements, never timed.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import pytest

from db.sql import SqlTransaction
from tests.service.support import ALL, JAP, Env


class Writes:
    """Write transactions opened (durable and lazy) and the statements run, while ``on``.
    A lazy one that a backend runs as an ordinary transaction (PostgreSQL) counts once."""

    def __init__(self) -> None:
        self.on = False
        self.depth = 0
        self.transactions: Counter[str] = Counter()
        self.statements: Counter[str] = Counter()

    def count(self, text: str) -> int:
        return sum(n for sql, n in self.statements.items() if text in sql)


@pytest.fixture
def writes(env: Env, monkeypatch: pytest.MonkeyPatch) -> Writes:
    counted = Writes()
    run = SqlTransaction._all  # every statement of both backends goes through it

    async def statement(self: SqlTransaction, sql: str, params: Sequence[Any] = ()) -> Any:
        if counted.on:
            counted.statements[" ".join(sql.split())] += 1
        return await run(self, sql, params)

    monkeypatch.setattr(SqlTransaction, "_all", statement)
    for name in ("transaction", "lazy_transaction"):
        real = getattr(env.repo, name)

        def opening(*args: Any, real: Any = real, name: str = name) -> Any:
            @asynccontextmanager
            async def counting() -> AsyncIterator[Any]:
                if counted.on and not counted.depth:
                    counted.transactions[name] += 1
                counted.depth += 1  # a transaction it opens to run it is not counted
                entered = False
                try:
                    async with real(*args) as tx:
                        counted.depth -= 1
                        entered = True
                        yield tx
                finally:
                    if not entered:
                        counted.depth -= 1

            return counting()

        monkeypatch.setattr(env.repo, name, opening)
    return counted


async def _resolved(env: Env) -> int:
    """A campaign whose first round has just resolved, its announcements undelivered."""
    cid = await env.campaign()
    await env.worker().deliver_due()
    rng = random.Random(5)
    round_id = await env.fill(cid, JAP, rng)
    await env.fill(cid, ALL, rng)
    await env.svc.lock(cid, JAP, round_id)
    await env.worker().deliver_due()  # the round message as the first Lock left it
    await env.svc.lock(cid, ALL, round_id)
    await env.svc.settle()
    return cid


async def test_a_resolutions_rows_are_marked_in_one_write(env: Env, writes: Writes) -> None:
    cid = await _resolved(env)
    sent = len(env.sender.sent)
    writes.on = True
    report = await env.worker().deliver_due()
    writes.on = False
    told = env.sender.sent[sent:]
    edits = [a for _, a, edited in told if edited is not None]
    new = [a for _, a, edited in told if edited is None and a.edit_of is not None]
    # The old round's message and its two panels edited; the reveal posted; the new
    # round's message and panels posted, each under the key its later edits go to.
    assert report.delivered == len(told) >= 6
    assert len(edits) == 3 and len(new) == 3, [(a.kind, e) for _, a, e in told]
    # The claim, then one lazy write marking every row, the new messages' references
    # with them (until session 22, one durable write for each new message).
    assert writes.transactions["lazy_transaction"] == 2, writes.transactions
    assert writes.transactions["transaction"] == 0, writes.transactions
    # The edits of known messages rewrote no reference; the new ones wrote theirs.
    assert writes.count("INSERT INTO message_refs") == len(new), writes.statements
    assert writes.count("SET status = 'delivered'") == report.delivered
    async with env.repo.read() as tx:
        rows = await tx.outbox(cid)
        stored = await tx.message_refs(cid, [a.edit_of or "" for a in new])
        campaign = await tx.campaign(cid)
        live = await tx.live_round(cid)
    assert {row.status for row in rows} == {"delivered"}
    by_message = {row.delivered_id for row in rows if row.kind == "dm-panel"}
    assert len(by_message) == 4  # two panels closed, two new ones
    # Each new message is found under its key once the batch is through: the next edits
    # of the new round's message and panels go to them, not to new posts.
    posted = {row.message_key: row.delivered_id for row in rows if row.status == "delivered"}
    assert stored == {a.edit_of: posted[a.edit_of] for a in new}, (stored, posted)
    assert campaign is not None and live is not None
    assert campaign.round_message_id == stored[f"round:{live.id}"] == live.message_id


async def test_rows_sent_before_a_cancelled_batch_are_marked(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The batch's marks are written even when it stops half way (a shutdown cancels the
    pump): the rows already sent are not sent again."""
    cid = await _resolved(env)
    send = env.sender.send
    calls = 0

    async def cancelled_third(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise asyncio.CancelledError
        return await send(*args, **kwargs)

    monkeypatch.setattr(env.sender, "send", cancelled_third)
    before = len(env.sender.sent)
    with pytest.raises(asyncio.CancelledError):
        await env.worker().deliver_due()
    sent = [target.outbox_id or 0 for target, _, _ in env.sender.sent[before:]]
    assert len(sent) == 2
    async with env.repo.read() as tx:
        rows = {row.id: row for row in await tx.outbox(cid)}
    assert [rows[item].status for item in sent] == ["delivered", "delivered"]
    assert any(row.status == "pending" for row in rows.values())  # the rest: not sent yet

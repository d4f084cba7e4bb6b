"""What a delivery reads, counted: the rows of one batch are told from one read.

A resolving Lock queues the old round's message and panels, the reveal, the new round's
message and panels (and at a turn's end its reports and summary): every one of them is
told from the same campaign, rounds, locks, roster and snapshots. The worker reads them
in one read transaction for the whole batch, each row of the store once, and where the
edited messages are in one more; the work grows with what the batch tells of, not with
how many rows tell it. Counted in transactions and statements, never timed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import pytest

from bot.service_notify import gm_notice, notify
from db.sql import SqlTransaction
from tests.service.support import ALL, GM, JAP, Env


class Reads:
    """Read transactions opened, and the statements run in them, while ``on`` (a write
    transaction's own reads, such as the live round checked as a delivery is marked, are
    not the facts' and are left out)."""

    def __init__(self) -> None:
        self.on = False
        self.inside = 0  # read transactions open now
        self.transactions = 0
        self.selects: Counter[tuple[str, tuple[Any, ...]]] = Counter()

    @contextmanager
    def counting(self) -> Iterator[None]:
        self.on = True
        try:
            yield
        finally:
            self.on = False

    def repeated(self) -> list[tuple[str, tuple[Any, ...]]]:
        """The statements run more than once with the same values: a row read twice."""
        return [statement for statement, count in self.selects.items() if count > 1]

    def count(self, text: str) -> int:
        return sum(n for (sql, _), n in self.selects.items() if text in sql)


@pytest.fixture
def reads(env: Env, monkeypatch: pytest.MonkeyPatch) -> Reads:
    counted = Reads()
    run = SqlTransaction._all  # every statement of both backends goes through it

    async def statement(self: SqlTransaction, sql: str, params: Sequence[Any] = ()) -> Any:
        if counted.on and counted.inside:
            counted.selects[(sql, tuple(params))] += 1
        return await run(self, sql, params)

    monkeypatch.setattr(SqlTransaction, "_all", statement)
    read = env.repo.read

    @asynccontextmanager
    async def reading() -> AsyncIterator[Any]:
        if counted.on:
            counted.transactions += 1
        async with read() as tx:
            counted.inside += 1
            try:
                yield tx
            finally:
                counted.inside -= 1

    monkeypatch.setattr(env.repo, "read", reading)
    return counted


async def test_a_resolutions_announcements_are_read_in_one_transaction(
    env: Env, reads: Reads
) -> None:
    cid = await env.campaign()
    worker = env.worker()
    await worker.deliver_due()  # the card, the first round's message and panels
    round_id = await env.fill(cid, JAP)
    await env.svc.lock(cid, JAP, round_id)
    await env.svc.lock(cid, ALL, await env.fill(cid, ALL))  # resolves the round
    await env.svc.settle()
    sent = len(env.sender.sent)
    with reads.counting():
        report = await worker.deliver_due()
    told = env.sender.kinds()[sent:]
    assert report.delivered == len(told) >= 5, told
    assert {"reveal", "round-message", "dm-panel"} <= set(told)
    # The facts of every row in one read, the messages they edit in another.
    assert reads.transactions == 2
    # Each row of the store read once for the batch: the campaign, the rounds, the locks,
    # the roster, the snapshot (the per-row code read them again for every row).
    assert reads.repeated() == []
    assert reads.count("FROM campaigns WHERE id") == 1
    assert reads.count("FROM message_refs") == 1


async def test_more_rows_of_a_campaign_cost_no_more_reads(env: Env, reads: Reads) -> None:
    """Ten notices to the GM are told from one read of their campaign, as one is."""
    cid = await env.campaign(start=False)
    worker = env.worker()
    await worker.deliver_due()  # the card

    async def delivered(notices: int) -> tuple[int, int]:
        async with env.repo.transaction() as tx:
            campaign = await tx.campaign(cid)
            assert campaign is not None
            for index in range(notices):
                await gm_notice(tx, campaign, "use-orders", 0, user=JAP + index, side="allied")
        reads.transactions = 0
        reads.selects.clear()
        with reads.counting():
            report = await worker.deliver_due()
        assert report.delivered == notices
        return reads.transactions, sum(reads.selects.values())

    one = await delivered(1)
    ten = await delivered(10)
    assert ten == one  # the same transactions and statements for ten rows as for one
    assert one[0] == 1  # the facts' read; a notice edits no message: nothing else to read


async def test_a_row_whose_reads_fail_leaves_the_rest_of_its_batch_delivered(
    env: Env, reads: Reads
) -> None:
    """A row pointing at a snapshot that is not there fails alone: it is retried, the rows
    queued after it (another destination) are read in a fresh transaction and delivered."""
    cid = await env.campaign(start=False)
    worker = env.worker()
    await worker.deliver_due()  # the card
    async with env.repo.transaction() as tx:
        campaign = await tx.campaign(cid)
        assert campaign is not None
        await notify(tx, campaign, "report", {"snapshot_id": 10**9, "turn": 1, "index": 0}, 0)
        await gm_notice(tx, campaign, "use-orders", 0, user=JAP, side="allied")
        notice = {"notice": "use-orders", "params": {"user": ALL, "side": "japanese"}}
        await notify(tx, campaign, "gm-notice", {**notice, "gm_id": GM}, 0, dm_user=GM)
    with reads.counting():
        report = await worker.deliver_due()
    # The report and the notice behind it in the channel wait; the GM's DM goes out.
    assert (report.delivered, report.retried) == (1, 1)
    assert env.sender.kinds()[-1] == "gm-notice"
    assert reads.transactions == 2  # the failed one, then a fresh one for the rest

"""The outbox lease: short, so that a row stranded by a dead worker is re-sent soon (inside
Discord's nonce window), and renewed while a live worker is still sending its batch, so that
a slow batch is never taken over by a second worker."""

from __future__ import annotations

from collections import Counter

from bot.announce import Announcement
from bot.clock import ManualClock, epoch
from bot.outbox import LEASE_SECONDS, OutboxWorker, Target
from db.repository import NewOutbox, OutboxRow
from tests.service.support import Env, RecordingSender


async def plain(row: OutboxRow) -> Announcement:
    return Announcement(kind=row.kind, text=str(row.id))


class SlowSender:
    """Each post takes ``seconds`` of the clock; during it, another worker tries its luck."""

    def __init__(self, clock: ManualClock, seconds: int, rival: OutboxWorker) -> None:
        self.clock, self.seconds, self.rival = clock, seconds, rival
        self.posted: list[int] = []

    async def send(
        self, target: Target, announcement: Announcement, *, edit_message_id: int | None
    ) -> int | None:
        self.clock.advance(self.seconds)
        await self.rival.deliver_due()  # must find nothing: these rows are being sent
        assert target.outbox_id is not None
        self.posted.append(target.outbox_id)
        return 70_000 + target.outbox_id


async def _queue(env: Env, count: int) -> None:
    now = epoch(env.clock.now())
    async with env.repo.transaction() as tx:
        for n in range(count):
            await tx.enqueue(None, NewOutbox("gm-notice", "channel", 500, {"n": n}), now)


async def test_a_slow_batch_keeps_its_rows(env: Env, clock: ManualClock) -> None:
    await _queue(env, 4)
    rival_sender = RecordingSender()
    rival = OutboxWorker(env.repo, rival_sender, clock, builder=plain)
    # Each post takes 40% of a lease: without renewal the rival takes over at the third.
    slow = SlowSender(clock, LEASE_SECONDS * 2 // 5, rival)
    worker = OutboxWorker(env.repo, slow, clock, builder=plain)
    report = await worker.deliver_due()
    assert report.delivered == 4
    assert rival_sender.sent == []
    assert sorted(Counter(slow.posted).values()) == [1, 1, 1, 1]
    async with env.repo.read() as tx:
        assert {row.status for row in await tx.outbox()} == {"delivered"}


async def test_rows_of_a_dead_worker_come_back_within_a_lease(env: Env, clock: ManualClock) -> None:
    await _queue(env, 2)
    now = epoch(clock.now())
    async with env.repo.transaction() as tx:
        claimed = await tx.claim_outbox(now, now + LEASE_SECONDS, 10)  # then the worker dies
    assert len(claimed) == 2
    other = OutboxWorker(env.repo, env.sender, clock, builder=plain)
    clock.advance(LEASE_SECONDS - 1)
    assert (await other.deliver_due()).delivered == 0
    clock.advance(1)
    assert (await other.deliver_due()).delivered == 2
    # Well inside "the past few minutes" in which Discord answers a repeated nonce with the
    # message it already made.
    assert LEASE_SECONDS <= 60

"""The outbox posts nothing before what queued it is stored for good.

A write that waits for the disk (a Lock, a resolution) is answered once its group of
writes is committed. The outbox's claim is a write that does not wait (a lease is
bookkeeping); queued behind such a write on the store's writer, it used to join that
write's open group, read the rows it queued before they were committed, and post them:
a reveal could be on Discord while the resolution it tells of was still one failed
COMMIT (or one crash) away from never having happened.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.clock import epoch
from bot.outbox import OutboxWorker
from bot.service_notify import refresh_card
from db.sqlite import SqliteRepository
from tests.service.support import Env


async def _claim_behind_a_durable_write(
    env: Env, worker: OutboxWorker, cid: int
) -> tuple[asyncio.Task[None], asyncio.Task[Any]]:
    """A durable write queueing a card refresh, held open while the outbox's claim queues
    behind it on the writer, then let go: (the write, the delivery), both running."""
    held = asyncio.Event()
    go_on = asyncio.Event()

    async def queue_a_card() -> None:
        # As a service's durable write: a card refresh queued in the transaction.
        async with env.repo.transaction(cid) as tx:
            campaign = await tx.campaign(cid)
            assert campaign is not None
            await refresh_card(tx, campaign, epoch(env.clock.now()))
            held.set()
            await go_on.wait()  # the writer held while the outbox's claim queues behind

    writing = asyncio.create_task(queue_a_card())
    await asyncio.wait_for(held.wait(), 10)
    delivering = asyncio.create_task(worker.deliver_due())
    for _ in range(5):
        await asyncio.sleep(0)  # the claim now waits for the writer
    go_on.set()
    return writing, delivering


async def test_a_row_is_posted_only_once_the_write_that_queued_it_is_committed(
    env: Env,
) -> None:
    cid = await env.campaign(start=False)
    worker = env.worker()
    await worker.deliver_due()  # the campaign's first card, out of the way
    assert len(env.sender.sent) == 1

    seen_at_send: list[int] = []
    real_send = env.sender.send

    async def send(target: Any, announcement: Any, *, edit_message_id: int | None) -> int | None:
        # What anyone else reading the store finds at the moment of the post.
        async with env.repo.read() as tx:
            seen_at_send.append(len(await tx.outbox(cid)))
        return await real_send(target, announcement, edit_message_id=edit_message_id)

    env.sender.send = send  # type: ignore[method-assign]
    writing, delivering = await _claim_behind_a_durable_write(env, worker, cid)
    await asyncio.gather(writing, delivering)
    if not env.sender.sent[1:]:
        # The claim ran before the row was queued (a store whose writers do not queue
        # behind one another this way): the next batch posts it.
        await worker.deliver_due()
    assert [a.kind for _, a, _ in env.sender.sent] == ["campaign-card", "campaign-card"]
    # The queued row was readable by everyone when it was posted: it was committed.
    assert seen_at_send == [2], seen_at_send


async def test_a_row_whose_write_fails_to_commit_is_never_posted(env: Env) -> None:
    """The write the claim shared its commit with fails on the disk (full, say): its
    caller gets the error, and the card it queued is neither posted nor left to post."""
    if not isinstance(env.repo, SqliteRepository):
        pytest.skip("a store whose writes never share a commit")
    cid = await env.campaign(start=False)
    worker = env.worker()
    await worker.deliver_due()
    assert len(env.sender.sent) == 1
    repo = env.repo
    real_commit = repo._commit
    failed: list[bool] = []

    def commit() -> None:
        if repo._writer.in_transaction and not failed:
            failed.append(True)
            repo._writer.execute("ROLLBACK")
            raise OSError("disk full")
        real_commit()

    repo._commit = commit  # type: ignore[method-assign]
    writing, delivering = await _claim_behind_a_durable_write(env, worker, cid)
    results = await asyncio.gather(writing, delivering, return_exceptions=True)
    repo._commit = real_commit  # type: ignore[method-assign]
    assert failed and isinstance(results[0], OSError), results
    assert len(env.sender.sent) == 1  # nothing posted for the write that was lost
    await worker.deliver_due()
    assert len(env.sender.sent) == 1  # and nothing left behind to post later
    async with env.repo.read() as tx:
        assert [r.status for r in await tx.outbox(cid)] == ["delivered"]

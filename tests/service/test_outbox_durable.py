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

from bot.clock import epoch
from bot.service_notify import refresh_card
from tests.service.support import Env


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
    await asyncio.gather(writing, delivering)
    if not env.sender.sent[1:]:
        # The claim ran before the row was queued (a store whose writers do not queue
        # behind one another this way): the next batch posts it.
        await worker.deliver_due()
    assert [a.kind for _, a, _ in env.sender.sent] == ["campaign-card", "campaign-card"]
    # The queued row was readable by everyone when it was posted: it was committed.
    assert seen_at_send == [2], seen_at_send

"""The outbox: retries with backoff, delivered only with a message id, closed DMs."""

from __future__ import annotations

from bot.clock import ManualClock
from bot.outbox import STUCK_ATTEMPTS, backoff
from tests.service.support import ALL, CHANNEL, GM, JAP, Env


async def _rows(env: Env, cid: int) -> list[tuple[str, str, int]]:
    async with env.repo.read() as tx:
        return [(r.kind, r.status, r.attempts) for r in await tx.outbox(cid)]


async def test_retries_with_exponential_backoff(env: Env, clock: ManualClock) -> None:
    cid = await env.campaign(start=False)
    worker = env.worker()
    env.sender.fail_times = 2
    report = await worker.deliver_due()
    assert (report.delivered, report.retried) == (0, 1)
    assert await _rows(env, cid) == [("campaign-card", "pending", 1)]
    clock.advance(backoff(1) - 1)
    assert (await worker.deliver_due()).retried == 0  # not due yet: nothing is attempted
    assert env.sender.fail_times == 1  # unchanged since the first failure
    clock.advance(1)
    assert (await worker.deliver_due()).retried == 1  # second failure
    clock.advance(backoff(2) - 1)
    assert (await worker.deliver_due()).delivered == 0
    clock.advance(1)
    assert (await worker.deliver_due()).delivered == 1
    assert await _rows(env, cid) == [("campaign-card", "delivered", 3)]
    assert backoff(1) < backoff(2) < backoff(3) and backoff(40) == 3600


async def test_delivered_only_with_a_message_id(env: Env, clock: ManualClock) -> None:
    cid = await env.campaign(start=False)
    worker = env.worker()
    env.sender.return_none = True
    await worker.deliver_due()
    assert await _rows(env, cid) == [("campaign-card", "pending", 1)]
    env.sender.return_none = False
    clock.advance(3600)
    await worker.deliver_due()
    async with env.repo.read() as tx:
        row = (await tx.outbox(cid))[0]
        campaign = await tx.campaign(cid)
    assert row.status == "delivered" and row.delivered_id is not None
    assert campaign is not None and campaign.card_message_id == row.delivered_id


async def test_never_gives_up_tells_the_gm_after_an_hour_and_redelivers(
    env: Env, clock: ManualClock
) -> None:
    """A channel Discord refuses for hours: the card is retried hourly without end, the GM
    gets one DM after about an hour, and /campaign redeliver retries at once."""
    cid = await env.campaign(start=False)
    worker = env.worker()
    env.sender.fail_times = 10_000
    for _ in range(STUCK_ATTEMPTS + 6):
        await worker.deliver_due()
        clock.advance(3600)
    async with env.repo.read() as tx:
        rows = await tx.outbox(cid)
    card = next(r for r in rows if r.kind == "campaign-card")
    assert card.status == "pending" and card.attempts >= STUCK_ATTEMPTS + 1
    stuck = [r for r in rows if r.kind == "gm-notice" and r.target_kind == "dm"]
    assert [(r.target_id, r.payload["notice"]) for r in stuck] == [(GM, "delivery-stuck")]
    # Discord is back; the GM does not wait for the next hourly try.
    env.sender.fail_times = 0
    assert await env.svc.redeliver(cid, GM) >= 1
    await worker.deliver_due()
    assert "campaign-card" in env.sender.kinds()
    await _refused_gm(env, cid)


async def test_a_failing_row_holds_back_later_rows_of_the_same_channel(
    env: Env, clock: ManualClock
) -> None:
    await env.campaign()
    worker = env.worker()
    env.sender.fail_times = 1
    await worker.deliver_due()
    # the card failed: the channel's round message waits; the DMs went out
    assert [(t.kind, a.kind) for t, a, _ in env.sender.sent] == [
        ("dm", "dm-panel"),
        ("dm", "dm-panel"),
    ]
    clock.advance(backoff(1))
    await worker.deliver_due()
    assert [a.kind for _, a, _ in env.sender.sent][2:] == ["campaign-card", "round-message"]


async def test_round_message_is_one_message_edited(env: Env) -> None:
    cid = await env.campaign()
    worker = env.worker()
    await worker.deliver_due()
    round_id = await env.fill(cid, JAP)
    await env.svc.lock(cid, JAP, round_id)
    await worker.deliver_due()
    await env.svc.lock(cid, ALL, await env.fill(cid, ALL))
    await worker.deliver_due()
    channel = [(a.kind, edit, a.edit_of) for t, a, edit in env.sender.sent if t.id == CHANNEL]
    first_round = [c for c in channel if c[2] == f"round:{round_id}"]
    assert len(first_round) == 3
    posted = first_round[0]
    assert posted[1] is None  # created once...
    assert all(edit is not None for _, edit, _ in first_round[1:])  # ...then edited
    texts = [a.text for _, a, _ in env.sender.sent if a.edit_of == f"round:{round_id}"]
    assert "🔒" in texts[1] and "revealed" in texts[2]
    kinds = [k for k, _, _ in channel]
    assert kinds.index("reveal") < len(kinds) - 1  # then the next round's message
    assert kinds[-1] == "round-message"


async def test_closed_dm_marks_the_player_and_tells_the_channel(
    env: Env, clock: ManualClock
) -> None:
    cid = await env.campaign()
    env.sender.closed_dms.add(ALL)
    worker = env.worker()
    await worker.deliver_due()
    waiting = {s.side: s for s in await env.svc.waiting(cid)}
    assert waiting["allied"].dm_ok is False and waiting["japanese"].dm_ok is True
    await worker.deliver_due()  # the notice queued by the failure
    notices = [a.text for t, a, _ in env.sender.sent if a.kind == "gm-notice"]
    assert len(notices) == 1 and f"<@{ALL}>" in notices[0] and "/orders" in notices[0]
    assert f"<@{GM}>" in notices[0]
    async with env.repo.read() as tx:
        failed = [r for r in await tx.outbox(cid) if r.status == "failed"]
    assert [(r.kind, r.target_id) for r in failed] == [("dm-panel", ALL)]
    # Next round: no DM attempt for the closed player, a pointer to /orders instead.
    await env.play_round(cid)
    await worker.deliver_due()
    assert not [t for t, a, _ in env.sender.sent if t.kind == "dm" and t.id == ALL]
    assert sum(1 for _, a, _ in env.sender.sent if a.kind == "gm-notice") == 2
    # A reminder to that player is posted in the channel, by mention.
    clock.advance(hours=18, seconds=1)
    await env.svc.tick()
    await worker.deliver_due()
    reminders = [(t.kind, a.text) for t, a, _ in env.sender.sent if a.kind == "reminder"]
    assert ("channel", reminders[-1][1]) == reminders[-1] and f"<@{ALL}>" in reminders[-1][1]


async def _refused_gm(env: Env, cid: int) -> None:
    from bot.service_model import ServiceError

    try:
        await env.svc.redeliver(cid, JAP)
    except ServiceError as error:
        assert error.code == "not-gm"
    else:
        raise AssertionError("a player could trigger a redelivery")

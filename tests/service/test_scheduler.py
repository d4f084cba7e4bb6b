"""Deadlines and reminders: rows in the database, fired by tick() as the clock moves."""

from __future__ import annotations

from datetime import timedelta

from bot.clock import ManualClock
from engine.rulesets.carrier import campaign as rules
from engine.zero.types import Side
from tests.service.support import ALL, GM, JAP, Env, pace


async def _reminders(env: Env, cid: int) -> list[dict[str, object]]:
    async with env.repo.read() as tx:
        return [r.payload for r in await tx.outbox(cid) if r.kind == "reminder"]


async def test_reminder_goes_only_to_the_side_that_has_not_locked(
    env: Env, clock: ManualClock
) -> None:
    cid = await env.campaign(pace=pace(reminder_offsets=(6 * 3600, 3600)))
    round_id = await env.fill(cid, JAP)
    await env.svc.lock(cid, JAP, round_id)
    clock.advance(hours=18, seconds=1)  # the 6 h reminder is due
    assert (await env.svc.tick()).reminders == 1
    reminders = await _reminders(env, cid)
    assert [(r["side"], r["user_id"]) for r in reminders] == [("allied", ALL)]
    # Allied locks before the 1 h reminder: nobody is reminded again.
    await env.svc.lock(cid, ALL, await env.fill(cid, ALL))
    clock.advance(hours=5)
    assert (await env.svc.tick()).reminders == 0
    assert len(await _reminders(env, cid)) == 1


async def test_a_queued_reminder_is_dropped_if_the_side_locks_before_delivery(
    env: Env, clock: ManualClock
) -> None:
    cid = await env.campaign()
    worker = env.worker()
    await worker.deliver_due()
    clock.advance(hours=18, seconds=1)
    await env.svc.tick()  # both sides reminded
    await env.svc.lock(cid, JAP, await env.fill(cid, JAP))
    await worker.deliver_due()
    reminded = [t.id for t, a, _ in env.sender.sent if a.kind == "reminder"]
    assert reminded == [ALL]


async def test_deadline_applies_defaults_and_tells_the_gm(env: Env, clock: ManualClock) -> None:
    cid = await env.campaign()
    round_id = await env.fill(cid, JAP)
    await env.svc.lock(cid, JAP, round_id)
    await env.svc.draft(cid, ALL, round_id, "fleet_tactic", "long")  # drafted, never locked
    before = await env.svc.status(cid)
    clock.advance(days=1)
    result = await env.svc.tick()
    assert (result.deadlines, result.resolved) == (1, 1)
    async with env.repo.read() as tx:
        lock = (await tx.standing_locks(round_id))["allied"]
        notices = [r.payload for r in await tx.outbox(cid) if r.kind == "gm-notice"]
    # policy "default": the engine's Decision.default for every field, drafts ignored
    from engine.rulesets.carrier.state import State

    async with env.repo.read() as tx:
        rnd = await tx.round(round_id)
        assert rnd is not None
        snap = await tx.snapshot(rnd.snapshot_before_id)
    assert snap is not None
    expected = rules.defaults(rules.pending(env.catalog, State.model_validate_json(snap.state)))[
        Side.ALLIED
    ]
    from bot.service_model import choice_of

    assert lock.defaulted and choice_of(lock.canonical) == expected
    assert notices == [
        {
            "campaign_id": cid,
            "gm_id": GM,
            "notice": "defaults",
            "params": {"round": "orders", "sides": ["allied"], "turn": 1, "why": "deadline"},
        }
    ]
    assert before.round is not None
    status = await env.svc.status(cid)
    assert status.round is not None and status.round.kind == "resource"
    # the GM's notice reads well
    await env.worker().deliver_due()
    texts = [a.text for _, a, _ in env.sender.sent if a.kind == "gm-notice"]
    assert texts == [
        f"<@{GM}> Turn 1 Orders: the deadline passed; default orders were used for Allied."
    ]


async def test_drafts_policy_uses_the_drafted_choice(env: Env, clock: ManualClock) -> None:
    cid = await env.campaign(pace=pace(missing_policy="drafts"))
    round_id = await env.fill(cid, JAP)
    await env.svc.lock(cid, JAP, round_id)
    await env.svc.draft(cid, ALL, round_id, "fleet_tactic", "long")
    clock.advance(days=1)
    await env.svc.tick()
    from bot.service_model import choice_of

    async with env.repo.read() as tx:
        lock = (await tx.standing_locks(round_id))["allied"]
    assert choice_of(lock.canonical)["fleet_tactic"] == "long"
    assert choice_of(lock.canonical)["flight_ops"] == "none"  # not drafted: the default


async def test_pause_stops_the_clock_and_resume_shifts_the_deadline(
    env: Env, clock: ManualClock
) -> None:
    cid = await env.campaign()
    status = await env.svc.status(cid)
    assert status.round is not None and status.round.deadline is not None
    deadline = status.round.deadline
    clock.advance(hours=2)
    await env.svc.pause(cid, GM, "server maintenance")
    clock.advance(days=3)
    result = await env.svc.tick()
    assert result.deadlines == 0 and result.reminders == 0
    resumed = await env.svc.resume(cid, GM)
    assert resumed is not None and resumed.deadline == deadline + timedelta(days=3)
    clock.advance(hours=21)
    assert (await env.svc.tick()).deadlines == 0
    clock.advance(hours=1)
    assert (await env.svc.tick()).deadlines == 1


async def test_extend_moves_deadline_and_reminders(env: Env, clock: ManualClock) -> None:
    cid = await env.campaign()
    info = await env.svc.extend(cid, GM, 12 * 3600, "weekend")
    status = await env.svc.status(cid)
    assert status.round is not None and info.deadline == status.round.deadline
    clock.advance(hours=18, seconds=1)  # the old reminder time
    assert (await env.svc.tick()).reminders == 0
    clock.advance(hours=12)
    assert (await env.svc.tick()).reminders == 2
    clock.advance(hours=6)
    assert (await env.svc.tick()).deadlines == 1
    async with env.repo.read() as tx:
        assert [a.what for a in await tx.audit(cid)] == ["create", "extend"]


async def test_resolve_now_uses_defaults_and_is_audited(env: Env) -> None:
    cid = await env.campaign()
    round_id = await env.fill(cid, JAP)
    await env.svc.lock(cid, JAP, round_id)
    filled = await env.svc.resolve_now(cid, GM, "allied player away")
    assert filled == [Side.ALLIED]
    assert [e.kind for e in await env.engine_events(cid, round_id)] == ["orders-revealed"]
    async with env.repo.read() as tx:
        audit = [(a.who, a.what, a.why) for a in await tx.audit(cid)]
    assert audit[-1] == (GM, "resolve-now", "allied player away")


async def test_timers_survive_a_restart(env: Env, clock: ManualClock) -> None:
    cid = await env.campaign()
    await env.close()
    clock.advance(days=1, seconds=5)  # the bot was down when the deadline passed
    await env.open()
    result = await env.svc.recover()
    assert result.deadlines == 1 and result.resolved == 1
    panel = await env.svc.panel(cid, JAP)
    assert panel.kind == "resource"

"""Who may sit, see and commit: seats after the start, Lock's version check, the GM's peek,
campaign creation, and whom an announcement pings."""

from __future__ import annotations

import pytest

from bot.service_model import ADMIN_ROLE, Pace, ServiceError
from tests.service.support import ALL, CHANNEL, GM, GUILD, JAP, Env


async def _refused(call: object, code: str) -> None:
    with pytest.raises(ServiceError) as caught:
        await call  # type: ignore[misc]
    assert caught.value.code == code


async def test_a_started_campaign_is_joined_only_through_the_gm(env: Env) -> None:
    cid = await env.campaign()
    await _refused(env.svc.join(cid, 33, "japanese"), "join-needs-gm")
    assert 33 not in {p.user_id for p in (await env.svc.info(cid)).players}
    # The GM seats them; the log says so, and the audit trail says who and why.
    await env.svc.add_player(cid, GM, 33, "japanese", reason="late arrival")
    async with env.repo.read() as tx:
        assert any(e.kind == "player-joined" and e.data["user"] == 33 for e in await tx.events(cid))
        assert [(a.what, a.why) for a in await tx.audit(cid)][-1] == ("add-player", "late arrival")


async def test_a_teammate_seated_mid_round_sees_the_drafts_from_the_next_round(
    env: Env,
) -> None:
    cid = await env.campaign()
    rid = await env.fill(cid, JAP)  # the commander's drafts, secret in progress
    env.clock.advance(minutes=5)
    await env.svc.add_player(cid, GM, 33, "japanese")
    await _refused(env.svc.panel(cid, 33), "joined-mid-round")
    await _refused(env.svc.draft(cid, 33, rid, "fleet_tactic", "close"), "joined-mid-round")
    await env.svc.lock(cid, JAP, rid)
    await env.svc.lock(cid, ALL, await env.fill(cid, ALL))
    panel = await env.svc.panel(cid, 33)  # the next round: a full member of the side
    assert panel.side == "japanese" and panel.round_id != rid


async def test_a_removed_player_cannot_seat_themselves_again(env: Env) -> None:
    cid = await env.campaign(start=False)
    await env.svc.join(cid, 33, "allied")
    await env.svc.kick(cid, GM, 33, "spoiler")
    await _refused(env.svc.join(cid, 33, "japanese"), "join-needs-gm")
    await _refused(env.svc.join(cid, 33, "allied"), "join-needs-gm")


async def test_lock_commits_only_the_drafts_the_panel_showed(env: Env) -> None:
    cid = await env.campaign(start=False)
    await env.svc.join(cid, 33, "japanese")
    await env.svc.start(cid, GM)
    rid = await env.fill(cid, JAP)
    seen = (await env.svc.panel(cid, JAP)).version
    # A teammate changes a pick after the commander's panel was drawn.
    await env.svc.draft(cid, 33, rid, "doctrine", "aggressive")
    await _refused(env.svc.lock(cid, JAP, rid, version=seen), "panel-outdated")
    async with env.repo.read() as tx:
        assert await tx.standing_locks(rid) == {}
    fresh = await env.svc.panel(cid, JAP)
    assert fresh.drafts["doctrine"] == "aggressive"
    assert (await env.svc.lock(cid, JAP, rid, version=fresh.version)).receipt


async def test_a_gm_who_plays_cannot_peek(env: Env) -> None:
    cid = await env.campaign(pace=Pace(gm_sees_secrets=True), start=False)
    await env.svc.add_player(cid, GM, GM, "allied")
    await env.svc.start(cid, GM)
    await _refused(env.svc.peek(cid, GM), "gm-plays")
    # An administrator who plays is refused the same way; one who does not may look.
    await _refused(env.svc.peek(cid, JAP, roles=(ADMIN_ROLE,)), "gm-plays")
    assert set(await env.svc.peek(cid, 77, roles=(ADMIN_ROLE,))) == {"japanese", "allied"}


async def test_the_card_says_whether_the_gm_sees_secrets(env: Env) -> None:
    await env.campaign(pace=Pace(gm_sees_secrets=True))
    await env.worker().deliver_due()
    card = next(a for _, a, _ in env.sender.sent if a.kind == "campaign-card")
    assert "GM may look at the sides' orders" in card.text


async def test_who_may_create_campaigns_is_a_server_setting(env: Env) -> None:
    role = 555
    assert not await env.svc.may_create(GUILD, (), manager=False)
    assert await env.svc.may_create(GUILD, (), manager=True)  # Manage Server
    assert await env.svc.may_create(GUILD, (ADMIN_ROLE,), manager=False)
    await env.svc.set_gm_role(GUILD, role)
    assert await env.svc.may_create(GUILD, (role,), manager=False)
    await env.svc.set_creators(GUILD, "everyone", by=GM)
    assert await env.svc.may_create(GUILD, (), manager=False)
    assert not await env.svc.may_create(GUILD + 1, (), manager=False)  # per server
    await _refused(env.svc.set_creators(GUILD, "anyone-at-all"), "bad-value")


async def test_announcements_ping_only_whom_they_mean(env: Env) -> None:
    cid = await env.campaign()
    worker = env.worker()
    await worker.deliver_due()
    assert all(a.mentions == () for _, a, _ in env.sender.sent)  # card, round message, panels
    env.clock.advance(hours=19)  # past the 6 h reminder
    await env.svc.tick()
    await worker.deliver_due()
    reminders = [a for _, a, _ in env.sender.sent if a.kind == "reminder"]
    assert {a.mentions for a in reminders} == {(JAP,), (ALL,)}
    await env.svc.end(cid, GM, "@everyone <@&123> <@999> we stop here")
    await worker.deliver_due()
    for target, announcement, _ in env.sender.sent:
        assert 999 not in announcement.mentions
        if target.id == CHANNEL and "we stop" in announcement.text:
            assert announcement.mentions in ((), (GM,))


async def test_a_gm_request_is_answered_once_by_its_asker_before_it_expires(env: Env) -> None:
    cid = await env.campaign()
    rid = await env.svc.ask(cid, GM, "pause", {}, "lunch")
    await _refused(env.svc.answer(cid, rid, JAP, confirm=True), "request-not-yours")
    request = await env.svc.answer(cid, rid, GM, confirm=True)
    assert (request.action, request.reason) == ("pause", "lunch")
    await _refused(env.svc.answer(cid, rid, GM, confirm=True), "request-answered")
    late = await env.svc.ask(cid, GM, "resume", {}, "")
    env.clock.advance(seconds=3601)
    await _refused(env.svc.answer(cid, late, GM, confirm=True), "request-expired")
    await _refused(env.svc.ask(cid, JAP, "end", {}, "mutiny"), "not-gm")

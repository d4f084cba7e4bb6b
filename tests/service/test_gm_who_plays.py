"""A GM who plays cannot read the other side (issue 30, item 1): no peek for anyone who ever
held a seat, no self-kick or self-seat while a round runs, every peek audited and shown to
the players; a kicked commander's queued panel is not drawn for him (item 2)."""

from __future__ import annotations

import pytest

from bot.service_model import ADMIN_ROLE, Pace, ServiceError
from tests.service.support import ALL, GM, JAP, Env

CO_GM = 77  # an administrator: a GM of every campaign of the server


async def _refused(call: object, code: str) -> None:
    with pytest.raises(ServiceError) as caught:
        await call  # type: ignore[misc]
    assert caught.value.code == code


async def _gm_plays_allied(env: Env) -> int:
    """The GM seats himself on the Allied side before the start (allowed then)."""
    cid = await env.campaign(pace=Pace(gm_sees_secrets=True), start=False)
    await env.svc.kick(cid, GM, ALL, "the GM takes the Allied side")
    await env.svc.add_player(cid, GM, GM, "allied")
    await env.svc.start(cid, GM)
    return cid


async def test_a_gm_who_left_his_seat_still_cannot_peek(env: Env) -> None:
    cid = await _gm_plays_allied(env)
    await env.fill(cid, JAP)
    # Removed by another GM (the only way once the round runs): he held a seat, no peek.
    await env.svc.kick(cid, CO_GM, GM, "asked to step down", roles=(ADMIN_ROLE,))
    await _refused(env.svc.peek(cid, GM), "gm-plays")
    # A player who was removed and holds the GM role is refused the same way.
    await env.svc.kick(cid, CO_GM, JAP, "left the server", roles=(ADMIN_ROLE,))
    await _refused(env.svc.peek(cid, JAP, roles=(ADMIN_ROLE,)), "gm-plays")


async def test_no_gm_removes_or_seats_himself_while_a_round_runs(env: Env) -> None:
    cid = await _gm_plays_allied(env)
    await _refused(env.svc.kick(cid, GM, GM, "peek time"), "self-seat")
    await _refused(env.svc.substitute(cid, GM, GM, 55, "peek time"), "self-seat")
    assert GM in {p.user_id for p in (await env.svc.info(cid)).players}
    # Another GM (or an administrator) may remove him, and seat him again.
    await env.svc.kick(cid, CO_GM, GM, "asked to step down", roles=(ADMIN_ROLE,))
    await _refused(env.svc.add_player(cid, GM, GM, "allied"), "self-seat")
    await _refused(env.svc.substitute(cid, GM, JAP, GM, "I will play it"), "self-seat")
    assert GM not in {p.user_id for p in (await env.svc.info(cid)).players}
    await env.svc.add_player(cid, CO_GM, GM, "allied", roles=(ADMIN_ROLE,))
    assert GM in {p.user_id for p in (await env.svc.info(cid)).players}


async def test_an_administrator_is_held_to_the_same_rule(env: Env) -> None:
    cid = await env.campaign(pace=Pace(gm_sees_secrets=True))
    await _refused(
        env.svc.add_player(cid, CO_GM, CO_GM, "allied", roles=(ADMIN_ROLE,)), "self-seat"
    )
    await env.svc.add_player(cid, GM, CO_GM, "allied")
    await _refused(env.svc.kick(cid, CO_GM, CO_GM, "", roles=(ADMIN_ROLE,)), "self-seat")


async def test_every_peek_is_audited_and_listed_for_the_players(env: Env) -> None:
    cid = await env.campaign(pace=Pace(gm_sees_secrets=True))
    rid = await env.fill(cid, JAP)
    env.clock.advance(minutes=3)
    await env.svc.peek(cid, GM)
    async with env.repo.read() as tx:
        audit = [a for a in await tx.audit(cid) if a.what == "peek"]
    assert [(a.who, a.data["round"], a.data["turn"], a.data["kind"]) for a in audit] == [
        (GM, rid, 1, "orders")
    ]
    peeks = await env.svc.peeks(cid)
    assert [(p.by, p.turn, p.kind) for p in peeks] == [(GM, 1, "orders")]
    card = await env.svc.card(cid, "en")
    assert f"<@{GM}>" in card and "looked at the sides' orders" in card
    assert "a regardé les ordres" in await env.svc.card(cid, "fr")


async def test_a_kicked_commanders_queued_panel_is_not_drawn_for_him(env: Env) -> None:
    cid = await env.campaign()
    worker = env.worker()
    # An outage: the panels of the first round are still queued when the GM acts.
    await env.svc.kick(cid, GM, ALL, "gone quiet")
    await env.svc.add_player(cid, GM, 23, "allied")
    rid = await env.fill(cid, 23)  # the new commander's drafts, secret to the old one
    assert rid
    await worker.deliver_due()
    to_old = [a for target, a, _ in env.sender.sent if target.kind == "dm" and target.id == ALL]
    assert to_old == [], [a.text for a in to_old]
    to_new = [a for target, a, _ in env.sender.sent if target.kind == "dm" and target.id == 23]
    assert any(a.kind == "dm-panel" and a.panel is not None for a in to_new)

"""Drafting and locking secret orders: what a commander can and cannot do."""

from __future__ import annotations

import pytest

from bot.service_model import ServiceError, choice_of, receipt_of
from engine.zero.types import Side
from tests.service.support import ALL, GM, JAP, Env, pace


async def _refused(coro: object, code: str) -> ServiceError:
    with pytest.raises(ServiceError) as info:
        await coro  # type: ignore[misc]
    assert info.value.code == code, info.value
    return info.value


async def test_panel_lists_legal_options_and_drafts(env: Env) -> None:
    cid = await env.campaign()
    panel = await env.svc.panel(cid, JAP)
    assert panel.side == Side.JAPANESE and panel.turn == 1 and panel.kind == "orders"
    assert [d.field for d in panel.decisions] == ["fleet_tactic", "flight_ops", "doctrine"]
    assert panel.locked is False and panel.receipt is None and panel.drafts == {}
    assert panel.view.viewer is Side.JAPANESE
    await env.svc.draft(cid, JAP, panel.round_id, "fleet_tactic", "long")
    again = await env.svc.panel(cid, JAP)
    assert again.drafts == {"fleet_tactic": "long"}
    assert again.missing == ("flight_ops", "doctrine")


async def test_outsiders_get_no_panel(env: Env) -> None:
    cid = await env.campaign()
    await _refused(env.svc.panel(cid, 999), "not-player")
    await _refused(env.svc.draft(cid, 999, 1, "fleet_tactic", "long"), "not-player")


async def test_stale_round_draft_is_refused_and_changes_nothing(env: Env) -> None:
    cid = await env.campaign()
    first = (await env.svc.panel(cid, JAP)).round_id
    await env.play_round(cid)  # orders resolved: the resource round is open
    current = await env.svc.panel(cid, JAP)
    assert current.round_id != first
    error = await _refused(env.svc.draft(cid, JAP, first, "fleet_tactic", "close"), "stale-round")
    assert "over" in error.message("en")
    await _refused(env.svc.lock(cid, JAP, first), "stale-round")
    assert (await env.svc.panel(cid, JAP)).drafts == current.drafts == {}


async def test_illegal_option_is_refused_with_reason(env: Env) -> None:
    cid = await env.campaign()
    await env.close_range_turn(cid)  # turn 2 opens, after Close Range
    panel = await env.svc.panel(cid, JAP)
    assert panel.turn == 2
    await env.svc.draft(cid, JAP, panel.round_id, "fleet_tactic", "medium")
    error = await _refused(
        env.svc.draft(cid, JAP, panel.round_id, "fleet_tactic", "long"), "illegal-option"
    )
    assert error.params["reason"] == "after-close"
    assert "not after Close Range" in error.message("en")
    await _refused(
        env.svc.draft(cid, JAP, panel.round_id, "fleet_tactic", "warp"), "illegal-option"
    )
    await _refused(env.svc.draft(cid, JAP, panel.round_id, "resource", "3"), "unknown-field")
    assert (await env.svc.panel(cid, JAP)).drafts == {"fleet_tactic": "medium"}


async def test_lock_with_incomplete_draft_lists_missing_fields(env: Env) -> None:
    cid = await env.campaign()
    rid = (await env.svc.panel(cid, JAP)).round_id
    await env.svc.draft(cid, JAP, rid, "fleet_tactic", "medium")
    error = await _refused(env.svc.lock(cid, JAP, rid), "incomplete")
    assert error.params["missing"] == ["flight_ops", "doctrine"]
    assert "Flight Ops" in error.message("en") and "Doctrine" in error.message("en")
    panel = await env.svc.panel(cid, JAP)
    assert panel.locked is False


async def test_lock_gives_a_receipt_and_freezes_the_draft(env: Env) -> None:
    cid = await env.campaign()
    rid = await env.fill(cid, JAP)
    result = await env.svc.lock(cid, JAP, rid)
    assert result.resolved is False and len(result.receipt) == 64
    again = await env.svc.lock(cid, JAP, rid)  # a double click
    assert again.receipt == result.receipt and again.already_locked
    await _refused(env.svc.draft(cid, JAP, rid, "doctrine", "cautious"), "already-locked")
    receipts = await env.svc.receipts(cid, JAP)
    assert [r.receipt for r in receipts] == [result.receipt]
    assert receipts[0].opened is False and receipts[0].salt is None  # secret until the reveal


async def test_unlock_and_relock_makes_a_new_receipt(env: Env) -> None:
    cid = await env.campaign()
    rid = await env.fill(cid, JAP)
    first = await env.svc.lock(cid, JAP, rid)
    panel = await env.svc.unlock(cid, JAP, rid)
    assert panel.locked is False
    await env.svc.draft(cid, JAP, rid, "doctrine", "cautious")
    second = await env.svc.lock(cid, JAP, rid)
    assert second.receipt != first.receipt
    receipts = await env.svc.receipts(cid, JAP)
    assert [(r.receipt, r.withdrawn) for r in receipts] == [
        (first.receipt, True),
        (second.receipt, False),
    ]


async def test_unlock_refused_when_the_campaign_forbids_it(env: Env) -> None:
    cid = await env.campaign(pace=pace(allow_unlock=False))
    rid = await env.fill(cid, JAP)
    await env.svc.lock(cid, JAP, rid)
    assert (await env.svc.panel(cid, JAP)).can_unlock is False
    await _refused(env.svc.unlock(cid, JAP, rid), "unlock-not-allowed")


async def test_only_the_commander_locks(env: Env) -> None:
    cid = await env.campaign(start=False)
    await env.svc.join(cid, 33, Side.JAPANESE)  # second Japanese player, not commander
    await env.svc.start(cid, GM)
    rid = await env.fill(cid, 33)  # may draft for the side
    await _refused(env.svc.lock(cid, 33, rid), "not-commander")
    assert (await env.svc.lock(cid, JAP, rid)).receipt


async def test_receipt_opens_after_the_turn(env: Env) -> None:
    cid = await env.campaign()
    await env.play_round(cid)
    orders = (await env.svc.receipts(cid, JAP))[0]
    assert orders.opened is False  # the doctrine is secret until the strikes are flown
    await env.play_round(cid)
    for receipt in await env.svc.receipts(cid, JAP):
        assert receipt.opened and receipt.salt and receipt.canonical
        assert receipt_of(receipt.canonical, receipt.salt) == receipt.receipt
    assert "doctrine" in choice_of((await env.svc.receipts(cid, JAP))[0].canonical or "")


async def test_paused_campaign_freezes_orders(env: Env) -> None:
    cid = await env.campaign()
    rid = (await env.svc.panel(cid, JAP)).round_id
    await env.svc.pause(cid, GM, "holiday")
    await _refused(env.svc.draft(cid, JAP, rid, "fleet_tactic", "long"), "paused")
    await _refused(env.svc.pause(cid, JAP, "not the gm"), "not-gm")
    await env.svc.resume(cid, GM)
    await env.svc.draft(cid, JAP, rid, "fleet_tactic", "long")


async def test_setup_rules(env: Env) -> None:
    cid = await env.campaign(start=False)
    await _refused(env.svc.create_campaign(1, 500, 9, "coral-sea"), "channel-busy")
    await _refused(env.svc.create_campaign(1, 501, 9, "atlantis"), "unknown-scenario")
    await _refused(env.svc.join(cid, JAP, Side.ALLIED), "already-joined")
    await _refused(env.svc.start(cid, JAP), "not-gm")
    info = await env.svc.info(cid)
    assert info.seed is None and len(info.seed_commitment) == 64
    assert [(p.user_id, p.side, p.commander) for p in info.players] == [
        (JAP, Side.JAPANESE, True),
        (ALL, Side.ALLIED, True),
    ]
    await env.svc.start(cid, GM)
    await _refused(env.svc.start(cid, GM), "already-started")


async def test_start_needs_a_commander_on_each_side(env: Env) -> None:
    info = await env.svc.create_campaign(1, 777, GM, "midway")
    await env.svc.join(info.id, JAP, Side.JAPANESE)
    error = await _refused(env.svc.start(info.id, GM), "no-commander")
    assert error.params["side"] == "allied"


async def test_substitute_and_kick_move_command(env: Env) -> None:
    cid = await env.campaign(start=False)
    await env.svc.join(cid, 33, Side.JAPANESE)
    await env.svc.start(cid, GM)
    await env.svc.substitute(cid, GM, JAP, 33, "JAP on holiday")
    waiting = {s.side: s for s in await env.svc.waiting(cid)}
    assert waiting[Side.JAPANESE].commander_id == 33
    await env.svc.kick(cid, GM, 33, "inactive")
    waiting = {s.side: s for s in await env.svc.waiting(cid)}
    assert waiting[Side.JAPANESE].commander_id == JAP
    await env.svc.substitute(cid, GM, ALL, 44, "new player")
    waiting = {s.side: s for s in await env.svc.waiting(cid)}
    assert waiting[Side.ALLIED].commander_id == 44 and waiting[Side.ALLIED].players == (44,)
    await _refused(env.svc.panel(cid, ALL), "not-player")
    async with env.repo.read() as tx:
        assert [a.what for a in await tx.audit(cid)] == [
            "create",
            "substitute",
            "kick",
            "substitute",
        ]


async def test_gm_role_and_server_admins_act_as_gm(env: Env) -> None:
    from bot.service_model import ADMIN_ROLE

    cid = await env.campaign()
    assert not await env.svc.is_gm(cid, 55, roles=(777,))
    await env.svc.set_gm_role(1, 777, by=GM)
    assert await env.svc.gm_role(1) == 777
    assert await env.svc.is_gm(cid, 55, roles=(777,))
    assert await env.svc.is_gm(cid, 66, roles=(ADMIN_ROLE,))
    await env.svc.extend(cid, 66, 3600, "admin helps", roles=(ADMIN_ROLE,))
    await _refused(env.svc.extend(cid, 66, 3600, "no role"), "not-gm")


async def test_lock_returns_the_panel_it_leaves_and_refuses_another_sides_panel(
    env: Env,
) -> None:
    """The Lock answers with the locker's panel from its own transaction (the same panel a
    fresh read shows); a click on the other side's panel locks nothing."""
    cid = await env.campaign()
    rid = await env.fill(cid, JAP)
    await _refused(env.svc.lock(cid, JAP, rid, panel_side="allied"), "wrong-side")
    assert (await env.svc.panel(cid, JAP)).locked is False
    result = await env.svc.lock(cid, JAP, rid, panel_side="japanese")
    assert result.panel is not None
    assert result.panel == await env.svc.panel(cid, JAP)
    assert result.panel.locked and result.panel.receipt == result.receipt
    assert result.panel.view.viewer is Side.JAPANESE  # never the other side's view

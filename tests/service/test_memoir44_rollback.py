"""The GM overrules the table's word (issue 28: "the GM able to overrule and undo"): a
rollback takes the air war back to the start of a turn, hands and planes included, and the
replayed game still verifies."""

from __future__ import annotations

from bot.export import verify_export
from tests.service.support import GM, Env

ALLIES, AXIS = 31, 32
SEATS = ((ALLIES, "allies"), (AXIS, "axis"))


async def _draft_all(env: Env, cid: int, user: int, picks: dict[str, str]) -> None:
    panel = await env.svc.panel(cid, user)
    for decision in panel.decisions:
        value = picks.get(decision.field, decision.default)
        await env.svc.draft(cid, user, panel.round_id, decision.field, value)
    await env.svc.lock(cid, user, panel.round_id)


async def test_a_rollback_restores_the_turn_hands_and_plane(env: Env) -> None:
    cid = await env.campaign("western-1944", ruleset="memoir44", seed="rollback", seats=SEATS)
    opening = (await env.svc.panel(cid, ALLIES)).view
    assert opening.sides["allies"].hand is not None
    card = sorted(opening.sides["allies"].hand)[0]
    picks = {"command": "probe-centre", "card": card, "plane": "deploy-fighter"}
    await _draft_all(env, cid, ALLIES, picks)
    await _draft_all(env, cid, ALLIES, {})  # the flight: the first quick pick
    played = (await env.svc.status(cid)).view
    assert played.sides["allies"].plane is not None and card in played.discard
    assert (await env.svc.status(cid)).round.turn == 2  # type: ignore[union-attr]

    await env.svc.rollback(cid, GM, 1, "the entry hex was not in that section at our table")
    back = (await env.svc.panel(cid, ALLIES)).view
    assert back.turn == 1 and back.sides["allies"].plane is None and back.discard == ()
    assert back.sides["allies"].hand == opening.sides["allies"].hand

    await _draft_all(env, cid, ALLIES, {"command": "probe-left"})
    await env.svc.end(cid, GM, "test over")
    check = verify_export(await env.svc.export(cid))
    assert check.ok and check.replayed, check.problems

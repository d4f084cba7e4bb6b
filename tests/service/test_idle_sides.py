"""A side a round asks nothing of is locked when the round opens (issue 15).

In a Dambuster raid the Central Powers' guns and searchlights follow a standing order, so
the raid must go on when only the Lancaster's commander locks; a round nobody decides in
(a Wings turn without a pursuit) plays at once. The carrier, whose every round asks both
sides something, still waits for both.
"""

from __future__ import annotations

import pytest

from bot.i18n import t
from bot.logtext import describe
from bot.service_model import ServiceError
from tests.service.support import ALL, JAP, Env, pace

LANCASTER, GUNS = 11, 22


async def _raid(env: Env) -> int:
    seats = ((LANCASTER, "entente"), (GUNS, "central"))
    return await env.campaign("dambuster-eder", pace(), ruleset="wings", seed="idle", seats=seats)


async def test_a_dambuster_round_resolves_when_only_the_lancaster_locks(env: Env) -> None:
    cid = await _raid(env)
    guns = await env.svc.panel(cid, GUNS)
    assert guns.decisions == () and guns.locked  # nothing to decide: locked at the opening
    first = await env.svc.status(cid)
    assert first.round is not None and first.round.kind == "program"
    round_id = await env.fill(cid, LANCASTER)
    result = await env.svc.lock(cid, LANCASTER, round_id)
    assert result.resolved
    after = await env.svc.status(cid)
    # The reorder round asks nobody anything: it flew at once, and the next turn is open.
    assert after.round is not None and after.round.kind == "program"
    assert after.round.turn == first.round.turn + 1
    async with env.repo.read() as tx:
        rounds = [r for r in await tx.rounds(cid) if r.turn == first.round.turn]
        locks = [await tx.standing_locks(r.id) for r in rounds]
        events = [e for e in await tx.events(cid) if e.kind == "side-locked"]
    assert [r.status for r in rounds] == ["resolved", "resolved"]
    assert locks[0]["central"].by_user is None and not locks[0]["central"].defaulted
    assert locks[0]["entente"].by_user == LANCASTER
    assert set(locks[1]) == {"entente", "central"}
    idle = [e for e in events if e.data.get("idle")]
    assert idle and all(e.data["side"] == "central" or e.round_id == rounds[1].id for e in idle)
    await env.worker().deliver_due()
    dms = [t.id for t, a, _ in env.sender.sent if t.kind == "dm"]
    assert LANCASTER in dms and GUNS not in dms  # no panel opened or redrawn for the guns
    for lang in ("en", "fr"):
        line = describe(idle[0].kind, idle[0].data, lang)
        assert ("nothing to decide" if lang == "en" else "rien à décider") in line


async def test_a_side_locked_by_the_round_cannot_unlock_and_hold_it_up(env: Env) -> None:
    cid = await _raid(env)
    guns = await env.svc.panel(cid, GUNS)
    assert guns.locked and not guns.can_unlock  # no Unlock button on /orders
    with pytest.raises(ServiceError) as refused:  # nor from a click crafted or replayed
        await env.svc.unlock(cid, GUNS, guns.round_id)
    assert refused.value.code == "nothing-to-unlock"
    assert t("service.error.nothing-to-unlock", "fr").endswith("sans vous.")
    async with env.repo.read() as tx:
        assert "central" in await tx.standing_locks(guns.round_id)
    round_id = await env.fill(cid, LANCASTER)
    assert (await env.svc.lock(cid, LANCASTER, round_id)).resolved  # the raid goes on


async def test_the_round_message_says_the_guns_had_nothing_to_decide(env: Env) -> None:
    await _raid(env)
    await env.worker().deliver_due()
    messages = [a.text for _, a, _ in env.sender.sent if a.kind == "round-message"]
    assert messages
    assert "Central Powers: ✅ nothing to decide" in messages[-1]
    assert "Entente: ⏳ waiting" in messages[-1]
    # The guns' commander is not sent a panel he has nothing to do on; the Lancaster's is.
    panels = [t.id for t, a, _ in env.sender.sent if a.kind == "dm-panel"]
    assert LANCASTER in panels and GUNS not in panels


async def test_a_carrier_round_still_waits_for_both_sides(env: Env) -> None:
    cid = await env.campaign()
    status = await env.svc.status(cid)
    assert status.round is not None
    round_id = await env.fill(cid, JAP)
    result = await env.svc.lock(cid, JAP, round_id)
    assert not result.resolved
    async with env.repo.read() as tx:
        assert set(await tx.standing_locks(round_id)) == {"japanese"}
    round_id = await env.fill(cid, ALL)
    assert (await env.svc.lock(cid, ALL, round_id)).resolved

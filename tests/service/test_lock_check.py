"""The whole-choice check at Lock (``Rules.check_choice``) through the real service: fields
each fine alone that the rules refuse together refuse the Lock, say why in the reader's
language and change nothing; at a deadline, drafts the rules refuse together give way to
the defaults. The test game (``tests/skirmish.py``) never lets two of a side end on one hex."""

from __future__ import annotations

import pytest

from bot.clock import ManualClock
from bot.service_model import ServiceError, choice_of
from engine.ruleset import Refusal
from tests import skirmish
from tests.service.support import CHANNEL, GM, GUILD, Env, pace

BLUE, RED = 31, 32


@pytest.fixture(autouse=True)
def _skirmish(monkeypatch: pytest.MonkeyPatch) -> None:
    skirmish.register(monkeypatch)


async def _start(env: Env, **changes: object) -> int:
    info = await env.svc.create_campaign(
        GUILD, CHANNEL, GM, "hill", pace(**changes), seed="lock-check", ruleset=skirmish.KEY
    )
    await env.svc.join(info.id, BLUE, "blue")
    await env.svc.join(info.id, RED, "red")
    await env.svc.start(info.id, GM)
    return info.id


async def _events(env: Env, cid: int) -> list[str]:
    export = await env.svc.export(cid)
    return [e["kind"] for e in export["events"]]


async def test_a_choice_refused_whole_keeps_the_panel_unlocked_and_says_why(env: Env) -> None:
    cid = await _start(env)
    panel = await env.svc.panel(cid, BLUE)
    # Each path is legal alone; both end on D4.
    panel, refused = await env.svc.write(
        cid, BLUE, panel.round_id, {"move:B1": "C4 D4", "move:B2": "C5 D4"}
    )
    assert not refused and panel.drafts == {"move:B1": "C4 D4", "move:B2": "C5 D4"}
    before = await _events(env, cid)
    with pytest.raises(ServiceError) as lock:
        await env.svc.lock(cid, BLUE, panel.round_id, version=panel.version)
    error = lock.value
    assert (error.code, error.params["reason"], error.params["reason_params"]) == (
        "refused-choice",
        "stacked",
        {"hex": "D4"},
    )
    assert error.message("en").startswith("Not locked: ")
    assert "nothing changed" in error.message("en")
    assert error.message("fr").startswith("Ordres non verrouillés")
    # Nothing changed: no lock, no event, the drafts as they were, the panel still open.
    after = await env.svc.panel(cid, BLUE)
    assert not after.locked and after.receipt is None and after.can_unlock is False
    assert after.drafts == panel.drafts
    assert await _events(env, cid) == before
    # Written apart, the same Lock goes through.
    panel, refused = await env.svc.write(cid, BLUE, panel.round_id, {"move:B2": "C5 D5"})
    assert not refused
    result = await env.svc.lock(cid, BLUE, panel.round_id, version=panel.version)
    assert not result.already_locked and (await env.svc.panel(cid, BLUE)).locked


async def test_drafts_refused_together_at_the_deadline_give_way_to_the_defaults(
    env: Env, clock: ManualClock
) -> None:
    cid = await _start(env, missing_policy="drafts")
    panel = await env.svc.panel(cid, BLUE)
    await env.svc.write(cid, BLUE, panel.round_id, {"move:B1": "C4 D4", "move:B2": "C5 D4"})
    clock.advance(days=1)
    await env.svc.tick()
    async with env.repo.read() as tx:
        lock = (await tx.standing_locks(panel.round_id))["blue"]
    # Locked as the defaults alone (where each unit stands), not the stacked drafts.
    assert lock.defaulted
    assert choice_of(lock.canonical) == {"move:B1": "C4", "move:B2": "C5"}


def test_the_default_check_takes_every_choice() -> None:
    rules = skirmish.SkirmishRules()
    state = rules.new("hill", "seed")
    stacked = {"move:B1": "C4 D4", "move:B2": "C5 D4"}
    assert rules.check_choice(state, "blue", stacked) == Refusal("stacked", {"hex": "D4"})
    # The seam's own answer, for a game that declares no check.
    assert super(skirmish.SkirmishRules, rules).check_choice(state, "blue", stacked) is None


async def test_memoir44_refuses_a_deployment_without_its_card_at_lock(env: Env) -> None:
    """The case Memoir '44 asked for: a plane deployed and no Air Combat card played, each
    pick legal in its own menu, used to be played out (the card spent, the plane idle)."""
    allies, axis = 41, 42
    info = await env.svc.create_campaign(
        GUILD, CHANNEL, GM, "western-1944", pace(), seed="lock-check", ruleset="memoir44"
    )
    await env.svc.join(info.id, allies, "allies")
    await env.svc.join(info.id, axis, "axis")
    await env.svc.start(info.id, GM)
    panel = await env.svc.panel(info.id, allies)
    picks = {"command": "probe-centre", "card": "none", "plane": "deploy-fighter"}
    for field, value in picks.items():
        panel = await env.svc.draft(info.id, allies, panel.round_id, field, value)
    with pytest.raises(ServiceError) as lock:
        await env.svc.lock(info.id, allies, panel.round_id, version=panel.version)
    assert lock.value.message("en") == (
        "Not locked: deploying needs an Air Combat card. Change your orders, then lock"
        " again; nothing changed."
    )
    assert "déployer demande une carte Combat aérien" in lock.value.message("fr")
    assert not (await env.svc.panel(info.id, allies)).locked
    card = sorted(panel.view.sides["allies"].hand)[0].split("#")[0]
    panel = await env.svc.draft(info.id, allies, panel.round_id, "card", card)
    assert (await env.svc.lock(info.id, allies, panel.round_id, version=panel.version)).resolved

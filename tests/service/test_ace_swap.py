"""The Ace of Aces' last-card round through the real service (issue 15, seed D.VII.a).

The round exists only in a turn where an Ace may change his last card; only his side gets
a panel, the other is locked as having nothing to decide, and no program opens before the
third maneuver is flown. The whole campaign still exports and verifies.
"""

from __future__ import annotations

import random

import pytest

import engine.rulesets.wings as seam
from bot import secrecy
from bot.clock import ManualClock
from bot.export import verify_export
from bot.service_model import choice_of
from engine.rulesets.wings.catalog import default_catalog as wings_catalog
from engine.zero.catalog import Catalog
from tests.service.support import Env
from tests.service.wings_play import start_wings

ENTENTE, CENTRAL = 11, 22
SCENARIO = "wings-1917-ace"
RULES = seam.WingsRules(wings_catalog())


@pytest.fixture(autouse=True)
def _ace_scenario(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wings 1917 with the Entente's first pilot an Ace of Aces (an Artist, who may start
    in the piloting field, holding its four skills)."""
    name, date, missions, setup = seam.SCENARIOS["wings-1917"]
    first, *rest = setup["entente"].pilots
    ace = first.model_copy(
        update={
            "behaviour": "artist",
            "skills": ("acrobat", "genius", "piloting_ace", "ace_of_aces"),
        }
    )
    squadron = setup["entente"].model_copy(update={"pilots": (ace, *rest)})
    scenario = (name, date, missions, {**setup, "entente": squadron})
    monkeypatch.setitem(seam.SCENARIOS, SCENARIO, scenario)
    monkeypatch.setitem(seam.FIRST_MISSION, SCENARIO, "patrol")
    # Without the sun rule (F.VI.e), which would keep a side off the table on turn 1.
    rules = seam.SCENARIO_RULES["wings-1917"].model_copy(update={"sun": False})
    monkeypatch.setitem(seam.SCENARIO_RULES, SCENARIO, rules)


async def _start(env: Env, seed: str) -> int:
    return await start_wings(env, seed, SCENARIO)


async def _lock_programs(env: Env, cid: int) -> None:
    for user in (ENTENTE, CENTRAL):
        round_id = await env.fill(cid, user)  # S S S: nobody tails anybody on turn 1
        await env.svc.lock(cid, user, round_id)


async def test_only_the_ace_s_side_gets_the_last_card_panel(env: Env) -> None:
    cid = await _start(env, "ace-service")
    await _lock_programs(env, cid)
    env.sender.sent.clear()
    await env.worker().deliver_due()
    status = await env.svc.status(cid)
    assert status.round is not None
    assert (status.round.turn, status.round.kind) == (1, "swap")
    ace = await env.svc.panel(cid, ENTENTE)
    other = await env.svc.panel(cid, CENTRAL)
    assert [d.field for d in ace.decisions] == ["program:P1"] and not ace.locked
    assert ace.decisions[0].default == "S S S" and len(ace.decisions[0].options) > 1
    assert other.decisions == () and other.locked  # nothing to decide: locked at once
    opened = [t.id for t, a, edit in env.sender.sent if a.kind == "dm-panel" and edit is None]
    assert ENTENTE in opened and CENTRAL not in opened
    (panel,) = [a.panel for t, a, edit in env.sender.sent if a.kind == "dm-panel" and edit is None]
    assert panel is not None and "Ace of Aces: last card" in panel.text
    (select,) = panel.selects
    assert select.options[0].description == "keep the last card"
    assert select.options[1].description == "change the last card (1 token)"
    # No program opened with the two maneuvers: nothing is revealed (a reveal that would
    # show nothing is not posted, issue 27), and no receipt opens.
    async with env.repo.read() as tx:
        reveals = [r.payload for r in await tx.outbox(cid) if r.kind == "reveal"]
        summaries = [r for r in await tx.outbox(cid) if r.kind == "turn-summary"]
        rounds = await tx.rounds(cid)
    assert all(not p["opened"] for p in reveals)
    # Nor may a receipt of the turn be read: its closing round is resolved, but the
    # optional one after it is still open.
    assert not any(secrecy.receipt_opened(RULES, False, r, rounds) for r in rounds)
    assert not summaries  # the turn is not over
    # The Ace changes his last card; the turn closes, and now the programs open.
    await env.svc.draft(cid, ENTENTE, ace.round_id, "program:P1", "S S TL")
    assert (await env.svc.lock(cid, ENTENTE, ace.round_id)).resolved
    await env.worker().deliver_due()
    status = await env.svc.status(cid)
    assert status.round is not None and (status.round.turn, status.round.kind) == (2, "program")
    async with env.repo.read() as tx:
        rows = await tx.outbox(cid)
        rounds = [r for r in await tx.rounds(cid) if r.turn == 1]
    # The swap reveals nothing either: the turn's end carries every receipt it opens.
    (summary,) = [r.payload for r in rows if r.kind == "turn-summary"]
    assert {o["round"] for o in summary["opened"]} == {"program", "reorder", "swap"}
    assert [r.kind for r in rounds] == ["program", "reorder", "swap"]
    assert all(secrecy.receipt_opened(RULES, False, r, rounds) for r in rounds)


async def test_a_campaign_with_an_ace_exports_and_verifies(env: Env, catalog: Catalog) -> None:
    cid = await _start(env, "ace-verify")
    picks = random.Random(8)
    worker = env.worker()
    swaps = 0
    for _ in range(300):
        status = await env.svc.status(cid)
        if status.campaign.status == "finished" or status.round is None:
            break
        swaps += status.round.kind == "swap"
        for user in (ENTENTE, CENTRAL):
            if (await env.svc.status(cid)).campaign.status == "finished":
                break
            panel = await env.svc.panel(cid, user)
            if panel.locked:
                continue
            for decision in panel.decisions:
                option = picks.choice(decision.options)
                await env.svc.draft(cid, user, panel.round_id, decision.field, option.id)
            await env.svc.lock(cid, user, panel.round_id)
        await worker.deliver_due()
    assert swaps >= 1 and (await env.svc.status(cid)).campaign.status == "finished"
    check = verify_export(await env.svc.export(cid))
    assert check.ok and check.replayed, check.problems


def test_the_scenario_fixture_builds_an_ace_of_aces() -> None:
    state = seam.WingsRules(wings_catalog()).new(SCENARIO, "fixture")
    assert "ace_of_aces" in state.camp.pilots["P1"].skills


async def test_a_missed_deadline_keeps_the_last_card(env: Env, clock: ManualClock) -> None:
    cid = await _start(env, "ace-deadline")
    await _lock_programs(env, cid)
    ace = await env.svc.panel(cid, ENTENTE)
    await env.svc.draft(cid, ENTENTE, ace.round_id, "program:P1", "S S TL")  # drafted, not locked
    clock.advance(days=2)
    result = await env.svc.tick()
    assert result.resolved == 1
    async with env.repo.read() as tx:
        lock = (await tx.standing_locks(ace.round_id))["entente"]
        events = await env.engine_events(cid, ace.round_id)
    assert lock.defaulted and choice_of(lock.canonical) == {"program:P1": "S S S"}
    flown = [
        e.data["card"] for e in events if e.kind == "card-revealed" and e.data["plane"] == "P1"
    ]
    assert flown == ["S"]

"""Buying a pilot's equipment at a debrief through the real service (seed D.VIII): the
owner's panel offers it with the VP he may spend, the enemy neither sees the choice nor the
item, the debrief's orders stay closed until the campaign ends (an export made before holds
no choice of it), and the campaign still exports and verifies, the item named."""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine.rulesets.wings as seam
from bot.export import after_action_markdown, verify_export
from bot.logtext import describe
from engine.rulesets.wings.pilots import allowed_skills, skills_due
from engine.zero.catalog import Catalog
from rendering.i18n import t
from tests.service.support import Env
from tests.service.wings_play import CENTRAL, ENTENTE, finish_and_verify, lock_all, start_wings

ITEM_WORDS = ("vest", "Bulletproof", "extinguisher", "Parachute", "parachute", "incendiary")


@pytest.fixture(autouse=True)
def _ball_is_an_ace_with_vp(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wings 1917 with the Entente's Albert Ball (P1) an Ace holding 25 VP (5 to spend) and
    the skills they earned him."""
    original = seam.WingsRules.new

    def new(self: seam.WingsRules, scenario: str, seed: str) -> seam.WingsState:
        state = original(self, scenario, seed)
        pilots = dict(state.camp.pilots)
        ball = pilots["P1"].model_copy(update={"kills": 5, "vp": 25})
        while len(ball.skills) < skills_due(self.catalog, ball):  # his skills already chosen
            legal, _ = allowed_skills(self.catalog, ball)
            ball = ball.model_copy(update={"skills": (*ball.skills, legal[0])})
        pilots["P1"] = ball
        camp = state.camp.model_copy(update={"pilots": pilots})
        return state.model_copy(update={"campaign": camp})

    monkeypatch.setattr(seam.WingsRules, "new", new)


def _posted(env: Env, kind: str, to: int | None = None) -> str:
    """Everything posted so far to the channel (``channel``) or in DMs (``dm``, to one user
    or all), as text."""
    return json.dumps(
        [
            (a.text, a.alt)
            for target, a, _ in env.sender.sent
            if target.kind == kind and to in (None, target.id)
        ],
        default=str,
    )


async def test_a_pilot_buys_a_vest_at_the_debrief_and_the_enemy_never_learns_it(
    env: Env, catalog: Catalog
) -> None:
    cid = await start_wings(env, "kit-b")
    for _ in range(60):  # the first mission, every side at its defaults
        status = await env.svc.status(cid)
        assert status.round is not None, (status.campaign.status, status.view.data.get("phase"))
        panel = await env.svc.panel(cid, ENTENTE)
        if any(d.field.startswith("equip") for d in panel.decisions):
            break
        await lock_all(env, cid)
    asked = next(d for d in panel.decisions if d.field.startswith("equip:"))
    items = {o.detail: o.id for o in asked.options}
    assert asked.default == items["equipment.none"]  # nothing, unless he says otherwise
    assert {"equipment.vest", "equipment.parachute", "equipment.extinguisher"} <= set(items)
    assert all(o.id == o.detail.removeprefix("equipment.") for o in asked.options)
    assert {"equipment.pistol", "equipment.bullets"} <= set(items)  # seed D.VIII, played
    enemy = await env.svc.panel(cid, CENTRAL)
    assert not any(d.field.startswith("equip") for d in enemy.decisions)  # Jasta 11: no VP
    await lock_all(env, cid, {ENTENTE: {asked.field: items["equipment.vest"]}})
    # The log and the boards name no item; the debrief's orders stay closed.
    page = await env.svc.log(cid, per_page=200)
    log = [describe(e.kind, e.data, "en", turn=e.turn) for e in page.entries]
    assert not [line for line in log if any(word in line for word in ITEM_WORDS)], log
    assert not [w for w in ITEM_WORDS if w in _posted(env, "channel")]
    assert not [w for w in ITEM_WORDS if w in _posted(env, "dm", CENTRAL)]
    assert "Bulletproof vest" in _posted(env, "dm", ENTENTE)  # his own panel named it
    # An export made now holds no choice of the debrief: its receipts open with the end.
    rounds = (await env.svc.export(cid))["rounds"]
    debrief = [r for r in rounds if r["kind"] == "debrief"]
    assert debrief and all(lock["canonical"] is None for r in debrief for lock in r["locks"])
    locks = json.dumps([r["locks"] for r in rounds])
    assert not [w for w in ITEM_WORDS if w in locks]
    public: Any = (await env.svc.status(cid)).view
    assert "equipment" not in json.dumps(public.data["pilots"]["P1"])
    enemy_view: Any = (await env.svc.panel(cid, CENTRAL)).view
    assert "equipment" not in enemy_view.data["pilots"]["P1"]
    own: Any = (await env.svc.panel(cid, ENTENTE)).view
    assert own.data["pilots"]["P1"]["equipment"] == {"vest": 5}
    assert own.data["pilots"]["P1"]["vp_spent"] == 2
    for _ in range(300):  # on to the campaign's end
        if (await env.svc.status(cid)).campaign.status == "finished":
            break
        await lock_all(env, cid)
    assert (await env.svc.status(cid)).campaign.status == "finished"
    export = await env.svc.export(cid)
    check = verify_export(export)
    assert check.ok and check.replayed, check.problems
    assert export["final_state"]["campaign"]["pilots"]["P1"]["vp_spent"] >= 2
    # Once over, the debrief's order is open: the vest, by name.
    opened = json.dumps([r["locks"] for r in export["rounds"] if r["kind"] == "debrief"])
    assert '\\"equip:P1\\":\\"vest\\"' in opened


async def test_the_report_names_the_equipment_bought_only_once_the_campaign_is_over(
    env: Env, catalog: Catalog
) -> None:
    cid = await start_wings(env, "kit")
    bought: tuple[int, str, str] | None = None  # (buyer, option, item)
    for _ in range(300):
        if bought is not None or (await env.svc.status(cid)).campaign.status == "finished":
            break
        for user in (ENTENTE, CENTRAL):
            panel = await env.svc.panel(cid, user)
            kit = next((d for d in panel.decisions if d.field.startswith("equip")), None)
            pick = next((o for o in kit.options if o.id != kit.default), None) if kit else None
            if kit is not None and pick is not None:
                bought = (user, pick.id, pick.detail.removeprefix("equipment."))
                await lock_all(env, cid, {user: {kit.field: pick.id}})
                break
        else:
            await lock_all(env, cid)
    assert bought is not None, "no debrief offered equipment"
    _user, _option, item = bought
    words = {loc: t(f"wings.equipment.{item}", loc) for loc in ("en", "fr")}
    running = after_action_markdown(await env.svc.export(cid))
    assert words["en"] not in running  # the debrief's orders are not open yet
    await finish_and_verify(env, cid, catalog)
    export = await env.svc.export(cid)
    report = after_action_markdown(export)
    assert words["en"] in report and "sealed choice" not in report
    french = after_action_markdown(export, locale="fr")
    assert words["fr"] in french and "choix scellé" not in french

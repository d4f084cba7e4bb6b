"""The announced bomb release and the mission in the enemy zone through the real service
(seed A.IV.e, E.I.b): the bomber's panel offers the release, the enemy's does not and sees
nothing of it before the turn flies, the log tells the hit; a later debrief sends the
squadron into the enemy zone, whose zones and deep objective the public view carries; the
campaign exports and verifies."""

from __future__ import annotations

from typing import Any

import pytest

import engine.rulesets.wings as seam
from bot.export import verify_export
from engine.zero.catalog import Catalog
from tests.service.support import Env
from tests.service.wings_play import CENTRAL, ENTENTE, lock_all, log_lines, start_wings
from tests.wings.test_bomb_release_seam import as_bombing_run

USERS = {"entente": ENTENTE, "central": CENTRAL}


@pytest.fixture(autouse=True)
def _bombing_run(monkeypatch: pytest.MonkeyPatch) -> None:
    original = seam.WingsRules.new

    def new(self: seam.WingsRules, scenario: str, seed: str) -> seam.WingsState:
        return as_bombing_run(original(self, scenario, seed))

    monkeypatch.setattr(seam.WingsRules, "new", new)


async def _menu(env: Env, cid: int, user: int, field: str) -> Any:
    panel = await env.svc.panel(cid, user)
    return next((d for d in panel.decisions if d.field == field), None)


async def test_release_on_the_second_maneuver_then_a_deep_raid(env: Env, catalog: Catalog) -> None:
    cid = await start_wings(env, "bombs-1")
    bomber = await _menu(env, cid, ENTENTE, "program:P1")
    assert "S S S bomb@2" in {o.id for o in bomber.options}
    enemy = await env.svc.panel(cid, CENTRAL)
    assert not any("bomb@" in o.id for d in enemy.decisions for o in d.options)
    # The Entente announces and locks; until the turn flies, nothing shows it.
    entente = await env.svc.panel(cid, ENTENTE)
    for d in entente.decisions:
        pick = "S S S bomb@2" if d.field == "program:P1" else d.default
        await env.svc.draft(cid, ENTENTE, entente.round_id, d.field, pick)
    await env.svc.lock(cid, ENTENTE, entente.round_id)
    await env.worker().deliver_due()
    assert "bomb@" not in repr(await env.svc.panel(cid, CENTRAL))
    assert "bomb@" not in repr((await env.svc.status(cid)).view)
    assert not any("bomb" in line for line in await log_lines(env, cid))
    await lock_all(env, cid)  # the Central Powers lock: the turn flies
    log = await log_lines(env, cid, oldest_first=True)
    assert "P1 releases a bomb" in log
    assert any(line.startswith("A bomb hits c-T1 (5 damage)") for line in log)
    # On to the debriefs: the active squadron sends its next mission into the enemy zone.
    raided = None
    for _ in range(300):
        status = await env.svc.status(cid)
        if status.campaign.status == "finished":
            break
        mission = status.view.data.get("mission") or {}
        if raided is None and mission.get("zones"):
            raided = mission
        picks: dict[int, dict[str, str]] = {}
        for user in USERS.values():
            menu = await _menu(env, cid, user, "mission")
            if menu is not None and raided is None:
                wanted = next((o.id for o in menu.options if o.id.endswith("@enemy")), None)
                if wanted is not None:
                    picks[user] = {"mission": wanted}
        await lock_all(env, cid, picks)
    assert (await env.svc.status(cid)).campaign.status == "finished"
    assert raided is not None  # a mission flew in the enemy zone
    left, right = raided["zones"]
    width = raided["table"][0]
    defender = "central" if raided["active"] == "entente" else "entente"
    enemy_share = (width - right) if defender == "central" else left
    assert enemy_share > width / 2  # the table mostly the enemy's
    first = min(raided["objectives"].values(), key=lambda o: o["id"])
    assert first["deep"] is True  # the first objective stands in deep territory
    assert any(line.startswith("Mission 2 briefed") for line in await log_lines(env, cid))
    check = verify_export(await env.svc.export(cid))
    assert check.ok and check.replayed, check.problems

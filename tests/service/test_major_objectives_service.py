"""A major objective through the real service (seed F.III.c, F.I): the long campaign opens
on the photo-reconnaissance of the enemy railway station, the log tells the period bonus
and the photograph, the next debrief offers the bombing to the squadron still active and
to it alone, the board shows the station's state, and the campaign exports and verifies."""

from __future__ import annotations

from typing import Any

import pytest

import engine.rulesets.wings as seam
from bot.export import verify_export
from engine.rulesets.wings import geometry as geo
from engine.rulesets.wings.catalog import default_catalog
from engine.zero.catalog import Catalog
from rendering.rulesets.wings import WingsPresenter
from tests.service.support import Env
from tests.service.wings_play import CENTRAL, ENTENTE, lock_all, log_lines, start_wings

USERS = {"entente": ENTENTE, "central": CENTRAL}


@pytest.fixture(autouse=True)
def _camera_on_its_way_home(monkeypatch: pytest.MonkeyPatch) -> None:
    """The active side's two-seater starts beyond the station, heading home at level 2: a
    stall on turn 1 lays its base over the station's centre (seed A.IV.f)."""
    original = seam.WingsRules.new

    def new(self: seam.WingsRules, scenario: str, seed: str) -> seam.WingsState:
        state = original(self, scenario, seed)
        mission = state.camp.mission
        assert mission is not None and mission.major == "station"
        catalog = default_catalog()
        (site,) = mission.objectives.values()
        camera = next(
            p
            for p in mission.planes.values()
            if p.side == mission.active and catalog.planes[p.type].two_seater
        )
        heading = 180.0 if camera.side == "entente" else 0.0
        x, y, _ = geo.apply_move(0.0, 0.0, heading, catalog.move(catalog.planes[camera.type], "ST"))
        planes = dict(mission.planes)
        planes[camera.id] = camera.model_copy(
            update={"x": site.x - x, "y": site.y - y, "heading": heading, "level": 2}
        )
        camp = state.camp.model_copy(
            update={"mission": mission.model_copy(update={"planes": planes})}
        )
        return state.model_copy(update={"campaign": camp})

    monkeypatch.setattr(seam.WingsRules, "new", new)


async def _mission_menu(env: Env, cid: int, user: int) -> Any:
    panel = await env.svc.panel(cid, user)
    return next((d for d in panel.decisions if d.field == "mission"), None)


async def test_photograph_then_bomb_the_enemy_station(env: Env, catalog: Catalog) -> None:
    cid = await start_wings(env, "major-1", "wings-1917-front")
    status = await env.svc.status(cid)
    camp = status.view.data
    active = camp["mission"]["active"]
    enemy = "central" if active == "entente" else "entente"
    camera = next(
        pid
        for pid, p in camp["mission"]["planes"].items()
        if p["side"] == active and p["type"] in ("bristol_f2b", "halberstadt_cl2")
    )
    # Turn 1: the camera stalls over the station; everyone else flies the defaults.
    panel = await env.svc.panel(cid, USERS[active])
    slot = next(d for d in panel.decisions if d.field == f"program:{camera}")
    await lock_all(env, cid, {USERS[active]: {slot.field: "ST S S"}})  # written
    log = await log_lines(env, cid, oldest_first=True)
    bonus = next(line for line in log if line.startswith("Period bonus (summer 1917, 1D10-2)"))
    assert "Entente rolls" in bonus
    for _ in range(40):  # the photo mission flies on to its debrief
        if await _mission_menu(env, cid, USERS[active]) is not None:
            break
        await lock_all(env, cid)
    log = await log_lines(env, cid, oldest_first=True)
    side_name = "Entente" if enemy == "entente" else "Central Powers"
    assert (
        f"The {side_name} railway station is photographed: it may be bombed in the next mission"
        in log
    )
    lines = WingsPresenter().status_lines((await env.svc.status(cid)).view, "en")
    assert "Major objectives" in lines
    assert any("station (photographed)" in line for line in lines)
    # The squadron still active may bomb it; the other has no mission to choose.
    menu = await _mission_menu(env, cid, USERS[active])
    assert menu is not None and "bombing:station" in {o.id for o in menu.options}
    assert await _mission_menu(env, cid, USERS[enemy]) is None
    await lock_all(env, cid, {USERS[active]: {"mission": "bombing:station"}})
    status = await env.svc.status(cid)
    mission = status.view.data["mission"]
    assert (mission["kind"], mission["major"]) == ("bombing", "station")
    assert [o["major"] for o in mission["objectives"].values()] == ["station"]
    presenter = WingsPresenter()
    where = presenter.status_lines(status.view, "fr")[0]
    assert "bombardement de la gare" in where
    first = next(turn for turn, number in status.view.reports.items() if number == 1)
    report = presenter.turn_summary(status.view, first, "en")
    assert any("photo-reconnaissance of the railway station" in line for line in report)
    for _ in range(300):  # on to the campaign's end, every side at its defaults
        if (await env.svc.status(cid)).campaign.status == "finished":
            break
        await lock_all(env, cid)
    assert (await env.svc.status(cid)).campaign.status == "finished"
    log = await log_lines(env, cid, oldest_first=True)
    assert f"Objective: the {side_name} railway station (bombing)" in log
    raid = [
        line
        for line in log
        if "railway station" in line and "photographed" not in line and "Objective" not in line
    ]
    assert raid == [f"The raid on the {side_name} railway station fails: no bomb hits it"]
    check = verify_export(await env.svc.export(cid))
    assert check.ok and check.replayed, check.problems

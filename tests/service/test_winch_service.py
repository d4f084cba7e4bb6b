"""Winching a balloon down at its owner's wish, through the real service (seed A.IV.i.3):
the owner's panel asks, the enemy's does not, the order flies with the turn, the log tells
it, the balloon on the ground is out of the fight, and the campaign exports and verifies."""

from __future__ import annotations

import pytest

from engine.zero.catalog import Catalog
from tests.service import wings_play as play
from tests.service.support import Env

BALLOON = "e-B1"  # wings-1917 opens on the Central Powers busting the Entente's balloon


@pytest.fixture(autouse=True)
def _balloon_low(monkeypatch: pytest.MonkeyPatch) -> None:
    """The balloon two counters above the ground (level 0): two turns of winching."""

    def low(state):  # type: ignore[no-untyped-def]
        mission = state.camp.mission
        site = mission.objectives[BALLOON].model_copy(update={"level": 1, "counters": 1})
        mission = mission.model_copy(update={"objectives": {BALLOON: site}})
        return state.model_copy(
            update={"campaign": state.camp.model_copy(update={"mission": mission})}
        )

    play.set_up_opening(monkeypatch, low)


async def test_the_owner_winches_his_balloon_down_and_it_leaves_the_fight(
    env: Env, catalog: Catalog
) -> None:
    cid = await play.start_wings(env, "winch")
    own = await env.svc.panel(cid, play.ENTENTE)
    enemy = await env.svc.panel(cid, play.CENTRAL)
    asked = next(d for d in own.decisions if d.field == "winch")
    assert [o.id for o in asked.options] == ["keep", f"winch:{BALLOON}"]
    assert asked.default == "keep"
    assert "winch" not in {d.field for d in enemy.decisions}
    await play.lock_all(env, cid, {play.ENTENTE: {"winch": f"winch:{BALLOON}"}})
    log = await play.log_lines(env, cid)
    assert any(f"Balloon {BALLOON} (Entente) is ordered down" in line for line in log)
    assert any(f"Balloon {BALLOON} is winched down to altitude 1" in line for line in log)
    again = await env.svc.panel(cid, play.ENTENTE)
    still = next(d for d in again.decisions if d.field == "winch")
    assert [o.id for o in still.options] == ["keep"]  # coming down: it cannot go back up
    await play.lock_all(env, cid)
    log = await play.log_lines(env, cid)
    assert any(f"Balloon {BALLOON} is down on its winch" in line for line in log)
    status = await env.svc.status(cid)
    if status.campaign.status != "finished":
        panel = await env.svc.panel(cid, play.ENTENTE)
        assert "winch" not in {d.field for d in panel.decisions}  # nothing left up to ask
    await play.finish_and_verify(env, cid, catalog)


async def test_a_silent_owner_keeps_his_balloon_flying(env: Env) -> None:
    cid = await play.start_wings(env, "keep")
    await play.lock_all(env, cid)
    log = await play.log_lines(env, cid)
    assert not any("ordered down" in line or "winched down" in line for line in log)

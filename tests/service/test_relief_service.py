"""Terrain relief through the real service (seed F.V): Summer 1918 is flown over hills laid
by the generator; a plane flown too low into one crashes in front of everyone, the log
tells it and the campaign still exports and verifies."""

from __future__ import annotations

import pytest

import engine.rulesets.wings as seam
from engine.zero.catalog import Catalog
from tests.service import wings_play as play
from tests.service.support import Env


def _p1_low_before_the_first_relief(state: seam.WingsState) -> seam.WingsState:
    """P1 flying east at the first relief's own level, no counter: two straights away."""
    mission = state.camp.mission
    assert mission is not None and mission.relief  # laid by the generator (wings-1918)
    zone = mission.relief[0]
    west = min(x for x, _ in zone.corners)
    ys = [y for _, y in zone.corners]
    return play.with_planes(
        state,
        {
            "P1": {
                "x": west - 3.5,
                "y": (min(ys) + max(ys)) / 2,
                "heading": 0.0,
                "level": zone.floor,
                "counters": 0,
                "status": "flying",
            }
        },
    )


@pytest.fixture(autouse=True)
def _opening(monkeypatch: pytest.MonkeyPatch) -> None:
    play.set_up_opening(monkeypatch, _p1_low_before_the_first_relief)


async def test_a_plane_too_low_crashes_into_the_relief(env: Env, catalog: Catalog) -> None:
    cid = await play.start_wings(env, "hills", "wings-1918")
    await play.lock_all(env, cid)  # turn 1: every program at its default, straights
    log = await play.log_lines(env, cid)
    assert any(line.startswith("P1 flew into the rock face of relief R1") for line in log)
    assert any(line.startswith("P1 crashed") for line in log)
    await play.finish_and_verify(env, cid, catalog)

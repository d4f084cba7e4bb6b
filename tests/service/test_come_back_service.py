"""Bringing a plane back after an accidental exit, through the real service (seed A.IV.c):
the owner's panel asks, the enemy's does not, the choice flies, the log tells it and the
campaign still exports and verifies."""

from __future__ import annotations

from typing import Any

import pytest

from engine.zero.catalog import Catalog
from tests.service import wings_play as play
from tests.service.support import Env


@pytest.fixture(autouse=True)
def _p1_near_the_far_edge(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wings 1917 with the Entente's P1 a little short of the Central edge, heading out:
    turn 1's straights take it off over the enemy's zone."""
    play.set_up_opening(
        monkeypatch, lambda s: play.with_planes(s, {"P1": {"x": 21.0, "y": 2.0, "heading": 0.0}})
    )


async def test_the_owner_is_asked_and_his_plane_comes_back(env: Env, catalog: Catalog) -> None:
    cid = await play.start_wings(env, "cb6")
    await play.lock_all(env, cid)  # turn 1: everyone's defaults, P1 flies off
    status = await env.svc.status(cid)
    assert status.round is not None and status.round.turn == 2
    own = await env.svc.panel(cid, play.ENTENTE)
    enemy = await env.svc.panel(cid, play.CENTRAL)
    asked = next(d for d in own.decisions if d.field == "program:P1")
    assert [o.id for o in asked.options] == ["come-back", "stay-out"]
    assert asked.default == "stay-out"
    assert all(o.id not in ("come-back", "stay-out") for d in enemy.decisions for o in d.options)
    await play.lock_all(env, cid, {play.ENTENTE: {"program:P1": "come-back"}})
    log = await play.log_lines(env, cid)
    assert any(line.startswith("P1 comes back onto the table and draws") for line in log)
    status = await env.svc.status(cid)
    assert status.round is not None and status.round.turn == 3
    again = await env.svc.panel(cid, play.ENTENTE)
    back = next(d for d in again.decisions if d.field == "program:P1")
    assert "S S S" in {o.id for o in back.options}  # flying again: a program like any other
    await play.finish_and_verify(env, cid, catalog)


async def test_a_player_who_says_nothing_keeps_his_plane_out(env: Env) -> None:
    cid = await play.start_wings(env, "stay-out")
    await play.lock_all(env, cid)
    await play.lock_all(env, cid)  # turn 2: the Entente leaves plane1 at its default
    log = await play.log_lines(env, cid)
    assert not any("comes back" in line for line in log)
    panel: Any = await env.svc.panel(cid, play.ENTENTE)
    assert "program:P1" not in {d.field for d in panel.decisions}

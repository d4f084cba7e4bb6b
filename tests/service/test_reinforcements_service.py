"""A reinforcement through the real service (seed E.IV): a damaged plane flees over its
own edge; two full turns later its owner's panel offers a sound one (the enemy's does not),
the order flies, the log tells it, the new plane is programmed on the same field, and the
campaign still exports and verifies."""

from __future__ import annotations

import pytest

from bot.panel import MAX_SELECTS
from engine.zero.catalog import Catalog
from rendering.rulesets.wings import WingsPresenter
from tests.service import wings_play as play
from tests.service.support import Env

SEND = "reinforce:nieuport17"


@pytest.fixture(autouse=True)
def _p1_fleeing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wings 1917 in September 1916 (a Nieuport 17 is then a period single-seater, 1 MP)
    with the Entente's P1 damaged, a little short of its own edge and heading home: turn 1
    takes it off over its own zone. The Entente keeps 3 MP in reserve."""
    fleeing = {"P1": {"x": 1.0, "y": 2.0, "heading": 180.0, "damage": 2}}
    play.set_up_opening(
        monkeypatch,
        lambda s: play.with_planes(
            s, fleeing, {"reserve": {"entente": 3, "central": 0}}, {"date": "1916-09"}
        ),
    )


async def _turn(env: Env, cid: int) -> int:
    status = await env.svc.status(cid)
    assert status.round is not None
    return status.round.turn


async def test_a_fleeing_plane_is_swapped_through_the_service(env: Env, catalog: Catalog) -> None:
    cid = await play.start_wings(env, "rf1")
    await play.lock_all(env, cid)  # turn 1: P1 flees over its own edge
    assert await _turn(env, cid) == 2
    own = await env.svc.panel(cid, play.ENTENTE)
    assert "program:P1" not in {d.field for d in own.decisions}  # the first waiting turn
    await play.lock_all(env, cid)
    assert await _turn(env, cid) == 3
    own = await env.svc.panel(cid, play.ENTENTE)
    enemy = await env.svc.panel(cid, play.CENTRAL)
    asked = next(d for d in own.decisions if d.field == "program:P1")
    assert [o.id for o in asked.options] == ["no-reinforcement", SEND]
    assert asked.default == "no-reinforcement"
    assert all(not o.id.startswith("reinforce:") for d in enemy.decisions for o in d.options)
    assert len([d for d in own.decisions if d.options]) <= MAX_SELECTS
    notes, _ = WingsPresenter().panel_notes("wings-1917", own.view, "entente", {}, "en")
    # In small print: the reinforcement's own option says its price when it can be sent.
    assert "-# Reserve for reinforcements: 3 MP (lost at the mission's end)." in notes
    theirs, _ = WingsPresenter().panel_notes("wings-1917", enemy.view, "central", {}, "en")
    assert not any("Reserve" in line for line in theirs)  # the Entente's reserve is its own
    await play.lock_all(env, cid, {play.ENTENTE: {"program:P1": SEND}})
    log = await play.log_lines(env, cid)
    assert any(
        line.startswith("P1-2 takes off as a reinforcement for P1: a Nieuport 17 flown by")
        for line in log
    ), log
    assert await _turn(env, cid) == 4
    again = await env.svc.panel(cid, play.ENTENTE)
    flown = next(d for d in again.decisions if d.field == "program:P1-2")  # its own field
    notes, _ = WingsPresenter().panel_notes("wings-1917", again.view, "entente", {}, "en")
    assert "-# Reserve for reinforcements: 2 MP (lost at the mission's end)." in notes
    assert "S S S" in {o.id for o in flown.options}  # the new plane's program
    await play.finish_and_verify(env, cid, catalog)

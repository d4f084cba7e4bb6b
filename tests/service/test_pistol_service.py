"""The pistol through the real service (seed D.VIII): both sides' planes near an enemy are
offered the shot, only the owner's panel says it will fire, nothing shows the announcement
before the turn flies; then the log and the public board tell the shot, the bullets left
stay his, and the campaign exports and verifies."""

from __future__ import annotations

from typing import Any

import pytest

from engine.zero.catalog import Catalog
from tests.service import wings_play as play
from tests.service.support import Env

ARMED = {"pistol": 1, "bullets": 6}
SHOT = "S S S pistol@1"


@pytest.fixture(autouse=True)
def _ball_armed_abreast_of_p3(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wings 1917 with the Entente's Albert Ball (P1) carrying a pistol and six bullets,
    flying abreast of the Central P3, 2 bw apart and out of each other's arcs."""

    def change(state: Any) -> Any:
        pilots = dict(state.camp.pilots)
        pilots["P1"] = pilots["P1"].model_copy(update={"equipment": dict(ARMED)})
        return play.with_planes(
            state,
            {
                "P1": {"x": 10.0, "y": 7.4, "heading": 0.0, "kit": dict(ARMED)},
                "P3": {"x": 10.0, "y": 9.4, "heading": 0.0},
            },
            campaign={"pilots": pilots},
        )

    play.set_up_opening(monkeypatch, change)


async def test_a_pistol_shot_through_the_service(env: Env, catalog: Catalog) -> None:
    cid = await play.start_wings(env, "pistol-2")  # nobody waits out of the sun
    own = await env.svc.panel(cid, play.ENTENTE)
    menu = next(d for d in own.decisions if d.field == "program:P1")
    assert {o.id: o.detail for o in menu.options}[SHOT] == "pistol.1.ready"
    enemy = await env.svc.panel(cid, play.CENTRAL)
    p3 = next(d for d in enemy.decisions if d.field == "program:P3")
    assert {o.id: o.detail for o in p3.options}[SHOT] == "pistol.1.no-pistol"
    assert "pistol.1.ready" not in repr(enemy) and "bullets" not in repr(enemy.view)
    # The Entente announces the shot and locks: nothing tells the Central Powers.
    for d in own.decisions:
        await env.svc.draft(
            cid, play.ENTENTE, own.round_id, d.field, SHOT if d.field == "program:P1" else d.default
        )
    await env.svc.lock(cid, play.ENTENTE, own.round_id)
    await env.worker().deliver_due()
    after = await env.svc.panel(cid, play.CENTRAL)
    assert (after.decisions, after.view) == (enemy.decisions, enemy.view)
    public: Any = (await env.svc.status(cid)).view
    assert "pistol" not in repr(public)
    assert not any("pistol" in line for line in await play.log_lines(env, cid))
    await play.lock_all(env, cid)  # the Central Powers lock: the turn flies
    log = await play.log_lines(env, cid, oldest_first=True)
    assert "The pilot of P1 fires his pistol at the pilot of P3" in log
    public = (await env.svc.status(cid)).view
    board = public.data["mission"]["planes"]["P1"]
    assert board["kit_shown"] == ["pistol"] and "kit" not in board  # seen, not counted
    mine: Any = (await env.svc.panel(cid, play.ENTENTE)).view
    assert mine.data["mission"]["planes"]["P1"]["kit"] == {"pistol": 1, "bullets": 5}
    await play.finish_and_verify(env, cid, catalog)
    export = await env.svc.export(cid)
    ball = export["final_state"]["campaign"]["pilots"]["P1"]
    assert ball["state"] == "dead" or ball["equipment"] == {"pistol": 1, "bullets": 5}

"""A standing order through the real service (seed D.VI): the Artist's side alone is asked,
the order is set on its panel, the turn flies, the cancelled shot is told in the log, the
power is spent, and the campaign still exports and verifies."""

from __future__ import annotations

import pytest

from engine.zero.catalog import Catalog
from tests.service import wings_play as play
from tests.service.support import Env


@pytest.fixture(autouse=True)
def _an_artist_with_p1_on_his_tail(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wings 1917 with the Central P3 flown by an Artist, 3 base widths ahead of the
    Entente's P1 on the same heading: their straights keep him in P1's short range."""
    moved = {
        "P1": {"x": 5.0, "y": 7.4, "heading": 0.0},
        "P3": {"x": 8.0, "y": 7.4, "heading": 0.0, "behaviour": "artist"},
    }
    play.set_up_opening(monkeypatch, lambda s: play.with_planes(s, moved))


async def test_the_artist_s_standing_order_dodges_a_shot(env: Env, catalog: Catalog) -> None:
    cid = await play.start_wings(env, "artist")
    own = await env.svc.panel(cid, play.CENTRAL)
    enemy = await env.svc.panel(cid, play.ENTENTE)
    order = next(d for d in own.decisions if d.field == "order:P3")
    assert [o.id for o in order.options] == ["off", "any", "short", "heavy"]
    assert order.default == "off"
    assert "order:P3" not in {d.field for d in enemy.decisions}  # the Entente has no Artist
    await play.lock_all(env, cid, {play.CENTRAL: {"order:P3": "short"}})
    log = await play.log_lines(env, cid)
    fired = [line for line in log if line.startswith("P1 fires at P3")]
    assert fired, log
    assert any(line.startswith("P3 dodges the shot of P1") for line in log), log
    assert sum("dodges the shot" in line for line in log) == 1
    status = await env.svc.status(cid)
    assert status.round is not None and status.round.turn == 2
    # The dodge is spent: no order to give any more.
    again = await env.svc.panel(cid, play.CENTRAL)
    assert "order:P3" not in {d.field for d in again.decisions}
    await play.finish_and_verify(env, cid, catalog)

"""Surprise from the sun through the real service (seed F.VI.e): the log tells the draw,
the favoured side's panel asks whether to enter and the enemy's does not, the planes come
out of the sun half a ruler from the enemy, and the campaign still exports and verifies."""

from __future__ import annotations

from engine.zero.catalog import Catalog
from tests.service import wings_play as play
from tests.service.support import Env

SEED = "s3"  # Wings 1918's first mission: clear weather, a 5, the Entente has the sun


async def test_the_entente_waits_in_the_sun_then_comes_out_of_it(
    env: Env, catalog: Catalog
) -> None:
    cid = await play.start_wings(env, SEED, "wings-1918")
    own = await env.svc.panel(cid, play.ENTENTE)
    enemy = await env.svc.panel(cid, play.CENTRAL)
    # The Entente's planes are off the table: one choice, on its first plane's field.
    assert [d.field for d in own.decisions] == ["program:P1"]
    asked = own.decisions[0]
    assert [o.id for o in asked.options] == ["wait", "enter"]
    assert asked.default == "wait"
    assert all(o.id not in ("wait", "enter") for d in enemy.decisions for o in d.options)
    await play.lock_all(env, cid, {play.ENTENTE: {"program:P1": "enter"}})
    log = await play.log_lines(env, cid, oldest_first=True)
    drawn = [line for line in log if line.startswith("Sun (morning): A card 5, the Entente")]
    assert len(drawn) == 1
    came = [line for line in log if " comes out of the sun near " in line]
    assert len(came) == 2  # both Entente planes of the first mission
    # Turn 2: the Entente programs its planes like the Central Powers.
    status = await env.svc.status(cid)
    assert status.round is not None and status.round.turn == 2
    again = await env.svc.panel(cid, play.ENTENTE)
    assert "S S S" in {o.id for d in again.decisions for o in d.options}
    await play.finish_and_verify(env, cid, catalog)

"""The Dambuster gaps through the real service: the Möhne raid's start angle and
searchlight switch on the Lancaster's panel only, the guns' side asked nothing, the choices
flown and told; the industrial-complex raid bombed to its end; both exports replay."""

from __future__ import annotations

from engine.zero.catalog import Catalog
from rendering.rulesets.wings import WingsPresenter
from tests.service.support import Env
from tests.service.wings_play import (
    CENTRAL,
    ENTENTE,
    finish_and_verify,
    lock_all,
    log_lines,
    start_wings,
)


async def test_the_lancaster_chooses_its_start_and_its_searchlights(
    env: Env, catalog: Catalog
) -> None:
    cid = await start_wings(env, "gaps", "dambuster-mohne")
    own = await env.svc.panel(cid, ENTENTE)
    guns = await env.svc.panel(cid, CENTRAL)
    fields = {d.field: d for d in own.decisions}
    assert [o.id for o in fields["heading"].options] == [
        "-60", "-45", "-30", "-15", "0", "15", "30", "45", "60"
    ]  # fmt: skip
    assert fields["heading"].default == "0" and fields["lights"].default == "auto"
    assert [o.id for o in fields["lights"].options] == ["auto", "on"]
    assert guns.decisions == ()  # the guns' side decides nothing
    words = WingsPresenter()
    assert words.option_text("dambuster-mohne", "heading", "30", "en") == "30° left"
    assert words.option_text("dambuster-mohne", "heading", "-15", "fr") == "15° à droite"
    assert words.option_text("dambuster-mohne", "lights", "on", "fr") == "Allumés et gardés"
    await lock_all(env, cid, {ENTENTE: {"plane1": "SS", "heading": "30", "lights": "on"}})
    log = await log_lines(env, cid)
    assert any(line.startswith("AJ-G starts its run turned 30°") for line in log)
    assert any(line.startswith("AJ-G switches its searchlights on") for line in log)
    after = await env.svc.panel(cid, ENTENTE)
    assert "heading" not in {d.field for d in after.decisions}  # placed: asked once a run
    await finish_and_verify(env, cid, catalog)


async def test_the_industrial_raid_bombs_the_complex_and_replays(
    env: Env, catalog: Catalog
) -> None:
    cid = await start_wings(env, "works", "lancaster-industrial")
    own = await env.svc.panel(cid, ENTENTE)
    plane1 = next(d for d in own.decisions if d.field == "plane1")
    assert "SS drop" in {o.id for o in plane1.options}
    assert "lights" not in {d.field for d in own.decisions}  # a day raid
    await lock_all(env, cid, {ENTENTE: {"plane1": "SS"}})
    await lock_all(env, cid, {ENTENTE: {"plane1": "SS drop"}})
    log = await log_lines(env, cid)
    assert any(line.startswith("R5868 drops a bomb: on the red dot, 12 VP") for line in log)
    assert any("industrial complex is destroyed" in line for line in log)
    assert (await env.svc.status(cid)).campaign.status == "finished"
    await finish_and_verify(env, cid, catalog)

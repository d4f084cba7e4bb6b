"""The Dambuster gaps through the real service: the Möhne raid's start angle and
searchlight switch on the Lancaster's panel only, the guns' side asked nothing, the choices
flown and told; the industrial-complex raid bombed to its end; both exports replay."""

from __future__ import annotations

from engine.zero.catalog import Catalog
from rendering.rulesets.wings import WingsPresenter
from tests.service import wings_play as play
from tests.service.support import Env


async def test_the_lancaster_chooses_its_start_and_its_searchlights(
    env: Env, catalog: Catalog
) -> None:
    cid = await play.start_wings(env, "gaps", "dambuster-mohne")
    own = await env.svc.panel(cid, play.ENTENTE)
    guns = await env.svc.panel(cid, play.CENTRAL)
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
    await play.lock_all(env, cid, {play.ENTENTE: {"plane1": "SS", "heading": "30", "lights": "on"}})
    log = await play.log_lines(env, cid)
    assert any(line.startswith("AJ-G starts its run turned 30°") for line in log)
    assert any(line.startswith("AJ-G switches its searchlights on") for line in log)
    after = await env.svc.panel(cid, play.ENTENTE)
    assert "heading" not in {d.field for d in after.decisions}  # placed: asked once a run
    await play.finish_and_verify(env, cid, catalog)


async def test_the_industrial_raid_bombs_the_complex_and_replays(
    env: Env, catalog: Catalog
) -> None:
    cid = await play.start_wings(env, "works", "lancaster-industrial")
    own = await env.svc.panel(cid, play.ENTENTE)
    plane1 = next(d for d in own.decisions if d.field == "plane1")
    assert "SS drop" in {o.id for o in plane1.options}
    assert "lights" not in {d.field for d in own.decisions}  # a day raid
    await play.lock_all(env, cid, {play.ENTENTE: {"plane1": "SS"}})
    await play.lock_all(env, cid, {play.ENTENTE: {"plane1": "SS drop"}})
    log = await play.log_lines(env, cid)
    assert any(line.startswith("R5868 drops a bomb: on the red dot, 12 VP") for line in log)
    assert any("industrial complex is destroyed" in line for line in log)
    assert (await env.svc.status(cid)).campaign.status == "finished"
    await play.finish_and_verify(env, cid, catalog)

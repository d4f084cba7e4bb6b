"""The balloons' strategic roles through the real service (seed A.IV.i): the briefing's log
says the role, the status board shows it to both sides, the surveillance alert narrows the
held side's menu to one card flown thrice, and the campaign still exports and verifies."""

from __future__ import annotations

from engine.zero.catalog import Catalog
from rendering.rulesets.wings import WingsPresenter
from tests.service import wings_play as play
from tests.service.support import Env

SCENARIO = "wings-1917-balloons"
SPOTTING = "roles-3"  # its first mission: spotting, the artillery fires at the end of turn 8
SURVEILLANCE = "roles-7"  # its first mission: surveillance in clear weather, the Entente attacks


async def test_the_briefing_and_the_board_tell_the_spotting_role(
    env: Env, catalog: Catalog
) -> None:
    cid = await play.start_wings(env, SPOTTING, SCENARIO)
    status = await env.svc.status(cid)
    lines = WingsPresenter().status_lines(status.view, "en")
    spotting = "Balloons spotting for the artillery: burn or down one by the end of turn 8"
    assert any(line.startswith(spotting) for line in lines)
    french = WingsPresenter().status_lines(status.view, "fr")
    assert any(line.startswith("Ballons de réglage d’artillerie\u00a0:") for line in french)
    await play.lock_all(env, cid)
    log = await play.log_lines(env, cid, oldest_first=True)
    told = [line for line in log if line.startswith("Balloon role, artillery spotting")]
    assert len(told) == 1 and "by the end of turn 8" in told[0]
    await play.finish_and_verify(env, cid, catalog)


async def test_a_plane_seen_in_the_enemy_zone_brings_the_alert_on_its_side(
    env: Env, catalog: Catalog, monkeypatch: object
) -> None:
    # The Entente's P1 starts just short of the Central zone: turn 1's straights take it in.
    play.set_up_opening(
        monkeypatch,  # type: ignore[arg-type]
        lambda s: play.with_planes(s, {"P1": {"x": 12.0, "y": 3.0, "heading": 0.0}}),
    )
    cid = await play.start_wings(env, SURVEILLANCE, SCENARIO)
    await play.lock_all(env, cid)
    log = await play.log_lines(env, cid, oldest_first=True)
    assert any(line.startswith("Balloon role, battlefield surveillance") for line in log)
    assert any(line.startswith("P1 is seen in the zone of the Central Powers") for line in log)
    held = await env.svc.panel(cid, play.ENTENTE)
    free = await env.svc.panel(cid, play.CENTRAL)
    for decision in (d for d in held.decisions if d.field.startswith("program:")):
        # The cards only: a release or pistol word (``bomb@1``, ``pistol@2``) comes after them.
        programs = [
            [w for w in o.id.split() if "@" not in w]
            for o in decision.options
            if o.id[:1].isupper()
        ]
        flown = [cards[-3:] for cards in programs]
        assert flown and all(len(set(cards)) == 1 for cards in flown), decision.field
    assert any(
        len(set(o.id.split()[-3:])) > 1 for d in free.decisions for o in d.options
    )  # the balloon side programs freely
    lines = WingsPresenter().status_lines((await env.svc.status(cid)).view, "en")
    assert any(line.startswith("Efficient alert of the Central Powers") for line in lines)
    await play.finish_and_verify(env, cid, catalog)

"""Ground defences (seed A.IV.h): trenches and CAA posts fire at low planes, and planes with
nothing else to shoot at fire back."""

from __future__ import annotations

from engine.rng import Rng
from engine.rulesets.wings.campaign import _debrief, new_campaign
from engine.rulesets.wings.generator import generate_mission
from engine.rulesets.wings.state import GroundElement, MissionState
from engine.rulesets.wings.turn import Turn
from tests.wings.helpers import card_id, catalog, mission, phase_one, plane, stack
from tests.wings.test_pilots_campaign import squadrons


def with_post(state: MissionState, kind: str, x: float, y: float, **kw: object) -> MissionState:
    post = GroundElement(id="post", kind=kind, side="central", x=x, y=y, **kw)  # type: ignore[arg-type]
    return state.model_copy(update={"ground": {"post": post}})


def run_phase(state: MissionState, **texts: str) -> Turn:
    return phase_one(state, "g", **texts)


def test_infantry_fire_applies_only_the_special() -> None:
    # A Camel hedge-hopping at level 0 flies past a trench; the far enemy is out of reach.
    camel = plane("c", type_="camel", side="entente", x=8.0, y=10.0, level=0, counters=1)
    far = plane("f", type_="dr1", side="central", x=20.0, y=20.0, heading=180)
    state = with_post(mission(camel, far), "trench", 12.0, 12.0)
    state = stack(state, "A", [card_id("A", 4, "fire")])
    work = run_phase(state, c="S S S", f="S S S")
    hit = work.planes["c"]
    assert [e.kind for e in work.events if e.kind == "infantry-fire"] == ["infantry-fire"]
    assert (hit.damage, hit.fire) == (0, 3)  # the 4 points do not count, the fire does


def test_a_high_plane_is_out_of_reach() -> None:
    camel = plane("c", type_="camel", side="entente", x=8.0, y=10.0, level=2)
    far = plane("f", type_="dr1", side="central", x=20.0, y=20.0, heading=180)
    work = run_phase(with_post(mission(camel, far), "trench", 12.0, 12.0), c="S S S", f="S S S")
    assert not [e for e in work.events if e.kind == "infantry-fire"]


def test_caa_shoots_like_an_aircraft_and_gets_the_kill() -> None:
    camel = plane("c", type_="camel", side="entente", x=8.0, y=10.0, level=0, damage=14)
    far = plane("f", type_="dr1", side="central", x=20.0, y=20.0, heading=180)
    state = with_post(mission(camel, far), "caa", 11.5, 10.0)
    state = stack(state, "B", [card_id("B", 2, "none"), card_id("B", 1, "none")])
    state = stack(state, "A", [card_id("A", 0, "none")])
    work = run_phase(state, c="S S S", f="S S S")
    assert work.planes["c"].status == "shot_down"
    assert work.ground["post"].kills == ("c",)


def test_planes_strafe_ground_with_nothing_else_in_sight() -> None:
    camel = plane("c", type_="camel", side="entente", x=6.0, y=10.0, level=1, jams={})
    far = plane("f", type_="dr1", side="central", x=20.0, y=20.0, heading=180)
    state = with_post(mission(camel, far), "caa", 11.0, 10.0, damage=3)
    # Level 1: one card (long, within R/2); a smoke special silences the AA gun.
    state = stack(state, "A", [card_id("A", 1, "smoke"), card_id("A", 0, "none")])
    work = run_phase(state, c="S S S", f="S S S")
    post = work.ground["post"]
    assert (post.damage, post.silenced, post.destroyed) == (4, True, False)
    state = with_post(mission(camel, far), "trench", 11.0, 10.0, damage=3)
    state = stack(state, "A", [card_id("A", 2, "none"), card_id("A", 0, "none")])
    post = run_phase(state, c="S S S", f="S S S").ground["post"]
    assert post.destroyed and post.destroyed_by == "c"


def test_the_generator_lays_out_defences_and_pays_for_them() -> None:
    cat = catalog()
    state = new_campaign(cat, "g", squadrons())  # type: ignore[arg-type]
    enemy = "central" if state.active == "entente" else "entente"
    squadron = state.squadrons[enemy]
    stocked = squadron.model_copy(update={"stock": {**squadron.stock, "trenches": 9, "caa": 6}})
    state = state.model_copy(update={"squadrons": {**state.squadrons, enemy: stocked}})
    mission_state, points, _ = generate_mission(cat, state, Rng("g", 1, "b"))
    kinds = sorted(post.kind for post in mission_state.ground.values())
    assert kinds == ["caa", "caa", "trench", "trench", "trench"]
    assert all(post.side == enemy for post in mission_state.ground.values())
    # Table row: +1 per 3 trenches, +1 per 2 CAA (seed example, placeholders).
    assert ("enemy ground defences", 2) in points.lines


def test_destroyed_posts_score_and_leave_the_stock() -> None:
    cat = catalog()
    state = new_campaign(cat, "g", squadrons())  # type: ignore[arg-type]
    central = state.squadrons["central"]
    central = central.model_copy(update={"stock": {**central.stock, "trenches": 9}})
    state = state.model_copy(update={"squadrons": {**state.squadrons, "central": central}})
    ours = plane("P1", type_="nieuport17", side="entente", pilot="P1")
    theirs = plane("P3", type_="albatros_d3", side="central", pilot="P3", status="left")
    finished = mission(ours, theirs).model_copy(
        update={
            "finished": True,
            "active": "entente",
            "ground": {
                "t1": GroundElement(id="t1", kind="trench", side="central", x=1, y=1,
                                    destroyed=True, destroyed_by="P1"),
            },
        }
    )  # fmt: skip
    after, _ = _debrief(cat, state.model_copy(update={"mission": finished}), Rng("g", 2, "m"), [])
    assert after.squadrons["entente"].score == 1
    assert after.squadrons["central"].stock["trenches"] == 8

"""The standard Lancaster's dorsal turret (DB 11.b-d) and the industrial-complex raid
(DB 10, 12)."""

from __future__ import annotations

import pytest

from engine.rng import Rng
from engine.rulesets.wings import WingsRules, fire, industrial
from engine.rulesets.wings import dambuster as db
from engine.rulesets.wings.state import MissionRules, PlaneState
from tests.wings.helpers import catalog, random_raid

DORSAL = catalog().planes["lancaster-mk3"].guns[1]


def lancaster(level: int = 1) -> PlaneState:
    return PlaneState(
        id="L", type="lancaster-mk3", side="entente", x=0.0, y=0.0, heading=0.0, level=level,
        observer_lp=10,
    )  # fmt: skip


def fighter(x: float, y: float, level: int = 1, heading: float = 150.0) -> PlaneState:
    return PlaneState(id="F", type="dr1", side="central", x=x, y=y, heading=heading, level=level)


def check(target: PlaneState, shooter: PlaneState | None = None, **rules: bool) -> fire.FireCheck:
    shooter = shooter or lancaster()
    return fire.check_fire(
        catalog(), shooter, DORSAL, target, [shooter, target], MissionRules(**rules)
    )


def test_the_standard_lancaster_has_four_crew_and_a_dorsal_turret() -> None:
    plane = catalog().planes["lancaster-mk3"]
    assert [gun.name for gun in plane.guns] == ["front_turret", "dorsal_turret", "rear_turret"]
    assert db.CREWS["lancaster-mk3"] == ("pilot", "front", "dorsal", "rear")  # DB 11.b
    assert DORSAL.turret and DORSAL.not_lower
    assert "dorsal_turret" not in [g.name for g in catalog().planes["lancaster"].guns]  # DB 0


def test_the_blind_spots_lie_at_the_ends_of_the_tailplane() -> None:
    zones = fire.blind_spot_zones(lancaster(), DORSAL)
    assert zones == [
        ((-1.0, 0.25), (-0.7, 0.25), (-0.7, 0.55), (-1.0, 0.55)),
        ((-1.0, -0.55), (-0.7, -0.55), (-0.7, -0.25), (-1.0, -0.25)),
    ]
    # They turn with the plane: heading 90 puts the tail towards -y.
    turned = lancaster().model_copy(update={"heading": 90.0})
    ((x0, y0), *_), _ = fire.blind_spot_zones(turned, DORSAL)
    assert (x0, y0) == (pytest.approx(-0.25), pytest.approx(-1.0))


def test_the_dorsal_turret_fires_all_round_but_never_down() -> None:
    # Ahead, abeam and astern at the same level: a 360-degree turret (DB 9.c).
    for x, y in ((3.0, 0.0), (0.0, 3.0), (-3.0, 0.0)):
        assert check(fighter(x, y, heading=0.0)).ok
    # DB 11.c: one level lower, no shot; one level higher, a shot.
    assert check(fighter(1.5, 0.0, level=0)).reason == "lower-target"
    assert check(fighter(1.5, 0.0, level=2)).ok
    # Nor at a ground gun (level 0) from any height.
    ground = fire.check_at_ground(catalog(), lancaster(), DORSAL, 1.5, 0.0, [lancaster()])
    assert ground.reason == "lower-target"
    front = catalog().planes["lancaster-mk3"].guns[0]
    assert fire.check_at_ground(catalog(), lancaster(), front, 2.5, 0.0, [lancaster()]).ok


def test_the_blind_spot_stops_a_short_shot_past_the_tailplane_at_the_same_level() -> None:
    behind_left = fighter(-2.2, 1.2)
    open_check = check(behind_left, blind_spots=False)
    assert open_check.ok and open_check.short
    gun = (-0.2, 0.0)
    (left_zone, _) = fire.blind_spot_zones(lancaster(), DORSAL)
    assert fire.geo.segment_hits_polygon(gun, open_check.aim, left_zone)
    assert check(behind_left).reason == "blind-spot"  # DB 11.d
    # Straight astern the ruler passes between the fins.
    assert check(fighter(-3.0, 0.0)).ok
    # Past the ruler's first half the zone does not stop the shot.
    far = check(fighter(-5.0, 2.6))
    assert far.ok and not far.short
    # DB 11.d advanced: a higher target ignores the zones.
    assert check(fighter(-2.2, 1.2, level=2), lancaster(level=1)).ok


def test_a_bomb_card_is_graded_by_what_it_covers() -> None:
    target = industrial.IndustrialTarget()
    cat = catalog()
    assert industrial.coverage(cat, target, (target.x, target.y, 0.0)) == "red-dot"
    # The bomb card is 1.4 bw long: 1 bw off it clears the dot but covers the inner zone.
    assert industrial.coverage(cat, target, (target.x + 1.0, target.y, 0.0)) == "inner-zone"
    assert industrial.coverage(cat, target, (target.x + 1.6, target.y, 0.0)) == "outer-card"
    assert industrial.coverage(cat, target, (target.x + 2.0, target.y, 0.0)) == "off-target"
    assert [industrial.points(target, tier) for tier in industrial.SHARE] == [12, 6, 3, 0]
    half = target.model_copy(update={"won": 10})
    assert industrial.points(half, "inner-zone") == 2  # never more than is left


def fly(state: db.DamState, orders: list[str]) -> tuple[db.DamState, list[dict[str, object]]]:
    events: list[dict[str, object]] = []
    for index, order in enumerate(orders):
        state, more = db.play(catalog(), state, order, Rng("ind", index, "dam"))
        events += more
    return state, events


def test_the_raid_flies_a_standard_lancaster_with_three_bombs_by_day() -> None:
    state = db.new_dam("industrial")
    (reg,) = state.roster
    plane = state.planes[reg]
    assert state.plane_type == "lancaster-mk3" and plane.bombs == 3 and plane.level == 2
    assert not state.night and sorted(state.guns) == ["aa-1", "aa-2"]
    legal, _ = db.legal_orders(catalog(), state)
    assert {"SS drop", "SF drop"} <= set(legal) and not any("aim" in o for o in legal)
    assert len(legal) <= 25
    assert db.check_order(catalog(), state, db.parse_order("TL drop")) == "bomb-needs-straight"
    assert db.check_order(catalog(), db.new_dam("eder"), db.parse_order("SS drop")) == "no-bomb"


def test_a_bomb_on_the_red_dot_destroys_the_complex_and_ends_the_raid() -> None:
    state, events = fly(db.new_dam("industrial"), ["SS", "SS drop"])
    (dropped,) = [e for e in events if e["kind"] == "bomb-dropped"]
    assert (dropped["tier"], dropped["vp"]) == ("red-dot", 12)
    assert "complex-destroyed" in [e["kind"] for e in events]
    assert state.finished and state.target is not None and state.target.destroyed
    assert db.result(state)["result"] == "decisive"


def test_an_early_bomb_falls_beside_the_target_and_wins_nothing() -> None:
    state, events = fly(db.new_dam("industrial"), ["SS drop"])
    (dropped,) = [e for e in events if e["kind"] == "bomb-dropped"]
    assert (dropped["tier"], dropped["vp"]) == ("off-target", 0)
    assert state.planes[state.roster[0]].bombs == 2 and not state.finished


def test_the_dorsal_turret_never_fires_at_the_guns_below() -> None:
    # Down at level 1 beside an AA gun: the front and rear turrets may fire, the dorsal never.
    state = db.new_dam("industrial")
    reg = state.roster[0]
    gun = state.guns["aa-1"]
    low = state.planes[reg].model_copy(
        update={"x": gun.x - 2.0, "y": gun.y, "level": 1, "placed": True}
    )
    state = state.model_copy(update={"planes": {reg: low}})
    work = db.Run(catalog(), state, Rng("d", 1, "t"))
    work.plane_fire(reg, locked_front=False)
    shots = [e["gun"] for e in work.events if e["kind"] == "fire-at-aa"]
    assert "front_turret" in shots and "dorsal_turret" not in shots


def test_the_raid_plays_through_the_ruleset_and_replays_identically() -> None:
    assert "lancaster-industrial" in WingsRules(catalog()).scenarios()
    first = random_raid("lancaster-industrial", "complex", 100)
    assert first == random_raid("lancaster-industrial", "complex", 100)
    assert first != random_raid("lancaster-industrial", "other", 100)

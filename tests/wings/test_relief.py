"""Terrain relief (seed F.V): a hill or a ridge raises the floor locally; a plane must fly
above it to cross, too low it crashes into the rock face."""

from __future__ import annotations

from typing import Any

import pytest

from bot.logtext import describe
from engine.rng import Rng
from engine.rulesets.wings import SCENARIO_RULES, WingsRules, relief
from engine.rulesets.wings.fire import base_polygon
from engine.rulesets.wings.generator import generate_mission
from engine.rulesets.wings.program import parse_program
from engine.rulesets.wings.state import Event, MissionState, PlaneState, ReliefZone
from engine.rulesets.wings.turn import play_turn
from tests.test_french import problems
from tests.wings.helpers import catalog, mission, plane
from tests.wings.test_rescue import reasons


def box(zid: str, floor: int, x0: float, y0: float, x1: float, y1: float) -> ReliefZone:
    return ReliefZone(id=zid, floor=floor, corners=((x0, y0), (x1, y0), (x1, y1), (x0, y1)))


# Example a: a plateau at floor 1 in the middle of a plain.
PLATEAU = (box("R1", 1, 10.0, 6.0, 14.0, 14.0),)
# Example b: a valley between a northern ridge at floor 1 and a southern one at floor 2.
VALLEY = (box("R1", 1, 10.0, 0.0, 14.0, 6.0), box("R2", 2, 10.0, 16.0, 14.0, 22.2))


def low(pid: str, y: float, level: int, counters: int, x: float = 6.5) -> PlaneState:
    """A plane heading east towards the relief (two straights put its base over it)."""
    return plane(pid, y=y, x=x, level=level, counters=counters, pilot=pid)


def fly(
    zones: tuple[ReliefZone, ...], *planes: PlaneState, program: str = "S S S", seed: str = "f"
) -> tuple[MissionState, list[Event]]:
    state = mission(*planes, collisions=False).model_copy(update={"relief": zones})
    programs = {p.id: parse_program(program) for p in planes}
    return play_turn(catalog(), state, programs, Rng(seed, 1, "t"))


def crashed(events: list[Event]) -> dict[str, dict[str, Any]]:
    return {e.data["plane"]: e.data for e in events if e.kind == "crashed-into-relief"}


def test_above_a_floor_is_its_level_with_a_climb_counter_or_higher() -> None:
    # Example a: "above level 1, i.e. at least 2 pegs + 1 climb counter" (peg 1 is level 0).
    assert relief.above(1, 1, 1) and relief.above(2, 0, 1)
    assert not relief.above(1, 0, 1) and not relief.above(0, 2, 1)
    # Example b: "above level 2 (3 pegs + one climb counter)".
    assert relief.above(2, 1, 2) and not relief.above(2, 0, 2) and not relief.above(1, 1, 2)


def test_example_a_the_plateau_is_crossed_only_above_its_floor() -> None:
    after, events = fly(
        PLATEAU,
        low("hedge", 7.0, level=1, counters=1),  # two pegs and a counter: skims over it
        low("high", 10.0, level=2, counters=0),
        low("level1", 13.0, level=1, counters=0),  # level 1 over the plain, 0 over it
        low("plain", 2.0, level=0, counters=1),  # hedge-hopping over the plain: fine
        low("ground", 20.0, level=0, counters=0),
    )
    assert {pid for pid, p in after.planes.items() if p.status == "flying"} == {
        "hedge", "high", "plain", "ground",
    }  # fmt: skip
    assert after.planes["hedge"].x > 14.0  # it flew right across
    assert after.planes["level1"].status == "crashed"
    assert crashed(events) == {
        "level1": {"plane": "level1", "relief": "R1", "floor": 1, "level": 1, "counters": 0}
    }
    hit = next(e for e in events if e.kind == "crashed-into-relief")
    assert hit.phase == 2 and hit.secret_for is None  # the second straight reached the rock


def test_example_b_the_valley_s_ridges_each_need_their_own_height() -> None:
    after, events = fly(
        VALLEY,
        low("north", 3.0, level=1, counters=1),  # hedge-hops over the northern ridge (1)
        low("south", 19.0, level=1, counters=1),  # the same height meets the southern (2)
        low("south-high", 21.0, level=2, counters=1),  # three pegs and a counter: over it
        low("south-2", 17.5, level=2, counters=0),  # level 2 exactly: the rock face
        low("valley", 11.0, level=0, counters=0),  # down in the valley, nothing to cross
    )
    assert set(crashed(events)) == {"south", "south-2"}
    assert crashed(events)["south"]["relief"] == "R2"
    for pid in ("north", "south-high", "valley"):
        assert after.planes[pid].status == "flying" and after.planes[pid].x > 14.0


def test_the_altitude_a_maneuver_ends_at_is_the_one_that_counts() -> None:
    climbing = low("climbing", 8.0, level=1, counters=0)  # the climb card: its counter first
    diving = low("diving", 12.0, level=2, counters=0, x=11.0)  # over the plateau already
    after, events = fly(PLATEAU, climbing, program="CL S S")
    assert after.planes["climbing"].status == "flying" and not crashed(events)
    after, events = fly(PLATEAU, diving, program="DV S S")
    assert after.planes["diving"].status == "crashed"
    assert crashed(events)["diving"]["level"] == 1 and events[-1].kind != "crashed-into-ground"


def test_a_plane_put_on_the_table_too_low_over_relief_crashes_at_the_turn_s_start() -> None:
    placed = low("placed", 10.0, level=1, counters=0, x=12.0)
    _after, events = fly(PLATEAU, placed)
    hit = next(e for e in events if e.kind == "crashed-into-relief")
    assert hit.phase == 0 and not any(
        e.kind == "card-revealed" and e.data["plane"] == "placed" for e in events
    )


def test_the_crash_is_the_engine_s_crash_and_the_program_stays_legal() -> None:
    doomed = low("level1", 13.0, level=1, counters=0)
    assert reasons(doomed, "S S S") == []  # flying into rock is legal, only fatal
    after, events = fly(PLATEAU, doomed)
    kinds = [e.kind for e in events]
    at = kinds.index("crashed-into-relief")
    assert kinds[at + 1 : at + 3] == ["crashed", "crash"]  # seed B.VIII: the pilot's fate
    assert events[at + 2].data["pilot_alive"] == (after.planes["level1"].pilot_lp >= 0)
    assert after.planes["level1"].destroyed_by is None and after.planes["level1"].crash_zone
    # No shot-down rule: the pilot dies with his plane, as when one dives into the ground.
    state = mission(doomed, shot_down_rule=False, collisions=False)
    state = state.model_copy(update={"relief": PLATEAU})
    after, _ = play_turn(catalog(), state, {"level1": parse_program("S S S")}, Rng("f", 1, "t"))
    assert after.planes["level1"].pilot_lp < 0


def test_the_log_tells_it_in_both_languages() -> None:
    _after, events = fly(PLATEAU, low("P7", 13.0, level=1, counters=0))
    hit = next(e for e in events if e.kind == "crashed-into-relief")
    english = describe(hit.kind, hit.data, "en", turn=1)
    french = describe(hit.kind, hit.data, "fr", turn=1)
    assert english.startswith("P7 flew into the rock face of relief R1: floor 1")
    assert "level 1 +0" in english and "crashed-into-relief" not in french
    assert french.startswith("P7 s'écrase contre la paroi rocheuse du relief R1")
    assert not problems([("crashed-into-relief", french)])


def test_the_same_turn_flown_twice_is_the_same_byte_for_byte() -> None:
    planes = (low("a", 7.0, 1, 0), low("b", 13.0, 1, 1), low("c", 19.0, 2, 0))
    first = fly(VALLEY + PLATEAU, *planes, seed="d")
    second = fly(VALLEY + PLATEAU, *planes, seed="d")
    assert first[0].model_dump_json() == second[0].model_dump_json()
    assert [e.model_dump() for e in first[1]] == [e.model_dump() for e in second[1]]


# --- the generator ----------------------------------------------------------------------------


def _generated(seed: str, kind: str, enemy_zone: bool = False, on: bool = True) -> MissionState:
    rules = WingsRules(catalog())
    state = rules.new("wings-1918", seed)
    camp = state.camp.model_copy(
        update={"rules": state.camp.rules.model_copy(update={"relief": on})}
    )
    generated, _points, _forces = generate_mission(
        catalog(), camp, Rng(seed, 0, "gen"), kind, enemy_zone=enemy_zone
    )
    return generated


@pytest.mark.parametrize(
    ("kind", "enemy_zone"),
    [("patrol", False), ("recon", False), ("bombing", False), ("balloon", False),
     ("photography", True), ("bombing", True)],
)  # fmt: skip
def test_the_generator_keeps_relief_clear_of_every_spot(kind: str, enemy_zone: bool) -> None:
    ruler = catalog().rules.units.ruler
    layouts = set()
    for n in range(25):
        generated = _generated(f"lay{n}", kind, enemy_zone)
        zones = generated.relief
        layouts.add(tuple(zone.floor for zone in zones))
        for zone in zones:
            xs = [x for x, _ in zone.corners]
            assert min(xs) >= 1.5 * ruler - 1e-6 and max(xs) <= 22.2 - 1.5 * ruler + 1e-6
            for site in (*generated.objectives.values(), *generated.ground.values()):
                assert relief.clearance((site.x, site.y), zone.corners) >= ruler / 2 - 1e-6
            for p in generated.planes.values():
                assert relief.clearance((p.x, p.y), zone.corners) >= ruler - 1e-6
                assert relief.struck(catalog(), generated, p) is None
    assert {(1,), (1, 2)} <= layouts  # both of the seed's examples come up


def test_relief_is_laid_only_under_its_switch_and_from_its_own_stream() -> None:
    assert not SCENARIO_RULES["wings-1917"].relief and SCENARIO_RULES["wings-1918"].relief
    off, on = _generated("sw", "bombing", on=False), _generated("sw", "bombing")
    assert off.relief == () and on.relief
    # Nothing else on the table moved: the relief draws from a stream of its own.
    assert off.model_copy(update={"relief": (), "rules": on.rules}) == on.model_copy(
        update={"relief": ()}
    )
    assert _generated("sw", "bombing").relief == on.relief
    state = WingsRules(catalog()).new("wings-1918", "first")
    assert state.camp.mission is not None and state.camp.mission.relief


def test_a_plane_out_of_the_sun_comes_in_above_the_relief_under_it() -> None:
    """The dawn sun would put it a level under its target, flying over a floor-2 ridge at
    level 3: level 2 there is inside the rock, so it comes in at level 3."""
    ridge = (box("R1", 2, 5.0, 5.0, 21.0, 15.0),)
    waiting = plane("e1", "spad7", "entente", x=1.0, y=1.0, level=2, status="waiting")
    target = plane("c1", "albatros_d3", "central", x=8.0, y=10.0, heading=0.0, level=3)
    state = mission(waiting, target, sun=True, collisions=False).model_copy(
        update={"relief": ridge, "time_of_day": "dawn", "sun_side": "entente", "sun_enter": True}
    )
    after, events = play_turn(catalog(), state, {"c1": parse_program("S S S")}, Rng("s", 1, "t"))
    entered = next(e for e in events if e.kind == "sun-entered")
    assert entered.data["level"] == 3 and after.planes["e1"].level == 3
    assert relief.floor_under(ridge, base_polygon(catalog(), after.planes["e1"])) is not None
    programs = {pid: parse_program("S S S") for pid in ("e1", "c1")}
    _next, events = play_turn(catalog(), after, programs, Rng("s", 2, "t"))
    assert not crashed(events)

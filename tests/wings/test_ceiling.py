"""The floor and the real ceiling (seed B.V) as a scenario switch."""

from __future__ import annotations

from engine.rng import Rng
from engine.rulesets.wings.ceiling import game_ceiling
from engine.rulesets.wings.state import MissionState
from engine.rulesets.wings.turn import Turn, play_turn
from tests.wings.helpers import catalog, mission, plane
from tests.wings.test_turn import programs


def pair(low: int, high: int, floor: int = 0, **rules: bool) -> MissionState:
    a = plane("a", type_="camel", side="entente", x=3.0, y=3.0, level=low)
    b = plane("b", type_="dr1", side="central", x=20.0, y=20.0, heading=180.0, level=high)
    return mission(a, b, **rules).model_copy(update={"floor": floor})


def end_turn(state: MissionState) -> Turn:
    work = Turn(catalog(), state, Rng("c", 1, "t"))
    work.end_of_turn()
    return work


def test_the_floor_moves_up_when_every_plane_is_at_two_or_more_and_one_at_the_ceiling() -> None:
    work = end_turn(pair(2, 3))
    assert work.floor == 2 and game_ceiling(work) == 5  # seed B.V table: 2 / 5
    assert [e.data for e in work.events if e.kind == "floor-moved"] == [{"floor": 2, "ceiling": 5}]
    assert end_turn(pair(1, 3)).floor == 0  # one plane still below the new floor
    assert end_turn(pair(2, 2)).floor == 0  # nobody at the ceiling wants higher
    assert end_turn(pair(4, 5, floor=2)).floor == 4  # next row: 4 / 7
    assert end_turn(pair(1, 4, floor=2)).floor == 0  # a dive below it brings it back
    off = end_turn(pair(2, 3, real_ceiling=False))
    assert off.floor == 0 and game_ceiling(off) == 3


def test_a_plane_climbs_past_level_three_once_the_floor_has_moved() -> None:
    def climb(floor: int) -> tuple[int, int]:
        state = pair(2, 3, floor=floor)
        climber = state.planes["b"].model_copy(update={"counters": 1})  # Dr.I climbs in 2
        state = state.model_copy(update={"planes": {**state.planes, "b": climber}})
        after, _ = play_turn(catalog(), state, programs(a="S S S", b="CL S S"), Rng("c", 1, "t"))
        return after.planes["b"].level, after.floor

    assert climb(2) == (4, 2)
    level, _floor = climb(0)
    assert level == 2  # over the game ceiling of 3: it spins and loses a level (authored 3.9)

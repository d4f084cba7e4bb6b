"""A plane the rules put back on the table over relief (seed F.V) comes in flying above the
rock: back at the edge after an accidental exit (A.IV.c), or a reinforcement (E.IV)."""

from __future__ import annotations

from bot.logtext import describe
from engine.rng import Rng
from engine.rulesets.wings import reinforcements as reinf
from engine.rulesets.wings import relief
from engine.rulesets.wings.fire import base_polygon
from engine.rulesets.wings.program import parse_program
from engine.rulesets.wings.state import MissionState
from engine.rulesets.wings.turn import play_turn
from tests.test_french import problems
from tests.wings.helpers import catalog, mission, plane
from tests.wings.test_reinforcements import _mission, _shot_down, _step, _with
from tests.wings.test_relief import box, crashed

# A ridge at floor 2 running in from the southern edge (seed F.V example b's south part).
SOUTH_RIDGE = (box("R2", 2, 10.0, 16.0, 14.0, 22.2),)


def _left_over_the_ridge(level: int, counters: int = 0) -> MissionState:
    """``back`` left the table last turn over the southern edge, where the ridge meets it,
    and its player chose to bring it back; ``other`` flies far from the relief."""
    gone = plane(
        "back", "spad7", "entente", x=12.0, y=23.0, heading=90.0, level=level,
        counters=counters, status="left", left_turn=1, exit_at=(12.0, 22.2), pilot="back",
    )  # fmt: skip
    other = plane("other", x=4.0, y=4.0, level=2, pilot="other")
    state = mission(gone, other, collisions=False, come_back=True)
    return state.model_copy(update={"relief": SOUTH_RIDGE, "turn": 2, "returning": ("back",)})


def test_a_plane_back_at_the_edge_over_a_ridge_comes_in_above_its_floor_and_flies_on() -> None:
    state = _left_over_the_ridge(level=1)
    after, events = play_turn(
        catalog(), state, {"other": parse_program("S S S")}, Rng("rp", 2, "t")
    )
    back = after.planes["back"]
    assert back.status == "flying" and (back.level, back.counters) == (3, 0)
    assert relief.floor_under(SOUTH_RIDGE, base_polygon(catalog(), back)) is not None
    lifted = [e for e in events if e.kind == relief.LIFTED]
    assert [e.data for e in lifted] == [{"plane": "back", "relief": "R2", "floor": 2, "level": 3}]
    assert lifted[0].secret_for is None
    # The next turn it flies its program like any other plane, out over the plain.
    programs = {pid: parse_program("S S S") for pid in ("back", "other")}
    later, events = play_turn(catalog(), after, programs, Rng("rp", 3, "t"))
    assert not crashed(events) and later.planes["back"].status == "flying"


def test_a_plane_already_above_the_rock_keeps_its_level_and_counters() -> None:
    state = _left_over_the_ridge(level=2, counters=1)  # floor 2 with a counter: above it
    after, events = play_turn(
        catalog(), state, {"other": parse_program("S S S")}, Rng("rp", 2, "t")
    )
    assert (after.planes["back"].level, after.planes["back"].counters) == (2, 1)
    assert not [e for e in events if e.kind == relief.LIFTED]


def test_a_reinforcement_set_down_over_relief_comes_in_above_it() -> None:
    """The generator keeps relief a ruler off the deployment lines; a floor-2 ridge laid over
    the Entente's edge still never swallows the new plane (level 2 there is in the rock)."""
    state = _shot_down()
    height = _mission(state).table[1]
    state = _with(state, relief=(box("R1", 2, 0.0, 0.0, 4.0, height),))
    state, _ = _step(state)
    state, events = _step(state, {"entente": {"program:P1": reinf.option_id("spad7")}})
    new = _mission(state).planes["P1-2"]
    assert new.status == "flying" and (new.level, new.counters) == (3, 0)
    lifted = [e.data for e in events if e.kind == relief.LIFTED]
    assert [(d["plane"], d["relief"], d["floor"], d["level"]) for d in lifted] == [
        ("P1-2", "R1", 2, 3)
    ]
    state, events = _step(state)
    assert not crashed(events) and _mission(state).planes["P1-2"].status == "flying"


def test_the_log_tells_it_in_both_languages() -> None:
    data = {"plane": "E1", "relief": "R2", "floor": 2, "level": 3}
    english, french = describe(relief.LIFTED, data, "en"), describe(relief.LIFTED, data, "fr")
    assert english == "E1 comes in over relief R2 (floor 2) at level 3, above the rock"
    assert french == "E1 arrive au-dessus du relief R2 (plancher 2) au niveau 3, hors de la roche"
    assert not problems([(relief.LIFTED, french)])

"""The front (seed F.VI.e, K.1) and the sun above a medium cloud layer: on the Eastern
Front the A card favours the other side and the sun stands on the other edge; in medium
cloudiness the sun plays when the campaign flies above the layer; a GM's switches reach
the generated mission."""

from __future__ import annotations

import math
import random

import pytest

from engine.rng import Rng
from engine.rulesets.wings import WingsRules, WingsState, front, sun
from engine.rulesets.wings.catalog import default_catalog
from engine.rulesets.wings.program import parse_program
from engine.rulesets.wings.state import MissionState, PlaneState
from engine.rulesets.wings.turn import play_turn
from tests.wings.helpers import catalog, mission, plane
from tests.wings.test_sun import _Deck

HALF_RULER = 2.5


def _rules() -> WingsRules:
    return WingsRules(default_catalog())


def _mission(state: WingsState) -> MissionState:
    assert state.camp.mission is not None
    return state.camp.mission


@pytest.mark.parametrize(
    ("cards", "western", "eastern"),
    [
        ((2, 1), "entente", "central"),
        ((4, 1), "entente", "central"),
        ((5, 1), "entente", "central"),
        ((1, 2), "central", "entente"),
        ((3, 2), "central", "entente"),
        ((0, 4), "entente", "central"),  # the noon sun, swapped too
        ((0, 3), "central", "entente"),
        ((0, 0), None, None),  # nobody, on either front
    ],
)
def test_on_the_eastern_front_the_card_favours_the_other_side(
    cards: tuple[int, int], western: str | None, eastern: str | None
) -> None:
    assert sun.draw(catalog(), _Deck(*cards))[1] == western  # type: ignore[arg-type]
    read, side, _noon = sun.draw(catalog(), _Deck(*cards), "eastern")  # type: ignore[arg-type]
    assert side == eastern
    assert read == (cards if cards[0] == 0 else cards[:1])


def _entry(on: str, time_of_day: str) -> tuple[PlaneState, PlaneState]:
    """A waiting Entente plane entering at the end of a turn its target flies straight."""
    waiting = plane("e1", "spad7", "entente", x=1.0, y=1.0, level=2, status="waiting")
    target = plane("c1", "albatros_d3", "central", x=11.0, y=8.0, heading=0.0, level=2)
    m = mission(waiting, target, sun=True).model_copy(
        update={
            "time_of_day": time_of_day,
            "sun_side": "entente",
            "sun_enter": True,
            "front": on,
        }
    )
    after, _ = play_turn(catalog(), m, {"c1": parse_program("S S S")}, Rng("sun", 1, "t"))
    return after.planes["e1"], after.planes["c1"]


@pytest.mark.parametrize(
    ("time_of_day", "western", "eastern"),
    [
        ("morning", (1, 0), (-1, 0)),  # the sun in the east: the right edge, then the left
        ("noon", (0, 1), (0, -1)),  # south: the bottom, then the top
        ("dusk", (-1, 0), (1, 0)),
    ],
)
def test_on_the_eastern_front_the_sun_stands_on_the_other_edge(
    time_of_day: str, western: tuple[int, int], eastern: tuple[int, int]
) -> None:
    for on, towards in (("western", western), ("eastern", eastern)):
        own, enemy = _entry(on, time_of_day)
        assert own.status == "flying"
        dx, dy = own.x - enemy.x, own.y - enemy.y
        assert math.hypot(dx, dy) == pytest.approx(HALF_RULER)
        assert (round(dx / HALF_RULER), round(dy / HALF_RULER)) == towards, on
        # Facing its target, whichever edge it came from.
        facing = math.degrees(math.atan2(-dy, -dx)) % 360
        assert own.heading == pytest.approx(facing, abs=0.01)


def _fresh(weather: str, **rules: bool) -> MissionState:
    a = plane("e1", "spad7", "entente", x=1.0, y=8.0)
    b = plane("c1", "albatros_d3", "central", x=20.0, y=8.0, heading=180.0)
    return mission(a, b, **rules).model_copy(update={"weather": weather})


def test_in_medium_cloudiness_the_sun_plays_only_above_the_layer() -> None:
    stream = random.Random(5)
    below, told = sun.at_start(catalog(), _fresh("medium", sun=True), stream)
    assert below.sun_cards == () and not told
    assert all(p.status == "flying" for p in below.planes.values())
    above, told = sun.at_start(
        catalog(), _fresh("medium", sun=True, sun_above_clouds=True), random.Random(5)
    )
    assert above.sun_cards and [e.kind for e in told] in (["sun-drawn"], ["sun-none"])
    if above.sun_side is not None:
        waiting = {p.side for p in above.planes.values() if p.status == "waiting"}
        assert waiting == {above.sun_side}
    # Never in heavy weather, and never with the rule off, above the layer or not.
    for weather, rules in (("heavy", {"sun": True}), ("clear", {"sun": False})):
        plain, told = sun.at_start(
            catalog(), _fresh(weather, sun_above_clouds=True, **rules), random.Random(5)
        )
        assert plain.sun_cards == () and not told


def test_the_eastern_scenario_swaps_the_sun_and_says_so() -> None:
    rules = _rules()
    seen_medium = False
    for seed in ("s1", "s2", "s3", "s5", "s6", "s7"):
        east = _mission(rules.new("wings-1917-east", seed))
        west = _mission(rules.new_switched("wings-1917-east", seed, {"front": "western"}))
        assert (east.front, west.front) == ("eastern", "western")
        # The same draw, the other side: the front changes nothing else of the mission.
        assert east.sun_cards == west.sun_cards and east.sun_cards
        assert east.sun_side == front.favoured(west.sun_side, "eastern")  # type: ignore[arg-type]
        assert east.planes.keys() == west.planes.keys()
        seen_medium |= east.weather == "medium"
    assert seen_medium  # s7: medium cloudiness, flown above the layer, the sun drawn
    # Told to everyone as the campaign is set up: the front, then the sun.
    state = rules.new("wings-1917-east", "s2")
    kinds = [e.kind for e in rules.opening(state)]
    assert kinds.index("front-eastern") < kinds.index("sun-drawn")
    assert rules.view(state, None).data["front"] == "eastern"
    # The Western Front tells nothing new.
    state = rules.new("wings-1917", "s2")
    assert "front-eastern" not in [e.kind for e in rules.opening(state)]


def test_the_front_is_carried_into_every_later_mission() -> None:
    rules = _rules()
    state = rules.new("wings-1917-east", "later")
    for _ in range(40):
        if state.camp.mission_number >= 2 or rules.progress(state).finished:
            break
        progress = rules.progress(state)
        state, _ = rules.resolve(
            state,
            rules.defaults(rules.pending(state)),
            Rng("later", progress.turn, progress.round),
        )
    assert state.camp.mission_number >= 2
    assert _mission(state).front == "eastern" and state.camp.front == "eastern"


def test_switches_declared_and_applied_to_the_generated_mission() -> None:
    rules = _rules()
    names = [s.name for s in rules.switches("wings-1917")]
    assert names[:5] == ["front", "sun", "sun_above_clouds", "airfield_assault", "period_bonus"]
    assert {"cloud_cover", "ammunition", "tailing"} <= set(names)
    defaults = {s.name: s.default for s in rules.switches("wings-1917")}
    picked = (defaults["front"], defaults["sun"], defaults["period_bonus"])
    assert picked == ("western", "on", "off")
    assert rules.switches("dambuster-eder") == ()  # a raid has no campaign to switch
    # No switch: exactly the scenario.
    assert rules.new_switched("wings-1917", "sw", {}) == rules.new("wings-1917", "sw")
    switched = rules.new_switched(
        "wings-1917",
        "sw",
        {"front": "eastern", "sun": "off", "airfield_assault": "on", "ammunition": "off"},
    )
    camp = switched.camp
    assert camp.front == "eastern" and camp.airfield_assault
    assert not camp.rules.sun and not camp.rules.ammunition and camp.rules.cloud_cover
    m = _mission(switched)
    assert m.front == "eastern" and not m.rules.sun and m.sun_cards == ()
    assert all(p.ammo is None for p in m.planes.values())  # B.II off: no ammunition cards
    with pytest.raises(ValueError):
        rules.new_switched("wings-1917", "sw", {"warp": "on"})
    with pytest.raises(ValueError):
        rules.new_switched("wings-1917", "sw", {"front": "southern"})

"""Landing on the own airfield outside a rescue (seed B.I.a; the strip's place authored)."""

from __future__ import annotations

from engine.rulesets.wings import _program_options
from engine.wings.landing import AIRFIELD, lands_home
from engine.wings.objectives import returned
from engine.wings.state import MissionState
from tests.wings.helpers import catalog, mission, plane
from tests.wings.test_rescue import fly


def homecoming(x: float = 8.5, y: float = 11.1, side: str = "entente") -> MissionState:
    heading = 180.0 if side == "entente" else 0.0
    width = 22.2
    home = plane(
        "H1", type_="camel", side=side, pilot="H1", level=0, counters=1, heading=heading,  # type: ignore[arg-type]
        x=x if side == "entente" else width - x, y=y,
    )  # fmt: skip
    other = "central" if side == "entente" else "entente"
    enemy = plane("X1", side=other, x=16.0, y=18.0, heading=180.0)  # type: ignore[arg-type]
    return mission(home, enemy)


def test_the_menu_offers_a_landing_that_stops_on_the_own_airfield() -> None:
    cat = catalog()
    for side in ("entente", "central"):
        state = homecoming(side=side)
        assert "LD S S ST" in _program_options(cat, state.planes["H1"], state, ["S"])
    # Too close (the stall would roll off the table), off to the side, or not at level 0
    # with one counter: no landing on the menu.
    for state in (homecoming(x=7.0), homecoming(y=3.0)):
        assert not lands_home(cat, state, state.planes["H1"])
        assert "LD S S ST" not in _program_options(cat, state.planes["H1"], state, ["S"])
    high = homecoming()
    high_plane = high.planes["H1"].model_copy(update={"level": 1})
    assert "LD S S ST" not in _program_options(cat, high_plane, high, ["S"])


def test_a_landing_on_the_own_airfield_is_free_and_the_plane_is_home_at_the_end() -> None:
    state = fly(homecoming(), {"H1": "LD S S ST", "X1": "S S S"})
    h1 = state.planes["H1"]
    assert h1.status == "landed" and h1.cards == ()  # a strip: no B cards (seed B.I.a)
    assert h1.x <= AIRFIELD[0]
    last = state.model_copy(update={"turn": state.max_turns})
    after = fly(last, {"H1": "GD ST ST ST", "X1": "S S S"})
    assert after.finished and after.planes["H1"].status == "left"
    assert returned(after, after.planes["H1"])
    # The same landing beside the strip is a rough one: 2 B cards.
    rough = fly(homecoming(y=3.0), {"H1": "LD S S ST", "X1": "S S S"})
    assert [deck for deck, _ in rough.planes["H1"].cards] == ["B", "B"]

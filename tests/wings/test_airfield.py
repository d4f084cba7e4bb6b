"""Landing on the own airfield outside a rescue (seed B.I.a; the strip's place authored)."""

from __future__ import annotations

from engine.rulesets.wings.landing import AIRFIELD, lands_home
from engine.rulesets.wings.objectives import returned
from engine.rulesets.wings.state import MissionState
from tests.wings.helpers import catalog, mission, offered, plane, stack
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
        assert "LD S S ST" in offered(cat, state.planes["H1"], state, ["S"])
    # Too close (the stall would roll off the table), off to the side, or not at level 0
    # with one counter: no landing on the menu.
    for state in (homecoming(x=7.0), homecoming(y=3.0)):
        assert not lands_home(cat, state, state.planes["H1"])
        assert "LD S S ST" not in offered(cat, state.planes["H1"], state, ["S"])
    high = homecoming()
    high_plane = high.planes["H1"].model_copy(update={"level": 1})
    assert "LD S S ST" not in offered(cat, high_plane, high, ["S"])


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


def turned(state: MissionState) -> MissionState:
    """A turn later, the landed plane turned round to take off into the table."""
    planes = dict(state.planes)
    planes["H1"] = planes["H1"].model_copy(update={"heading": 0.0})
    return state.model_copy(update={"turn": state.turn + 1, "planes": planes})


def test_a_take_off_from_a_rough_field_costs_2_b_cards_from_a_strip_nothing() -> None:
    # Seed B.I.b. Landed beside the strip (2 B cards), it takes 2 more to get away; landed
    # on the strip, it leaves as it came, free.
    ones = [i for i, c in enumerate(catalog().damage_decks["B"].expanded) if c.value == 1]
    ones = [i for i in ones if catalog().damage_decks["B"].expanded[i].special == "none"]
    rough = fly(stack(homecoming(y=3.0), "B", ones[:4]), {"H1": "LD S S ST", "X1": "S S S"})
    assert rough.planes["H1"].status == "landed" and rough.planes["H1"].damage == 2
    after = fly(turned(rough), {"H1": "TO ST S S", "X1": "S S S"})
    h1 = after.planes["H1"]
    assert h1.status == "flying" and [deck for deck, _ in h1.cards] == ["B"] * 4
    assert h1.damage == 4
    home = fly(homecoming(), {"H1": "LD S S ST", "X1": "S S S"})
    away = fly(turned(home), {"H1": "TO ST S S", "X1": "S S S"})
    assert away.planes["H1"].status == "flying" and away.planes["H1"].cards == ()


def test_a_rescuer_takes_off_from_the_field_by_the_pilot_for_free() -> None:
    from tests.wings.test_rescue import rescuer, site

    enemy = plane("C1", side="central", pilot="C1", x=20.0, y=20.0, heading=180.0)
    state = mission(rescuer(), enemy).model_copy(
        update={"kind": "rescue", "objectives": {"c-rescue1": site(8.0)}}
    )
    for program in ("LD S S ST", "GD ST ST ST", "TO ST S S"):
        state = fly(state, {"E1": program, "C1": "S S S"})
    assert state.planes["E1"].status == "flying" and state.planes["E1"].cards == ()

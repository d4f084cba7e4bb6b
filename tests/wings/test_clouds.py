"""Cloud cover (seed B.V): the layer above the game ceiling hides where a plane goes."""

from __future__ import annotations

from engine.rng import Rng
from engine.rulesets.wings import geometry as geo
from engine.rulesets.wings.state import CampaignState, Event, MissionState, Squadron
from engine.rulesets.wings.turn import play_turn
from tests.wings.helpers import catalog, mission, plane, seen
from tests.wings.test_turn import programs


def climbers(clouds: bool = True, **rules: bool) -> MissionState:
    """A Dr.I at the game ceiling one counter short of the next level; a Camel behind it,
    low enough that the floor stays at 0 (seed B.V)."""
    dr1 = plane("b", type_="dr1", side="central", x=10.0, y=11.0, heading=0.0, level=3,
                counters=1)  # fmt: skip
    camel = plane("a", type_="camel", side="entente", x=7.5, y=11.0, heading=0.0, level=1)
    return mission(dr1, camel, cloud_cover=clouds, collisions=False, **rules)


def fly(state: MissionState, **texts: str) -> tuple[MissionState, list[Event]]:
    return play_turn(catalog(), state, programs(**texts), Rng("cl", state.turn, "t"))


def test_a_climb_past_the_ceiling_enters_the_clouds_where_the_base_stays() -> None:
    state, events = fly(climbers(), b="CL S S", a="S S S")
    b = state.planes["b"]
    assert b.in_cloud and b.level == 4 and b.counters == 0  # seed B.V table: floor 0, cloud 4
    assert b.cloud_cards == ("S", "S")  # the rest of the turn, written down
    assert b.cards == () and not [e for e in events if e.kind == "over-ceiling"]
    entered = [e for e in events if e.kind == "entered-clouds"]
    assert entered and entered[0].secret_for is None and entered[0].data["level"] == 4
    moved = [e for e in events if e.kind == "moved" and e.data["plane"] == "b"]
    assert len(moved) == 1  # only the climb was flown
    assert (round(b.x, 3), round(b.y, 3)) == (moved[0].data["x"], moved[0].data["y"])
    # Without the switch the same climb over-climbs (authored 3.9).
    off, off_events = fly(climbers(clouds=False), b="CL S S", a="S S S")
    assert not off.planes["b"].in_cloud and [e for e in off_events if e.kind == "over-ceiling"]


def test_in_the_clouds_it_neither_moves_nor_fires_nor_is_fired_at() -> None:
    state, _ = fly(climbers(), b="CL S S", a="S S S")
    where = (state.planes["b"].x, state.planes["b"].y)
    # Put the Camel right behind it at the cloud level: out of the clouds it would fire.
    camel = plane("a", type_="camel", side="entente", x=where[0] - 2.0, y=where[1],
                  heading=0.0, level=4)  # fmt: skip
    state = state.model_copy(update={"planes": {**state.planes, "a": camel}})
    after, events = fly(state, b="S S S", a="S S S")
    b = after.planes["b"]
    assert b.in_cloud and (b.x, b.y) == where and b.cloud_cards == ("S",) * 5
    assert b.last_card == "S"
    assert not [e for e in events if e.kind == "fire"]
    # Nothing said about it to anyone but its side (its sealed record of each phase).
    assert not [e for e in events if e.data.get("plane") == "b" and e.secret_for != "central"]
    # The same Camel fires at it out of the clouds.
    clear = state.planes["b"].model_copy(update={"in_cloud": False})
    out = state.model_copy(update={"planes": {**state.planes, "b": clear}})
    _, shots = fly(out, b="S S S", a="S S S")
    assert [e for e in shots if e.kind == "fire" and e.data["target"] == "b"]


def test_a_dive_brings_it_out_after_the_cards_written_down_are_flown() -> None:
    state, _ = fly(climbers(), b="CL S S", a="S S S")
    state, _ = fly(state, b="HL S HR", a="ST ST ST")
    b = state.planes["b"]
    start = (b.x, b.y, b.heading)
    expected = start
    dr1 = catalog().planes["dr1"]
    for code in b.cloud_cards:
        expected = geo.apply_move(*expected, catalog().move(dr1, code))
    after, events = fly(state, b="DV S S", a="ST ST ST")
    out = [e for e in events if e.kind == "left-clouds"]
    assert out and out[0].data["cards"] == ["S", "S", "HL", "S", "HR"]
    assert (out[0].data["x"], out[0].data["y"]) == (round(expected[0], 3), round(expected[1], 3))
    first_move = next(e for e in events if e.kind == "moved" and e.data["plane"] == "b")
    assert events.index(out[0]) < events.index(first_move)  # before the turn's first card
    b = after.planes["b"]
    assert not b.in_cloud and b.cloud_cards == () and b.level == 3  # the dive: out, 3


def test_the_enemy_sees_the_base_where_it_went_in_and_nothing_written_down() -> None:
    state, _ = fly(climbers(), b="CL S S", a="S S S")
    state, _ = fly(state, b="HL S HR", a="ST ST ST")
    squadrons = {
        side: Squadron(side=side, name=side, players=1, reserve=0)
        for side in ("entente", "central")
    }
    camp = CampaignState(
        seed_commitment="x", date="1917-09", phase="mission", squadrons=squadrons, pilots={},
        mission=state,
    )  # fmt: skip
    enemy = seen(camp, "entente")["mission"]["planes"]["b"]
    assert enemy["in_cloud"] is True
    for secret in ("cloud_cards", "cloud_salt", "last_card", "last_steep"):
        assert secret not in enemy
    own = seen(camp, "central")["mission"]["planes"]["b"]
    assert own["cloud_cards"] == ["S", "S", "HL", "S", "HR"] and own["last_card"] == "HR"
    assert (enemy["x"], enemy["y"]) == (own["x"], own["y"])  # where it went in


def test_a_plane_at_the_edge_of_the_clouds_has_its_next_program_sealed() -> None:
    # At the game ceiling it could go in during the next turn and write down its last
    # cards: it gets its secret salt at this turn's end, and loses it once below.
    state, _ = fly(climbers(), b="S S S", a="S S S")
    assert state.planes["b"].cloud_salt and not state.planes["a"].cloud_salt  # a: level 1
    # At the ceiling but two counters short (a Camel climbs a level in 3): it cannot go in
    # next turn, and its orders open as usual.
    # (The floor stays put here: both at 3 would move it up, seed B.V.)
    fixed = climbers(real_ceiling=False)
    camel = fixed.planes["a"].model_copy(update={"level": 3, "counters": 0, "x": 3.0})
    far, _ = fly(fixed.model_copy(update={"planes": {**fixed.planes, "a": camel}}),
                 b="S S S", a="S S S")  # fmt: skip
    assert far.floor == 0 and far.planes["b"].cloud_salt and not far.planes["a"].cloud_salt
    off, _ = fly(climbers(clouds=False), b="S S S", a="S S S")
    assert not off.planes["b"].cloud_salt
    kept, _ = fly(state, b="S S S", a="ST ST ST")
    assert kept.planes["b"].cloud_salt == state.planes["b"].cloud_salt  # still at the edge
    back = state.planes["b"].model_copy(update={"x": 3.0})  # room to dive on the table
    lower, _ = fly(state.model_copy(update={"planes": {**state.planes, "b": back}}),
                   b="DV S S", a="ST ST ST")  # fmt: skip
    assert lower.planes["b"].level == 2 and not lower.planes["b"].cloud_salt


def test_the_mission_end_brings_it_out_where_it_really_is() -> None:
    state, _ = fly(climbers(), b="CL S S", a="S S S")
    last = state.model_copy(update={"turn": state.max_turns})
    after, events = fly(last, b="HL S S", a="ST ST ST")
    assert after.finished and not after.planes["b"].in_cloud
    assert [e.data["cards"] for e in events if e.kind == "left-clouds"] == [
        ["S", "S", "HL", "S", "S"]
    ]

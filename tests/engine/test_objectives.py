"""Coral Sea's objective bonuses (authored 3.7.3) score at the campaign's end (rules 4).

"Allied +5 VP if the Invasion Force track ends at 10+; Japanese +5 VP if Port Moresby ends
at 10+ and the Invasion Force below 10": read on the tracks as the last turn leaves them,
added to the damage tracks' VP (25.83) before the winner is named (25.9).
"""

from __future__ import annotations

from engine.rng import Rng
from engine.rulesets.carrier.campaign import new_campaign, resolve
from engine.rulesets.carrier.state import Event, State
from engine.zero.loader import default_catalog
from engine.zero.types import Side

CATALOG = default_catalog()
J, A = Side.JAPANESE, Side.ALLIED
NO_RESOURCE = "15"


def quiet_turn(turn: int, damage: dict[str, int]) -> tuple[State, list[Event]]:
    """Coral Sea's turn ``turn`` with ``damage`` points already on tracks, nobody striking
    and no resource played, so the tracks end the turn as they began it."""
    state = new_campaign(CATALOG, "coral-sea", "objectives")
    tracks = dict(state.tracks)
    for key, points in damage.items():
        tracks[key] = tracks[key].model_copy(update={"damage_points": points})
    state = state.model_copy(update={"tracks": tracks, "turn": turn})
    orders = {
        side: {"fleet_tactic": "medium", "flight_ops": "none", "doctrine": "balanced"}
        for side in Side
    }
    state, events = resolve(CATALOG, state, orders, Rng("objectives", turn, "orders"))
    picks = {side: {"resource": NO_RESOURCE} for side in Side}
    state, more = resolve(CATALOG, state, picks, Rng("objectives", turn, "resource"))
    return state, events + more


def objective_events(events: list[Event]) -> list[dict[str, object]]:
    return [e.data for e in events if e.kind == "objective-met"]


def test_the_invasion_force_turned_back_gives_the_allies_five_more_vp_at_the_end() -> None:
    state, events = quiet_turn(6, {"invasion-force": 12})
    assert state.finished
    # Turned Back is worth 7 on the track, and the objective 5 more.
    assert state.vp == {J: 0, A: 12}
    assert state.history[-1].vp == {J: 0, A: 12}
    assert state.winner is A
    assert objective_events(events) == [{"side": "allied", "vp": 5}]
    vp_event = next(e for e in events if e.kind == "vp")
    assert vp_event.data == {"japanese": 0, "allied": 12}


def test_port_moresby_neutralized_scores_for_japan_only_while_the_invasion_force_holds() -> None:
    state, events = quiet_turn(6, {"port-moresby": 10, "invasion-force": 4})
    assert state.vp == {J: 12, A: 0}
    assert objective_events(events) == [{"side": "japanese", "vp": 5}]

    state, events = quiet_turn(6, {"port-moresby": 10, "invasion-force": 10})
    assert state.vp == {J: 7, A: 12}  # the Allied objective instead of the Japanese one
    assert objective_events(events) == [{"side": "allied", "vp": 5}]


def test_objectives_are_not_scored_before_the_campaign_ends() -> None:
    state, events = quiet_turn(5, {"invasion-force": 12})
    assert not state.finished
    assert state.vp == {J: 0, A: 7}
    assert objective_events(events) == []

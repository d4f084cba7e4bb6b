"""Midway's optional historical opening (authored 3.7.4), a scenario switch the GM picks.

"Optional historical opening: a Japanese strike on T1 must target Midway (airfield or ground
defences)." Optional, so it is a scenario of its own, "midway-historical", chosen at
/campaign new; "midway" plays without it, as every Midway campaign did before.
"""

from __future__ import annotations

import pytest

from engine.rng import Rng
from engine.ruleset import Decision
from engine.rulesets.carrier.campaign import IllegalChoice, new_campaign, pending, resolve
from engine.rulesets.carrier.state import State
from engine.zero.loader import default_catalog
from engine.zero.types import Side

CATALOG = default_catalog()
J, A = Side.JAPANESE, Side.ALLIED
NO_RESOURCE = "15"


def flight_ops(state: State, side: Side) -> Decision:
    return next(d for d in pending(CATALOG, state) if d.side == side and d.field == "flight_ops")


def offered(state: State, side: Side) -> set[str]:
    return {option.id for option in flight_ops(state, side).options}


def orders(japanese: str) -> dict[Side, dict[str, str]]:
    picks = {"fleet_tactic": "medium", "doctrine": "balanced"}
    return {J: {**picks, "flight_ops": japanese}, A: {**picks, "flight_ops": "none"}}


def test_the_gm_can_pick_the_historical_opening() -> None:
    twin = CATALOG.scenarios["midway-historical"]
    assert twin.historical_opening and twin.sheet_key == "midway"
    assert twin.turns == CATALOG.scenarios["midway"].turns
    assert not CATALOG.scenarios["midway"].historical_opening


def test_a_japanese_turn_one_strike_must_go_for_midway() -> None:
    state = new_campaign(CATALOG, "midway-historical", "opening")
    japanese = flight_ops(state, J)
    assert {o.id for o in japanese.options} == {
        "large:midway-airfield",
        "large:midway-ground",
        "small:midway-airfield",
        "small:midway-ground",
        "none",
    }
    refused = {e.id: e.reason for e in japanese.excluded}
    assert refused == {
        "large:allied-fleet": "historical-opening",
        "small:allied-fleet": "historical-opening",
    }
    # The Allies are not bound by it.
    assert "large:japanese-fleet" in offered(state, A)
    with pytest.raises(IllegalChoice) as refusal:
        resolve(CATALOG, state, orders("small:allied-fleet"), Rng("opening", 1, "orders"))
    assert refusal.value.reason == "historical-opening"


def test_from_turn_two_the_japanese_may_strike_the_carriers() -> None:
    state = new_campaign(CATALOG, "midway-historical", "opening")
    state, _ = resolve(CATALOG, state, orders("none"), Rng("opening", 1, "orders"))
    picks = {side: {"resource": NO_RESOURCE} for side in Side}
    state, _ = resolve(CATALOG, state, picks, Rng("opening", 1, "resource"))
    assert state.turn == 2
    assert {"large:allied-fleet", "small:allied-fleet"} <= offered(state, J)


def test_without_the_switch_turn_one_is_as_before() -> None:
    state = new_campaign(CATALOG, "midway", "opening")
    assert {"large:allied-fleet", "small:allied-fleet"} <= offered(state, J)

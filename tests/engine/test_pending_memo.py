"""The carrier decision lists are remembered per state (issue 13), without changing them."""

from __future__ import annotations

import pytest

from engine.rng import Rng
from engine.rulesets.carrier import campaign
from engine.rulesets.carrier.campaign import IllegalChoice, new_campaign, pending, resolve, validate
from engine.rulesets.carrier.state import Decision, State
from engine.zero.catalog import Catalog
from engine.zero.loader import default_catalog
from engine.zero.types import RoundKind, Side
from tests.engine.campaign_helpers import play


def test_pending_is_the_same_list_every_time_and_callers_cannot_spoil_it() -> None:
    catalog = default_catalog()
    state = new_campaign(catalog, "coral-sea", "memo")
    first = pending(catalog, state)
    assert {d.side for d in first} == {s.value for s in Side}
    first.clear()  # a caller's own copy: the next caller still gets every decision
    again = pending(catalog, state)
    assert again and again == pending(catalog, state.model_copy())
    assert again is not pending(catalog, state)


def _fresh(catalog: Catalog, state: State) -> list[Decision]:
    """The round's decisions built from scratch, nothing remembered."""
    if state.finished:
        return []
    built: list[Decision] = []
    for side in Side:
        if state.round is RoundKind.ORDERS:
            side_state = state.sides[side]
            built.append(campaign._tactic_decision(side_state))
            built.append(campaign._flight_ops_decision(catalog, state, side))
            built.append(campaign._doctrine_decision(side_state))
        else:
            built.append(campaign._resource_decision(catalog, state, side))
    return built


def test_remembered_decisions_equal_fresh_ones_in_every_round_of_many_campaigns() -> None:
    """The lists are remembered by the few facts each side's decisions read; were one fact
    missing from the key, two states differing only in it would share a list."""
    catalog = default_catalog()
    states = [
        state
        for scenario in catalog.scenarios
        for seed in range(12)
        for state in play(catalog, scenario, f"memo-{seed}", seed)[2]
    ]
    for order in (states, states[::-1]):  # the second pass meets the first's entries
        campaign._orders_made.clear()
        campaign._resources_made.clear()
        for state in order:
            campaign._recent.clear()
            assert pending(catalog, state) == _fresh(catalog, state), state.turn


def test_validate_names_the_reason_of_an_excluded_option_and_refuses_non_text() -> None:
    catalog = default_catalog()
    state = new_campaign(catalog, "coral-sea", "memo")
    choices: dict[Side, dict[str, str]] = {Side(d.side): {} for d in pending(catalog, state)}
    for decision in pending(catalog, state):
        choices[Side(decision.side)][decision.field] = decision.default
    validate(catalog, state, choices)  # the defaults are legal
    for decision in pending(catalog, state):
        if decision.field == "flight_ops":  # each side's first Large Strike
            choices[Side(decision.side)]["flight_ops"] = decision.options[0].id
    assert all(fields["flight_ops"].startswith("large:") for fields in choices.values())
    ahead, _ = resolve(catalog, state, choices, Rng("memo", 1, "orders"))
    ahead, _ = resolve(
        catalog,
        ahead,
        {side: {"resource": "1"} for side in Side},
        Rng("memo", 1, "resource"),
    )
    with pytest.raises(IllegalChoice) as refused:  # 25.42: no Large Strike twice running
        validate(catalog, ahead, choices)
    assert refused.value.reason == "large-twice"
    odd: dict[Side, dict[str, object]] = {side: dict(f) for side, f in choices.items()}
    odd[Side.ALLIED]["doctrine"] = 3  # not text: refused, not looked up
    with pytest.raises(IllegalChoice) as refused:
        validate(catalog, state, odd)  # type: ignore[arg-type]
    assert refused.value.reason == "unknown-option"

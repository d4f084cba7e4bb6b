"""An odds preview's plays keep no records, and play exactly as the recorded ones do.

A preview reads only the damage tracks a play leaves, so it plays the resource round with
``campaign.resource_tracks`` (no events, no turn record, no new state) and each strike with
``fly_unrecorded`` (no draws, exchanges, flak shots, band moves or turns kept). Recording
must never move a card: over random campaigns, the tracks are those ``resolve`` leaves,
and each strike ends with the same aircraft, bomb runs, points and deck.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import engine.rulesets.carrier.turn as turn_module
from engine.rng import Rng
from engine.rulesets.carrier import CarrierRules
from engine.rulesets.carrier.campaign import resource_tracks
from engine.rulesets.carrier.state import State
from engine.zero.cards import Deck
from engine.zero.loader import default_catalog
from engine.zero.orders import StrikeSetup
from engine.zero.strike import fly_strike, fly_unrecorded
from engine.zero.types import Side

RULES = CarrierRules(default_catalog())
CAMPAIGNS = [(scenario, seed) for scenario in ("coral-sea", "midway") for seed in range(4)]


def _resource_rounds(scenario: str, seed: int) -> Iterator[tuple[State, dict[str, Any], Rng]]:
    """Each resource round of a campaign between random commanders, with its choices."""
    draw = random.Random(f"unrecorded|{scenario}|{seed}")
    state = RULES.new(scenario, f"unrecorded-{seed}")
    while not state.finished:
        choices = RULES.drawn(RULES.pending(state), draw)
        rng = Rng(f"unrecorded-{seed}", state.turn, state.round.value)
        if state.round.value == "resource":
            yield state, choices, rng
        state, _ = RULES.resolve(state, choices, rng)


@pytest.mark.parametrize(("scenario", "seed"), CAMPAIGNS)
def test_the_tracks_of_a_play_are_those_resolve_leaves(scenario: str, seed: int) -> None:
    for state, choices, rng in _resource_rounds(scenario, seed):
        after, _ = RULES.resolve(state, choices, rng)
        by_side = {Side(side): dict(choice) for side, choice in choices.items()}
        tracks = resource_tracks(RULES.catalog, state, by_side, rng)
        assert {key: track.model_dump() for key, track in tracks.items()} == {
            key: track.model_dump() for key, track in after.tracks.items()
        }


def _strikes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[StrikeSetup, Deck]]:
    """Every strike the campaigns fly (scouts, Midway's raids, land-based bombers, carrier
    strikes), each with a copy of its deck as it was handed over."""
    flown: list[tuple[StrikeSetup, Deck]] = []

    def keep(setup: StrikeSetup, catalog: Any, deck: Deck) -> Any:
        flown.append((setup, deck.copy()))
        return fly_strike(setup, catalog, deck)

    monkeypatch.setattr(turn_module, "fly_strike", keep)
    for scenario, seed in CAMPAIGNS:
        for state, choices, rng in _resource_rounds(scenario, seed):
            RULES.resolve(state, choices, rng)
    return flown


def test_an_unrecorded_strike_flies_card_for_card_as_the_recorded_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    flown = _strikes(monkeypatch)
    assert {setup.kind for setup, _ in flown} >= {"scout", "carrier", "airfield", "land-based"}
    for setup, deck in flown:
        recorded_deck, unrecorded_deck = deck.copy(), deck.copy()
        recorded = fly_strike(setup, RULES.catalog, recorded_deck)
        unrecorded = fly_unrecorded(setup, RULES.catalog, unrecorded_deck)
        for name in ("aircraft", "bomb_runs", "target_points", "notes", "hidden"):
            assert getattr(unrecorded, name) == getattr(recorded, name), (setup.id, name)
        assert [c.id for c in unrecorded_deck.pile] == [c.id for c in recorded_deck.pile]
        assert unrecorded_deck.dealt == recorded_deck.dealt
        assert unrecorded.draws == unrecorded.exchanges == unrecorded.moves == ()
        assert recorded.draws  # the recorded strike does keep them

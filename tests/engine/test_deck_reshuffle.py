"""The Action deck's reshuffle against the rule: checked, not a bug (fidelity task).

The rule (zero-authored-data.md 3.2.1, from the DVG rules, 2.2): "When the draw pile is empty,
shuffle the discards to form a new pile." ``Deck._reshuffle`` takes the whole deck when the
discard pile is empty. That is the rule, not a departure from it: the scopes that never hand
cards back (recovery 25.71, a place's CAP card 25.43, out of sight, the submarine, Pearl
Harbor's attack cards) read each card and set it aside at once, so every card they drew is a
discard, and the whole deck is exactly the discard pile. A strike, whose Leaders hold hands,
always has discards when its pile runs out: it would need all 110 cards held at once.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.rng import Rng
from engine.rulesets.carrier import CarrierRules
from engine.rulesets.carrier import turn as turn_module
from engine.zero import strike as strike_module
from engine.zero.cards import Deck
from engine.zero.catalog import Catalog
from engine.zero.loader import default_catalog
from engine.zero.orders import StrikeSetup
from engine.zero.report import StrikeReport

CATALOG = default_catalog()


def test_a_new_pile_is_the_discards_and_held_cards_stay_out() -> None:
    # 3.2.1: the discards, and only they, form the new pile; a card still in a Leader's
    # hand is not shuffled back (it would be in two places at once).
    deck = Deck(CATALOG.deck.cards[:10], random.Random(7))
    first = deck.draw_many(10, "hand")
    held, played = first[:4], first[4:]
    deck.discard(played)
    again = deck.draw_many(6, "draw")
    assert sorted(c.id for c in again) == sorted(c.id for c in played)
    assert not {c.id for c in held} & {c.id for c in again}
    assert deck.reshuffles == 1


def test_cards_read_and_set_aside_all_come_back() -> None:
    # A recovery test (25.71) reads its cards and sets them aside: they are the discards,
    # so when the pile runs out every card of the deck is shuffled back, once each.
    deck = Deck(CATALOG.deck.cards, random.Random(3))
    size = len(CATALOG.deck.cards)
    drawn = deck.draw_many(2 * size, "recovery")
    assert set(Counter(c.id for c in drawn).values()) == {2}
    assert deck.reshuffled_at == [size]


def test_strikes_never_run_out_of_discards(monkeypatch: pytest.MonkeyPatch) -> None:
    # Whole campaigns: as each strike ends, each of its deck's cards is in one place only
    # (pile, discards or a hand): none lost to the discards' shuffles, none dealt twice.
    # A strike that reshuffled without discards would have put the whole deck back in the
    # pile, the cards its Leaders hold too: they would be in two places.
    reshuffles: list[int] = []
    misplaced: list[tuple[int, int]] = []

    # Checked where the turn flies each strike: ``engine.rulesets.carrier.turn`` stays
    # interpreted, while the strike and the deck may be compiled (scripts/build_native.py), so
    # their methods cannot be patched. The strike's report only reads its sky.
    def counted(setup: StrikeSetup, catalog: Catalog, deck: Deck) -> StrikeReport:
        strike = strike_module.Strike(setup, catalog, deck)
        report = strike.run()
        held = [card for plane in strike.sky.planes for card in plane.hand]
        where = Counter(c.id for c in [*deck.pile, *deck.discards, *held])
        every = Counter(c.id for c in deck._all)
        misplaced.append((sum((every - where).values()), sum((where - every).values())))
        reshuffles.append(deck.reshuffles)
        return report

    monkeypatch.setattr(turn_module, "fly_strike", counted)
    rules = CarrierRules(CATALOG)
    for scenario in ("coral-sea", "midway"):
        for seed in range(4):
            pick = random.Random(f"reshuffle|{scenario}|{seed}")
            state = rules.new(scenario, f"reshuffle-{seed}")
            while not state.finished:
                choices = rules.drawn(rules.pending(state), pick)
                rng = Rng(f"reshuffle-{seed}", state.turn, state.round.value)
                state, _ = rules.resolve(state, choices, rng)
    assert sum(reshuffles) >= 5  # enough strikes ran their pile out for this to mean something
    assert len(misplaced) >= 20 and set(misplaced) == {(0, 0)}

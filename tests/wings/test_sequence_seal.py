"""How the seam seals the orders that could begin a maneuver finished next turn (seed A.I.b,
C; engine.rulesets.wings.sequence_seal): the seal follows from the cards alone, every plain
program flying a maneuver's first cards is offered beside it where the rules allow it, and
only the owner's panel names the maneuver."""

from __future__ import annotations

import random

import pytest

from engine.rng import Rng
from engine.ruleset import Decision, Option
from engine.rulesets.wings import SEQUENCE_MARK, WingsRules, WingsState, _slots
from engine.rulesets.wings.program import check_program, parse_program
from engine.rulesets.wings.sequence_seal import could_begin, public_program
from engine.rulesets.wings.state import MissionState, PlaneState
from rendering.rulesets.wings import WingsPresenter
from tests.wings.helpers import catalog

CATALOG = catalog()
RULES = WingsRules(CATALOG)


def _states(scenario: str, seed: str, rounds: int) -> list[WingsState]:
    """The states a campaign goes through, every side picking a random option each round
    (maneuvers begun late among them)."""
    picker = random.Random(seed)
    state = RULES.new(scenario, seed)
    states = [state]
    for number in range(rounds):
        if RULES.progress(state).finished:
            break
        picks: dict[str, dict[str, str]] = {"entente": {}, "central": {}}
        for decision in RULES.pending(state):
            picks[decision.side][decision.field] = picker.choice(decision.options).id
        state, _events = RULES.resolve(state, picks, Rng(seed, number, "pick"))
        states.append(state)
    return states


def _plane(mission: MissionState, decision: Decision) -> PlaneState:
    slots = _slots(mission)
    return next(
        p
        for p in mission.planes.values()
        if p.side == decision.side and slots[p.id] == decision.field and p.status != "downed"
    )


def _menus(scenario: str, seed: str) -> list[tuple[MissionState, PlaneState, Decision]]:
    menus = []
    for state in _states(scenario, seed, 14):
        mission = state.camp.mission
        if state.dam is not None or mission is None or mission.round != "program":
            continue
        for decision in RULES.pending(state):
            programs = [o for o in decision.options if " " in o.id]
            if decision.field.startswith("plane") and programs:
                menus.append((mission, _plane(mission, decision), decision))
    return menus


@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_an_order_is_sealed_by_its_cards_and_offered_beside_its_twin(seed: str) -> None:
    begun = twins = 0
    for mission, plane, decision in _menus("wings-1917-basic", seed):
        if plane.cloud_salt:
            continue  # sealed whole by the clouds (seed B.V)
        deck = CATALOG.maneuver_decks[CATALOG.planes[plane.type].deck]
        plain_labels = [o.label for o in decision.options if ":" not in o.detail]
        for option in decision.options:
            if " " not in option.id:
                continue
            cards, mark, seal = option.id.partition(SEQUENCE_MARK)
            shown = public_program(CATALOG, cards)
            # The seal follows from the cards alone, so it tells nothing the turn does not.
            could = shown is not None and could_begin(CATALOG, deck, shown.cards)
            assert bool(mark) == could, option
            assert option.label == cards and (not mark or len(seal) == 10)
            if ":" not in option.detail:
                continue
            # A maneuver begun late: its own panel names it; the plain program flying the
            # same cards is on the menu too, unless the rules forbid it.
            begun += 1
            assert mark and parse_program(option.detail).maneuver in CATALOG.complex
            plain = parse_program(cards)
            if not check_program(CATALOG, plane, plain, mission.rules, mission.turn):
                twins += 1
                assert plain_labels.count(cards) == 1, (cards, plain_labels)
    assert begun and twins


def test_only_the_owners_panel_names_the_maneuver() -> None:
    state = RULES.new("wings-1917-basic", "words")
    menu = next(d for d in RULES.pending(state) if d.side == "entente" and d.field == "plane1")
    begun = next(o for o in menu.options if o.detail == "S S split_s: ST")
    plain = next(o for o in menu.options if o.label == "S S ST" and ":" not in o.detail)
    presenter = WingsPresenter()
    for locale, name in (("en", "Split-S"), ("fr", "Split-S")):
        # Anyone reading the opened order reads the cards, the same for both.
        words = {
            presenter.option_text("wings-1917-basic", "plane1", o.id, locale)
            for o in (begun, plain)
        }
        assert words == {"S S ST"}
        # The owner's panel tells them apart.
        assert name in presenter.option_description("plane1", begun, locale)
        assert name in presenter.option_lines("wings-1917-basic", menu, locale)[0]
        assert name not in presenter.option_description("plane1", plain, locale)


def test_an_ace_of_aces_keeps_a_maneuver_begun_late_and_it_opens_as_its_cards() -> None:
    """The swap round after the second maneuver (seed D.VII.a): an Ace flying a Split-S
    begun on his last card may only keep it; his kept order reads as the stall flown
    plainly, the turn flies on, no token is spent, and the Immelmann is owed."""
    from tests.wings.test_ace_swap import _ace_campaign, _plane, _step

    rules = RULES
    kept = []
    for program in ("S S split_s: ST", "S S ST"):
        state = _ace_campaign()
        menu = next(d for d in rules.pending(state) if d.field == "plane1" and d.side == "entente")
        pick = next(o.id for o in menu.options if _flies(o) == program)
        state, _ = _step(rules, state, "ace", {"entente": {"plane1": pick}})
        while rules.progress(state).round != "swap":
            state, _ = _step(rules, state, "ace")
        (swap,) = [d for d in rules.pending(state) if d.side == "entente"]
        kept.append(swap.default)
        tokens = _plane(state, "P1").tokens
        state, _ = _step(rules, state, "ace")
        assert rules.progress(state).turn == 2 and _plane(state, "P1").tokens == tokens
        owed = "split_s" if ":" in program else None
        assert _plane(state, "P1").sequence == owed
    assert [k.partition(SEQUENCE_MARK)[0] for k in kept] == ["S S ST", "S S ST"]
    assert all(SEQUENCE_MARK in k for k in kept)


def _flies(option: Option) -> str:
    return option.detail if ":" in option.detail else option.label

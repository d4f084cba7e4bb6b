"""How the seam seals the orders that could begin a maneuver finished next turn (seed A.I.b,
C; engine.rulesets.wings.sequence_seal): the seal follows from the cards alone, a maneuver
begun late and the plain program flying its first cards read alike, and only the owner's
panel names the maneuver."""

from __future__ import annotations

import random

import pytest

from engine.rng import Rng
from engine.ruleset import Decision, Option, unit_of
from engine.rulesets.wings import SEQUENCE_MARK, WingsRules, WingsState, sequences
from engine.rulesets.wings.program import check_program, parse_program, program_text
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
    return mission.planes[unit_of(decision.field)]


def _menus(scenario: str, seed: str) -> list[tuple[WingsState, PlaneState, Decision]]:
    menus = []
    for state in _states(scenario, seed, 14):
        mission = state.camp.mission
        if state.dam is not None or mission is None or mission.round != "program":
            continue
        for decision in RULES.pending(state):
            if decision.written:
                menus.append((state, _plane(mission, decision), decision))
    return menus


@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_an_order_is_sealed_by_its_cards_and_reads_like_its_twin(seed: str) -> None:
    """Every complex maneuver a plane may begin late, written, is stored as its cards and a
    seal; the plain program flying the same cards, where the rules allow it, is sealed too
    and reads the same to anyone else; each reads back whole on its own side's panel."""
    begun = twins = 0
    for state, plane, decision in _menus("wings-1917-basic", seed):
        if plane.cloud_salt:
            continue  # sealed whole by the clouds (seed B.V)
        mission = state.camp.mission
        assert mission is not None
        deck = CATALOG.maneuver_decks[CATALOG.planes[plane.type].deck]
        for option in decision.options:  # the quick picks: each stored as the rules seal it
            cards, mark, _seal = option.id.partition(SEQUENCE_MARK)
            shown = public_program(CATALOG, cards)
            assert bool(mark) == (shown is not None and could_begin(CATALOG, deck, shown.cards))
        for start in sequences.starts(CATALOG, deck, plane):
            text = program_text(start)
            illegal = check_program(CATALOG, plane, start, mission.rules, mission.turn)
            if start.start == 0 or illegal:
                continue
            token = RULES.read_text(state, decision, text)
            assert isinstance(token, str) and SEQUENCE_MARK in token, (text, token)
            cards, _mark, seal = token.partition(SEQUENCE_MARK)
            assert len(seal) == 10 and RULES.text_of(state, decision, token) == text
            begun += 1
            plain = parse_program(cards)
            if not check_program(CATALOG, plane, plain, mission.rules, mission.turn):
                twin = RULES.read_text(state, decision, cards)
                assert isinstance(twin, str) and twin.partition(SEQUENCE_MARK)[0] == cards
                assert twin != token and RULES.text_of(state, decision, twin) == cards
                twins += 1
    assert begun and twins


def test_only_the_owners_panel_names_the_maneuver() -> None:
    state = RULES.new("wings-1917-basic", "words")
    menu = next(d for d in RULES.pending(state) if d.side == "entente" and d.field == "program:P1")
    begun = RULES.read_text(state, menu, "S S split-s: ST")
    plain = RULES.read_text(state, menu, "s s st")
    assert isinstance(begun, str) and isinstance(plain, str) and begun != plain
    presenter = WingsPresenter()
    for locale, name in (("en", "Split-S"), ("fr", "Split-S")):
        # Anyone reading the opened order reads the cards, the same for both.
        words = {
            presenter.option_text("wings-1917-basic", "program:P1", token, locale)
            for token in (begun, plain)
        }
        assert words == {"S S ST"}
        # The owner's panel reads each as written (``text_of``): the maneuver is named.
        own = {
            token: presenter.option_text(
                "wings-1917-basic", "program:P1", RULES.text_of(state, menu, token), locale
            )
            for token in (begun, plain)
        }
        assert name in own[begun] and name not in own[plain]


def test_an_ace_of_aces_keeps_a_maneuver_begun_late_and_it_opens_as_its_cards() -> None:
    """The swap round after the second maneuver (seed D.VII.a): an Ace flying a Split-S
    begun on his last card may only keep it; his kept order reads as the stall flown
    plainly, the turn flies on, no token is spent, and the Immelmann is owed."""
    from tests.wings.test_ace_swap import _ace_campaign, _plane, _step

    rules = RULES
    kept = []
    for program in ("S S split_s: ST", "S S ST"):
        state = _ace_campaign()
        menu = next(
            d for d in rules.pending(state) if d.field == "program:P1" and d.side == "entente"
        )
        pick = RULES.read_text(state, menu, program)
        assert isinstance(pick, str)
        state, _ = _step(rules, state, "ace", {"entente": {"program:P1": pick}})
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

"""A Wings program picked card by card (``engine.rulesets.wings.card_by_card``): walking
the menus reaches exactly the plain programs the rules let a plane fly (``check_program``),
each read back as the written program it is; a card left out says why."""

from __future__ import annotations

import itertools
import json
from collections import OrderedDict
from typing import Any

import pytest

from bot.rulesets import Registry
from engine.rng import Rng
from engine.ruleset import Decision, join_steps
from engine.rulesets.wings import card_by_card
from engine.rulesets.wings.choices import plane_of
from engine.rulesets.wings.program import PREFIX_REASONS, check_program
from engine.rulesets.wings.state import Program
from tests.golden_rulesets import load

WINGS = Registry().get("wings").rules


def _walk(state: object, decision: object, picks: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    step = WINGS.next_step(state, decision, picks)
    if step is None:
        return {picks}
    found: set[tuple[str, ...]] = set()
    for option in step.options:
        found |= _walk(state, decision, (*picks, option.id))
    return found


def test_the_menus_reach_every_legal_plain_program_and_no_other() -> None:
    state = WINGS.new("wings-1917", "card-by-card")
    mission = state.camp.mission
    programs = [d for d in WINGS.pending(state) if d.input == "steps"]
    assert programs and all(d.steps == 3 for d in programs)
    for decision in programs[:2]:
        plane = mission.planes[decision.field.partition(":")[2]]
        deck = WINGS.catalog.maneuver_decks[WINGS.catalog.planes[plane.type].deck]
        codes = list(dict.fromkeys(card.code for card in deck.cards))
        legal = {
            cards
            for cards in itertools.product(codes, repeat=3)
            if not check_program(
                WINGS.catalog, plane, Program(cards=cards), mission.rules, mission.turn
            )
        }
        walked = _walk(state, decision)
        assert walked == legal and 0 < len(legal) < len(codes) ** 3
        for cards in sorted(walked)[:: max(1, len(walked) // 20)]:
            value = WINGS.read_text(state, decision, join_steps(cards))
            assert isinstance(value, str) and WINGS.accept(state, decision, value) is None
            assert WINGS.steps_of(state, decision, value) == cards


def test_a_card_left_out_says_why() -> None:
    state = WINGS.new("wings-1917", "card-by-card")
    decision = next(d for d in WINGS.pending(state) if d.input == "steps")
    first = WINGS.next_step(state, decision, ())
    assert first is not None
    after_im = WINGS.next_step(state, decision, ("IM",)) if first.allows("IM") else None
    if after_im is not None:  # an Immelmann is followed by a straight
        assert {e.reason for e in after_im.excluded} >= {"straight-after-immelmann"}
    climbed = WINGS.next_step(state, decision, ("CL",)) if first.allows("CL") else None
    if climbed is not None:
        assert not climbed.allows("CL")
        reason = next(e.reason for e in climbed.excluded if e.id == "CL")
        assert reason == "one-climb-per-turn"
    refusal = WINGS.read_text(state, decision, "S S")
    assert not isinstance(refusal, str)


def _counting(monkeypatch: pytest.MonkeyPatch, seed: str) -> tuple[Any, Decision, list[object]]:
    """A new Wings mission's first choice built in steps, no menu kept yet, and the list
    every program judged from now on is appended to."""
    state = WINGS.new("wings-1917", seed)
    decision = next(d for d in WINGS.pending(state) if d.input == "steps")
    monkeypatch.setattr(card_by_card, "_MENUS", OrderedDict())
    judged: list[object] = []
    real = check_program

    def counted(*args: Any) -> Any:
        judged.append(args)
        return real(*args)

    monkeypatch.setattr(card_by_card, "check_program", counted)
    return state, decision, judged


def test_a_menu_judges_a_few_programs_not_every_program_of_the_deck(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Counted work, not time: a menu's cards each stop at their first legal completion (the
    # whole deck's programs, 1,400 and more, were judged for each plane and turn before).
    state, decision, judged = _counting(monkeypatch, "few-programs")
    first = WINGS.next_step(state, decision, ())
    assert first is not None and first.options
    codes = len(first.options) + len(first.excluded)
    assert 0 < len(judged) < codes**2
    judged.clear()
    second = WINGS.next_step(state, decision, (first.options[0].id,))
    assert second is not None and 0 < len(judged) < codes**2


def test_a_menu_asked_again_judges_no_program(monkeypatch: pytest.MonkeyPatch) -> None:
    # Counted work, not time: a panel asks every step's menu at each click, and a draft
    # or a Lock walks the picks through them again; the menu is kept whole, the reasons of
    # the cards left out included (each reason judged up to a deck's programs again).
    state, decision, judged = _counting(monkeypatch, "asked-again")
    first = WINGS.next_step(state, decision, ())
    assert first is not None and first.allows("CL")
    picks = ("CL",)  # a second climb is left out, and says why
    second = WINGS.next_step(state, decision, picks)
    assert second is not None and second.excluded and judged
    judged.clear()
    again = WINGS.next_step(state, decision, ())
    assert again == first
    assert WINGS.next_step(state, decision, picks) == second
    assert judged == []


def test_a_rounds_decisions_dump_the_damage_decks_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # Counted work, not time: each plane's programs are sealed with a digest of the
    # mission's damage decks, the same for every plane of the round; it was dumped and
    # hashed once per plane.
    from engine.rulesets.wings import picks

    state = WINGS.new("wings-1917", "decks-once")
    mission = state.camp.mission
    expected = WINGS.pending(state)
    assert len([d for d in expected if d.input == "steps"]) >= 2
    dumped: list[object] = []

    class Counted:
        @staticmethod
        def dumps(value: Any) -> str:
            dumped.append(value)
            return json.dumps(value)

    monkeypatch.setattr(picks, "json", Counted)
    monkeypatch.setattr(picks, "_LAST_SECRET", (None, ""), raising=False)
    fresh = WINGS.load(WINGS.dump(state))  # a new object: nothing kept for it
    assert WINGS.pending(fresh) == expected  # the same seals
    assert fresh.camp.mission == mission and len(dumped) == 1


def _planes_to_judge() -> list[tuple[Any, Any, Any, int]]:
    """(catalog, plane, mission rules, turn): planes asked a program card by card in the
    recorded Wings games (every one flying something owed, a jammed rudder, a hit engine,
    a steep card last or a Genius; one in sixteen of the others), then the opening plane
    changed for what the games do not reach (no altitude rules, a surprise, each rudder)."""
    cases: dict[tuple[str, str, int], tuple[Any, Any, Any, int]] = {}
    for game in load():
        if game["ruleset"] != "wings":
            continue
        seed = f"golden-{game['seed']}"
        state = WINGS.new(game["scenario"], seed)
        for recorded in [*game["rounds"], None]:
            for decision in WINGS.pending(state):
                found = plane_of(state, decision) if decision.input == "steps" else None
                if found is None:
                    continue
                mission, plane = found
                key = (plane.model_dump_json(), mission.rules.model_dump_json(), mission.turn)
                cases.setdefault(key, (WINGS.catalog, plane, mission.rules, mission.turn))
            if recorded is None:
                break
            progress = WINGS.progress(state)
            state, _ = WINGS.resolve(
                state, recorded["choices"], Rng(seed, progress.turn, progress.round)
            )
    chosen = [
        case
        for index, case in enumerate(cases.values())
        if index % 16 == 0
        or case[1].sequence is not None
        or case[1].rudder is not None
        or case[1].engine_hits
        or case[1].last_steep
        or "genius" in case[1].skills
    ]
    catalog, plane, rules, turn = chosen[0]
    steep = next(card.code for card in _deck(catalog, plane).cards if card.steep)
    chosen += [
        (catalog, plane, rules.model_copy(update={"altitude": False}), turn),
        (catalog, plane.model_copy(update={"surprised_turns": (turn,)}), rules, turn),
        (catalog, plane.model_copy(update={"last_card": "IM", "skills": ()}), rules, turn),
        (catalog, plane.model_copy(update={"last_card": steep, "last_steep": True}), rules, turn),
    ]
    chosen += [
        (catalog, plane.model_copy(update={"rudder": side, "rudder_until": turn}), rules, turn)
        for side in ("L", "R")
    ]
    return chosen


def _deck(catalog: Any, plane: Any) -> Any:
    return catalog.maneuver_decks[catalog.planes[plane.type].deck]


def test_a_refusal_its_cards_so_far_decide_is_never_lifted_by_a_later_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The menus stop judging a card's completions at the first refusal of
    # ``PREFIX_REASONS``: sound only if no legal program begins with the cards up to the
    # refused slot. Checked against every program of each plane, then the menus walked
    # against the legal programs themselves.
    seen: set[str] = set()
    for catalog, plane, rules, turn in _planes_to_judge():
        codes = card_by_card._codes(catalog, plane)
        judged = {
            cards: check_program(catalog, plane, Program(cards=cards), rules, turn)
            for cards in itertools.product(codes, repeat=3)
        }
        opened = {cards[:k] for cards, refused in judged.items() if not refused for k in (1, 2, 3)}
        for cards, refused in judged.items():
            for refusal in refused:
                if refusal.reason in PREFIX_REASONS:
                    assert 0 <= refusal.position < 3, refusal
                    assert cards[: refusal.position + 1] not in opened, (plane.id, cards, refusal)
                    seen.add(refusal.reason)
        monkeypatch.setattr(card_by_card, "_MENUS", OrderedDict())
        legal = {cards for cards, refused in judged.items() if not refused}
        assert _walk_cards(catalog, plane, rules, turn) == legal, plane.id
    assert seen == PREFIX_REASONS  # each claim put to the test


def _walk_cards(
    catalog: Any, plane: Any, rules: Any, turn: int, picks: tuple[str, ...] = ()
) -> set[tuple[str, ...]]:
    step = card_by_card.next_card(catalog, plane, rules, turn, picks)
    if step is None:
        return {picks}
    found: set[tuple[str, ...]] = set()
    for option in step.options:
        found |= _walk_cards(catalog, plane, rules, turn, (*picks, option.id))
    return found

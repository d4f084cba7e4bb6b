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
from engine.ruleset import Decision, join_steps
from engine.rulesets.wings import card_by_card
from engine.rulesets.wings.program import check_program
from engine.rulesets.wings.state import Program

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

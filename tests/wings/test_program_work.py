"""The work a Wings program check and a plane's card menus do, counted (issue 29: a cold
Wings panel, draft or Lock cost twice a carrier's, most of it judging programs).

``check_program`` judges a plain program of a plane with nothing owed without asking, card
by card, whether the card belongs to a complex maneuver (none can), and asks whether an
Immelmann had a straight before it only for an Immelmann. The card menus' key dumps a plane
and the mission's rules once for all the steps a panel walks, not once a step. Both leave
every answer as it was (the golden games; ``tests/wings/test_card_by_card.py``).
"""

from __future__ import annotations

from typing import Any

import pytest

import engine.rulesets.wings.program as program_rules
import engine.rulesets.wings.sequences as sequences
from bot.rulesets import Registry
from bot.service_panels import steps_draft
from engine.rulesets.wings import card_by_card
from engine.rulesets.wings.state import MissionRules, PlaneState, Program

WINGS = Registry().get("wings").rules


def _counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, calls: list[str]) -> None:
    real = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)


def _flying_plane() -> tuple[Any, PlaneState]:
    state = WINGS.new("wings-1917", "program-work")
    mission = state.camp.mission
    plane = next(p for p in mission.planes.values() if p.status == "flying")
    assert plane.sequence is None
    return mission, plane


def test_a_plain_program_asks_no_card_whether_it_is_in_a_sequence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mission, plane = _flying_plane()
    calls: list[str] = []
    _counting(monkeypatch, sequences, "in_sequence", calls)
    _counting(monkeypatch, program_rules, "_straight_before_immelmann", calls)
    for cards in (("S", "S", "S"), ("BL", "S", "BR"), ("TL", "TR", "S")):
        refusals = program_rules.check_program(
            WINGS.catalog, plane, Program(cards=cards), mission.rules, mission.turn
        )
        assert refusals == [], cards
    assert calls == []  # before: 3 of each a program
    # An Immelmann still asks what came before it, and a declared maneuver its cards.
    program_rules.check_program(
        WINGS.catalog, plane, Program(cards=("S", "IM", "S")), mission.rules, mission.turn
    )
    assert calls == ["_straight_before_immelmann"]


def test_a_panels_card_menus_dump_the_plane_once(monkeypatch: pytest.MonkeyPatch) -> None:
    state = WINGS.new("wings-1917", "program-work")
    decision = next(d for d in WINGS.pending(state) if d.input == "steps")
    card_by_card._MENUS.clear()
    card_by_card._DUMPS.clear()
    dumps: list[str] = []
    for model in (PlaneState, MissionRules):
        _counting(monkeypatch, model, "model_dump_json", dumps)
    picks = ("S", "S", "S")
    drafted = {decision.field: WINGS.read_text(state, decision, " ".join(picks))}
    shown = steps_draft(WINGS, state, decision, drafted, {})
    assert shown.picks == picks and len(shown.menus) == 3
    # The picks walked (three menus), then the menus shown (three): one plane, one rules.
    assert dumps == ["model_dump_json", "model_dump_json"]  # before: 12


def test_a_sides_planes_asked_by_turns_are_dumped_once_each(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A side's panel asks each of its planes' menus in turn, and so does every click on it:
    # with one plane's text kept, two planes dumped each other out at every call.
    state = WINGS.new("wings-1917", "program-work")
    side = WINGS.side_ids[0]
    decisions = [d for d in WINGS.pending(state) if d.input == "steps" and d.side == side]
    assert len(decisions) >= 2
    card_by_card._MENUS.clear()
    card_by_card._DUMPS.clear()
    dumps: list[str] = []
    for model in (PlaneState, MissionRules):
        _counting(monkeypatch, model, "model_dump_json", dumps)
    for _click in range(3):
        for decision in decisions:
            steps_draft(WINGS, state, decision, {}, {})
    assert len(dumps) == len(decisions) + 1  # each plane once, the mission's rules once

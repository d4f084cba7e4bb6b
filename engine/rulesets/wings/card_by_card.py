"""A plane's program picked card by card (issue 26: a choice built in steps).

Each card's menu offers only the cards some legal program can go on from: every plain
three-card program of the plane's deck is judged once by ``check_program`` (the rules a
written program meets), and a card is offered after the cards picked when a legal program
begins with them and it. A card left out says why: the first refusal ``check_program``
gives for it at its place, else that no legal card can follow it. Declarations, complex
maneuvers, releases and shots are written (``written``): they are not cards of the deck.
"""

from __future__ import annotations

import itertools

from engine.ruleset import Excluded, Option, Step
from engine.rulesets.wings.catalog import Catalog
from engine.rulesets.wings.program import CARDS_PER_TURN, check_program
from engine.rulesets.wings.state import MissionRules, PlaneState, Program

__all__ = ["CARDS_PER_TURN", "NOTHING_FOLLOWS", "legal_programs", "next_card"]

NOTHING_FOLLOWS = "nothing-follows"
# Programs judged per plane and turn: a panel asks three steps' menus at once, and a pick
# asks them again. Keyed by everything check_program reads; cleared when it grows.
_LEGAL: dict[tuple[int, str, str, int], frozenset[tuple[str, ...]]] = {}
_KEPT = 256


def _codes(catalog: Catalog, plane: PlaneState) -> list[str]:
    deck = catalog.maneuver_decks[catalog.planes[plane.type].deck]
    return list(dict.fromkeys(card.code for card in deck.cards))


def legal_programs(
    catalog: Catalog, plane: PlaneState, rules: MissionRules, turn: int
) -> frozenset[tuple[str, ...]]:
    """Every plain three-card program the plane may fly this turn."""
    key = (id(catalog), plane.model_dump_json(), rules.model_dump_json(), turn)
    found = _LEGAL.get(key)
    if found is None:
        codes = _codes(catalog, plane)
        found = frozenset(
            cards
            for cards in itertools.product(codes, repeat=CARDS_PER_TURN)
            if not check_program(catalog, plane, Program(cards=cards), rules, turn)
        )
        if len(_LEGAL) >= _KEPT:
            _LEGAL.clear()
        _LEGAL[key] = found
    return found


def next_card(
    catalog: Catalog, plane: PlaneState, rules: MissionRules, turn: int, picks: tuple[str, ...]
) -> Step | None:
    """The menu of the card after ``picks``, or None once three are picked."""
    if len(picks) >= CARDS_PER_TURN:
        return None
    legal = legal_programs(catalog, plane, rules, turn)
    place = len(picks)
    allowed = {cards[place] for cards in legal if cards[:place] == picks}
    options: list[Option] = []
    excluded: list[Excluded] = []
    for code in _codes(catalog, plane):
        if code in allowed:
            options.append(Option(id=code, label=code))
        else:
            reason = _why_not(catalog, plane, rules, turn, (*picks, code))
            excluded.append(Excluded(id=code, label=code, reason=reason))
    return Step(options=tuple(options), excluded=tuple(excluded))


def _why_not(
    catalog: Catalog, plane: PlaneState, rules: MissionRules, turn: int, picks: tuple[str, ...]
) -> str:
    """Why no legal program begins with ``picks``: the refusal of its last card in the
    first completion that refuses it there, else that nothing can follow it."""
    place = len(picks) - 1
    rest = CARDS_PER_TURN - len(picks)
    for tail in itertools.product(_codes(catalog, plane), repeat=rest):
        program = Program(cards=(*picks, *tail))
        for refusal in check_program(catalog, plane, program, rules, turn):
            if refusal.position == place:
                return refusal.reason
    return NOTHING_FOLLOWS

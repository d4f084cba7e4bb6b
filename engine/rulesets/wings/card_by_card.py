"""A plane's program picked card by card (issue 26: a choice built in steps).

Each card's menu offers only the cards some legal program can go on from: a card is offered
after the cards picked when some plain three-card program of the plane's deck begins with
them and it and ``check_program`` (the rules a written program meets) passes it. A card left
out says why: the first refusal ``check_program`` gives for it at its place, else that no
legal card can follow it. Declarations, complex maneuvers, releases and shots are written
(``written``): they are not cards of the deck.
"""

from __future__ import annotations

import functools
import itertools
from collections import OrderedDict

from engine.ruleset import Excluded, Option, Step
from engine.rulesets.wings.catalog import Catalog
from engine.rulesets.wings.program import CARDS_PER_TURN, PREFIX_REASONS, check_program
from engine.rulesets.wings.state import MissionRules, PlaneState, Program

__all__ = ["CARDS_PER_TURN", "NOTHING_FOLLOWS", "next_card"]

NOTHING_FOLLOWS = "nothing-follows"
_Key = tuple[int, str, str, int, tuple[str, ...]]
# The menu of the card after some picks, per plane, turn and picks: a panel asks every
# step's menu again at each click, and a draft or a Lock walks the picks through them once
# more. The whole menu is kept, the reasons of the cards left out with it: each reason
# judges up to a deck's worth of programs again (``_why_not``), which made a Wings draft
# cost several times a carrier's. Keyed by everything check_program reads; the oldest out
# past ``_KEPT`` (an entry takes about 3 KiB with its key, where the whole set of a plane's
# legal programs took 200 KiB). Menus are frozen: every caller may share one.
_MENUS: OrderedDict[_Key, Step] = OrderedDict()
_KEPT = 2048


def _codes(catalog: Catalog, plane: PlaneState) -> list[str]:
    deck = catalog.maneuver_decks[catalog.planes[plane.type].deck]
    return list(dict.fromkeys(card.code for card in deck.cards))


def _allowed(
    catalog: Catalog, plane: PlaneState, rules: MissionRules, turn: int, picks: tuple[str, ...]
) -> frozenset[str]:
    """The cards some legal program goes on with after ``picks``: each card's search ends
    at its first legal completion, or at the first refusal its cards so far decide alone
    (``PREFIX_REASONS``), so a menu judges a few dozen programs, not every program of the
    deck (1,400 and more, 30 ms, for each plane and turn). Without the second stop, a card
    no program may take was judged with every completion: nine in ten of a menu's
    programs."""
    codes = _codes(catalog, plane)
    return frozenset(
        code for code in codes if _opens(catalog, plane, rules, turn, (*picks, code), codes)
    )


def _opens(
    catalog: Catalog,
    plane: PlaneState,
    rules: MissionRules,
    turn: int,
    picks: tuple[str, ...],
    codes: list[str],
) -> bool:
    """Whether some legal plain program begins with ``picks``."""
    place = len(picks) - 1
    for tail in itertools.product(codes, repeat=CARDS_PER_TURN - len(picks)):
        refusals = check_program(catalog, plane, Program(cards=(*picks, *tail)), rules, turn)
        if not refusals:
            return True
        if any(0 <= r.position <= place and r.reason in PREFIX_REASONS for r in refusals):
            return False  # the same refusal for every program that begins so
    return False


def next_card(
    catalog: Catalog, plane: PlaneState, rules: MissionRules, turn: int, picks: tuple[str, ...]
) -> Step | None:
    """The menu of the card after ``picks``, or None once three are picked."""
    if len(picks) >= CARDS_PER_TURN:
        return None
    key = (id(catalog), _dumped(plane), _dumped(rules), turn, picks)
    menu = _MENUS.get(key)
    if menu is None:
        menu = _menu(catalog, plane, rules, turn, picks)
        _MENUS[key] = menu
        if len(_MENUS) > _KEPT:
            _MENUS.popitem(last=False)
    else:
        _MENUS.move_to_end(key)
    return menu


# The texts of the planes and rules last keyed, by identity: a panel asks each of its
# planes' steps in turn (the picks walked, then every menu up to the next), and dumping a
# plane cost more than a kept menu's look-up saved; with one text kept per kind, a side's
# two planes asked by turns dumped each other out at every call. Each entry holds its
# model (frozen), so the identity check never meets a new object at a reused address;
# cleared whole past ``_DUMPS_KEPT`` (a few rounds' planes). Dict operations are atomic:
# the engine's threads may share it.
_DUMPS: dict[int, tuple[PlaneState | MissionRules, str]] = {}
_DUMPS_KEPT = 256


def _dumped(model: PlaneState | MissionRules) -> str:
    kept = _DUMPS.get(id(model))
    if kept is not None and kept[0] is model:
        return kept[1]
    text = model.model_dump_json()
    if len(_DUMPS) >= _DUMPS_KEPT:
        _DUMPS.clear()
    _DUMPS[id(model)] = (model, text)
    return text


def _menu(
    catalog: Catalog, plane: PlaneState, rules: MissionRules, turn: int, picks: tuple[str, ...]
) -> Step:
    allowed = _allowed(catalog, plane, rules, turn, picks)
    options: list[Option] = []
    excluded: list[Excluded] = []
    for code in _codes(catalog, plane):
        if code in allowed:
            options.append(_option(code))
        else:
            excluded.append(_excluded(code, _why_not(catalog, plane, rules, turn, (*picks, code))))
    return Step(options=tuple(options), excluded=tuple(excluded))


# A kept menu holds shared entries, one per card (and reason): a few hundred bytes a menu
# instead of a model per card. A deck has a few dozen cards, the reasons a few dozen keys.
@functools.cache
def _option(code: str) -> Option:
    return Option(id=code, label=code)


@functools.cache
def _excluded(code: str, reason: str) -> Excluded:
    return Excluded(id=code, label=code, reason=reason)


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

"""Opened orders that never tell a maneuver goes on (seed A.I.b, C; authored).

A complex maneuver begun on a turn's second or third card is finished on the next one's
first card(s), and what it still owes is its side's until flown. The orders open at the
turn's end, so an order beginning such a maneuver must read exactly like an order flying
the same cards plainly. Each reads as the cards it flies this turn followed by a seal
(``"S S ST #3f0c9d2e1a"``): a digest of the whole program under the damage decks' order,
a secret of the GM's. Every program whose cards COULD begin a straddling maneuver is sealed
that way, whichever it is, so the seal's presence tells nothing either: it follows from the
cards, which the turn shows anyway. A reader learns the cards; only the owner's panel
pairs each seal with its program, and the GM's replay (``verify``) opens it again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import engine.rulesets.wings.sequences as sequences
from engine.rulesets.wings.catalog import Catalog, ManeuverDeck
from engine.rulesets.wings.program import parse_program, program_text
from engine.rulesets.wings.state import PlaneState, Program

MARK = " #"  # between the cards flown and the seal; no program text holds it


def public_program(catalog: Catalog, text: str) -> Program | None:
    """What ``text`` shows of itself once flown: a maneuver that straddles the turn loses
    its declaration (the cards stay, with a bomb release announced); None for a program
    that declares anything else (a landing, a maneuver flown whole), public as written."""
    program = parse_program(text)
    maneuver = catalog.complex.get(program.maneuver or "")
    if program.maneuver is None:
        return program
    if maneuver is None or not sequences.straddles(maneuver, program):
        return None
    return program.model_copy(update={"maneuver": None, "start": 0})


def _openers(catalog: Catalog) -> frozenset[tuple[str, ...]]:
    """The first cards (generic codes) of every maneuver that may run into the next turn,
    as a turn's last one or two cards would show them."""
    found = _OPENERS.get(id(catalog))
    if found is None or found[0] is not catalog:
        tails = {
            maneuver.cards[: sequences.CARDS_PER_TURN - start]
            for maneuver in catalog.complex.values()
            if not maneuver.one_turn
            for start in range(1, sequences.CARDS_PER_TURN)
            if start + len(maneuver.cards) > sequences.CARDS_PER_TURN
        }
        found = _OPENERS[id(catalog)] = (catalog, frozenset(tails))
    return found[1]


_OPENERS: dict[int, tuple[Catalog, frozenset[tuple[str, ...]]]] = {}


def could_begin(catalog: Catalog, deck: ManeuverDeck, cards: tuple[str, ...]) -> bool:
    """Whether these three cards, flown plainly, look like the start of a maneuver that
    runs into the next turn: judged on the cards alone, public facts (no skill, no
    legality), so sealing them says nothing the turn does not show."""
    openers = _openers(catalog)
    flown = tuple(sequences.generic(deck, code) for code in cards[1:])
    return flown in openers or flown[1:] in openers


def sealed(
    catalog: Catalog,
    deck: ManeuverDeck,
    secret: Callable[[], str],
    plane: PlaneState,
    turn: int,
    text: str,
) -> str | None:
    """The option id ``text`` takes on the seam, or None when it stays as written; the
    secret is only asked for when a seal is due."""
    if " " not in text.strip():
        return None  # not a program (a come-back, a sun choice...)
    if ":" in text or "@" in text:
        shown = public_program(catalog, text)
        if shown is None or not could_begin(catalog, deck, shown.cards):
            return None
        cards = program_text(shown)
    elif could_begin(catalog, deck, tuple(text.split())):
        cards = text  # plain cards, most of a menu: no parsing
    else:
        return None
    key = f"{secret()}:{plane.id}:{turn}:{text}"
    return cards + MARK + hashlib.sha256(key.encode()).hexdigest()[:10]


def twin(catalog: Catalog, text: str) -> str | None:
    """The plain program flying the same cards as ``text``, a program beginning a maneuver
    it finishes next turn (None for any other): a menu offering the one offers the other
    where the rules allow it, or the cards alone would tell which was flown."""
    if ":" not in text:
        return None
    program = parse_program(text)
    maneuver = catalog.complex.get(program.maneuver or "")
    if maneuver is None or not sequences.straddles(maneuver, program):
        return None
    return program_text(program.model_copy(update={"maneuver": None, "start": 0}))

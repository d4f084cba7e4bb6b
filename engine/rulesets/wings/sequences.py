"""Complex maneuvers across two turns (seed A.I.b, C; authored 3.5).

At the table a complex maneuver need not wait for a fresh program: it may begin on the
second or third card of a turn and end on the first card(s) of the next one, the order
kept. A program declares it where it begins, ``"S split_s: ST IM"``: the cards before the
name are plain, the cards after it are the maneuver's first steps, and its remaining
cards are owed. The next program must open with them (``"S TL BL"`` after that Split-S),
the plane keeps which maneuver is under way and how far (``PlaneState.sequence``), and
each card keeps its step's effect (the Split-S's lost counter on its 2nd card) whichever
turn it falls in.

Decisions (authored): an owed card is a committed card, so a pursuer's reordering keeps
it in place and an Ace of Aces never changes it (the program checks refuse both); a plane
that stops flying (downed, off the table, landed) drops the sequence; a new mission starts
with none; the maneuvers the seed keeps within one turn (``one_turn``) never straddle.
What is owed is its side's secret until flown: the cards flown are public as they are
revealed, the rest of the maneuver is not.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.rulesets.wings.catalog import Catalog, ComplexManeuver, ManeuverDeck, Step
from engine.rulesets.wings.state import PlaneState, Program

CARDS_PER_TURN = 3


def generic(deck: ManeuverDeck, code: str) -> str:
    """The code a complex-maneuver recipe uses: every straight reads as S."""
    card = deck.card(code)
    return "S" if card is not None and card.is_straight else code


def owed(catalog: Catalog, plane: PlaneState) -> tuple[str, ...]:
    """The recipe's cards the plane still owes from last turn (generic codes)."""
    if plane.sequence is None or plane.sequence not in catalog.complex:
        return ()
    return catalog.complex[plane.sequence].cards[plane.sequence_flown :]


def straddles(maneuver: ComplexManeuver, program: Program) -> bool:
    return program.start + len(maneuver.cards) > CARDS_PER_TURN


def in_sequence(catalog: Catalog, plane: PlaneState, program: Program, slot: int) -> bool:
    """Whether the card in ``slot`` belongs to a complex maneuver (owed or declared)."""
    if plane.sequence is None and program.maneuver is None:
        return False  # a plain program with nothing owed: asked thousands of times a turn
    if slot < len(owed(catalog, plane)):
        return True
    return program.maneuver in catalog.complex and slot >= program.start


def step(catalog: Catalog, plane: PlaneState, program: Program, slot: int) -> Step:
    """The effect a complex maneuver adds to the card in ``slot`` (nothing for a plain card),
    the plane as it was when the turn began."""
    due = owed(catalog, plane)
    if slot < len(due):
        assert plane.sequence is not None
        return catalog.complex[plane.sequence].steps[plane.sequence_flown + slot]
    maneuver = catalog.complex.get(program.maneuver or "")
    if maneuver is None or slot < program.start:
        return Step()
    return maneuver.steps[slot - program.start]


def refusals(
    catalog: Catalog, deck: ManeuverDeck, plane: PlaneState, program: Program
) -> list[tuple[int, str, str]]:
    """(slot, code, reason) for a program that breaks the owed cards or declares its
    maneuver out of place; empty when both are right."""
    cards = program.cards
    found: list[tuple[int, str, str]] = []
    due = owed(catalog, plane)
    for slot, wanted in enumerate(due):
        if generic(deck, cards[slot]) != wanted:
            found.append((slot, cards[slot], "owed-card"))
    maneuver = catalog.complex.get(program.maneuver or "")
    if maneuver is None:
        return found
    if not 0 <= program.start < CARDS_PER_TURN:
        return [*found, (-1, maneuver.key, "sequence-mismatch")]
    if program.start < len(due):
        # The owed cards come first: a new maneuver only begins once the last one is done.
        return [*found, (-1, maneuver.key, "sequence-under-way")]
    if straddles(maneuver, program) and maneuver.one_turn:
        return [*found, (-1, maneuver.key, "one-turn-maneuver")]
    flown = tuple(generic(deck, code) for code in cards[program.start :])
    if flown != maneuver.cards[: len(flown)]:
        return [*found, (-1, maneuver.key, "sequence-mismatch")]
    return found


def after_turn(
    catalog: Catalog, plane: PlaneState, program: Program | None
) -> tuple[str | None, int]:
    """What the plane owes once its turn is flown: a maneuver begun late stays under way;
    anything else (the owed cards flown, no program, no longer flying) leaves nothing."""
    if program is None or plane.status != "flying":
        return None, 0
    maneuver = catalog.complex.get(program.maneuver or "")
    if maneuver is None or not straddles(maneuver, program):
        return None, 0
    return maneuver.key, CARDS_PER_TURN - program.start


def carry_over(
    catalog: Catalog, planes: Mapping[str, PlaneState], programs: Mapping[str, Program]
) -> dict[str, tuple[str | None, int]]:
    """The planes whose sequence changes at the turn's end, with its new value."""
    changes: dict[str, tuple[str | None, int]] = {}
    for pid, plane in planes.items():
        new = after_turn(catalog, plane, programs.get(pid))
        if new != (plane.sequence, plane.sequence_flown):
            changes[pid] = new
    return changes


def completions(catalog: Catalog, deck: ManeuverDeck, plane: PlaneState) -> list[Program]:
    """Programs opening with the owed cards, the free slots filled with each card in turn
    (then held, then a straight after it), for the panel; not yet judged."""
    due = owed(catalog, plane)
    if not due:
        return []
    straight = next((c.code for c in deck.cards if c.is_straight), deck.cards[0].code)
    head = tuple(straight if code == "S" else code for code in due)
    free = CARDS_PER_TURN - len(head)
    codes = [card.code for card in deck.cards]
    shapes: list[tuple[str, ...]]
    if free == 1:
        shapes = [(code,) for code in codes]
    else:
        shapes = [(straight, straight)]
        shapes += [(code, straight) for code in codes]
        shapes += [(straight, code) for code in codes]
        shapes += [(code, code) for code in codes]
    return [Program(cards=head + tail) for tail in shapes]


def starts(catalog: Catalog, deck: ManeuverDeck, plane: PlaneState) -> list[Program]:
    """Every complex maneuver the plane's deck can fly, whole (first) then begun on the
    2nd and the 3rd card after straights (or after the owed cards), not yet judged."""
    straight = next((c.code for c in deck.cards if c.is_straight), deck.cards[0].code)
    due = tuple(straight if code == "S" else code for code in owed(catalog, plane))
    programs: list[Program] = []
    for start in range(CARDS_PER_TURN):
        if start < len(due):
            continue
        head = due + (straight,) * (start - len(due))
        for maneuver in catalog.complex.values():
            if (maneuver.one_turn and start) or maneuver.skill not in (None, *plane.skills):
                continue  # refused anyway: spares the panel a program check
            recipe = maneuver.cards[: CARDS_PER_TURN - start]
            cards = tuple(straight if code == "S" else code for code in recipe)
            if any(deck.card(code) is None for code in cards):
                continue
            programs.append(Program(cards=head + cards, maneuver=maneuver.key, start=start))
    return programs

"""Program legality (authored 3.3 on the seed's A.I rules): which three-card programs a
plane may fly this turn, and why the others are refused.

A program is written ``"S BL TL"``, or ``"split_s: ST IM S"`` to declare a complex maneuver
(authored 3.5), or ``"S split_s: ST IM"`` to begin one late and owe its rest next turn (seed
A.I.b, ``sequences``). ``check_program`` returns the refusals, each with the card
position and a short reason key; an empty list means the program is legal.
"""

from __future__ import annotations

import itertools
import random

from pydantic import BaseModel, ConfigDict

import engine.rulesets.wings.balloon_roles as balloon_roles
import engine.rulesets.wings.bombing as bombing
import engine.rulesets.wings.landing as landing
import engine.rulesets.wings.pistol as pistol
import engine.rulesets.wings.sequences as sequences
from engine.rulesets.wings.balloons import ROCKETS, rocket_refusals
from engine.rulesets.wings.catalog import Catalog, ManeuverCard, ManeuverDeck
from engine.rulesets.wings.state import MissionRules, PlaneState, Program

CARDS_PER_TURN = 3


# The refusals that a program's cards up to the refused slot decide alone (with the plane,
# its mission's rules and the turn): a card out of the hand, a card owed from last turn,
# one copy too many, a jammed rudder's side, and what a card may or may not follow. No
# card after the slot lifts one, so a search through the programs that begin with some
# cards stops at the first it meets (``card_by_card``, whose codes are the deck's: never
# "not-in-deck"). A whole program's refusal (position -1) is never one.
# ``tests/wings/test_card_by_card.py`` puts each to the test against every program of
# recorded games' planes.
PREFIX_REASONS = frozenset(
    {
        "altitude-off",
        "owed-card",
        "too-many-copies",
        "one-climb-per-turn",
        "one-dive-per-turn",
        "steep-after-steep",
        "straight-after-immelmann",
        "immelmann-needs-straight-before",
        "rudder-jammed",
    }
)


class Refusal(BaseModel):
    model_config = ConfigDict(frozen=True)

    position: int  # 0-based card slot, -1 for the whole program
    code: str
    reason: str


# Declarations written like a card, before the three cards ("LP S S S"): a rocket attack,
# a landing, a takeoff, waiting on the ground.
DECLARATIONS = (ROCKETS, *landing.GROUND_MANEUVERS)


def parse_program(text: str) -> Program:
    maneuver: str | None = None
    plain: tuple[str, ...] = ()
    body, shot = pistol.split(text)  # seed D.VIII: "S S S pistol@2", the last word
    body, release = bombing.split(body)  # seed A.IV.e: "S S S bomb@2"
    if ":" in body:
        head, _, body = body.partition(":")
        # "S split_s: ST IM": plain cards, then the maneuver begun on the card after them.
        *before, name = head.replace(",", " ").split() or [""]
        maneuver = name or None
        plain = tuple(part.upper() for part in before)
    cards = tuple(part.upper() for part in body.replace(",", " ").split())
    if maneuver is None and len(cards) == CARDS_PER_TURN + 1 and cards[0] in DECLARATIONS:
        maneuver, cards = cards[0], cards[1:]
    return Program(
        cards=plain + cards, maneuver=maneuver, release=release, pistol=shot, start=len(plain)
    )


def program_text(program: Program) -> str:
    cards = " ".join(program.cards) + bombing.word(program.release) + pistol.word(program.pistol)
    if program.maneuver in DECLARATIONS:
        return f"{program.maneuver} {cards}"
    if program.maneuver and program.start:
        plain = " ".join(program.cards[: program.start])
        rest = " ".join(program.cards[program.start :])
        rest += bombing.word(program.release) + pistol.word(program.pistol)
        return f"{plain} {program.maneuver}: {rest}"
    return f"{program.maneuver}: {cards}" if program.maneuver else cards


def _straight_before_immelmann(card: ManeuverCard | None, skills: tuple[str, ...]) -> bool:
    if card is None:
        return True  # the first turn of a mission has no previous card to break
    if card.is_straight:
        return True
    # Seed D.VII.a Acrobat: a (modern) Immelmann may follow a bank or turn.
    return "acrobat" in skills and card.kind in ("bank", "turn")


def check_program(
    catalog: Catalog,
    plane: PlaneState,
    program: Program,
    rules: MissionRules,
    turn: int,
) -> list[Refusal]:
    plane_type = catalog.planes[plane.type]
    deck = catalog.maneuver_decks[plane_type.deck]
    refusals: list[Refusal] = []
    cards = program.cards
    if len(cards) != CARDS_PER_TURN:
        return [Refusal(position=-1, code="", reason="three-cards")]
    announced = bombing.refusals(plane, program)
    if announced:
        return [Refusal(position=-1, code=bombing.WORD, reason=r) for r in announced]
    knight = pistol.refusals(plane, program)
    if knight:
        return [Refusal(position=-1, code=pistol.WORD, reason=r) for r in knight]
    if plane.sequence is not None and program.maneuver in DECLARATIONS:
        # Seed A.I.b: the maneuver under way is finished before anything is declared.
        return [Refusal(position=-1, code=program.maneuver or "", reason="sequence-under-way")]
    ground = landing.check(catalog, plane, program, turn)
    if ground is not None:
        # Seed B.I: landing, waiting on the ground and taking off follow their own rules.
        return [Refusal(position=-1, code=program.maneuver or "", reason=r) for r in ground]
    if program.maneuver == ROCKETS:
        # Seed A.IV.j: a rocket attack on the first two cards; the cards follow the usual rules.
        attack = rocket_refusals(catalog, plane, program)
        if attack:
            return [Refusal(position=-1, code=ROCKETS, reason=r) for r in attack]
        program = Program(cards=program.cards)

    by_code = deck.by_code  # ``deck.card``'s lookup, without a call per card
    resolved: list[ManeuverCard | None] = [by_code.get(code) for code in cards]
    for slot, (code, card) in enumerate(zip(cards, resolved, strict=True)):
        if card is None:
            refusals.append(Refusal(position=slot, code=code, reason="not-in-deck"))
        elif not rules.altitude and card.kind in ("climb", "dive"):
            # Found (2.2): without altitude rules the climb and dive cards leave the hand.
            refusals.append(Refusal(position=slot, code=code, reason="altitude-off"))
    if refusals:
        return refusals

    complex_ = None
    if program.maneuver is not None:
        complex_ = catalog.complex.get(program.maneuver)
        if complex_ is None:
            return [Refusal(position=-1, code=program.maneuver, reason="unknown-maneuver")]
        if complex_.skill is not None and complex_.skill not in plane.skills:
            return [Refusal(position=-1, code=program.maneuver, reason=f"needs-{complex_.skill}")]
    # Seed A.I.b: the cards owed from last turn open the program; a maneuver declared in
    # it begins where it says and, unless the seed keeps it in one turn, may run over.
    order = sequences.refusals(catalog, deck, plane, program)
    if order:
        return [Refusal(position=slot, code=code, reason=reason) for slot, code, reason in order]

    # Seed F.VI.d.3: under the enemy's efficient alert one card is flown thrice.
    bound = engine_bound(plane, turn)
    surprised = turn in plane.surprised_turns and not bound
    seen: dict[str, int] = {}
    for slot, code in enumerate(cards):
        card = resolved[slot]
        assert card is not None
        seen[code] = count = seen.get(code, 0) + 1
        if count <= card.copies or (surprised and card.kind not in ("climb", "dive")):
            continue
        # Cards come back to the hand each turn (found), so a code is limited by its copies;
        # each deck holds one climb and one dive (one climb counter a turn, seed A.III.a).
        reason = {"climb": "one-climb-per-turn", "dive": "one-dive-per-turn"}.get(
            card.kind, "too-many-copies"
        )
        refusals.append(Refusal(position=slot, code=code, reason=reason))

    previous_code = plane.last_card
    previous = deck.card(previous_code) if previous_code else None
    previous_steep = plane.last_steep
    genius_free = "genius" in plane.skills and turn - plane.genius_turn >= 2
    genius_spent = False
    # An Immelmann inside a complex maneuver is followed as its recipe says, even when the
    # recipe runs over the turn's end (last turn's card then belongs to the one under way).
    previous_plain = plane.sequence is None
    # A plain program with nothing owed has no card in a sequence (``in_sequence``'s own
    # first answer): not asked card by card, as the menus judge thousands of such programs.
    none_owed = plane.sequence is None and program.maneuver is None
    for slot, code in enumerate(cards):
        card = resolved[slot]
        assert card is not None
        plain = none_owed or not sequences.in_sequence(catalog, plane, program, slot)
        if card.steep and previous_steep:
            # Seed D.VII.a Genius: two diamonds in a row, at most once every two turns.
            if genius_free and not genius_spent:
                genius_spent = True
            else:
                refusals.append(Refusal(position=slot, code=code, reason="steep-after-steep"))
        after_immelmann = previous is not None and previous.kind == "immelmann"
        if after_immelmann and not card.is_straight and previous_plain:
            refusals.append(Refusal(position=slot, code=code, reason="straight-after-immelmann"))
        if (
            card.kind == "immelmann"
            and plain
            and not _straight_before_immelmann(previous, plane.skills)
        ):
            refusals.append(
                Refusal(position=slot, code=code, reason="immelmann-needs-straight-before")
            )
        previous, previous_steep, previous_plain = card, card.steep, plain

    if bound:
        # Found (2.7): an engine hit forces one stall a turn; the bomber's slow straight stands in.
        stall = "ST" if "ST" in deck.codes else "SS"
        if stall not in cards:
            refusals.append(Refusal(position=-1, code=stall, reason="engine-needs-stall"))
    if plane.rudder is not None and turn <= plane.rudder_until:
        for slot, code in enumerate(cards):
            card = resolved[slot]
            assert card is not None
            if card.side == plane.rudder:
                refusals.append(Refusal(position=slot, code=code, reason="rudder-jammed"))
    if surprised:
        flown = [card for card in resolved if card is not None]
        for reason in balloon_roles.surprise_refusals(program, flown):
            refusals.append(Refusal(position=-1, code=program.maneuver or "", reason=reason))
    return refusals


def engine_bound(plane: PlaneState, turn: int) -> bool:
    """A hit engine forces a stall this turn: every turn after the hit, or only the next one
    when Système D eased it (seed D.VII.c)."""
    if plane.engine_hits <= 0:
        return False
    return plane.engine_until is None or turn <= plane.engine_until


def uses_genius(plane: PlaneState, deck: ManeuverDeck, program: Program) -> bool:
    previous_steep = plane.last_steep
    for code in program.cards:
        card = deck.card(code)
        steep = card is not None and card.steep
        if steep and previous_steep:
            return True
        previous_steep = steep
    return False


def legal_first_cards(
    catalog: Catalog, plane: PlaneState, rules: MissionRules, turn: int
) -> tuple[list[str], list[tuple[str, str]]]:
    """Cards that can open a legal program this turn, and the others with a reason."""
    deck = catalog.maneuver_decks[catalog.planes[plane.type].deck]
    legal: list[str] = []
    refused: list[tuple[str, str]] = []
    fillers = [card.code for card in deck.cards if card.is_straight] or [deck.cards[0].code]
    stall = "ST" if "ST" in deck.codes else "SS"
    for card in deck.cards:
        reasons: list[str] = []
        for second in fillers:
            tail = [second, stall] if engine_bound(plane, turn) else [second, second]
            if turn in plane.surprised_turns and not engine_bound(plane, turn):
                tail = [card.code, card.code]  # seed F.VI.d.3: one card, flown thrice
            program = Program(cards=(card.code, *tail))
            found = [r for r in check_program(catalog, plane, program, rules, turn)]
            first = [r.reason for r in found if r.position in (0, -1)]
            if not first:
                reasons = []
                break
            reasons = first
        if reasons:
            refused.append((card.code, reasons[0]))
        else:
            legal.append(card.code)
    return legal, refused


def default_program(catalog: Catalog, plane: PlaneState, rules: MissionRules, turn: int) -> Program:
    """Authored 4.1: S, S, S on a missed deadline, or the first legal substitute; a landing
    for a seriously wounded pilot who can land. A complex maneuver under way is finished
    first (seed A.I.b): its owed cards, then straights or their substitutes."""
    if plane.sequence is not None and plane.status == "flying":
        deck = catalog.maneuver_decks[catalog.planes[plane.type].deck]
        for program in sequences.completions(catalog, deck, plane):
            if not check_program(catalog, plane, program, rules, turn):
                return program
    if plane.status == "landed":
        return landing.programs(catalog, plane, turn)[0]  # it waits on the ground
    if landing.must_land(catalog, plane) and landing.may_land(plane):
        # A seriously wounded pilot who can land does so (seed D.V: "as soon as possible").
        deck = catalog.maneuver_decks[catalog.planes[plane.type].deck]
        return Program(cards=landing.cards_of(deck, landing.LAND), maneuver=landing.LAND)
    deck = catalog.maneuver_decks[catalog.planes[plane.type].deck]
    straight = next(card.code for card in deck.cards if card.is_straight)
    stall = "ST" if "ST" in deck.codes else "SS"
    candidates = [
        (straight, straight, straight),
        (stall, straight, straight),
        (straight, stall, straight),
        (straight, straight, stall),
    ]
    others = [card.code for card in deck.cards if card.kind not in ("immelmann", "climb", "dive")]
    # The substitutes are only spelt out when the plain ones are all refused (rarely).
    substitutes = ((a, b, c) for a in others for b in others for c in others)
    for cards in itertools.chain(candidates, substitutes):
        program = Program(cards=cards)
        if not check_program(catalog, plane, program, rules, turn):
            return program
    raise ValueError(f"{plane.id} has no legal program")  # cannot happen with the shipped decks


def random_program(
    catalog: Catalog,
    plane: PlaneState,
    rules: MissionRules,
    turn: int,
    stream: random.Random,
    tries: int = 40,
) -> Program:
    """A legal program drawn at random (for AI stand-ins, tests and the bench)."""
    deck = catalog.maneuver_decks[catalog.planes[plane.type].deck]
    codes = list(deck.codes)
    for _ in range(tries):
        program = Program(cards=tuple(stream.choice(codes) for _ in range(CARDS_PER_TURN)))
        if not check_program(catalog, plane, program, rules, turn):
            return program
    return default_program(catalog, plane, rules, turn)

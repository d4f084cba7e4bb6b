"""What older Wings campaigns stored, read back so that their exports still replay.

Before issue 27 a plane's program was picked from a menu of at most ``MAX_PROGRAMS``
ready-made programs (``program_options``), a plane in the clouds picked a digest of one
(``menu_seal``), and the seam named a side's planes ``plane1``, ``plane2``... in id order,
its pilots' debrief fields ``skill1``, ``wound1``, ``equip1``... (``seam_fields``). A
campaign locked under those names and digests still resolves: ``current_choices`` renames
its fields and the adapter unseals its digests against the same menu. Nothing here is
used for a campaign begun since.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import Any

import engine.rulesets.wings.bombing as bombing
import engine.rulesets.wings.landing as landing
import engine.rulesets.wings.pistol as pistol
import engine.rulesets.wings.sequence_seal as sequence_seal
import engine.rulesets.wings.sequences as sequences
from engine.rulesets.wings.balloons import rocket_programs
from engine.rulesets.wings.catalog import Catalog
from engine.rulesets.wings.program import (
    check_program,
    default_program,
    parse_program,
    program_text,
)
from engine.rulesets.wings.state import MissionState, PlaneState, Program
from engine.rulesets.wings.written import rescuer

SEALED = "cloud-"
MAX_PROGRAMS = 25  # a Discord select holds 25 options
# Places a full program menu keeps for complex maneuvers (seed C, A.I.b): the four first
# of them, begun on the last card, then the second, then whole (authored).
COMPLEX_ROOM = 4
OLD_FIELD = re.compile(r"(plane|order|skill|wound|equip)([0-9]+)")


def program_options(
    catalog: Catalog, plane: PlaneState, mission: MissionState, legal_first: list[str]
) -> list[str]:
    deck = catalog.maneuver_decks[catalog.planes[plane.type].deck]
    straight = next((c.code for c in deck.cards if c.is_straight), deck.cards[0].code)
    programs: list[str] = [
        program_text(default_program(catalog, plane, mission.rules, mission.turn))
    ]
    if plane.bombs > 0 and plane.status == "flying" and not parse_program(programs[0]).maneuver:
        # Seed A.IV.e: the bomber announces his release; the straight run offers each
        # maneuver and holding on, every other program leaves it to the standing order.
        programs += bombing.variants(programs[0])
    if pistol_offered(catalog, plane, mission, programs[0]):
        # Seed D.VIII: the pistol shot, offered by public facts alone (engine.wings.pistol).
        programs += pistol.variants(programs[0])
    home = landing.lands_home(catalog, mission, plane)
    down = rescuer(catalog, plane, mission) or landing.must_land(catalog, plane)
    if down or plane.status == "landed" or home:
        # Seed B.I, E.I.a, D.V: landing (a rescuer or a seriously wounded pilot anywhere,
        # anyone on its own airfield), waiting on the ground and taking off, where they serve.
        for ground in landing.programs(catalog, plane, mission.turn):
            if program_text(ground) not in programs:
                programs.append(program_text(ground))
    for attack in [] if plane.in_cloud else rocket_programs(catalog, plane):
        # Seed A.IV.j: the rocket attacks the plane can fly, declared with the program.
        if not check_program(catalog, plane, attack, mission.rules, mission.turn):
            programs.append(program_text(attack))

    def legal(cards: tuple[str, ...]) -> bool:
        return not check_program(catalog, plane, Program(cards=cards), mission.rules, mission.turn)

    def add(cards: tuple[str, ...]) -> bool:
        text = " ".join(cards)
        if text in programs or len(programs) >= MAX_PROGRAMS or not legal(cards):
            return False
        programs.append(text)
        return True

    # Seed A.I.b: a maneuver under way opens the program; its completions fill the menu.
    for completion in sequences.completions(catalog, deck, plane):
        if legal(completion.cards):
            add(completion.cards)
    # First one program per legal opening card, so the menu covers every first move the
    # plane can make: straightened out after it, else held, else any legal follow-up.
    codes = [card.code for card in deck.cards]
    for code in legal_first:
        if any(program.split()[0] == code for program in programs):
            continue  # the default already opens with it
        shapes = [(code, straight, straight), (code, code, code), (code, code, straight)]
        shapes += [(code, second, third) for second in codes for third in codes]
        any(add(cards) for cards in shapes)
    # Then, while the select has room, a maneuver flown late; the complex maneuvers it may
    # fly (seed C, A.I.b), begun on the last card first, keep the last COMPLEX_ROOM places.
    complex_ = [
        program_text(start)
        for start in sorted(sequences.starts(catalog, deck, plane), key=lambda p: -p.start)
        if not check_program(catalog, plane, start, mission.rules, mission.turn)
    ]
    complex_ = [text for text in complex_ if text not in programs]

    twins: dict[str, str | None] = {}

    def twin(text: str) -> list[str]:
        # A maneuver begun late comes with the plain program flying its cards, where the
        # rules allow it: a menu without it would let the cards tell which was flown.
        if text not in twins:
            plain = sequence_seal.twin(catalog, text)
            legal_plain = plain is not None and legal(parse_program(plain).cards)
            twins[text] = plain if legal_plain else None
        plain = twins[text]
        return [] if plain is None or plain in programs else [plain]

    kept = len(set(complex_[:COMPLEX_ROOM]).union(*map(twin, complex_[:COMPLEX_ROOM])))
    for code in legal_first:
        if len(programs) < MAX_PROGRAMS - kept:
            add((straight, straight, code))
    for text in complex_:
        pair = [*twin(text), text]
        if len(programs) + len(pair) <= MAX_PROGRAMS:
            programs += pair
    for shape in ("cc" + "S", "S" + "c" + "S"):
        for code in legal_first:
            add(tuple(straight if part == "S" else code for part in shape))
    return programs


def pistol_offered(catalog: Catalog, plane: PlaneState, mission: MissionState, first: str) -> bool:
    """Every plane near an enemy gets the pistol's forms of its default program, pistol or
    not (the Knight excepted: his behaviour is public), so the menu tells nothing."""
    if plane.behaviour == "knight" or parse_program(first).maneuver:
        return False
    return pistol.offered(plane, list(mission.planes.values()), catalog.rules.units.ruler)


def menu_seal(plane: PlaneState, turn: int, program: str) -> str:
    digest = hashlib.sha256(f"{plane.cloud_salt}:{turn}:{program}".encode()).hexdigest()
    return SEALED + digest[:10]


def plane_slots(mission: MissionState) -> dict[str, str]:
    """Plane id -> the ``planeN`` field older campaigns programmed it in, per side in id
    order (downed planes included); a reinforcement took the field of the plane it was sent
    for."""
    slots: dict[str, str] = {}
    for side in ("entente", "central"):
        own = sorted(
            (
                p
                for p, plane in mission.planes.items()
                if plane.side == side and plane.replaces is None
            ),
            key=_plane_order,
        )
        for index, pid in enumerate(own, start=1):
            slots[pid] = f"plane{index}"
    for pid in mission.planes:  # launched in order, so the one replaced is already named
        replaced = mission.planes[pid].replaces
        if replaced is not None:
            slots[pid] = slots[replaced]
    return slots


def _plane_order(pid: str) -> tuple[int, str]:
    digits = pid.lstrip("P")
    return (int(digits) if digits.isdigit() else 0, pid)


def is_old(choices: Mapping[str, Mapping[str, str]]) -> bool:
    return any(OLD_FIELD.fullmatch(field) for side in choices.values() for field in side)


def current_choices(
    choices: Mapping[str, Mapping[str, str]],
    mission: MissionState | None,
    engine_decisions: list[Any],
) -> dict[str, dict[str, str]]:
    """Choices locked under the old numbered fields, under today's: ``plane2`` is
    ``program:<the side's second plane>``, ``order2`` its standing order; ``skill1`` the
    side's first pilot asked a skill at this debrief (``skill:<pilot>``), and so on."""
    names: dict[tuple[str, str], str] = {}
    if mission is not None:
        for pid, slot in plane_slots(mission).items():
            side = mission.planes[pid].side
            names[(side, slot)] = f"program:{pid}"
            names[(side, "order" + slot.removeprefix("plane"))] = f"order:{pid}"
    for kind, prefix in (("skill", "skill"), ("wound", "wound"), ("equipment", "equip")):
        count: dict[str, int] = {}
        for decision in engine_decisions:
            if decision.kind != kind:
                continue
            count[decision.side] = count.get(decision.side, 0) + 1
            names[(decision.side, f"{prefix}{count[decision.side]}")] = decision.field
    # In the program round only the planes asked keep a field: a slot whose plane is asked
    # nothing (downed, replaced) was never chosen, and two slots never share one name.
    return {
        side: {names.get((side, field), field): value for field, value in fields.items()}
        for side, fields in choices.items()
    }

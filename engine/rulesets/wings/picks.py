"""A plane's program on its panel: the quick picks beside the Write button, why the
programs it may not fly are refused, and how a program is stored on the seam (sealed in
the clouds, or as its cards and a seal when it could begin a maneuver the next turn
finishes) and read back."""

from __future__ import annotations

import hashlib
import json

import engine.rulesets.wings.bombing as bombing
import engine.rulesets.wings.landing as landing
import engine.rulesets.wings.legacy as legacy
import engine.rulesets.wings.pistol as pistol
import engine.rulesets.wings.sequence_seal as sequence_seal
import engine.rulesets.wings.sequences as sequences
import engine.rulesets.wings.written as written
from engine.ruleset import Excluded, Option
from engine.rulesets.wings.balloons import rocket_programs
from engine.rulesets.wings.catalog import Catalog
from engine.rulesets.wings.program import (
    check_program,
    legal_first_cards,
    parse_program,
    program_text,
)
from engine.rulesets.wings.rounds import (
    PISTOL_WORDS,
    QUICK_PICKS,
    RELEASE_WORDS,
    SEALED,
    SEQUENCE_MARK,
)
from engine.rulesets.wings.state import MissionState, PlaneState, Program
from engine.rulesets.wings.written import rescuer


def _pistol_detail(plane: PlaneState, program: str) -> str:
    """Seed D.VIII: on the owner's panel only, whether the shot can go (and why not)."""
    _cards, after = pistol.split(program)
    if after is None:
        return ""
    return f"{PISTOL_WORDS}{after}.{pistol.why_not(plane) or 'ready'}"


def _release_detail(program: str) -> str:
    """Seed A.IV.e: a program announcing its bomb release says when on the owner's panel."""
    _cards, release = bombing.split(program)
    if release is None:
        return ""
    return f"{RELEASE_WORDS}{bombing.HOLD if release == bombing.HOLD_RELEASE else release}"


def _refused(text: str, reason: str) -> tuple[Excluded, ...]:
    return (Excluded(id=text, label=text, reason=reason),)


def pistol_refused(
    catalog: Catalog, plane: PlaneState, mission: MissionState
) -> tuple[Excluded, ...]:
    """Seed D.VI: a Knight near an enemy is told why his menu has no pistol shot."""
    if plane.behaviour != "knight" or not pistol.offered(
        plane, list(mission.planes.values()), catalog.rules.units.ruler
    ):
        return ()
    return _refused(pistol.WORD, "knight-refuses")


def landing_refused(
    catalog: Catalog, plane: PlaneState, mission: MissionState
) -> tuple[Excluded, ...]:
    """The landing a rescuer or a seriously wounded pilot cannot fly yet, with the reason."""
    wanted = rescuer(catalog, plane, mission) or landing.must_land(catalog, plane)
    if not wanted or plane.status != "flying":
        return ()
    deck = catalog.maneuver_decks[catalog.planes[plane.type].deck]
    program = Program(cards=landing.cards_of(deck, landing.LAND), maneuver=landing.LAND)
    reasons = landing.check(catalog, plane, program, mission.turn)
    if not reasons:
        return ()
    return _refused(program_text(program), reasons[0])


def rockets_refused(
    catalog: Catalog, plane: PlaneState, mission: MissionState
) -> tuple[Excluded, ...]:
    """A plane with rockets aboard that can fly no rocket attack this turn: why not."""
    attacks = rocket_programs(catalog, plane)
    refusals = [check_program(catalog, plane, a, mission.rules, mission.turn) for a in attacks]
    if not attacks or any(not refused for refused in refusals):
        return ()
    return _refused(program_text(attacks[0]), refusals[0][0].reason)


def refusals(catalog: Catalog, plane: PlaneState, mission: MissionState) -> tuple[Excluded, ...]:
    """Every program a plane's panel says it may not fly now, and why."""
    return (
        *landing_refused(catalog, plane, mission),
        *rockets_refused(catalog, plane, mission),
        *pistol_refused(catalog, plane, mission),
    )


# The last mission's digest: a round's decisions seal every plane's programs of one
# mission, and the decks' dump was a tenth of a late round's decisions, once per plane.
# Held with its mission (states are frozen), so the identity check cannot meet a new
# object at a reused address; one tuple, swapped whole, for the engine's threads.
_LAST_SECRET: tuple[MissionState | None, str] = (None, "")


def _deck_secret(mission: MissionState) -> str:
    """A digest of the damage decks' order, a secret of the GM's alone (the view strips the
    decks from both sides)."""
    global _LAST_SECRET
    last, digest = _LAST_SECRET
    if last is mission:
        return digest
    decks = json.dumps({k: list(d.pile) for k, d in sorted(mission.decks.items())})
    digest = hashlib.sha256(decks.encode()).hexdigest()
    _LAST_SECRET = (mission, digest)
    return digest


class Seal:
    """Seals one plane's program options as the orders will open (``sequence_seal``); the
    decks' digest is taken once, and only if an option needs it."""

    def __init__(self, catalog: Catalog, mission: MissionState, plane: PlaneState) -> None:
        self.catalog, self.mission, self.plane = catalog, mission, plane
        self.deck = catalog.maneuver_decks[catalog.planes[plane.type].deck]
        self._secret: str | None = None

    def secret(self) -> str:
        if self._secret is None:
            self._secret = _deck_secret(self.mission)
        return self._secret

    def id(self, program: str) -> str | None:
        return sequence_seal.sealed(
            self.catalog, self.deck, self.secret, self.plane, self.mission.turn, program
        )

    def unseal(self, value: str) -> str | None:
        """The program a seal of ``id`` stands for: the cards it shows, declaring nothing
        or any complex maneuver from any card (each asked until one seals the same)."""
        shown = parse_program(value.partition(SEQUENCE_MARK)[0])
        candidates = [shown] + [
            shown.model_copy(update={"maneuver": name, "start": start})
            for name in sorted(self.catalog.complex)
            for start in range(len(shown.cards))
        ]
        for program in candidates:
            text = program_text(program)
            if self.id(text) == value:
                return text
        return None

    def option(self, option: Option) -> Option:
        """The option sealed when its cards could begin a straddling maneuver; a program
        that does begin one keeps it in its detail, for its own side's panel."""
        sealed = self.id(option.id)
        if sealed is None:
            return option
        label = sealed.partition(SEQUENCE_MARK)[0]
        detail = option.id if ":" in option.id else option.detail
        return Option(id=sealed, label=label, detail=detail)


def stored_option(
    catalog: Catalog, mission: MissionState, plane: PlaneState, program: str
) -> Option:
    """A program as the seam stores it: sealed in the clouds (the detail keeps the cards
    for the owner's panel), as its cards and a seal when it could begin a maneuver the next
    turn finishes, else as written."""
    option = Option(
        id=program,
        label=program,
        detail=_release_detail(program) or _pistol_detail(plane, program),
    )
    if plane.cloud_salt:
        sealed = written.seal(plane.cloud_salt, mission.turn, plane.id, program)
        assert sealed is not None, program  # every deck's codes pack
        return Option(id=sealed, label=sealed, detail=program)
    return Seal(catalog, mission, plane).option(option)


def program_of(catalog: Catalog, mission: MissionState, plane: PlaneState, text: str) -> str | None:
    """The program text a stored value or a written text stands for (None for a seal that
    opens to nothing)."""
    if text.startswith(SEALED):
        opened = written.unseal(plane.cloud_salt, mission.turn, plane.id, text)
        if opened is not None:
            return opened
        first = legal_first_cards(catalog, plane, mission.rules, mission.turn)[0]
        menu = legacy.program_options(
            catalog, plane, mission, [] if plane.status == "landed" else first
        )
        return next((p for p in menu if legacy.menu_seal(plane, mission.turn, p) == text), None)
    if SEQUENCE_MARK in text:
        return Seal(catalog, mission, plane).unseal(text)
    deck = catalog.maneuver_decks[catalog.planes[plane.type].deck]
    return written.read(deck, text)


def quick_picks(
    catalog: Catalog,
    mission: MissionState,
    plane: PlaneState,
    legal_first: list[str],
    first: str,
    last: str | None = None,
) -> list[str]:
    """A few programs beside the Write button, every one legal now: the default (what a
    missed deadline flies, ``first``), what finishes a maneuver under way, what the plane
    must or may do on the ground, the bomb run and the pistol shot where they serve, the
    plane's ``last`` program, a rocket attack, then common shapes."""
    rules, turn = mission.rules, mission.turn
    deck = catalog.maneuver_decks[catalog.planes[plane.type].deck]
    straight = next((c.code for c in deck.cards if c.is_straight), deck.cards[0].code)

    def legal(program: Program) -> bool:
        return not check_program(catalog, plane, program, rules, turn)

    candidates = [first]
    if plane.bombs > 0 and plane.status == "flying" and not parse_program(first).maneuver:
        candidates += bombing.variants(first)  # seed A.IV.e: the release announced
    if legacy.pistol_offered(catalog, plane, mission, first):
        # Seed D.VIII: the pistol shot, offered by public facts alone (the Knight's refusal
        # is public too), so the quick picks tell nothing of a pistol aboard.
        candidates += pistol.variants(first)
    candidates += [program_text(p) for p in sequences.completions(catalog, deck, plane)]
    home = landing.lands_home(catalog, mission, plane)
    down = rescuer(catalog, plane, mission) or landing.must_land(catalog, plane)
    if down or plane.status == "landed" or home:
        candidates += [program_text(p) for p in landing.programs(catalog, plane, turn)]
    if last is not None:
        candidates.append(last)
    if not plane.in_cloud:  # seed A.IV.j: the first rocket attack it can fly now
        attacks = [a for a in rocket_programs(catalog, plane) if legal(a)]
        candidates += [program_text(a) for a in attacks[:1]]
    shapes = [("S", "S", "S"), ("TL", "S", "S"), ("TR", "S", "S"), ("BL", "BL", "S")]
    shapes += [("BR", "BR", "S"), ("S", "S", "ST"), ("ST", "S", "S")]
    shapes += [(code, "S", "S") for code in legal_first]
    # Held by the enemy's efficient alert, a plane flies one card thrice (seed F.VI.d.3).
    shapes += [(code, code, code) for code in legal_first]
    candidates += [" ".join(straight if c == "S" else c for c in shape) for shape in shapes]
    picks: list[str] = []
    for text in candidates:
        if len(picks) == QUICK_PICKS:
            break
        if text in picks:
            continue
        if text == first or legal(parse_program(text)):
            picks.append(text)
    return picks

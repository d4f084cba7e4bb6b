"""A plane's program as a player writes it (issue 27: any legal program, typed or clicked).

Players write programs the way they send them by post, ``BL BL TR``: three card codes, in
any case, with any separator (``bl,bl tr``, ``BL-BL-TR``). The special programs keep the
engine's written form (``engine.wings.program``): a declaration before the cards (``LP S S
S`` rockets, ``LD`` landing, ``TO`` take-off, ``GD`` on the ground), a complex maneuver
named before its first card (``split_s: ST IM S``, ``S S split-s: ST``, its French name
too: ``piqué forcé: ST DV S``), a bomb release or a pistol shot after the cards
(``S S S bomb@2``, ``bombe@hold``, ``pistolet@1``). The French decks print the same codes
as the English ones, so the codes are read the same in both languages.

``read`` turns a text into the program's canonical text, or says why it cannot be read;
the legality of what it reads is ``check_program``'s (the adapter asks it).

A program flown in the clouds reaches the seam sealed (``engine.rulesets.wings``): what is
opened at the turn's end must not tell where the plane went. Menus used to list every
sealed option, so a digest of the program was enough; a written program can be any of
thousands, so its seal is the program itself, packed in 28 bits and masked with a pad
drawn from the plane's secret salt, the turn and the plane (``seal`` / ``unseal``). Each
pad masks one program only (one locked value per plane and turn is ever opened), and a
seal reads like the old digests (``cloud-`` and ten hex digits), so nobody can tell a
quick pick from a written program, nor either from an old campaign's seal.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

import engine.rulesets.wings.bombing as bombing
import engine.rulesets.wings.pistol as pistol
from engine.rulesets.wings.catalog import Catalog, ManeuverDeck
from engine.rulesets.wings.program import parse_program, program_text
from engine.rulesets.wings.state import MissionState, PlaneState, Program

SEALED = "cloud-"
# Append only: a seal's meaning must never change. Every deck's codes and every complex
# maneuver and declaration are listed (tests/wings/test_written_programs.py checks it).
CODES: tuple[str, ...] = ("S", "SF", "SS", "BL", "BR", "TL", "TR", "HL", "HR", "SL", "SR")
CODES += ("WL", "WR", "ST", "IM", "CL", "DV")
NAMES: tuple[str, ...] = ("", "LP", "LD", "TO", "GD", "split_s", "historical_immelmann")
NAMES += ("forced_dive", "controlled_dive_light", "controlled_dive_steep")
CHECK_BITS = 12  # zero bits under the pad: a made-up seal fails them 4095 times in 4096
# The complex maneuvers' names as the French panel writes them (accents and case aside).
FRENCH_NAMES = {
    "pique_force": "forced_dive",
    "immelmann_historique": "historical_immelmann",
    "pique_controle_leger": "controlled_dive_light",
    "pique_controle_appuye": "controlled_dive_steep",
}
# The words after the cards, in either language: a bomb release, a pistol shot.
SUFFIXES = {"bomb": bombing.WORD, "bombe": bombing.WORD, "pistol": pistol.WORD}
SUFFIXES["pistolet"] = pistol.WORD
_SPLIT = re.compile(r"[\s,;/|+_-]+")
_SUFFIX = re.compile(r"^(?P<word>[a-z]+)@(?P<when>[a-z0-9]+)$")


def _plain(text: str) -> str:
    """Lower case without accents: "Piqué forcé" and "pique force" read alike."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


def _name(words: list[str]) -> str:
    key = "_".join(_plain(word) for word in words if word)
    return FRENCH_NAMES.get(key, key)


def read(deck: ManeuverDeck, text: str) -> str:
    """The canonical text of the program ``text`` writes (``program_text``), which
    ``check_program`` then judges: an unreadable part is kept as written, for the checks
    to refuse with their reason (a card not in the deck, not three cards...)."""
    head, colon, body = text.partition(":")
    if not colon:
        head, body = "", text
    suffixes: list[str] = []
    cards: list[str] = []
    for part in filter(None, _SPLIT.split(body)):
        found = _SUFFIX.match(_plain(part))
        if found is not None and found["word"] in SUFFIXES:
            suffixes.append(f"{SUFFIXES[found['word']]}{found['when']}")
        else:
            cards.append(part.upper())
    # The engine reads a release before a shot, whichever was written first.
    suffixes.sort(key=lambda word: not word.startswith(bombing.WORD))
    program = " ".join([*cards, *suffixes])
    if colon:
        words = [w for w in _SPLIT.split(head) if w]
        codes = set(deck.codes)
        plain = []
        while words and words[0].upper() in codes and len(words) > 1:
            plain.append(words.pop(0).upper())
        program = " ".join([*plain, f"{_name(words)}:", program])
    return program_text(parse_program(program))


# --- cloud seals --------------------------------------------------------------------------


def _pad(salt: str, turn: int, plane: str) -> int:
    digest = hashlib.sha256(f"{salt}:{turn}:{plane}:program".encode()).digest()
    return int.from_bytes(digest[:5], "big")


def _packed(program: Program) -> int | None:
    """The program in 28 bits (None if it names something the tables do not hold)."""
    if len(program.cards) != 3 or any(code not in CODES for code in program.cards):
        return None
    name = program.maneuver or ""
    if name not in NAMES or not 0 <= program.start <= 2:
        return None
    release = 0 if program.release is None else program.release + 1  # hold is 0
    shot = 0 if program.pistol is None else program.pistol
    if not 0 <= release <= 4 or not 0 <= shot <= 3:
        return None
    value = 0
    for code in program.cards:
        value = value << 5 | (CODES.index(code) + 1)
    value = value << 6 | NAMES.index(name)
    value = value << 2 | program.start
    value = value << 3 | release
    return value << 2 | shot


def _unpacked(value: int) -> Program | None:
    shot, value = value & 0b11, value >> 2
    release, value = value & 0b111, value >> 3
    start, value = value & 0b11, value >> 2
    name, value = value & 0b111111, value >> 6
    cards: list[int] = []
    for _ in range(3):
        cards.insert(0, value & 0b11111)
        value >>= 5
    if value or name >= len(NAMES) or release > 4 or start > 2:
        return None
    if any(not 0 < index <= len(CODES) for index in cards):
        return None
    return Program(
        cards=tuple(CODES[index - 1] for index in cards),
        maneuver=NAMES[name] or None,
        start=start,
        release=None if release == 0 else release - 1,
        pistol=None if shot == 0 else shot,
    )


def seal(salt: str, turn: int, plane: str, text: str) -> str | None:
    """``text`` sealed for a plane in the clouds, or None if it cannot be packed (a
    program no deck flies: the checks refuse it anyway)."""
    value = _packed(parse_program(text))
    if value is None:
        return None
    return f"{SEALED}{(value << CHECK_BITS) ^ _pad(salt, turn, plane):010x}"


def unseal(salt: str, turn: int, plane: str, value: str) -> str | None:
    """The program text a seal of ``seal`` holds, or None for anything else (an old
    campaign's digest, a made-up value)."""
    digits = value.removeprefix(SEALED)
    if not value.startswith(SEALED) or not re.fullmatch(r"[0-9a-f]{10}", digits):
        return None
    block = int(digits, 16) ^ _pad(salt, turn, plane)
    if block & ((1 << CHECK_BITS) - 1):
        return None
    program = _unpacked(block >> CHECK_BITS)
    return None if program is None else program_text(program)


def rescuer(catalog: Catalog, plane: PlaneState, mission: MissionState) -> bool:
    """Seed E.I.a: the active side's two-seaters fly a rescue; nobody else lands."""
    return (
        mission.kind == "rescue"
        and plane.side == mission.active
        and catalog.planes[plane.type].two_seater
    )

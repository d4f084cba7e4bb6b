"""Programs written as players write them (issue 27): every legal program of a plane's deck
can be entered, in any case and with any separator, the special ones too (rockets, landing,
complex maneuvers, bomb release, pistol); an illegal one is refused with the rule's reason;
a program flown in the clouds is sealed and opens back to itself on its own side only."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.ruleset import Decision, Refusal
from engine.rulesets.wings import WingsRules, WingsState, landing, sequences
from engine.rulesets.wings.balloons import rocket_programs
from engine.rulesets.wings.catalog import default_catalog
from engine.rulesets.wings.program import (
    DECLARATIONS,
    check_program,
    default_program,
    parse_program,
    program_text,
)
from engine.rulesets.wings.state import PlaneState, Program
from engine.rulesets.wings.written import CODES, NAMES, SEALED, read, seal, unseal

CATALOG = default_catalog()
RULES = WingsRules(CATALOG)


def _with_plane(state: WingsState, pid: str, **changes: Any) -> WingsState:
    mission = state.camp.mission
    assert mission is not None
    plane = mission.planes[pid].model_copy(update=changes)
    mission = mission.model_copy(update={"planes": {**mission.planes, pid: plane}})
    return state.model_copy(update={"campaign": state.camp.model_copy(update={"mission": mission})})


def _asked(state: WingsState, pid: str) -> Decision:
    return next(d for d in RULES.pending(state) if d.field == f"program:{pid}")


def _plane(state: WingsState, pid: str) -> PlaneState:
    mission = state.camp.mission
    assert mission is not None
    return mission.planes[pid]


def _legal(state: WingsState, pid: str, program: Program) -> bool:
    mission = state.camp.mission
    assert mission is not None
    return not check_program(CATALOG, _plane(state, pid), program, mission.rules, mission.turn)


# Turn 1 of three scenarios, every plane (Nieuport, SPAD, Albatros D.III and D.V, SE5a,
# a Bristol two-seater); a rocket-armed balloon buster, an Ace of Aces who may fly the
# historical Immelmann, a bomber; one plane in the clouds.
OPENING = RULES.new("wings-1917", "x")
SUMMER = RULES.new("wings-1918", "written")
FRONT = RULES.new("wings-1917-front", "x")
BOMBER = _with_plane(OPENING, "P2", bombs=1)
ACE = _with_plane(OPENING, "P3", skills=("piloting_ace",))
CLOUD = _with_plane(OPENING, "P4", cloud_salt="5eed5a1t00000000", in_cloud=True, level=4)
PLANES = [
    (state, d.field.removeprefix("program:"))
    for state in (OPENING, SUMMER, FRONT, BOMBER, ACE, CLOUD)
    for d in RULES.pending(state)
    if d.written
]


def test_every_plain_program_of_every_deck_is_read_as_the_engine_judges_it() -> None:
    """Exhaustively: each three-card program of each plane's deck, written in lower case
    with commas, is accepted as its cards when the engine's checks pass, else refused with
    the first check's reason; nothing else is ever stored for it."""
    accepted = refused = 0
    for state, pid in EXHAUSTIVE:
        decision = _asked(state, pid)
        plane = _plane(state, pid)
        deck = CATALOG.maneuver_decks[CATALOG.planes[plane.type].deck]
        mission = state.camp.mission
        assert mission is not None
        for cards in itertools.product(deck.codes, repeat=3):
            program = Program(cards=cards)
            reasons = check_program(CATALOG, plane, program, mission.rules, mission.turn)
            got = RULES.read_text(state, decision, ",".join(cards).lower())
            if reasons:
                assert isinstance(got, Refusal) and got.reason == reasons[0].reason, cards
                refused += 1
                continue
            assert isinstance(got, str), (cards, got)
            assert RULES.accept(state, decision, got) is None  # what is stored stays valid
            assert RULES.text_of(state, decision, got) == " ".join(cards)
            if plane.cloud_salt:
                assert got.startswith(SEALED) and " ".join(cards) not in got
            accepted += 1
    assert accepted > 2000 and refused > 2000


def _written_forms(text: str) -> st.SearchStrategy[str]:
    """``text`` as a player might write it: any case, cards apart by spaces, commas,
    hyphens or slashes, a complex maneuver spelt with a hyphen."""

    def styled(case: str, separator: str) -> str:
        head, colon, body = text.partition(":")
        cards = body.split() if colon else text.split()
        suffixes = [c for c in cards if "@" in c]
        cards = [c for c in cards if "@" not in c]
        written = separator.join(cards + suffixes)
        if colon:
            written = f"{head.replace('_', '-')}: {written}"
        return {"upper": written.upper(), "lower": written.lower(), "as": written}[case]

    return st.builds(
        styled, st.sampled_from(["upper", "lower", "as"]), st.sampled_from([" ", ",", "-", " / "])
    )


def _specials(state: WingsState, pid: str) -> list[Program]:
    """Every program the plane could declare beyond three cards, legal or not: its rocket
    attacks, landing, waiting and taking off, each complex maneuver whole or begun late, a
    bomb release or a pistol shot after its default."""
    plane = _plane(state, pid)
    mission = state.camp.mission
    assert mission is not None
    deck = CATALOG.maneuver_decks[CATALOG.planes[plane.type].deck]
    found = [*rocket_programs(CATALOG, plane), *sequences.starts(CATALOG, deck, plane)]
    found += [Program(cards=landing.cards_of(deck, landing.LAND), maneuver=landing.LAND)]
    found += landing.programs(CATALOG, plane, mission.turn)
    plain = default_program(CATALOG, plane, mission.rules, mission.turn)
    found += [plain.model_copy(update={"release": r}) for r in (0, 1, 2, 3)]
    found += [plain.model_copy(update={"pistol": p}) for p in (1, 2, 3)]
    return found


# One plane of each type, and the Ace and the plane in the clouds: every deck, each read.
EXHAUSTIVE = [
    *{
        _plane(state, pid).type: (state, pid) for state, pid in PLANES if state is not CLOUD
    }.values(),
    (ACE, "P3"),
    (CLOUD, "P4"),
]
SPECIALS = [(state, pid, program) for state, pid in PLANES for program in _specials(state, pid)]


def test_every_special_program_is_read_as_the_engine_judges_it() -> None:
    legal = 0
    for state, pid, program in SPECIALS:
        decision = _asked(state, pid)
        got = RULES.read_text(state, decision, program_text(program).lower())
        if not _legal(state, pid, program):
            assert isinstance(got, Refusal) and got.reason, program
            continue
        assert isinstance(got, str), (program, got)
        assert RULES.text_of(state, decision, got) == program_text(program)
        legal += 1
    declared = {p.maneuver for s, pid, p in SPECIALS if _legal(s, pid, p)}
    assert legal > 50 and {"LP", "split_s", "forced_dive", None} <= declared


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_legal_program_can_be_written_in_any_style(data: st.DataObject) -> None:
    state, pid, program = data.draw(st.sampled_from(SPECIALS))
    if data.draw(st.booleans()):  # or three cards of its deck
        deck = CATALOG.maneuver_decks[CATALOG.planes[_plane(state, pid).type].deck]
        program = Program(cards=tuple(data.draw(st.sampled_from(deck.codes)) for _ in range(3)))
    assume(_legal(state, pid, program))
    text = program_text(program)
    written = data.draw(_written_forms(text))
    decision = _asked(state, pid)
    got = RULES.read_text(state, decision, written)
    assert isinstance(got, str), (written, got)
    assert RULES.text_of(state, decision, got) == text
    assert RULES.read_text(state, decision, got) == got  # a stored value reads as itself


def test_the_french_names_and_words_read_as_the_engine_s() -> None:
    deck = CATALOG.maneuver_decks["B"]
    assert read(deck, "piqué forcé: st, dv, s") == "forced_dive: ST DV S"
    assert read(deck, "S Immelmann historique: CL IM") == "S historical_immelmann: CL IM"
    assert read(deck, "s s s bombe@2 pistolet@1") == "S S S bomb@2 pistol@1"
    assert read(deck, "S-S-S pistol@1 bomb@hold") == "S S S bomb@hold pistol@1"


def test_an_illegal_program_is_refused_with_the_rule_and_the_card() -> None:
    state, pid = OPENING, "P1"  # a Nieuport 17: one bank left in its deck
    decision = _asked(state, pid)
    refusal = RULES.read_text(state, decision, "bl bl bl")
    assert refusal == Refusal("too-many-copies", {"at": "BL", "position": 2})
    assert RULES.read_text(state, decision, "S S") == Refusal("three-cards")
    assert RULES.read_text(state, decision, "XX S S") == Refusal(
        "not-in-deck", {"at": "XX", "position": 1}
    )
    assert isinstance(RULES.read_text(state, decision, "LP S S S"), str)  # it carries rockets
    central = _asked(state, "P3")
    assert RULES.read_text(state, central, "LP S S S") == Refusal("no-rockets")


def test_a_cloud_seal_packs_every_code_and_name_and_opens_only_under_its_salt() -> None:
    for deck in CATALOG.maneuver_decks.values():
        assert set(deck.codes) <= set(CODES)
    assert set(CATALOG.complex) | set(DECLARATIONS) <= set(NAMES)
    for text in ("BL BL TR", "S split_s: ST IM bomb@2 pistol@1", "LD S S ST", "GD ST ST ST"):
        sealed = seal("salt", 3, "P4", text)
        assert sealed is not None and len(sealed) == len(SEALED) + 10
        assert unseal("salt", 3, "P4", sealed) == text
        # Another turn, plane or salt: the pad differs, the check bits fail.
        assert unseal("salt", 4, "P4", sealed) is None
        assert unseal("other", 3, "P4", sealed) is None
    assert unseal("salt", 3, "P4", "cloud-zz") is None


def test_the_quick_picks_are_few_legal_and_stored_as_a_written_program_would_be() -> None:
    for state, pid in PLANES:
        decision = _asked(state, pid)
        assert decision.written and 2 <= len(decision.options) <= 8
        assert decision.default == decision.options[0].id
        for option in decision.options:
            assert RULES.accept(state, decision, option.id) is None
            written = RULES.text_of(state, decision, option.id)
            assert RULES.read_text(state, decision, written) == option.id
            assert _legal(state, pid, parse_program(written))

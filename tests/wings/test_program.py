"""Program legality (authored 3.3 on seed A.I): what is accepted, and the refusal reasons."""

from __future__ import annotations

import pytest

from engine.rulesets.wings.program import (
    check_program,
    default_program,
    legal_first_cards,
    parse_program,
)
from engine.rulesets.wings.state import MissionRules
from tests.wings.helpers import catalog, plane

RULES = MissionRules()


def reasons(text: str, **state: object) -> list[tuple[int, str]]:
    subject = plane(**state)  # type: ignore[arg-type]
    refusals = check_program(catalog(), subject, parse_program(text), RULES, turn=3)
    return [(r.position, r.reason) for r in refusals]


def test_plain_programs_are_legal() -> None:
    assert reasons("S BL TR") == []
    assert reasons("s, st, s") == []  # case and commas are forgiven


@pytest.mark.parametrize(
    ("text", "state", "expected"),
    [
        ("S S", {}, [(-1, "three-cards")]),
        ("S XX S", {}, [(1, "not-in-deck")]),
        ("ST HL S", {}, [(1, "steep-after-steep")]),
        ("ST S S", {"last_card": "HR", "last_steep": True}, [(0, "steep-after-steep")]),
        ("BL IM S", {}, [(1, "immelmann-needs-straight-before")]),
        ("S IM BL", {}, [(2, "straight-after-immelmann")]),
        ("BL S S", {"last_card": "IM"}, [(0, "straight-after-immelmann")]),
        ("S S S S", {}, [(-1, "three-cards")]),
        ("S S S", {"engine_hits": 1}, [(-1, "engine-needs-stall")]),
        (
            "BL S TL",
            {"rudder": "L", "rudder_until": 3},
            [(0, "rudder-jammed"), (2, "rudder-jammed")],
        ),
        ("SL SL S", {}, [(1, "too-many-copies")]),
    ],
)
def test_illegal_programs_give_their_reason(
    text: str, state: dict[str, object], expected: list[tuple[int, str]]
) -> None:
    assert reasons(text, **state) == expected


def test_rudder_restriction_lapses_after_its_turn() -> None:
    assert reasons("BL S S", rudder="L", rudder_until=2) == []


def test_immelmann_after_a_straight_from_last_turn() -> None:
    assert reasons("IM S BL", last_card="S") == []
    assert reasons("IM S BL", last_card="BL") == [(0, "immelmann-needs-straight-before")]
    # Seed D.VII.a Acrobat: a bank or turn may lead into the Immelmann.
    assert reasons("IM S BL", last_card="BL", skills=("acrobat",)) == []


def test_genius_allows_two_diamonds_once_every_two_turns() -> None:
    assert reasons("ST HL S", skills=("genius",), genius_turn=1) == []
    assert reasons("ST HL S", skills=("genius",), genius_turn=2) == [(1, "steep-after-steep")]
    # Only one pair per use.
    assert reasons("ST HL ST", skills=("genius",), genius_turn=-9) == [(2, "steep-after-steep")]


def test_altitude_cards_leave_the_hand_without_altitude_rules() -> None:
    subject = plane()
    refusals = check_program(
        catalog(), subject, parse_program("S CL S"), MissionRules(altitude=False), 1
    )
    assert [(r.position, r.reason) for r in refusals] == [(1, "altitude-off")]


def test_complex_maneuvers_need_the_sequence_and_the_skill() -> None:
    assert reasons("split_s: ST IM S") == []
    assert reasons("split_s: ST IM BL") == [(-1, "sequence-mismatch")]
    assert reasons("loop: S IM S") == [(-1, "unknown-maneuver")]
    assert reasons("controlled_dive_steep: S ST S") == [(-1, "needs-piloting_ace")]
    assert reasons("controlled_dive_steep: S ST S", skills=("piloting_ace",)) == []
    # Without the declaration a stall cannot lead into the Immelmann.
    assert reasons("ST IM S") == [(1, "immelmann-needs-straight-before")]


def test_the_bomber_uses_its_slow_straight_as_the_engine_stall() -> None:
    subject = plane(type_="lancaster", engine_hits=1, side="entente")
    ok = check_program(catalog(), subject, parse_program("SF SS SF"), RULES, 1)
    bad = check_program(catalog(), subject, parse_program("SF SF BL"), RULES, 1)
    assert ok == [] and [r.reason for r in bad] == ["engine-needs-stall"]


def test_default_and_first_card_options() -> None:
    subject = plane(last_card="IM")
    legal, refused = legal_first_cards(catalog(), subject, RULES, 2)
    assert legal == ["S"]
    assert ("BL", "straight-after-immelmann") in refused
    assert default_program(catalog(), plane(engine_hits=1), RULES, 2).cards == ("ST", "S", "S")

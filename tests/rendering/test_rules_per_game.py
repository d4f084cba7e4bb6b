"""`/rules` per game (issue 27, part 6): every rule number the README promises answers, in
English and French (a rule the digest leaves out answers with its section); the glossary
and the panel's Help speak the campaign's own game."""

from __future__ import annotations

import pytest

from cogs.rules import answer
from rendering import rulebook
from tests.test_french import problems

# The README's promise: the land (24.x), carrier (25.x, #n resources) and Pearl Harbor
# (26.x, PHn) rules of ZERO!, the Wings of War campaign's lettered sections and the
# Dambuster's DBn, each with the numbers its rules document uses.
PROMISED = {
    "land": [
        "24.1", "24.2", "24.3", "24.31", "24.32", "24.4", *(f"24.4{n}" for n in range(1, 10)),
        "24.5", "24.51", "24.52", "24.53", "24.6", "24.61", "24.7",
    ],
    "carrier": [
        "25.1", "25.2", "25.21", "25.22", "25.23", "25.3", "25.31", "25.34", "25.4", "25.41",
        "25.43", "25.5", "25.52", "25.53", "25.6", "25.61", "25.66", "25.7", "25.71", "25.72",
        "25.8", "25.81", "25.84", "25.9", *(f"#{n}" for n in range(1, 16)),
    ],
    "pearl-harbor": ["26.0", *(f"PH{n}" for n in range(1, 6))],
    "wings": [
        "A.I", "A.I.a", "A.II", "A.II.a", "A.II.d", "A.III.b", "A.IV.c", "A.IV.j", "B",
        "B.V", "B.VII.a", "C", "D.I", "D.VII.c", "E.II.b", "E.IV", "F.II.c", "F.VI.e",
    ],
    "dambuster": [f"DB{n}" for n in ("", *range(1, 13))] + ["DB8.e", "DB11.c"],
}  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_promised_rule_answers(lang: str) -> None:
    missing = [
        (game, number)
        for game, numbers in PROMISED.items()
        for number in numbers
        if not rulebook.find(number, lang, game)
    ]
    assert missing == []


def test_a_rule_left_out_answers_with_its_section() -> None:
    assert [e.number for e in rulebook.find("24.3", "en", "land")] == ["24.3"]
    assert {e.number for e in rulebook.find("24.42", "en", "land")} >= {"24.41", "24.44"}
    assert [e.number for e in rulebook.find("D.VII.b", "en", "wings")] == ["D.VII"]
    assert [e.number for e in rulebook.find("DB8.e", "fr", "dambuster")] == ["DB8"]


def test_the_glossary_is_the_campaign_s_game() -> None:
    wings = " ".join(f"{e.title} {e.text}" for e in rulebook.glossary("en", "wings"))
    assert "BL/BR" in wings and "climb counter" in wings and "face down" in wings
    assert "CAP" not in wings and "Leader" not in wings  # the carrier's words
    carrier = " ".join(e.title for e in rulebook.glossary("en", "carrier"))
    assert "CAP" in carrier and "BL/BR" not in carrier
    dam = " ".join(f"{e.title} {e.text}" for e in rulebook.glossary("fr", "dambuster"))
    assert "SF" in dam and "aim:N" in dam and "viseur" in dam
    # In a Wings channel, /rules glossary answers with the Wings words.
    embed = answer("glossary", "en", "wings")
    assert embed.description is not None and "BL/BR" in embed.description
    assert "Combat Air Patrol" not in embed.description


def test_the_new_entries_read_french() -> None:
    lines = [
        (f"/rules {e.number}", line)
        for e in rulebook.entries("fr")
        if e.ruleset == "dambuster"
        or e.number in ("24.2", "24.3", "25.2", "B")
        or e.number.startswith(("wings-", "dam-"))
        for line in (e.title, e.text)
    ]
    assert len(lines) > 20
    assert problems(lines) == []

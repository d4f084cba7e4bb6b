"""The rules digests behind /rules: both languages cover the same rules and terms, each
resource of the data has its line, and the panel's one-liners fit a select menu."""

from __future__ import annotations

from engine.zero.loader import default_catalog
from rendering import rulebook


def test_english_and_french_digests_have_the_same_entries() -> None:
    def numbers(lang: str) -> list[tuple[str, str]]:
        return [(e.ruleset, e.number) for e in rulebook.entries(lang)]

    assert numbers("en") == numbers("fr")
    assert set(rulebook.rulesets("en")) == {
        "carrier",
        "land",
        "pearl-harbor",
        "wings",
        "dambuster",
        "memoir44",
    }
    for lang in rulebook.LANGS:
        for entry in rulebook.entries(lang):
            assert entry.title and entry.text and entry.keywords, entry.number
            assert len(entry.heading) <= 100 and len(entry.text) <= 1000, entry.number
            assert len(entry.short) <= 100, entry.number


def test_every_carrier_resource_has_a_digest_line_in_both_languages() -> None:
    for resource in default_catalog().resources:
        for lang in rulebook.LANGS:
            found = rulebook.entry("carrier", f"#{resource.number}", lang)
            assert found is not None and found.short, (lang, resource.number)
            # The digest, not the data file's design notes ("seed 25.65: ..."), is shown.
            assert "seed" not in found.text.lower()


def test_the_panel_rules_are_in_the_digest() -> None:
    carrier = {e.number for e in rulebook.entries("en") if e.ruleset == "carrier"}
    for number in (
        "25.31",
        "25.32",
        "25.41",
        "25.42",
        "25.52",
        "25.53",
        "25.62",
        "25.64",
        "25.65",
        "25.71",
        "25.82",
        "25.83",
        "25.84",
        "25.9",
    ):
        assert number in carrier
    land = {e.number for e in rulebook.entries("en") if e.ruleset == "land"}
    assert {"24.44", "24.52", "24.53", "24.61", "24.7"} <= land


def test_find_by_number_section_word_and_accentless_french() -> None:
    assert [e.number for e in rulebook.find("25.71", "en")] == ["25.71"]
    assert [e.number for e in rulebook.find("25.7", "en")] == ["25.71", "25.72"]
    assert rulebook.find("n°3", "fr")[0].title.startswith("Radar")
    assert rulebook.find("recuperation", "fr")[0].number == "25.71"
    assert rulebook.find("L/W", "en")[0].ruleset == rulebook.GLOSSARY
    assert rulebook.find("zzz", "en") == []
    assert "25.71" in rulebook.suggestions("recovry", "en")
    # A campaign's ruleset answers first, the glossary always.
    assert {e.ruleset for e in rulebook.find("resource", "en", "land")} <= {"land", "glossary"}


def test_glossary_names_the_card_abbreviations() -> None:
    text = " ".join(f"{e.title} {e.text}" for e in rulebook.glossary("en"))
    for word in ("L/W", "CAP", "MAN", "TT", "OTS", "IMS", "2B/3D", "HL", "SC", "IMM", "SS", "AP"):
        assert word in text, word


def test_a_picked_resource_shows_its_whole_effect_in_the_readers_language() -> None:
    from engine.zero.types import RoundKind, Side
    from rendering.rulesets.carrier import CarrierPresenter
    from tests.rendering.fixtures import coral_status

    presenter = CarrierPresenter(default_catalog())
    view = coral_status(round_kind=RoundKind.RESOURCE)
    _, english = presenter.panel_notes("coral-sea", view, "allied", {"resource": "4"}, "en")
    text = "\n".join(english)
    assert "**#4 Extra CAP**: Your CAP gets one more L/W element" in text
    assert "(25.65)" in text and "seed" not in text and "…" not in text
    _, french = presenter.panel_notes("coral-sea", view, Side.ALLIED.value, {"resource": "4"}, "fr")
    assert "**#4 Patrouille renforcée**\u00a0: Votre patrouille reçoit un élément L/W de plus" in (
        "\n".join(french)
    )
    assert any("L/W = paire leader + ailier" in line for line in french)


def test_wings_digest_covers_the_game_numbered_like_its_rules() -> None:
    wings = {e.number for e in rulebook.entries("en") if e.ruleset == "wings"}
    # The turn, program legality, movement, fire, damage, altitude, tailing, pilots,
    # missions, the campaign and the Dambuster's own rules.
    for number in ("A.I", "A.I.a", "A.I.b", "A.II.a", "A.II.b", "A.III", "A.IV.d"):
        assert number in wings
    for number in ("D.II", "D.V", "E.I.a", "E.III.a", "F.I", "F.III.a", "F.III.d"):
        assert number in wings
    # The Dambuster is a game of its own since issue 27: its rules are its digest's.
    dambuster = {e.number for e in rulebook.entries("en") if e.ruleset == "dambuster"}
    assert {"DB", "DB2", "DB4", "DB5", "DB6", "DB8"} <= dambuster
    legality = rulebook.entry("wings", "A.I.a", "en")
    assert legality is not None and "two steep (diamond) cards in a row" in legality.text
    # Authored parts say so, in both languages.
    assert "authored" in rulebook.entry("wings", "A.IV.h", "en").text  # type: ignore[union-attr]
    assert "créée par nos soins" in rulebook.entry("wings", "A.IV.h", "fr").text  # type: ignore[union-attr]


def test_wings_rules_by_letter_number_section_and_word() -> None:
    assert [e.number for e in rulebook.find("A.II.a", "en", "wings")] == ["A.II.a"]
    # A lettered section is the rules under it: A.II is never A.III.
    assert [e.number for e in rulebook.find("A.II", "en", "wings")] == [
        "A.II.a",
        "A.II.b",
        "A.II.c",
    ]
    assert [e.number for e in rulebook.find("db 5", "fr", "dambuster")] == ["DB5"]
    assert rulebook.find("tailing", "en", "wings")[0].number == "A.IV.d"
    assert rulebook.find("talonnage", "fr", "wings")[0].number == "A.IV.d"
    assert rulebook.find("mohne", "fr", "dambuster")[0].number == "DB8"  # without its accent
    # The card codes a program is written in ("S BL TL") are explained.
    for code in ("ST", "IM", "CL", "DV", "WL"):
        assert rulebook.find(code, "fr", "wings")[0].number == "A.I.b", code
    assert rulebook.find("dambuster", "fr", "dambuster")[0].title.startswith("Dambuster\u00a0:")
    # In a Wings campaign a word finds Wings rules (and the glossary), not the carrier's.
    assert {e.ruleset for e in rulebook.find("altitude", "en", "wings")} <= {"wings", "glossary"}
    # The carrier's numbers still work as before.
    assert [e.number for e in rulebook.find("25.7", "en")] == ["25.71", "25.72"]


def test_french_wings_digest_reads_french() -> None:
    from tests.test_french import problems

    lines = [
        (f"wings {e.number}", f"{e.title} {e.short} {e.text}")
        for e in rulebook.entries("fr")
        if e.ruleset == "wings"
    ]
    assert problems(lines) == []

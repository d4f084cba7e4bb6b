"""The rules digests behind /rules: both languages cover the same rules and terms, each
resource of the data has its line, and the panel's one-liners fit a select menu."""

from __future__ import annotations

from engine.loader import default_catalog
from rendering import rulebook


def test_english_and_french_digests_have_the_same_entries() -> None:
    def numbers(lang: str) -> list[tuple[str, str]]:
        return [(e.ruleset, e.number) for e in rulebook.entries(lang)]

    assert numbers("en") == numbers("fr")
    assert set(rulebook.rulesets("en")) == {"carrier", "land", "pearl-harbor"}
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
    from engine.types import RoundKind, Side
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

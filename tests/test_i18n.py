"""Every user-facing string exists in English and French, and formats without error."""

from __future__ import annotations

import string

from bot.i18n import keys, t
from bot.logtext import describe


def test_french_has_every_english_key() -> None:
    missing = sorted(keys("en") - keys("fr"))
    assert missing == []


def test_placeholders_match_between_languages() -> None:
    def fields(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    from bot.i18n import _catalog

    en, fr = _catalog("en"), _catalog("fr")
    wrong = [key for key in en if key in fr and fields(en[key]) != fields(fr[key])]
    assert wrong == []


def test_french_client_gets_french_and_unknown_falls_back() -> None:
    assert "Nothing was changed" in t("error.unexpected", "en-US", ref="1")
    assert "Rien n'a été modifié" in t("error.unexpected", "fr", ref="1")
    assert "Nothing was changed" in t("error.unexpected", "de", ref="1")


def test_log_lines_read_as_sentences() -> None:
    line = describe("vp", {"japanese": 6, "allied": 10}, "en")
    assert line == "Victory points: Japanese 6, Allied 10"
    assert "Points de victoire" in describe("vp", {"japanese": 6, "allied": 10}, "fr")
    unknown = describe("something-new", {"a": 1}, "en")
    assert "something-new" in unknown and "a: 1" in unknown


def test_a_counted_message_takes_the_language_s_plural_form() -> None:
    """CLDR's rules (Babel): English says 1 in the singular, 0 and 2 in the plural; French
    says 0 and 1 in the singular; a round million is French "many", which reads "other"."""
    assert t("log.unit.point", "en", count=1) == "1 damage point"
    assert t("log.unit.point", "en", count=0) == "0 damage points"
    assert t("log.unit.point", "en", count=2) == "2 damage points"
    assert t("log.unit.point", "fr", count=0) == "0 point de dégâts"
    assert t("log.unit.point", "fr", count=1) == "1 point de dégâts"
    assert t("log.unit.point", "fr", count=2) == "2 points de dégâts"
    assert t("log.unit.point", "fr", count=1_000_000) == "1000000 points de dégâts"
    # No count given (or not a number): the "other" form, never a crash.
    assert t("log.unit.point", "en") == "? damage points"


def test_the_sentences_that_said_1_damage_points_are_grammatical() -> None:
    from rendering.text import tr

    assert tr("strike.points", "en", count=1, target="Akagi") == "1 damage point on Akagi"
    assert tr("strike.points", "en", count=0, target="Akagi") == "0 damage points on Akagi"
    assert tr("strike.points", "fr", count=0, target="Akagi").startswith("0 point de dégâts")
    assert tr("strike.run_points", "en", count=1) == "= 1 pt"
    assert tr("strike.attacks", "fr", count=1) == "1 attaque"
    assert tr("report.strike_points", "en", count=1) == "1 pt"
    assert t("cogs.redeliver.done", "en", count=1).startswith("1 announcement will")
    assert t("cogs.redeliver.done", "fr", count=2).startswith("2 annonces vont")
    line = describe("strike-flown", {"kind": "x", "points": 1, "target": "t"}, "en")
    assert "1 damage point" in line and "1 damage points" not in line, line


def test_no_message_counts_by_hand() -> None:
    """A "(s)" is a plural the language's rules should choose: none is left."""
    from bot.i18n import _catalog
    from rendering.i18n import plural_forms

    for lang in ("en", "fr"):
        texts = [*_catalog(lang).values()]
        texts += [text for forms in plural_forms(lang).values() for text in forms.values()]
        assert not [text for text in texts if "(s)" in text], lang


def test_every_plural_table_has_its_other_form_and_the_same_fields_in_each() -> None:
    from rendering.i18n import plural_forms

    def fields(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    for lang in ("en", "fr"):
        for key, forms in plural_forms(lang).items():
            assert "other" in forms, (lang, key)
            assert len({frozenset(fields(text)) for text in forms.values()}) == 1, (lang, key)

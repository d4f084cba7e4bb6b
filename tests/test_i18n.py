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

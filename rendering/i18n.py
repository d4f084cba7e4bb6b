"""The translation layer: every user-facing string goes through ``t``.

Strings live in ``rendering/locales/<lang>/*.toml`` (one file per game, ``zero.toml`` for
the ZERO! images, and shared files named by what they hold: core, service, cogs, panel,
log...) keyed by dotted ids; the module imports nothing of the project, so ``rendering`` may
use it. A missing key in French falls back to English; a key missing everywhere shows the
key itself so it is noticed (``word`` takes a readable fallback instead, for keys built from
data), and a parameter the caller did not give shows as "?" rather than as "{turn}".

A message that counts something is a table of plural forms instead of a string::

    [log.unit.point]
    one = "{count} damage point"
    other = "{count} damage points"

The ``count`` parameter picks the form by the language's CLDR plural rules (Babel): English
says "1 point, 0 points", French "0 point, 1 point, 2 points" and has a ``many`` form for
round millions; a form a table leaves out reads as its ``other``.
"""

from __future__ import annotations

import tomllib
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale

LOCALE_DIR = Path(__file__).parent / "locales"
SUPPORTED = ("en", "fr")
_default_locale = "en"


def set_default_locale(locale: str) -> None:
    global _default_locale
    _default_locale = locale if locale in SUPPORTED else "en"


def normalize(locale: Any) -> str:
    """Map a discord.Locale, 'fr', 'en-US' or None to a supported language."""
    if locale is None:
        return _default_locale
    text = str(getattr(locale, "value", locale)).lower()
    lang = text.split("-")[0]
    return lang if lang in SUPPORTED else _default_locale


# CLDR's plural categories: a table whose keys are among them (``other`` included) is one
# message in several forms, not a group of messages.
PLURAL_FORMS = frozenset({"zero", "one", "two", "few", "many", "other"})


def _is_plural(node: dict[str, Any]) -> bool:
    return "other" in node and set(node) <= PLURAL_FORMS


@cache
def _messages(lang: str) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """Every message of a language: plain ones, and the plural tables by their key."""
    flat: dict[str, str] = {}
    plurals: dict[str, dict[str, str]] = {}

    def walk(prefix: str, node: dict[str, Any]) -> None:
        for key, value in node.items():
            name = f"{prefix}.{key}" if prefix else key
            if isinstance(value, dict) and _is_plural(value):
                plurals[name] = {form: str(text) for form, text in value.items()}
                flat[name] = str(value["other"])
            elif isinstance(value, dict):
                walk(name, value)
            else:
                flat[name] = str(value)

    for path in sorted((LOCALE_DIR / lang).glob("*.toml")):
        walk("", tomllib.loads(path.read_text(encoding="utf-8")))
    return flat, plurals


def warm() -> None:
    """Read every language's words and its CLDR data (babel's, read on first use: 2 MiB a
    language) now, at start-up, not inside the first click."""
    for lang in SUPPORTED:
        _messages(lang)
        plural_form(lang, 1)


def _catalog(lang: str) -> dict[str, str]:
    """Each key's text (a plural message's ``other`` form, for lookups by key)."""
    return _messages(lang)[0]


def plural_forms(lang: str) -> dict[str, dict[str, str]]:
    """The messages of a language that are tables of plural forms, by key."""
    return _messages(lang)[1]


@cache
def plural_form(lang: str, count: float | Decimal) -> str:
    """CLDR's plural category of ``count`` in a language: "one", "other", "many"..."""
    return str(Locale.parse(lang).plural_form(count if count >= 0 else -count))


def _text(lang: str, key: str, params: dict[str, Any]) -> str | None:
    forms = plural_forms(lang).get(key)
    if forms is None:
        return _catalog(lang).get(key)
    count = params.get("count")
    if isinstance(count, bool) or not isinstance(count, int | float | Decimal):
        return forms["other"]
    return forms.get(plural_form(lang, count)) or forms["other"]


class _Blanks(dict[str, Any]):
    """Parameters where a missing one reads as "?" instead of leaving "{turn}" in the text."""

    def __missing__(self, name: str) -> str:
        return "?"


def t(key: str, locale: Any = None, **params: Any) -> str:
    lang = normalize(locale)
    text = _text(lang, key, params) or _text("en", key, params) or key
    if "{" not in text:
        return text  # nothing to fill: most words of a panel's menus
    try:
        return text.format_map(_Blanks(params))
    except (KeyError, IndexError, AttributeError, ValueError):
        return text


def word(key: str, fallback: str, locale: Any = None) -> str:
    """The translation of ``key``, or ``fallback`` (say, the raw value) when no language has it.

    For keys built from data (a field, a side, an engine reason): an unknown one should read
    as itself, not as "service.field.zzz".
    """
    lang = normalize(locale)
    return _catalog(lang).get(key) or _catalog("en").get(key) or fallback


def field_word(name: str, locale: Any = None, label: str = "") -> str:
    """A decision field in the reader's words. A per-unit field ("program:P3") reads as its
    family's words with the unit's ``label`` (a pilot and his plane) or, without one, its
    id: ``service.field.<family>`` may place them (``"{label}: standing order"``)."""
    family, separator, unit = name.partition(":")
    if not separator:
        return label or word(f"service.field.{name}", name, locale)
    key = f"service.field.{family}"
    if key in _catalog(normalize(locale)) or key in _catalog("en"):
        return t(key, locale, label=label or unit, unit=unit)
    return label or f"{family} {unit}"


def keys(lang: str) -> set[str]:
    return set(_catalog(lang))

"""The translation layer: every user-facing string goes through ``t``.

Strings live in ``rendering/locales/<lang>/*.toml`` (one file per area: core, render, cogs...)
keyed by dotted ids; the module imports nothing of the project, so ``rendering`` may use
it. A missing key in French falls back to English; a key missing everywhere shows the key
itself so it is noticed (``word`` takes a readable fallback instead, for keys built from
data), and a parameter the caller did not give shows as "?" rather than as "{turn}".
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

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


@cache
def _catalog(lang: str) -> dict[str, str]:
    flat: dict[str, str] = {}

    def walk(prefix: str, node: dict[str, Any]) -> None:
        for key, value in node.items():
            name = f"{prefix}.{key}" if prefix else key
            if isinstance(value, dict):
                walk(name, value)
            else:
                flat[name] = str(value)

    for path in sorted((LOCALE_DIR / lang).glob("*.toml")):
        walk("", tomllib.loads(path.read_text(encoding="utf-8")))
    return flat


class _Blanks(dict[str, Any]):
    """Parameters where a missing one reads as "?" instead of leaving "{turn}" in the text."""

    def __missing__(self, name: str) -> str:
        return "?"


def t(key: str, locale: Any = None, **params: Any) -> str:
    lang = normalize(locale)
    text = _catalog(lang).get(key) or _catalog("en").get(key) or key
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

"""Words on images: every string goes through ``rendering.i18n.t`` under the ``render.`` prefix.

Data names (damage-track levels, places) come from the engine's data files in English; they
are translated when the locale file knows them and shown as given otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from engine.zero.types import Band, BombResult, FleetTactic, RoundKind, Side, StrikeSize
from rendering.i18n import keys, normalize, t


def tr(key: str, locale: str, **params: Any) -> str:
    return t(f"render.{key}", locale, **params)


@cache
def _known(lang: str) -> frozenset[str]:
    return frozenset(keys(lang))


def tr_or(key: str, locale: str, default: str, **params: Any) -> str:
    """The translation if the key exists (in the locale or in English), else ``default``."""
    full = f"render.{key}"
    if full in _known(normalize(locale)) or full in _known("en"):
        return t(full, locale, **params)
    return default


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def side_name(side: Side, locale: str) -> str:
    return tr(f"side.{side.value}", locale)


def side_plural(side: Side, locale: str) -> str:
    """The side as people: "the Allies", "les Alliés"."""
    return tr(f"side_plural.{side.value}", locale)


def tactic_name(tactic: FleetTactic, locale: str) -> str:
    return tr(f"tactic.{tactic.value}", locale)


def size_name(size: StrikeSize | str, locale: str) -> str:
    value = size.value if isinstance(size, StrikeSize) else size
    return tr_or(f"size.{slug(value)}", locale, value)


def band_short(band: Band, locale: str) -> str:
    return tr(f"band.{band.name.lower()}", locale)


def band_name(band: Band, locale: str) -> str:
    return tr(f"band_name.{band.name.lower()}", locale)


def result_name(result: BombResult, locale: str) -> str:
    return tr(f"result.{result.name.lower()}", locale)


def round_name(kind: RoundKind, locale: str) -> str:
    return tr(f"round.{kind.value}", locale)


def level_name(name: str, locale: str) -> str:
    return tr_or(f"level.{slug(name)}", locale, name)


def track_level_name(name: str, boxes: int, locale: str) -> str:
    """A track's level as told beside its count of ticked boxes. The data names the span
    below the first threshold "Untouched"; with boxes already ticked that word would
    contradict the count next to it ("Untouched · 3/15"), so it then reads as damage that
    has no effect yet."""
    if boxes > 0 and slug(name) == "untouched":
        return tr("level.no_effect_yet", locale)
    return level_name(name, locale)


def repaired_words(boxes: int, effective: int, locale: str) -> str:
    """ "3 repaired" when repairs took ticked boxes back, else nothing: the level beside a
    track's ticked count reads the boxes left (the penalties in force), so without it
    "15/30 boxes, Damaged" would contradict the ladder, where 15 boxes is Heavy."""
    repaired = boxes - effective
    return tr("repaired", locale, count=repaired) if repaired > 0 else ""


def repaired_note(boxes: int, effective: int, locale: str) -> str:
    """The same after a track's ticked count (", 3 repaired")."""
    words = repaired_words(boxes, effective, locale)
    return f", {words}" if words else ""


def repaired_aside(boxes: int, effective: int, locale: str) -> str:
    """The same in brackets (" (3 repaired)"), for a count inside a list of tracks."""
    words = repaired_words(boxes, effective, locale)
    return f" ({words})" if words else ""


def place_label(key: str, locale: str, default: str | None = None) -> str:
    return tr_or(f"place.{slug(key)}", locale, default if default is not None else key)


def place_name(key: str, name: str, locale: str) -> str:
    """A place as the data names it, or its translation when the locale is not English."""
    lang = normalize(locale)
    full = f"render.place.{slug(key)}"
    if lang != "en" and full in _known(lang):
        return t(full, lang)
    return name


def scenario_name(key: str, name: str, locale: str) -> str:
    """The scenario as the data names it in English; otherwise the catalogue's name (the
    images' short one first, then the one the log and the cards use)."""
    lang = normalize(locale)
    for full in (f"render.scenario.{slug(key)}", f"log.scenario.{key}"):
        if lang != "en" and full in _known(lang):
            return t(full, lang)
    return name


_TURN_LABEL = re.compile(r"(\d+) ([A-Za-z]+)(?: ([A-Za-z]+))?")


def turn_label(label: str, locale: str) -> str:
    """A sheet's turn label ("6 May PM", "4 June dawn", "5 June") in the reader's language;
    a label of another shape, or a word the catalogue lacks, stays as the sheet wrote it."""
    found = _TURN_LABEL.fullmatch(label.strip())
    if normalize(locale) == "en" or found is None:
        return label
    day, month, part = found.groups()
    month_key, part_key = f"month.{month.lower()}", f"part.{(part or '').lower()}"
    if f"render.{month_key}" not in _known("en"):
        return label
    if part is None:
        return tr("date.day_only", locale, day=day, month=tr(month_key, locale))
    if f"render.{part_key}" not in _known("en"):
        return label
    return tr("date.label", locale, day=day, month=tr(month_key, locale), part=tr(part_key, locale))


def doctrine_name(name: str, locale: str) -> str:
    return tr_or(f"doctrine.{slug(name)}", locale, name)


def flight_ops_text(value: str | None, locale: str, place: Mapping[str, str] | None = None) -> str:
    """ "large:allied-fleet" -> "Large Strike → Allied carrier fleet"."""
    if not value:
        return tr("unknown", locale)
    size, _, target = value.partition(":")
    text = size_name(size, locale)
    if target:
        names = place or {}
        text += " → " + names.get(target, place_label(target, locale))
    return text

"""The log's words for Wings of War and its Dambuster raids, asked by the shared log
(``bot.logtext``) through the presenter: which template says one of their events (a plane
lost to no named shooter, a raid's turns counted within a bomber's run), and the words of a
raid's crew stations and bomb outcomes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rendering.i18n import _catalog

# The data fields whose values are words of their own table (``log.<field>.<value>``).
_WORD_TABLES = ("station", "outcome")


def _known(key: str, lang: str) -> str | None:
    return _catalog(lang).get(key) or _catalog("en").get(key)


class WingsLogWords:
    """The presenter's ``log_variant`` and ``log_words`` (``rendering.presenter``)."""

    def log_variant(self, kind: str, data: Mapping[str, Any]) -> str | None:
        if kind == "moved" and "level" in data:
            return "-card"  # a move told since the moves say their card (issue 27)
        if kind in ("shot-down", "exploded") and data.get("by") is None:
            # Lost to no named shooter: a collision, a cable, bad luck, or guns the event
            # does not name (a raid's flak).
            return "-unaided"
        if kind == "turn-started" and "mission_turn" not in data and "run" in data:
            return "-run"  # a raid counts turns within each bomber's run, not the mission's
        if kind == "mission-over" and "winner" not in data and "dam_hits" in data:
            return "-dam"  # a raid ends on what reached the dam; the campaign names a winner
        return None

    def log_words(self, name: str, value: Any, locale: str, *, opening: bool = False) -> str | None:
        if name in _WORD_TABLES:
            return _known(f"log.{name}.{value}", locale)
        return None

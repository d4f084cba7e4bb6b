"""The campaign's front (seed F.VI.e, K.1) as the Wings boards tell it: public, read from
the view alone; the Western Front, the default, says nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rendering.i18n import t


def front_words(data: Mapping[str, Any], locale: str) -> str:
    """ " · Eastern Front" for a board's summary on the Eastern Front, else nothing."""
    if data.get("front") != "eastern":
        return ""
    return " · " + t("wings.front.eastern", locale)

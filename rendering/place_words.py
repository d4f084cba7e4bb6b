"""A place named inside a sentence, as opposed to on a label.

A label (a track's title, a map's legend, a menu) capitalises its first word; a French
sentence does not: « contre la flotte aéronavale alliée », not « contre Flotte aéronavale
alliée ». The sentence form, article included where French needs one, is
``render.place-in-text.<place>``; a place without one (a proper name such as Port Moresby)
reads as its label.
"""

from __future__ import annotations

from rendering.i18n import _catalog, normalize
from rendering.text import slug


def place_in_text(key: str, label: str, locale: str) -> str:
    found = _catalog(normalize(locale)).get(f"render.place-in-text.{slug(key)}")
    return found if found else label

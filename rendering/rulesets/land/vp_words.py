"""A land mission's VP lines in the reader's language.

The engine records each line's reason as an English phrase
(``engine.rulesets.land.sheet.mission_vp``:
"Ki-43 damaged", "skilled pilot of Ki-27 shot down", "Docks Light (4 pts)"); the state
keeps it byte for byte, so the words are put back together here from its parts.
"""

from __future__ import annotations

import re
from functools import cache

from rendering.i18n import _catalog, normalize, t

_AIRCRAFT = re.compile(r"^(?P<code>\S+) (?P<result>damaged|disengaged|destroyed)$")
_PILOT = re.compile(r"^skilled pilot of (?P<code>\S+) shot down$")
_HOME = re.compile(r"^(?P<code>\S+) came home not Damaged$")
_LEVEL = re.compile(r"^(?P<rest>.+) \((?P<points>\d+) pts\)$")


@cache
def _english_keys(prefix: str) -> dict[str, str]:
    return {v: k for k, v in _catalog("en").items() if k.startswith(prefix)}


def _name(english: str, prefix: str, lang: str) -> str | None:
    key = _english_keys(prefix).get(english)
    return t(key, lang) if key is not None else None


def _target_level(rest: str, points: str, lang: str) -> str | None:
    """ "Docks Light" is a sheet's target then its level; either may hold spaces."""
    words = rest.split(" ")
    for cut in range(1, len(words)):
        target = _name(" ".join(words[:cut]), "land.kind.", lang)
        level = _name(" ".join(words[cut:]), "render.level.", lang)
        if target is not None and level is not None:
            return t("land.vp-line.target", lang, target=target, level=level, points=points)
    return None


def vp_reason(reason: str, locale: str) -> str:
    """The reason in ``locale``; a phrase it does not know reads as recorded."""
    lang = normalize(locale)
    for pattern, key in ((_PILOT, "pilot"), (_HOME, "home")):
        found = pattern.match(reason)
        if found:
            return t(f"land.vp-line.{key}", lang, code=found["code"])
    found = _AIRCRAFT.match(reason)
    if found:
        return t(f"land.vp-line.{found['result']}", lang, code=found["code"])
    found = _LEVEL.match(reason)
    if found:
        return _target_level(found["rest"], found["points"], lang) or reason
    return reason

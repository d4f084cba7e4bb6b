"""Each squadron's major objectives and the period bonus, as the Wings status board and
status lines show them (seed F.III.c, F.I): public facts, read from the view alone."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rendering.i18n import t

SITES = ("station", "depot", "factory", "airfield")


def major_name(site: Mapping[str, Any], locale: str) -> str:
    """A mission objective that is a squadron's major objective, by its name ("Railway
    station"); "" for any other objective."""
    major = site.get("major")
    return t(f"wings.major.objective.{major}", locale) if major else ""


def mission_key(record: Mapping[str, Any]) -> str:
    """The ``wings.kind`` key of a mission record: "photography:station" for one flown
    against a major objective."""
    kind = str(record.get("kind", "patrol"))
    major = record.get("major")
    return f"{kind}:{major}" if major else kind


def _site_words(site: Mapping[str, Any], locale: str) -> str:
    name = t(f"wings.major.site.{site['kind']}", locale)
    if site.get("destroyed"):
        return t("wings.major.destroyed", locale, site=name)
    if site.get("photographed") is not None:
        return t("wings.major.photographed", locale, site=name)
    if site.get("damage"):
        return t(
            "wings.major.damaged",
            locale,
            site=name,
            damage=site["damage"],
            structure=site.get("structure", "?"),
        )
    return t("wings.major.intact", locale, site=name)


def major_lines(data: Mapping[str, Any], locale: str, airfield: bool) -> list[str]:
    """One line a side naming how its major objectives stand (the airfield only when the
    campaign plays the F.III.d option), and the period bonus when one was drawn."""
    squadrons = data.get("squadrons") or {}
    lines: list[str] = []
    for side in ("entente", "central"):
        majors = (squadrons.get(side) or {}).get("majors") or {}
        shown = [k for k in SITES if k in majors and (airfield or k != "airfield")]
        if not shown:
            continue
        sites = ", ".join(_site_words(majors[k], locale) for k in shown)
        lines.append(
            t("wings.major.line", locale, side=t(f"service.side.{side}", locale), sites=sites)
        )
    if lines:
        lines.insert(0, t("wings.major.title", locale))
    bonus = data.get("period_bonus")
    if bonus:
        lines.append(
            t(
                "wings.major.bonus",
                locale,
                side=t(f"service.side.{bonus['side']}", locale),
                points=bonus["points"],
                dice=bonus["dice"],
                roll=bonus["roll"],
            )
        )
    return lines

"""Words of the Dambuster raid's own choices (DB 8.d's start at any angle, DB 6's
searchlight switch), kept apart from ``rendering.rulesets.wings``.

The field names and option details mirror ``engine.rulesets.wings.dam`` (the renderer may
not import the engine); a test checks they agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rendering.i18n import t, word

DAM_START = "heading"
DAM_LIGHTS = "lights"
DAM_START_WORDS = "dam-start"
DAM_LIGHTS_WORDS = "dam-lights."
DAM_NIGHT = "night"  # DB 6: the crew's pick of one of a gun's two night cards
DAM_NIGHT_WORDS = "night-pick."  # an option's detail: "night-pick.<points>.<special>"


def dam_heading_words(degrees: int, locale: str) -> str:
    """A turn off the start's heading: positive turns left, as a TL card does."""
    if degrees == 0:
        return t("wings.dam-heading.ahead", locale)
    side = "left" if degrees > 0 else "right"
    return t(f"wings.dam-heading.{side}", locale, degrees=abs(degrees))


def night_card_words(value: str, locale: str) -> str:
    """A night option, ``"1:3:fire"``: the card's place in the draw, points and special."""
    n, _, rest = value.partition(":")
    points, _, special = rest.partition(":")
    if not points.isdigit():
        return value
    if special == "none":
        return t("wings.night-pick.option-plain", locale, n=n, points=_points(points, locale))
    name = t(f"log.value.{special}", locale)
    return t("wings.night-pick.option", locale, n=n, points=_points(points, locale), special=name)


def night_card_detail(detail: str, locale: str) -> str:
    """What keeping the card does, from the option's detail ``night-pick.<points>.<special>``."""
    points, _, special = detail.removeprefix(DAM_NIGHT_WORDS).partition(".")
    effect = t(f"wings.night-pick.effect.{special}", locale)
    return t("wings.night-pick.detail", locale, points=_points(points, locale), effect=effect)


def _points(points: str, locale: str) -> str:
    return t("wings.night-pick.points", locale, count=int(points) if points.isdigit() else points)


def gun_name(gun: str, locale: str) -> str:
    """A gun as the map labels it and the log names it ("shore 2", "rive 2")."""
    return word(f"log.value.{gun}", gun, locale)


def night_lines(dam: Mapping[str, Any], side: str, locale: str) -> list[str]:
    """The gun and the plane a night pick waits on: the crew is asked, the others wait."""
    pick = dam.get("night_pick")
    if not pick:
        return []
    key = "waiting" if side == "entente" else "others"
    gun = gun_name(pick["gun"], locale)
    return [t(f"wings.night-pick.{key}", locale, gun=gun, plane=pick["plane"])]


Colour = tuple[int, int, int]
COMPLEX_INK: Colour = (122, 74, 30)  # the Central Powers' brown: the complex is theirs


def complex_lines(dam: Mapping[str, Any], locale: str) -> list[tuple[str, Colour, bool]]:
    """The industrial raid's target (DB 12): the VP its bombs have won so far."""
    target = dam.get("target")
    if target is None:
        return []
    text = t("wings.complex.line", locale, won=target["won"], vp=target["vp"])
    return [(text, COMPLEX_INK, True), (dorsal_words(locale), DORSAL_INK, False)]


DORSAL_INK: Colour = (95, 95, 95)


def dorsal_words(locale: str) -> str:
    """Why the dorsal turret stays silent on the industrial raid: it never fires at a lower
    target (DB 11.c) and the box gives the complex only its two AA guns on the ground (DB 10),
    so a player does not wait for a shot that the rules never give."""
    return t("wings.complex.dorsal", locale)


def dorsal_lines(data: Mapping[str, Any], locale: str) -> list[str]:
    """The status text's line for the industrial raid (none for another raid or mission)."""
    dam = data.get("dam")
    return [dorsal_words(locale)] if dam and dam.get("target") is not None else []


def complex_plane_line(
    dam: Mapping[str, Any], plane: Mapping[str, Any], structure: int, locale: str
) -> str:
    """The standard Lancaster's line: bomb cards left instead of the bouncing bomb."""
    return t(
        "wings.complex.plane",
        locale,
        reg=plane["id"],
        status=t(f"wings.lancaster.{plane['status']}", locale),
        level=plane["level"],
        damage=plane["damage"],
        structure=structure,
        bombs=plane["bombs"],
    )


def complex_score(data: Mapping[str, Any], locale: str) -> str:
    dam, outcome = data["dam"], data["dam_result"]
    result = t(
        f"wings.raid.{outcome['result']}" if dam["finished"] else "wings.raid.ongoing", locale
    )
    return t("wings.complex.score", locale, won=outcome["complex"], result=result, vp=outcome["vp"])

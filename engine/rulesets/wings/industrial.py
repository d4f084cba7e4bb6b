"""The industrial-complex raid (seed 004, "DB" 10 and 12): a standard Lancaster B Mk.I /
Mk.III, with its dorsal turret, bombs the complex's target card with the box's three bomb
cards by day, against the box's two AA gun cards.

DB 12 grades a bomb card by what it covers: the card's red dot (the complex destroyed: all
its VP), else its inner zone (half, rounded down), else the rest of the card (a quarter,
rounded down); the seed's fourth case is cut off, read here as "nothing covered, nothing
won". The seed gives no size, place, VP or scenario for the card: every value here is
authored and listed in docs/wings-data.md. The raid reuses the Dambuster's machinery
(``dambuster``): one Lancaster flies one card a turn, the AA guns fire by
standing order, and the run ends with the last bomb, the plane lost, or the turn cap.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

import engine.rulesets.wings.geometry as geo
from engine.rulesets.wings.catalog import Catalog
from engine.rulesets.wings.objectives import bomb_fall
from engine.rulesets.wings.state import PlaneState
from engine.sight import public_record

PLANE = "lancaster-mk3"  # DB 11: the standard Lancaster, with its dorsal turret
ROSTER = ("R5868",)  # authored: one Lancaster B Mk.I, "S-Sugar" of 467 Squadron
BOMBS = 3  # DB 10: the box's three bomb cards
START_LEVEL = 2  # authored: the run starts one level above the lowest
Tier = Literal["red-dot", "inner-zone", "outer-card", "off-target"]
SHARE: dict[str, tuple[int, int]] = {  # DB 12: the share of the VP each coverage wins
    "red-dot": (1, 1),
    "inner-zone": (1, 2),
    "outer-card": (1, 4),
    "off-target": (0, 1),
}


@public_record
class IndustrialTarget(BaseModel):
    """The complex's card on the table, square to it (authored geometry, in bw)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    x: float = 17.5  # its red dot, the card's centre: SS, then SS drop from the start
    y: float = 7.55
    card: tuple[float, float] = (2.0, 1.4)  # length (along x) by width: a plane card's size
    inner: tuple[float, float] = (1.0, 0.7)  # the red rectangle round the dot
    vp: int = 12  # the complex destroyed (authored: a cluster's 12 points, seed B.X)
    won: int = 0  # VP its bombs have earned so far, never above ``vp``

    @property
    def destroyed(self) -> bool:
        return self.won >= self.vp

    def zone(self, size: tuple[float, float]) -> geo.Polygon:
        return geo.rectangle(self.x, self.y, 0.0, size[1], size[0])


def bomb_card(catalog: Catalog, pose: tuple[float, float, float]) -> geo.Polygon:
    """A bomb card where it lands: a small base's size (authored, as the WW1 bombs)."""
    width, length = catalog.rules.units.small_base
    return geo.rectangle(*pose, width, length)


def coverage(catalog: Catalog, target: IndustrialTarget, pose: tuple[float, float, float]) -> Tier:
    """DB 12: the best of the red dot, the inner zone, the card, or nothing."""
    card = bomb_card(catalog, pose)
    if geo.point_in_convex((target.x, target.y), card):
        return "red-dot"
    if geo.overlaps(card, target.zone(target.inner)):
        return "inner-zone"
    if geo.overlaps(card, target.zone(target.card)):
        return "outer-card"
    return "off-target"


def points(target: IndustrialTarget, tier: Tier) -> int:
    """DB 12: all, half or a quarter of the complex's VP, rounded down, as much as is left."""
    num, den = SHARE[tier]
    return min(target.vp * num // den, target.vp - target.won)


def fall(catalog: Catalog, plane: PlaneState) -> tuple[float, float, float]:
    """Where the bomb card lands: ahead of the bomber by a straight and one more a bomb
    marker of its level (seed A.IV.e, as the WW1 bombers' fall)."""
    return bomb_fall(catalog, plane, "straight")


def result(target: IndustrialTarget, shot_down: bool, damage: int) -> dict[str, object]:
    """Authored ladder on DB 8.e's: the complex's VP won, -12 for the plane shot down, -5
    for one back with 20 damage or more; >= 12 decisive, 6-11 partial, 1-5 minor, else a
    defeat."""
    lines: list[tuple[str, str, int]] = [("complex", "", target.won)]
    if shot_down:
        lines.append(("shot_down", ROSTER[0], -12))
    elif damage >= 20:
        lines.append(("damaged", ROSTER[0], -5))
    total = sum(value for _, _, value in lines)
    level = (
        "decisive"
        if total >= 12
        else "partial"
        if total >= 6
        else "minor"
        if total >= 1
        else "defeat"
    )
    return {"dam_hits": 0, "vp": total, "lines": lines, "result": level, "complex": target.won}

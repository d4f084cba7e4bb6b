"""The flak battery (DCA, seed A.IV.h): where its burst counter may lie for each target
altitude, where an automatic gunner lays it, and who the burst catches.

The seed has a player of the owning side lay the counter by DM; the seam has no round for
it, so the battery follows a standing order (authored): it aims at the nearest enemy plane
it can reach, where that plane would be after two straights, pulled into the legal band.
"""

from __future__ import annotations

import math

import engine.rulesets.wings.geometry as geo
from engine.rulesets.wings.catalog import Catalog
from engine.rulesets.wings.fire import base_polygon
from engine.rulesets.wings.state import GroundElement, PlaneState


def card_edge(catalog: Catalog) -> float:
    """Distance from a ground card's centre to its corner: "on or touching the card"."""
    width, length = catalog.rules.units.small_base
    return math.hypot(width, length) / 2


def band(catalog: Catalog, level: int) -> tuple[float, float] | None:
    """Seed A.IV.h: the least and most distance (bw) of the burst from the battery when it
    targets this level, or None when flak cannot reach it."""
    ruler = catalog.rules.units.ruler
    for target, least, most in catalog.rules.objectives.dca_bands:
        if target == level:
            low = card_edge(catalog) if least < 0 else least * ruler
            high = card_edge(catalog) if most < 0 else most * ruler
            return low, high
    return None


def in_band(catalog: Catalog, battery: GroundElement, x: float, y: float, level: int) -> bool:
    limits = band(catalog, level)
    if limits is None:
        return False
    gap = geo.distance((battery.x, battery.y), (x, y))
    return limits[0] - geo.EPS <= gap <= limits[1] + geo.EPS


def aim(
    catalog: Catalog, battery: GroundElement, planes: list[PlaneState]
) -> tuple[float, float, int] | None:
    """The standing order: the nearest enemy plane at a level flak reaches; the counter
    goes where two of its straights would take it, moved along the line from the battery
    into the band for its level."""
    best: tuple[float, str, tuple[float, float, int]] | None = None
    for plane in planes:
        if plane.side == battery.side or plane.status != "flying":
            continue
        placed = lead(catalog, battery, plane, 2)
        if placed is None:
            continue
        point, miss = placed
        # Only planes the battery could plausibly reach: the prediction within a ruler of
        # the band (the gunner does not waste a shell on a plane far away).
        if miss > catalog.rules.units.ruler:
            continue
        near = geo.distance((battery.x, battery.y), (plane.x, plane.y))
        key = (near, plane.id)
        if best is None or key < best[:2]:
            best = (near, plane.id, (point[0], point[1], plane.level))
    return best[2] if best is not None else None


def lead(
    catalog: Catalog, battery: GroundElement, plane: PlaneState, straights: int
) -> tuple[tuple[float, float], float] | None:
    """Where ``straights`` of the plane's straights would take it, moved along the line
    from the battery into the band for its level, and how far it had to move; None when
    flak cannot reach its level."""
    limits = band(catalog, plane.level)
    if limits is None:
        return None
    plane_type = catalog.planes[plane.type]
    deck = catalog.maneuver_decks[plane_type.deck]
    straight = next(card.code for card in deck.cards if card.is_straight)
    move = catalog.move(plane_type, straight)
    x, y, heading = plane.x, plane.y, plane.heading
    for _ in range(straights):
        x, y, heading = geo.apply_move(x, y, heading, move)
    return into_band(battery, (x, y), limits)


def into_band(
    battery: GroundElement, point: tuple[float, float], limits: tuple[float, float]
) -> tuple[tuple[float, float], float]:
    """The point moved along the line from the battery into the band, and how far."""
    x, y = point
    gap = geo.distance((battery.x, battery.y), (x, y))
    if gap < geo.EPS:
        x, y, gap = battery.x + 1.0, battery.y, 1.0
    wanted = min(max(gap, limits[0]), limits[1])
    scale = wanted / gap
    moved = (battery.x + (x - battery.x) * scale, battery.y + (y - battery.y) * scale)
    return moved, abs(gap - wanted)


def caught(
    catalog: Catalog, burst: tuple[float, float, int], planes: list[PlaneState], near: bool
) -> list[tuple[str, str]]:
    """Seed A.IV.h: a plane on the counter at its level takes a C card; with the option,
    one within R/2 of it at that level takes an A card. Returns (plane, deck letter)."""
    x, y, level = burst
    radius = catalog.rules.objectives.dca_counter
    reach = catalog.rules.units.ruler / 2
    hits = []
    for plane in sorted(planes, key=lambda p: p.id):
        if plane.status != "flying" or plane.level != level:
            continue
        base = base_polygon(catalog, plane)
        edge = min(
            geo.distance((x, y), geo.nearest_on_segment((x, y), base[i], base[(i + 1) % 4]))
            for i in range(4)
        )
        if geo.point_in_convex((x, y), base) or edge <= radius:
            hits.append((plane.id, "C"))
        elif near and edge <= reach:
            hits.append((plane.id, "A"))
    return hits

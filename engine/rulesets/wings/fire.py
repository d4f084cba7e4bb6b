"""Fire eligibility (authored 4.3 on the seed's A.II rules): range, arc, altitude, line of
fire, overlap and the crew's condition. ``check_fire`` answers one gun against one target.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import engine.rulesets.wings.geometry as geo
from engine.rulesets.wings.catalog import Catalog, Gun, PlaneType
from engine.rulesets.wings.state import MissionRules, PlaneState

# Cards after which a wounded pilot cannot fire (seed A.II.b); ST is the stall.
WOUND_BLOCKING = ("dive", "stall", "immelmann", "climb")


@dataclass(frozen=True)
class FireCheck:
    """The answer for one gun and one target (a plain dataclass: dozens are made a phase)."""

    ok: bool
    reason: str = ""  # why not, as a short key
    short: bool = False
    distance: float = 0.0
    aim: tuple[float, float] = (0.0, 0.0)


def base_polygon(catalog: Catalog, plane: PlaneState) -> geo.Polygon:
    width, length = catalog.base_size(catalog.planes[plane.type])
    return geo.rectangle(plane.x, plane.y, plane.heading, width, length)


def dead_angle(catalog: Catalog, plane: PlaneState, plane_type: PlaneType) -> geo.Polygon:
    """Seed A.II.d: from the centre through the two rear corners, out to half a ruler."""
    width, length = catalog.base_size(plane_type)
    reach = catalog.rules.units.ruler * catalog.rules.units.dead_angle_reach
    corner = math.hypot(length / 2, width / 2)
    scale = reach / corner
    far = (-length / 2 * scale, width / 2 * scale)
    local = ((0.0, 0.0), far, (far[0], -far[1]))  # counter-clockwise
    return tuple(geo.to_world(plane.x, plane.y, plane.heading, p) for p in local)


def _crew_reason(shooter: PlaneState, gun: Gun, last_kind: str | None) -> str:
    if shooter.jams.get(gun.name, 0) > 0:
        return "jammed"
    if gun.crew == "pilot":
        if shooter.no_fire > 0:
            return "pilot-wounded"
        if shooter.wounded and last_kind in WOUND_BLOCKING:
            return "pilot-wounded"
    elif shooter.observer_lp is not None and shooter.observer_lp < 0:
        return "observer-dead"
    return ""


def _prohibited(
    gun: Gun, shooter: PlaneState, target: PlaneState, lost: bool, gained: bool
) -> bool:
    """Seed B.VII.c: no fire up at a target after losing height, nor down after climbing;
    the observer's rule runs the other way round."""
    mine = (shooter.level, shooter.counters)
    theirs = (target.level, target.counters)
    below, above = mine < theirs, mine > theirs
    if gun.crew == "pilot":
        return (below and lost) or (above and gained)
    return (below and gained) or (above and lost)


def check_fire(
    catalog: Catalog,
    shooter: PlaneState,
    gun: Gun,
    target: PlaneState,
    others: Iterable[PlaneState],
    rules: MissionRules,
    *,
    last_kind: str | None = None,
    lost_height: bool = False,
    gained_height: bool = False,
    dived: bool = False,
    overlapping: bool = False,
    polygons: dict[str, geo.Polygon] | None = None,
) -> FireCheck:
    """Can ``gun`` of ``shooter`` hit ``target`` now? ``others`` may include both planes;
    ``polygons`` may hold the bases already computed this phase, by plane id."""
    if shooter.status != "flying" or target.status != "flying":
        return FireCheck(ok=False, reason="not-flying")
    crew = _crew_reason(shooter, gun, last_kind)
    if crew:
        return FireCheck(ok=False, reason=crew)
    gap = abs(shooter.level - target.level)
    if gap >= 2:
        return FireCheck(ok=False, reason="altitude")
    if gun.not_lower and target.level < shooter.level:
        return FireCheck(ok=False, reason="lower-target")  # DB 11.c: the dorsal turret
    if rules.fire_prohibition and _prohibited(gun, shooter, target, lost_height, gained_height):
        return FireCheck(ok=False, reason="fire-prohibition")
    if overlapping:
        # Seed B.VII.b: a dive ending strictly above, or a climb ending strictly below,
        # may still fire at the plane it overlaps.
        dive_ok = rules.dive_shot and dived and shooter.level > target.level
        climb_ok = last_kind == "climb" and shooter.level < target.level
        if not (dive_ok or climb_ok):
            return FireCheck(ok=False, reason="overlap")
    ruler = catalog.rules.units.ruler
    reach = ruler if gap == 0 else ruler / 2
    shooter_type = catalog.planes[shooter.type]
    point = geo.to_world(shooter.x, shooter.y, shooter.heading, gun.point)
    width, length = catalog.base_size(catalog.planes[target.type])
    if geo.distance(point, (target.x, target.y)) > reach + math.hypot(width, length) / 2:
        return FireCheck(ok=False, reason="range")  # no corner of the base can be in reach

    def polygon(plane: PlaneState) -> geo.Polygon:
        if polygons is not None and plane.id in polygons:
            return polygons[plane.id]
        return base_polygon(catalog, plane)

    rect = polygon(target)
    all_round = gun.turret or (gun.all_round_above and target.level > shooter.level)
    if all_round:
        area: geo.Polygon = rect
    else:
        area = geo.clip_wedge(rect, point, shooter.heading + gun.axis, gun.half_angle)
        if len(area) < 3:
            return FireCheck(ok=False, reason="arc")
    if gun.dead_angle and not all_round and target.level <= shooter.level:
        blind = dead_angle(catalog, shooter, shooter_type)
        centre_line = ((shooter.x, shooter.y), (target.x, target.y))
        if geo.overlaps(rect, blind) and geo.segment_hits_polygon(*centre_line, blind):
            return FireCheck(ok=False, reason="dead-angle")
    low, high = sorted((shooter.level, target.level))
    screens = [
        polygon(plane)
        for plane in others
        if plane.id not in (shooter.id, target.id)
        and plane.status == "flying"
        and low <= plane.level <= high
    ]
    check = aim(point, area, reach, screens, gap, ruler)
    same_level = target.level == shooter.level  # DB 11.d: a higher target ignores the zones
    if check.ok and rules.blind_spots and same_level and blind_spot(shooter, gun, point, check):
        return FireCheck(ok=False, reason="blind-spot")
    return check


def blind_spot_zones(plane: PlaneState, gun: Gun) -> list[geo.Polygon]:
    """DB 11.d: the gun's black zones at the ends of the tailplane, on the table."""
    return [
        tuple(
            geo.to_world(plane.x, plane.y, plane.heading, corner)
            for corner in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
        )
        for x0, y0, x1, y1 in gun.blind_spots
    ]


def blind_spot(shooter: PlaneState, gun: Gun, point: geo.Point, check: FireCheck) -> bool:
    """DB 11.d: the ruler, laid from the gun to where it measures the target, crosses a
    black zone while its first half reaches the target's base (a short-range shot). At a
    higher target the zones are ignored (the caller asks only at the same altitude)."""
    if not check.short:
        return False
    return any(
        geo.segment_hits_polygon(point, check.aim, zone) for zone in blind_spot_zones(shooter, gun)
    )


def aim(
    point: geo.Point,
    area: geo.Polygon,
    reach: float,
    screens: list[geo.Polygon],
    gap: int,
    ruler: float,
) -> FireCheck:
    """Authored 4.3 step 6-7: the nearest point of the target area in reach with a clear
    line, and whether it is short range (same level, first half of the ruler)."""
    in_reach = False
    for spot in geo.aim_points(point, area):
        length = geo.distance(point, spot)
        if length > reach + geo.EPS:
            break
        in_reach = True
        if not any(geo.segment_hits_polygon(point, spot, screen) for screen in screens):
            short = gap == 0 and length <= ruler / 2 + geo.EPS
            return FireCheck(ok=True, short=short, distance=length, aim=spot)
    return FireCheck(ok=False, reason="blocked" if in_reach else "range")


def ground_polygon(catalog: Catalog, x: float, y: float) -> geo.Polygon:
    """A ground element's card: the small base's size, laid square to the table (authored)."""
    width, length = catalog.rules.units.small_base
    return geo.rectangle(x, y, 90.0, width, length)


def check_at_ground(
    catalog: Catalog,
    shooter: PlaneState,
    gun: Gun,
    x: float,
    y: float,
    others: Iterable[PlaneState],
    last_kind: str | None = None,
    level: int = 0,
) -> FireCheck:
    """A plane's gun against a ground element, which counts as an aircraft at level 0
    (seed A.IV.h), or against a balloon's card at the balloon's ``level`` (seed A.IV.i)."""
    crew = _crew_reason(shooter, gun, last_kind)
    if crew:
        return FireCheck(ok=False, reason=crew)
    if gun.not_lower and level < shooter.level:
        return FireCheck(ok=False, reason="lower-target")  # DB 11.c: the dorsal turret
    gap = abs(shooter.level - level)
    if gap >= 2:
        return FireCheck(ok=False, reason="altitude")
    ruler = catalog.rules.units.ruler
    reach = ruler if gap == 0 else ruler / 2
    point = geo.to_world(shooter.x, shooter.y, shooter.heading, gun.point)
    if geo.distance(point, (x, y)) > reach + 1.0:
        return FireCheck(ok=False, reason="range")
    card = ground_polygon(catalog, x, y)
    area = (
        card
        if gun.turret
        else geo.clip_wedge(card, point, shooter.heading + gun.axis, gun.half_angle)
    )
    if len(area) < 3:
        return FireCheck(ok=False, reason="arc")
    screens = [
        base_polygon(catalog, plane)
        for plane in others
        if plane.id != shooter.id
        and plane.status == "flying"
        and min(level, shooter.level) <= plane.level <= max(level, shooter.level)
    ]
    return aim(point, area, reach, screens, gap, ruler)


def check_from_ground(
    catalog: Catalog, x: float, y: float, target: PlaneState, others: Iterable[PlaneState]
) -> FireCheck:
    """Ground fire at a plane: all round, from level 0 (seed A.IV.h)."""
    gap = target.level
    if target.status != "flying" or gap >= 2:
        return FireCheck(ok=False, reason="altitude")
    ruler = catalog.rules.units.ruler
    reach = ruler if gap == 0 else ruler / 2
    width, length = catalog.base_size(catalog.planes[target.type])
    if geo.distance((x, y), (target.x, target.y)) > reach + math.hypot(width, length) / 2:
        return FireCheck(ok=False, reason="range")
    screens = [
        base_polygon(catalog, plane)
        for plane in others
        if plane.id != target.id and plane.status == "flying" and plane.level <= target.level
    ]
    return aim((x, y), base_polygon(catalog, target), reach, screens, gap, ruler)

"""Terrain relief (seed F.V; the generator lays it under the switch ``MissionRules.relief``).

A hill or a ridge raises the floor over its area: its marker gives the floor's level (one
level for about 300 m). Altitude is still counted from the plain's floor 0, so a plane keeps
its pegs when it flies over the relief; it only has to be *above* the local floor. The seed
reads "above level 1" as "two pegs and one climb counter" (example a) and "above level 2"
as "three pegs and one counter" (example b). The first peg being level 0, that is the
relief's level with a climb counter, or any higher level: a plane at exactly the floor's
level without a counter has struck the rock face. The plain keeps the base rule (level 0
without a counter flies; only a dive below 0 hits the ground).

When (authored): at the end of each maneuver, once every plane has moved and its altitude
changed, a flying plane whose base overlaps a relief it is not above crashes; and at the
start of each turn, for a plane put on the table since. A plane the rules set down over
relief (out of the sun, back at the edge, a reinforcement) comes in a level above its floor
at least: it was put there, it did not fly into the hill. A
program that flies into the rock is legal, as one that dives into the ground is: it is only
fatal. A plane in the clouds (over the game ceiling) or on the ground is not checked.

Where (authored, ``lay``): relief is a feature of the front, so it stands between the two
deployment lines, a ruler and a half from each table edge the planes start from (a ruler
clear of their first positions), and half a ruler from every objective and ground element
(seed E.I.b's spacing of mission elements). A mission draws one of the seed's two examples
from its own stream: a hill (a plateau at floor 1), or a valley between a northern ridge at
floor 1 and a southern ridge at floor 2, each ridge running from its table edge. Each piece
tries a few drawn spots and is left out when none is clear.
"""

from __future__ import annotations

from collections.abc import Callable

import engine.rulesets.wings.geometry as geo
from engine.rng import Rng
from engine.rulesets.wings.catalog import Catalog
from engine.rulesets.wings.fire import base_polygon
from engine.rulesets.wings.state import MissionState, PlaneState, ReliefZone
from engine.rulesets.wings.work import Turn

LIFTED = "came-in-above-relief"  # the public event of a plane set down above the rock
LAYOUTS = ("hill", "valley")  # seed F.V's examples a and b
TRIES = 12  # drawn spots a piece of relief tries before it is left out (authored)
BAND = 1.5  # rulers from the left and right edges: the deployment line and a ruler (authored)
CLEARANCE = 0.5  # rulers from any objective or ground element (seed E.I.b)
HILL_WIDTH = (0.4, 0.8)  # rulers across, along x (authored)
HILL_HEIGHT = (0.8, 1.6)  # rulers along y (authored)
RIDGE_WIDTH = (0.6, 1.4)  # rulers along x, cut to the band (authored)
RIDGE_DEPTH = (0.6, 1.2)  # rulers in from its table edge (authored)


def above(level: int, counters: int, floor: int) -> bool:
    """Seed F.V: above a relief's floor is its level with a climb counter, or higher."""
    return level > floor or (level == floor and counters > 0)


def floor_under(zones: tuple[ReliefZone, ...], base: geo.Polygon) -> ReliefZone | None:
    """The highest relief the base overlaps (the first laid on a tie), or None; touching
    its edge is not overlapping it (as for two bases, authored 4.2)."""
    best: ReliefZone | None = None
    for zone in zones:
        if (best is None or zone.floor > best.floor) and _overlap(base, zone.corners):
            best = zone
    return best


def _overlap(first: geo.Polygon, second: geo.Polygon) -> bool:
    # The separating-axis test over every edge of both: a relief's four corners need not
    # make a parallelogram, as a base's do (``geo.overlaps`` takes two axes for four).
    for poly in (first, second):
        for (x1, y1), (x2, y2) in zip(poly, (*poly[1:], poly[0]), strict=True):
            axis = (y1 - y2, x2 - x1)
            one = [p[0] * axis[0] + p[1] * axis[1] for p in first]
            two = [p[0] * axis[0] + p[1] * axis[1] for p in second]
            if max(one) <= min(two) + geo.EPS or max(two) <= min(one) + geo.EPS:
                return False
    return True


def crash_low(work: Turn) -> None:
    """Every flying plane not above the relief under its base crashes into the rock face:
    destroyed, its pilot's fate drawn as for any crash (seed B.VIII)."""
    zones = work.mission.relief
    if not zones:
        return
    for plane in work.flying():
        zone = floor_under(zones, base_polygon(work.catalog, plane))
        if zone is None or above(plane.level, plane.counters, zone.floor):
            continue
        work.event(
            "crashed-into-relief", plane=plane.id, relief=zone.id, floor=zone.floor,
            level=plane.level, counters=plane.counters,
        )  # fmt: skip
        work.shoot_down(plane.id, "crashed", None)


def level_above(work: Turn, plane: PlaneState) -> int:
    """The lowest level that flies above every relief under ``plane``'s base without a
    climb counter (its floor + 1); 0 where there is none. A plane put on the table (out of
    the sun) comes in at least that high: its entry is no maneuver into the hill."""
    zone = floor_under(work.mission.relief, base_polygon(work.catalog, plane))
    return 0 if zone is None else zone.floor + 1


def put_above(
    catalog: Catalog, mission: MissionState, plane: PlaneState
) -> tuple[PlaneState, ReliefZone | None]:
    """A plane put back on the table (come back at the edge, a reinforcement) where it would
    stand inside the rock comes in at the lowest level above it without a counter (its floor
    + 1, as out of the sun), its counters dropped with the level it left; the relief it was
    lifted over, or None when it already flew above (or over the plain). A player brings his
    plane back flying: the crash is for maneuvers, not for where the rules set a plane down."""
    zone = struck(catalog, mission, plane)
    if zone is None:
        return plane, None
    return plane.model_copy(update={"level": zone.floor + 1, "counters": 0}), zone


def struck(catalog: Catalog, mission: MissionState, plane: PlaneState) -> ReliefZone | None:
    """The relief ``plane`` would strike where it stands now, if any (for a reader)."""
    zone = floor_under(mission.relief, base_polygon(catalog, plane))
    if zone is None or above(plane.level, plane.counters, zone.floor):
        return None
    return zone


# --- laying it out (the mission generator) ---------------------------------------------------


def clearance(point: geo.Point, corners: tuple[tuple[float, float], ...]) -> float:
    """How far ``point`` lies from the convex polygon (0 inside it)."""
    edges = list(zip(corners, (*corners[1:], corners[0]), strict=True))
    turns = [
        (b[0] - a[0]) * (point[1] - a[1]) - (b[1] - a[1]) * (point[0] - a[0]) for a, b in edges
    ]
    if all(turn >= -geo.EPS for turn in turns) or all(turn <= geo.EPS for turn in turns):
        return 0.0  # inside, whichever way round the corners go
    return min(geo.distance(point, geo.nearest_on_segment(point, a, b)) for a, b in edges)


Corners = tuple[tuple[float, float], ...]


def _box(x0: float, y0: float, x1: float, y1: float) -> Corners:
    x0, y0, x1, y1 = (round(v, 2) for v in (x0, y0, x1, y1))
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def lay(catalog: Catalog, mission: MissionState, rng: Rng) -> tuple[ReliefZone, ...]:
    """The mission's relief: a hill or a valley, drawn from its own stream, clear of every
    objective, ground element and starting plane (see the module's words)."""
    width, height = mission.table
    ruler = catalog.rules.units.ruler
    left, right = ruler * BAND, width - ruler * BAND
    stream = rng.stream(f"relief:{mission.number}")
    elements = [
        *((site.x, site.y) for site in mission.objectives.values()),
        *((post.x, post.y) for post in mission.ground.values()),
    ]
    starts = [(plane.x, plane.y) for plane in mission.planes.values()]

    def clear(corners: Corners) -> bool:
        return all(
            clearance(spot, corners) >= ruler * CLEARANCE - geo.EPS for spot in elements
        ) and all(clearance(spot, corners) >= ruler - geo.EPS for spot in starts)

    def span(sizes: tuple[float, float]) -> tuple[float, float]:
        size = min(right - left, ruler * stream.uniform(*sizes))
        x0 = stream.uniform(left, right - size)
        return x0, x0 + size

    def hill() -> Corners:
        x0, x1 = span(HILL_WIDTH)
        tall = ruler * stream.uniform(*HILL_HEIGHT)
        y0 = stream.uniform(0.0, height - tall)
        return _box(x0, y0, x1, y0 + tall)

    def north() -> Corners:
        x0, x1 = span(RIDGE_WIDTH)
        return _box(x0, 0.0, x1, ruler * stream.uniform(*RIDGE_DEPTH))

    def south() -> Corners:
        x0, x1 = span(RIDGE_WIDTH)
        return _box(x0, height - ruler * stream.uniform(*RIDGE_DEPTH), x1, height)

    layout = stream.choice(LAYOUTS)
    plan: list[tuple[Callable[[], Corners], int]] = (
        [(hill, 1)] if layout == "hill" else [(north, 1), (south, 2)]
    )
    zones: list[ReliefZone] = []
    for make, floor in plan:
        tries = (make() for _ in range(TRIES))
        corners = next((c for c in tries if clear(c)), None)
        if corners is not None:
            zones.append(ReliefZone(id=f"R{len(zones) + 1}", floor=floor, corners=corners))
    return tuple(zones)

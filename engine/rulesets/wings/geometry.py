"""Plane geometry on the table: poses, card moves, base rectangles, overlap, arcs and range.

Table frame (authored 3.1): x right, y up, heading in degrees counter-clockwise from +x.
Everything is plain floats and tuples so a turn of eight planes stays in the millisecond
range; the models in ``state`` only store the numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.rulesets.wings.catalog import ManeuverCard, Move

Point = tuple[float, float]
Polygon = tuple[Point, ...]

EPS = 1e-9


def normalise(heading: float) -> float:
    """Into (-180, 180], so equal headings compare equal whatever the turns flown."""
    value = math.fmod(heading, 360.0)
    if value <= -180.0:
        value += 360.0
    elif value > 180.0:
        value -= 360.0
    return value


def apply_move(x: float, y: float, heading: float, move: Move) -> tuple[float, float, float]:
    """Authored 3.1 world update: the move is expressed in the plane's frame."""
    rad = math.radians(heading)
    cos, sin = math.cos(rad), math.sin(rad)
    return (
        x + move.dx * cos - move.dy * sin,
        y + move.dx * sin + move.dy * cos,
        normalise(heading + move.dtheta),
    )


def compose(first: Move, second: Move) -> Move:
    """The single move equal to flying ``first`` then ``second`` (rigid motions compose)."""
    rad = math.radians(first.dtheta)
    return Move(
        dx=first.dx + second.dx * math.cos(rad) - second.dy * math.sin(rad),
        dy=first.dy + second.dx * math.sin(rad) + second.dy * math.cos(rad),
        dtheta=first.dtheta + second.dtheta,
    )


def path_pose(card: ManeuverCard, length: float, t: float) -> tuple[float, float, float]:
    """Where the centre is (plane frame) at fraction t of a card, for the collision sweep.

    The physical placement jumps by a base length (the rear edge lands where the arrow
    ends), so the sampled path follows the arrow's shape and slides the missing base length in
    linearly: it starts at the centre and ends exactly on the card's end pose.
    """
    half = length / 2
    theta = card.theta
    if card.kind == "immelmann":
        # Authored 3.1: straight line to (a, 0), heading flips half-way through.
        return (card.a * t, 0.0, 0.0 if t < 0.5 else 180.0)
    if theta != 0:
        rad = math.radians(abs(theta))
        radius = card.a / math.sin(rad) if math.sin(rad) > EPS else 0.0
        sign = 1.0 if theta > 0 else -1.0

        def arc(u: float) -> Point:
            return (radius * math.sin(rad * u), sign * radius * (1 - math.cos(rad * u)))

        # The tables round (a, b): blend the small rounding gap in so the path ends on them.
        end = arc(1.0)
        point = arc(t)
        tip = (point[0] + t * (card.a - end[0]), point[1] + t * (card.b - end[1]))
        heading = theta * t
    elif card.b != 0:
        # Sideslip: cubic Hermite with both tangents straight ahead (authored 3.1).
        tip = (card.a * t, card.b * (3 * t * t - 2 * t * t * t))
        heading = 0.0
    else:
        tip = (card.a * t, 0.0)
        heading = 0.0
    rad_h = math.radians(heading)
    x = half + tip[0] + half * math.cos(rad_h) - (1 - t) * length
    y = tip[1] + half * math.sin(rad_h)
    return (x, y, heading)


def to_world(x: float, y: float, heading: float, local: Point) -> Point:
    rad = math.radians(heading)
    cos, sin = math.cos(rad), math.sin(rad)
    return (x + local[0] * cos - local[1] * sin, y + local[0] * sin + local[1] * cos)


def rectangle(x: float, y: float, heading: float, width: float, length: float) -> Polygon:
    """The base: length along the heading, width across it, counter-clockwise corners."""
    hl, hw = length / 2, width / 2
    rad = math.radians(heading)
    cos, sin = math.cos(rad), math.sin(rad)
    # The same sums as ``to_world`` on each corner, the angle taken once.
    return (
        (x + hl * cos - hw * sin, y + hl * sin + hw * cos),
        (x - hl * cos - hw * sin, y - hl * sin + hw * cos),
        (x - hl * cos + hw * sin, y - hl * sin - hw * cos),
        (x + hl * cos + hw * sin, y + hl * sin - hw * cos),
    )


def _axes(poly: Polygon) -> list[Point]:
    # Every four-cornered polygon handed in here is a base rectangle, whose opposite edges
    # are parallel: two axes suffice.
    count = 2 if len(poly) == 4 else len(poly)
    axes = []
    for i in range(count):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % len(poly)]
        axes.append((y1 - y2, x2 - x1))
    return axes


def _project(poly: Polygon, axis: Point) -> tuple[float, float]:
    values = [p[0] * axis[0] + p[1] * axis[1] for p in poly]
    return min(values), max(values)


def overlaps(first: Polygon, second: Polygon) -> bool:
    """Separating-axis test on convex polygons; touching edges do not count (authored 4.2)."""
    # Cheap rejection on the bounding boxes first: most pairs are far apart.
    if (
        max(p[0] for p in first) <= min(p[0] for p in second) + EPS
        or max(p[0] for p in second) <= min(p[0] for p in first) + EPS
        or max(p[1] for p in first) <= min(p[1] for p in second) + EPS
        or max(p[1] for p in second) <= min(p[1] for p in first) + EPS
    ):
        return False
    for axis in _axes(first) + _axes(second):
        lo1, hi1 = _project(first, axis)
        lo2, hi2 = _project(second, axis)
        if hi1 <= lo2 + EPS or hi2 <= lo1 + EPS:
            return False
    return True


def point_in_convex(point: Point, poly: Polygon) -> bool:
    """Inside or on the edge of a counter-clockwise convex polygon."""
    px, py = point
    for i in range(len(poly)):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % len(poly)]
        if (x2 - x1) * (py - y1) - (y2 - y1) * (px - x1) < -EPS:
            return False
    return True


def clip_half_plane(poly: Sequence[Point], origin: Point, normal: Point) -> Polygon:
    """Sutherland-Hodgman against the half-plane normal . (p - origin) >= 0."""

    def side(p: Point) -> float:
        return normal[0] * (p[0] - origin[0]) + normal[1] * (p[1] - origin[1])

    result: list[Point] = []
    count = len(poly)
    for i in range(count):
        current, following = poly[i], poly[(i + 1) % count]
        s_cur, s_next = side(current), side(following)
        if s_cur >= 0:
            result.append(current)
        if (s_cur >= 0) != (s_next >= 0):
            ratio = s_cur / (s_cur - s_next)
            result.append(
                (
                    current[0] + ratio * (following[0] - current[0]),
                    current[1] + ratio * (following[1] - current[1]),
                )
            )
    return tuple(result)


def area(poly: Sequence[Point]) -> float:
    """A simple polygon's area (shoelace), whichever way round its corners run."""
    total = 0.0
    for i in range(len(poly)):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % len(poly)]
        total += x1 * y2 - x2 * y1
    return abs(total) / 2


def overlap_area(first: Polygon, second: Polygon) -> float:
    """The area two convex polygons share: ``first`` clipped by each edge of ``second``
    (counter-clockwise, as ``rectangle`` makes them)."""
    clipped: Sequence[Point] = first
    for i in range(len(second)):
        x1, y1 = second[i]
        x2, y2 = second[(i + 1) % len(second)]
        clipped = clip_half_plane(clipped, (x1, y1), (y1 - y2, x2 - x1))
        if not clipped:
            return 0.0
    return area(clipped)


def clip_wedge(poly: Polygon, apex: Point, axis: float, half_angle: float) -> Polygon:
    """The part of a polygon inside a firing wedge narrower than 180 degrees (convex)."""
    left = math.radians(axis + half_angle)
    right = math.radians(axis - half_angle)
    # Inside means: to the right of the left ray and to the left of the right ray.
    clipped = clip_half_plane(poly, apex, (math.sin(left), -math.cos(left)))
    if not clipped:
        return ()
    return clip_half_plane(clipped, apex, (-math.sin(right), math.cos(right)))


def nearest_on_segment(point: Point, start: Point, end: Point) -> Point:
    dx, dy = end[0] - start[0], end[1] - start[1]
    span = dx * dx + dy * dy
    if span < EPS:
        return start
    t = ((point[0] - start[0]) * dx + (point[1] - start[1]) * dy) / span
    t = min(1.0, max(0.0, t))
    return (start[0] + t * dx, start[1] + t * dy)


def distance(first: Point, second: Point) -> float:
    return math.hypot(first[0] - second[0], first[1] - second[1])


def aim_points(point: Point, poly: Polygon) -> list[Point]:
    """Authored 4.3 step 6: the nearest point of the polygon, then its vertices and edge
    midpoints, nearest first."""
    if len(poly) >= 3 and point_in_convex(point, poly):
        return [point]
    nearest = min(
        (nearest_on_segment(point, poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))),
        key=lambda q: distance(point, q),
    )
    count = len(poly)
    midpoints = [
        ((poly[i][0] + poly[(i + 1) % count][0]) / 2, (poly[i][1] + poly[(i + 1) % count][1]) / 2)
        for i in range(count)
    ]
    others = list(poly) + midpoints
    others.sort(key=lambda q: (distance(point, q), q))
    return [nearest, *others]


def _orient(a: Point, b: Point, c: Point) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    d1, d2 = _orient(q1, q2, p1), _orient(q1, q2, p2)
    d3, d4 = _orient(p1, p2, q1), _orient(p1, p2, q2)
    return ((d1 > EPS and d2 < -EPS) or (d1 < -EPS and d2 > EPS)) and (
        (d3 > EPS and d4 < -EPS) or (d3 < -EPS and d4 > EPS)
    )


def segment_hits_polygon(start: Point, end: Point, poly: Polygon) -> bool:
    """True when the segment enters the polygon's interior (grazing a corner does not)."""
    middle = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
    if _strictly_inside(start, poly) or _strictly_inside(end, poly):
        return True
    if _strictly_inside(middle, poly):
        return True
    return any(
        segments_cross(start, end, poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))
    )


def _strictly_inside(point: Point, poly: Polygon) -> bool:
    px, py = point
    for i in range(len(poly)):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % len(poly)]
        if (x2 - x1) * (py - y1) - (y2 - y1) * (px - x1) <= EPS:
            return False
    return True

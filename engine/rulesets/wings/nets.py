"""The protective ring of nets and nets bought as a defence (seed A.IV.i.2, E.II.b).

The ring: instead of a barrage from one table edge to the other, the nets enclose the
outside of the zone the balloons make, a section between each balloon and the next round
its edge (the convex hull of the balloons). Each section hangs while both its balloons are
up, as high as the lower of them, and catches a plane exactly as a section of the barrage
does (``balloons.nets``): at the end of a maneuver a plane no higher with more than a third
of its base past it, from the side its centre started on, is destroyed; one touching it
with less takes 2 A cards, and is destroyed if it still touches a net after the next.

Authored readings (docs/wings-data.md, "Winching, the ring and nets bought"):

- A section is a segment, not a line: only the part of the base level with it (between the
  perpendiculars at its two balloons) counts; of the sections a plane meets, the one it is
  furthest past decides.
- As the barrage, a net catches the enemy's planes only: a side's own pilots fly the lanes
  they know through it (they deploy, enter and come back behind it).
- Two balloons make no zone: their ring is the one section between them (the barrage's
  middle section, without the two running to the edges). Balloons in a line are a chain,
  not closed. The generator lays three balloons of a ring mission as a triangle: the outer
  two where balloons stand (half a ruler behind the border), the middle one on the border
  itself (seed E.I.b: within R/2 of it), so the ring has a zone to enclose.
- Bought: with the scenario switch ``nets_bought`` the net is no longer free; the defender
  pays the seed's deployment price, 5 MP for two balloons (``balloons_with_net``), for each
  two balloons or part of two, before its planes, and only if what is left still pays for
  its first pilot's sortie (a side always flies). Otherwise no net hangs.
"""

from __future__ import annotations

from itertools import pairwise

import engine.rulesets.wings.balloons as balloons
import engine.rulesets.wings.geometry as geo
from engine.rulesets.wings.catalog import SideName
from engine.rulesets.wings.fire import base_polygon
from engine.rulesets.wings.state import MissionState, Objective
from engine.rulesets.wings.work import Turn

Section = tuple[Objective, Objective]


def _cross(o: geo.Point, a: geo.Point, b: geo.Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def ring_sections(objectives: dict[str, Objective]) -> list[Section]:
    """The ring's sections, round the balloons' convex hull (every balloon of the mission,
    down or not: a section falls with its balloon but stays in its place)."""
    balloons = sorted(
        (o for o in objectives.values() if o.kind == "balloon"), key=lambda b: (b.x, b.y, b.id)
    )
    if len(balloons) < 2:
        return []
    if len(balloons) == 2:
        return [(balloons[0], balloons[1])]
    hull: list[Objective] = []
    for chain in (balloons, balloons[::-1]):  # the monotone chain, lower then upper half
        start = len(hull)
        for b in chain:
            while (
                len(hull) >= start + 2
                and _cross((hull[-2].x, hull[-2].y), (hull[-1].x, hull[-1].y), (b.x, b.y)) <= 0
            ):
                hull.pop()
            hull.append(b)
        hull.pop()
    if len(hull) == 2:  # all in a line: a chain from one end to the other
        line = sorted(balloons, key=lambda b: (b.y, b.x, b.id))
        return list(pairwise(line))
    # Read round from the first balloon by id, towards its neighbour with the lower id.
    first = min(range(len(hull)), key=lambda i: hull[i].id)
    hull = hull[first:] + hull[:first]
    if hull[1].id > hull[-1].id:
        hull = [hull[0], *hull[:0:-1]]
    return [(hull[i], hull[(i + 1) % len(hull)]) for i in range(len(hull))]


def section_height(section: Section) -> tuple[int, int] | None:
    """As high as the lower balloon (level, counters); None when one of them is down."""
    if any(b.destroyed or b.hauled_down for b in section):
        return None
    return min((b.level, b.counters) for b in section)


def _past(base: geo.Polygon, section: Section, start: tuple[float, float]) -> float:
    """The share of ``base`` level with ``section`` and on its far side from ``start``."""
    a, b = (section[0].x, section[0].y), (section[1].x, section[1].y)
    along = (b[0] - a[0], b[1] - a[1])
    part = geo.clip_half_plane(base, a, along)
    part = geo.clip_half_plane(part, b, (-along[0], -along[1])) if part else part
    if not part:
        return 0.0
    normal = (-along[1], along[0])
    came_from = 1.0 if _cross(a, b, start) >= 0 else -1.0
    beyond = geo.clip_half_plane(part, a, (-came_from * normal[0], -came_from * normal[1]))
    return geo.area(beyond) / geo.area(base) if beyond else 0.0


def ring(work: Turn, starts: dict[str, tuple[float, float]]) -> None:
    """The ring's sections catch the planes at the end of a maneuver (see the module note)."""
    if not work.mission.nets:
        return
    sections = [
        (section, height)
        for section in ring_sections(work.objectives)
        if (height := section_height(section)) is not None
    ]
    if not sections:
        return
    owner = sections[0][0][0].side
    for plane in work.flying():
        start = starts.get(plane.id)
        share = 0.0
        if start is not None and plane.side != owner:  # its own side's lanes: as the barrage
            base = base_polygon(work.catalog, plane)
            height_now = (plane.level, plane.counters)
            share = max(
                (_past(base, s, start) for s, height in sections if height_now <= height),
                default=0.0,
            )
        balloons.caught_in_net(work, plane, share)


def ahead(
    mission: MissionState,
    side: SideName,
    base: geo.Polygon,
    start: geo.Point,
    height: tuple[int, int],
) -> float:
    """The share of ``base`` (a plane of ``side`` at ``height``, its maneuver begun at
    ``start``) past a net of ``mission`` that catches it, 0 if none: what ``ring`` and
    ``balloons.nets`` would find, read from the board alone (where the balloons stand, how
    high, whether up), so a stand-in player may look before he flies (``rookie``).
    """
    line = sorted(
        (b for b in mission.objectives.values() if b.kind == "balloon"), key=lambda b: (b.y, b.id)
    )
    if not mission.nets or len(line) < 2 or line[0].side == side:
        return 0.0
    if is_ring(mission):
        return max(
            (
                _past(base, s, start)
                for s in ring_sections(mission.objectives)
                if (top := section_height(s)) is not None and height <= top
            ),
            default=0.0,
        )
    centre_y = sum(p[1] for p in base) / len(base)
    after = next((i for i, b in enumerate(line) if b.y > centre_y), len(line))
    framing = line[max(after - 1, 0) : after + 1]
    if any(b.destroyed or b.hauled_down for b in framing):
        return 0.0
    if height > min((b.level, b.counters) for b in framing):
        return 0.0
    net_x = sum(b.x for b in line) / len(line)
    came_from = 1.0 if start[0] >= net_x else -1.0
    beyond = geo.clip_half_plane(base, (net_x, 0.0), (-came_from, 0.0))
    return geo.area(beyond) / geo.area(base) if beyond else 0.0


def is_ring(mission: MissionState) -> bool:
    return mission.nets and mission.net_shape == "ring"


def lay_ring(objectives: dict[str, Objective], border: float) -> dict[str, Objective]:
    """Three balloons or more of a ring mission: every other one (the second, the fourth...)
    moves onto the border, so the balloons make a zone for the ring to enclose."""
    ordered = sorted(objectives.values(), key=lambda b: (b.y, b.id))
    if len(ordered) < 3:
        return objectives
    moved = {
        # A deep objective (seed E.I.b, a mission in the enemy zone) keeps its place.
        b.id: b.model_copy(update={"x": border}) if index % 2 == 1 and not b.deep else b
        for index, b in enumerate(ordered)
    }
    return {oid: moved[oid] for oid in objectives}


def price(balloons: int, per_two: int) -> int:
    """Seed E.II.b: 5 MP for two balloons with their net, for each two or part of two."""
    return per_two * -(-balloons // 2)

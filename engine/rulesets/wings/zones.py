"""The table's zones (seed E.I.b) and the mission in the enemy zone with its deep objectives.

A mission in the conflict zone splits the table in quarters: each end a side's own, the
middle half no-man's land. A mission in the enemy zone (the active squadron's choice,
``"bombing@enemy"``) gives the defender most of the table: the aggressor keeps a strip half
a ruler deep at his end, no-man's land is one ruler wide, the rest is the enemy's. Its
objectives lie at least a ruler inside the enemy zone's edges and half a ruler apart; one
within a ruler of the far edge is in deep territory and doubles the aggressor's award.

The seed's two sentences meet at the far edge ("at least 1 R from the edges of the enemy
zone", "within 1 R of the far edge" is deep): authored reading, a deep objective stands
exactly one ruler from the far edge, the only line both allow; the others a ruler inside
the border with no-man's land. The first objective is deep, then every other one.

The ground defences are mission elements too, placed "following the placement rules above"
(seed E.II.c), which for this mission are the enemy zone's: a ruler clear of its edges, half
a ruler from one another. Where in it is the defender's free choice (E.II.b); authored, he
lines his posts a ruler inside the border, the first line the rule allows across the
raiders' way, and stands his flak battery half a ruler short of the first (deep) objective,
on the raiders' side, to cover it as the battery covers the objectives on the border.
"""

from __future__ import annotations

import engine.rulesets.wings.geometry as geo
from engine.rulesets.wings.catalog import Catalog, SideName
from engine.rulesets.wings.objectives import OBJECTIVE_CODES, OBJECTIVE_OF
from engine.rulesets.wings.state import MissionState, Objective

Spot = tuple[float, float]
GRID = 0.1  # bw: the step at which a defence is slid to the nearest clear spot

ENEMY_ZONE = "@enemy"  # a mission choice's suffix: flown in the enemy zone
# Mission types that may be flown in the enemy zone (a rescue lands by its pilot, E.I.a).
IN_ENEMY_ZONE = ("recon", "photography", "bombing", "balloon")
OWN_STRIP = 0.5  # rulers: the aggressor's own zone ("tiny", seed E.I.b; authored)
CONFLICT = 1.0  # rulers: no-man's land ("must exist"; authored)
MARGIN = 1.0  # rulers from the enemy zone's edges (seed E.I.b)
DEEP = 1.0  # rulers from the far edge: deep territory (seed E.I.b)
SPACING = 0.5  # rulers between objectives (seed E.I.b)


def split_zone(choice: str) -> tuple[str, bool]:
    """A mission choice without its zone suffix, and whether it is flown in the enemy zone."""
    if choice.endswith(ENEMY_ZONE):
        return choice.removesuffix(ENEMY_ZONE), True
    return choice, False


def borders(mission: MissionState) -> tuple[float, float]:
    """The x of the Entente zone's border and of the Central zone's border."""
    if mission.zones is not None:
        return mission.zones
    width = mission.table[0]
    return width / 4, width * 3 / 4


def in_own_zone(mission: MissionState, side: str, x: float) -> bool:
    left, right = borders(mission)
    return x < left if side == "entente" else x > right


def zone_at(mission: MissionState, side: str, x: float) -> str:
    """ "friendly", "enemy" or "no_mans_land" for ``side`` at ``x``."""
    left, right = borders(mission)
    if left <= x <= right:
        return "no_mans_land"
    own_left = side == "entente"
    return "friendly" if (x < left) == own_left else "enemy"


def enemy_zone_borders(catalog: Catalog, defender: SideName) -> tuple[float, float]:
    """The zones of a mission in ``defender``'s zone: the aggressor's strip, no-man's land."""
    width = catalog.rules.units.table[0]
    ruler = catalog.rules.units.ruler
    near, far = ruler * OWN_STRIP, ruler * (OWN_STRIP + CONFLICT)
    return (near, far) if defender == "central" else (width - far, width - near)


def border_of(zones: tuple[float, float], side: SideName) -> float:
    """The x of ``side``'s zone border."""
    return zones[1] if side == "central" else zones[0]


def place_deep(
    catalog: Catalog, mission_kind: str, defender: SideName, count: int
) -> dict[str, Objective]:
    """The objectives of a mission in the enemy zone, spread across the table a ruler clear
    of its sides, alternately deep (a ruler from the far edge) and a ruler inside the
    border."""
    kind = OBJECTIVE_OF[mission_kind]
    width, height = catalog.rules.units.table
    ruler = catalog.rules.units.ruler
    inward = 1 if defender == "central" else -1
    border = border_of(enemy_zone_borders(catalog, defender), defender)
    far_edge = width if defender == "central" else 0.0
    level = catalog.rules.objectives.balloon_level if kind == "balloon" else 0
    result = {}
    for index in range(count):
        oid = f"{defender[0]}-{OBJECTIVE_CODES[kind]}{index + 1}"
        deep = index % 2 == 0
        x = far_edge - inward * ruler * MARGIN if deep else border + inward * ruler * MARGIN
        span = height - 2 * ruler * MARGIN
        result[oid] = Objective(
            id=oid,
            kind=kind,
            side=defender,
            x=x,
            y=ruler * MARGIN + span * (2 * index + 1) / (2 * count),
            level=level,
            deep=is_deep(catalog, defender, x),
        )
    return result


def is_deep(catalog: Catalog, defender: SideName, x: float) -> bool:
    """Seed E.I.b: within a ruler of the far edge of the defender's zone."""
    width = catalog.rules.units.table[0]
    gap = width - x if defender == "central" else x
    return gap <= catalog.rules.units.ruler * DEEP + geo.EPS


def defence_area(catalog: Catalog, defender: SideName) -> tuple[Spot, Spot]:
    """Seed E.I.b with E.II.c: the corners of the part of the enemy zone where a mission
    element may stand, a ruler clear of the border, the far edge and the table's sides."""
    width, height = catalog.rules.units.table
    margin = catalog.rules.units.ruler * MARGIN
    border = border_of(enemy_zone_borders(catalog, defender), defender)
    if defender == "central":
        return (border + margin, margin), (width - margin, height - margin)
    return (margin, margin), (border - margin, height - margin)


def post_spot(catalog: Catalog, defender: SideName, index: int, count: int) -> Spot:
    """Where the defender would like his ``index``-th of ``count`` trenches and CAA posts:
    evenly across the table on the line a ruler inside the border."""
    (left, low), (right, high) = defence_area(catalog, defender)
    x = left if defender == "central" else right
    return x, low + (high - low) * (index + 1) / (count + 1)


def battery_spot(catalog: Catalog, defender: SideName, objectives: dict[str, Objective]) -> Spot:
    """Where the defender would like his flak battery: a ruler across the table from his
    first objective (the deep one), towards the table's middle line (or past it from the
    line itself): the sky over the objective then lies in the battery's bands at levels 1
    to 3 (seed A.IV.h: 1-2 R, R/2-1.5 R, R/2-R), and a level-1 bomber's release point a
    straight short of it in the first; right beside it, level 1 would be out of reach."""
    first = min(objectives.values(), key=lambda site: site.id)
    height = catalog.rules.units.table[1]
    across = 1 if first.y <= height / 2 + geo.EPS else -1
    return first.x, first.y + across * catalog.rules.units.ruler


def clear_spot(catalog: Catalog, defender: SideName, wish: Spot, taken: list[Spot]) -> Spot:
    """The spot of the defence area nearest ``wish`` that stands half a ruler from every
    element already laid (seed E.I.b), on a grid of a tenth of a bw (ties to the lower x,
    then y); ``wish`` pulled into the area if none is clear."""
    (left, low), (right, high) = defence_area(catalog, defender)
    gap = catalog.rules.units.ruler * SPACING - geo.EPS
    best: tuple[float, float, float] | None = None
    for i in range(int((right - left) / GRID + geo.EPS) + 1):
        x = left + i * GRID
        for j in range(int((high - low) / GRID + geo.EPS) + 1):
            y = low + j * GRID
            away = geo.distance((x, y), wish)
            if best is not None and away >= best[0]:
                continue
            if all(geo.distance((x, y), other) >= gap for other in taken):
                best = (away, x, y)
    if best is None:
        return min(max(wish[0], left), right), min(max(wish[1], low), high)
    return best[1], best[2]

"""The floor and the real ceiling (seed B.V, a scenario switch).

The table shows four pegs: the floor and three levels above it, the game ceiling. Planes
that want to climb higher move the floor up a row of the seed's table (0/3, 2/5, 4/7,
7/10, 10/13), so each can reach its own ceiling. Authored reading: the floor moves up at the
end of a turn when every flying plane stands at the next row's floor or higher and the
highest one is at the game ceiling (the highest player imposes it; the seed's "no more
than 2 levels apart" holds then); it comes back down to the highest row under the lowest
plane when one dives below it. The ground stays at level 0 whatever the floor. Cloud cover
is not played.
"""

from __future__ import annotations

from engine.rulesets.wings.work import Turn


def game_ceiling(work: Turn) -> int:
    """The highest level a plane may climb to this turn (its own ceiling aside)."""
    if not work.mission.rules.real_ceiling:
        return work.catalog.rules.altitude.cap
    rows = dict(work.catalog.rules.altitude.floors)
    return rows.get(work.floor, work.catalog.rules.altitude.cap)


def move_floor(work: Turn) -> None:
    if not work.mission.rules.real_ceiling:
        return
    levels = [plane.level for plane in work.flying()]
    if not levels:
        return
    rows = work.catalog.rules.altitude.floors
    lowest, highest = min(levels), max(levels)
    floor = work.floor
    index = next(i for i, (start, _top) in enumerate(rows) if start == floor)
    if lowest < floor:
        floor = max(start for start, _top in rows if start <= lowest)
    elif index + 1 < len(rows) and lowest >= rows[index + 1][0] and highest >= rows[index][1]:
        floor = rows[index + 1][0]
    if floor != work.floor:
        work.floor = floor
        work.event("floor-moved", floor=floor, ceiling=dict(rows)[floor])

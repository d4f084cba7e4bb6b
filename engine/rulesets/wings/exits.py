"""Leaving the play area, and coming back after an accidental exit (seed A.IV.c).

A plane whose centre leaves the table is out of the mission (authored 3.2: it counts as
fled). With the seed's "accidental exit" option (``MissionRules.come_back``) its player may
bring it back: the turn after it left he draws two A damage cards for it, and once that turn
is over it stands again on the edge where it left, facing into the table.

Authored choices (the seed leaves them open): the option is offered only on the turn just
after the exit; a plane that left over its own zone is home and is not offered it (coming
home is how a mission returns to base, seed E.I.a); "facing back into the area" is square
to the edge it crossed; the two cards are dealt at the turn's end, just before it comes back.
"""

from __future__ import annotations

import engine.rulesets.wings.relief as relief
import engine.rulesets.wings.zones as zones
from engine.rulesets.wings.state import MissionState, PlaneState
from engine.rulesets.wings.work import Turn

COME_BACK = "come-back"
STAY_OUT = "stay-out"
CARDS_ON_RETURN = 2  # seed A.IV.c: two type A cards, specials applying


def over_own_zone(mission: MissionState, side: str, x: float) -> bool:
    """Seed E.I.b: a quarter of the table at each end is a side's own, or the mission's zones."""
    return zones.in_own_zone(mission, side, x)


def crossing(
    start: tuple[float, float], end: tuple[float, float], table: tuple[float, float]
) -> tuple[float, float]:
    """Where the straight line from ``start`` (on the table) to ``end`` (off it) crosses the
    table's edge; a card's arc is short enough for its chord to stand for it."""
    (x0, y0), (x1, y1) = start, end
    width, height = table
    fraction = 1.0
    for begin, finish, low, high in ((x0, x1, 0.0, width), (y0, y1, 0.0, height)):
        if finish < low and begin != finish:
            fraction = min(fraction, (low - begin) / (finish - begin))
        elif finish > high and begin != finish:
            fraction = min(fraction, (high - begin) / (finish - begin))
    fraction = max(0.0, fraction)
    x = min(max(x0 + (x1 - x0) * fraction, 0.0), width)
    y = min(max(y0 + (y1 - y0) * fraction, 0.0), height)
    return (x, y)


def inward_heading(point: tuple[float, float], table: tuple[float, float]) -> float:
    """Square to the nearest edge, pointing into the table (heading 0 is +x, 90 is +y)."""
    x, y = point
    width, height = table
    gaps = ((x, 0.0), (width - x, 180.0), (y, 90.0), (height - y, 270.0))
    return min(gaps)[1]


def mark_left(work: Turn, pid: str, start: tuple[float, float]) -> None:
    """The plane's centre has just gone off the table, from ``start``: it is out, and the
    point where it crossed the edge is kept for a return."""
    plane = work.planes[pid]
    point = crossing(start, (plane.x, plane.y), work.mission.table)
    work.update(pid, status="left", left_turn=work.turn, exit_at=point)
    work.event("left-table", plane=pid)


def may_come_back(mission: MissionState, plane: PlaneState, turn: int) -> bool:
    """Whether the plane's player may bring it back during ``turn``."""
    return (
        mission.rules.come_back
        and plane.status == "left"
        and plane.left_turn == turn - 1
        and plane.exit_at is not None
        and not over_own_zone(mission, plane.side, plane.exit_at[0])
    )


def bring_back(work: Turn) -> None:
    """At the end of the turn after their exit, the planes whose players chose to come back
    take their two A cards and stand again where they left."""
    for pid in sorted(work.mission.returning):
        plane = work.planes[pid]
        if not may_come_back(work.mission, plane, work.turn) or plane.exit_at is None:
            continue
        x, y = plane.exit_at
        heading = inward_heading(plane.exit_at, work.mission.table)
        work.update(
            pid, status="flying", x=x, y=y, heading=heading, left_turn=None, exit_at=None
        )  # fmt: skip
        work.event("came-back", plane=pid, x=round(x, 3), y=round(y, 3), heading=heading)
        back, rock = relief.put_above(work.catalog, work.mission, work.planes[pid])
        if rock is not None:  # seed F.V: back on the edge over a ridge, never inside it
            work.update(pid, level=back.level, counters=back.counters)
            work.event(relief.LIFTED, plane=pid, relief=rock.id, floor=rock.floor, level=back.level)
        for _ in range(CARDS_ON_RETURN):
            _, card = work.draw("A", pid)
            work.apply_card(pid, card, None, None)

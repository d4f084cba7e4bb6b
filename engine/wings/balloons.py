"""Balloon cables (seed A.IV.i.1) and Le Prieur rockets (seed A.IV.j).

Cables: a plane cannot pass right under a balloon. At the end of a maneuver, a plane lower
than a balloon whose card it (almost) covers takes collision damage, 2 A cards; the balloon
takes nothing. Authored reading of "entirely or almost so": the plane's centre lies on the
balloon's card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.wings import geometry as geo
from engine.wings.fire import ground_polygon

if TYPE_CHECKING:
    from engine.wings.turn import Turn

CABLE_CARDS = ("A", 2)  # seed A.IV.i.1: collision damage


def cables(work: Turn) -> None:
    balloons = [
        b
        for b in sorted(work.objectives.values(), key=lambda o: o.id)
        if b.kind == "balloon" and not b.destroyed
    ]
    if not balloons:
        return
    for plane in work.flying():
        for balloon in balloons:
            if (plane.level, plane.counters) >= (balloon.level, balloon.counters):
                continue
            card = ground_polygon(work.catalog, balloon.x, balloon.y)
            if not geo.point_in_convex((plane.x, plane.y), card):
                continue
            work.event("balloon-cables", plane=plane.id, objective=balloon.id)
            letter, count = CABLE_CARDS
            for _ in range(count):
                if work.planes[plane.id].status != "flying":
                    break
                _, damage = work.draw(letter, plane.id)
                work.apply_card(plane.id, damage, None, None)

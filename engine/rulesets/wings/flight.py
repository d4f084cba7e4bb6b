"""The shapes a plane flies, as data a picture can draw from (issue 27).

The order panel shows a side's drafted programs as ghost paths before Lock, and the channel
draws the turn flown; both need each card's path, which lives in the catalog the presenter
never holds. The view carries it instead, for the plane types on the table: every card as
poses sampled along it in the plane's own frame (centre at the origin, heading 0, x ahead,
y to the left, degrees counter-clockwise), the last being where the card ends; the base,
the guns' arcs and the climb a level costs. All of it is printed on the cards and the
plane's sheet: public to everyone at the table.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import engine.rulesets.wings.geometry as geo
from engine.rulesets.wings.catalog import Catalog

SAMPLES = 8  # poses along a card after its start: enough for a bank's curve to read as one


def flight_data(catalog: Catalog, types: Iterable[str]) -> dict[str, Any]:
    """``{"ruler": R, "types": {type: {...}}}`` for the plane types given."""
    result: dict[str, Any] = {"ruler": catalog.rules.units.ruler, "types": {}}
    for key in sorted(set(types)):
        plane = catalog.planes.get(key)
        if plane is None:
            continue
        width, length = catalog.base_size(plane)
        deck = catalog.maneuver_decks[plane.deck]
        cards: dict[str, list[list[float]]] = {}
        kinds: dict[str, str] = {}
        for code, card in deck.by_code.items():
            poses = [geo.path_pose(card, length, step / SAMPLES) for step in range(SAMPLES + 1)]
            end = catalog.move(plane, code)
            poses[-1] = (end.dx, end.dy, end.dtheta)  # exactly where the engine puts it
            cards[code] = [[round(x, 3), round(y, 3), round(h, 1)] for x, y, h in poses]
            kinds[code] = card.kind
        result["types"][key] = {
            "base": [width, length],
            "climb": plane.climb,
            "guns": [
                {"axis": gun.axis, "half_angle": gun.half_angle, "turret": gun.turret}
                for gun in plane.guns
            ],
            "cards": cards,
            "kinds": kinds,
        }
    return result

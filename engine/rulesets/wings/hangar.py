"""Which plane a pilot takes from his squadron's hangar (seed F.I, K.7; authored).

The seed's aircraft are the squadron's (F.I buys them, K.7 lists them as its airframes),
while a pilot chooses his aircraft when he is created (D.I). A pilot flies his own type while
the hangar holds one for him; when it holds none (his were lost, or flown by other pilots
of that type), he takes a spare of another type rather than staying on the ground beside
idle planes: one seating his crew the same way (a single-seater for a fighter pilot, a
two-seater for a crew with an observer), the most plentiful type first, then by key. His
sheet keeps his own type, which he flies again once the squadron has one.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.rulesets.wings.catalog import Catalog
from engine.rulesets.wings.state import Pilot


def hangar_of(stock: Mapping[str, int]) -> dict[str, int]:
    """The planes in a squadron's stock, by type."""
    prefix = "plane:"
    return {key.removeprefix(prefix): n for key, n in stock.items() if key.startswith(prefix)}


def spare_for(catalog: Catalog, pilot: Pilot, planes: Mapping[str, int]) -> str | None:
    """The spare type ``pilot`` would take from ``planes`` (what the hangar still holds once
    the pilots of each type took theirs), or None."""
    seated = catalog.planes[pilot.plane].two_seater
    spares = [
        (count, key)
        for key, count in planes.items()
        if count > 0 and key in catalog.planes and catalog.planes[key].two_seater == seated
    ]
    if not spares:
        return None
    most = max(count for count, _ in spares)
    return min(key for count, key in spares if count == most)


def plane_for(catalog: Catalog, pilot: Pilot, planes: Mapping[str, int]) -> str | None:
    """His own type when the hangar holds one, else a spare (None: nothing he can fly)."""
    if planes.get(pilot.plane, 0) > 0:
        return pilot.plane
    return spare_for(catalog, pilot, planes)

"""Where a flight briefed on a balloon net comes in (seed A.IV.i.2-3; the height authored).

The seed gives no starting altitude (missions begin at the rules' ``start_level``, authored
as level 2), but it says the only way past a net is above the balloons, and that balloons
usually stand at altitude 3. A squadron sent against balloons behind a net knows it is
there: the net is on the briefing (it is one of the defences the creation table pays the
attacker for, E.II.b) and drawn on the board. So its planes come in over it, at the height
of the lowest balloon still framing a section plus one climb counter, the lowest height the
net does not catch; and so does each reinforcement it sends while a net still hangs. The
defender's own planes start as usual: they know the lanes through their own net.

Without this every attacker started a counter-level below the net it had been briefed on
and, unless its player thought to climb for three or four turns first, flew into it
(docs/wings-data.md, "Coming in over the net").
"""

from __future__ import annotations

from engine.rulesets.wings.catalog import Catalog, SideName
from engine.rulesets.wings.state import MissionState


def net_height(mission: MissionState) -> tuple[int, int] | None:
    """The lowest height (level, counters) at which any section of the net still hangs:
    the lowest balloon that is up, when two or more are (None without a net)."""
    if not mission.nets:
        return None
    up = [
        (b.level, b.counters)
        for b in mission.objectives.values()
        if b.kind == "balloon" and not b.destroyed and not b.hauled_down
    ]
    return min(up) if len(up) >= 2 else None


def entry_height(
    catalog: Catalog, mission: MissionState, side: SideName, plane_type: str
) -> tuple[int, int]:
    """The height a plane of ``side`` comes into ``mission`` at: one counter over the net
    when it is the net owner's enemy and a net hangs (never above what the plane may fly),
    else the rules' starting level."""
    start = (catalog.rules.altitude.start_level, 0)
    height = net_height(mission)
    owner = next((b.side for b in mission.objectives.values() if b.kind == "balloon"), None)
    if height is None or side == owner:
        return start
    climb = catalog.planes[plane_type].climb
    level, counters = height
    entry = (level, counters + 1) if counters + 1 < climb else (level + 1, 0)
    top = min(catalog.rules.altitude.cap, catalog.planes[plane_type].ceiling)
    if entry[0] > top:
        return start  # cannot clear it: no plane the rules allow has so slow a climb
    return max(entry, start)


def come_in_over(catalog: Catalog, mission: MissionState) -> MissionState:
    """The mission with the net owner's enemies set at their entry height, which it keeps
    (``net_entry``) for the board's line; unchanged without a net."""
    if net_height(mission) is None:
        return mission
    planes = dict(mission.planes)
    entries = set()
    for pid, plane in mission.planes.items():
        height = entry_height(catalog, mission, plane.side, plane.type)
        if height != (plane.level, plane.counters):
            planes[pid] = plane.model_copy(update={"level": height[0], "counters": height[1]})
            entries.add(height)
    if not entries:
        return mission
    return mission.model_copy(update={"planes": planes, "net_entry": min(entries)})

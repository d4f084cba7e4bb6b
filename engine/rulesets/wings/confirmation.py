"""Confirming dogfight victories (seed E.III.b): the roundel on the pilot's tally board.

A kill still goes to the plane that hit its victim last and earns its VP whatever happens
here (the seed: "confirmation only adds the roundel"). What this module decides is only
whether the kill is confirmed:

- over the killer's own zone, automatically;
- over the enemy's zone or no-man's land, only with a surviving witness. Authored reading:
  a witness is another crew of the killer's side still in the mission at its end (flying,
  back over its own zone, or landed there), or a ground element of his side (trench, AA post,
  flak battery) not destroyed. The killer himself never witnesses his own kill;
- a balloon destroyed or set on fire, automatically, for the pilot who set it on fire and
  the one whose fire destroyed it.

Where the kill fell is the wreck's crash zone when it came down by the crash procedure,
otherwise (an explosion, a pilot killed outright, the crash rule off) where the victim was
when it was destroyed, both seen from the killer's side. Balloons stay off the kill tally
(``Pilot.kills`` counts planes, as the Ace's five kills do): they appear among the mission's
victories, confirmed, and add no roundel to a plane count.
"""

from __future__ import annotations

from typing import Any

import engine.rulesets.wings.zones as zones
from engine.rulesets.wings.objectives import returned
from engine.rulesets.wings.state import MissionState, Pilot, PlaneState

Victory = dict[str, Any]  # one line of the debrief record's "victories" (JSON-safe)

_FLIPPED = {"friendly": "enemy", "enemy": "friendly", "no_mans_land": "no_mans_land"}


def kill_zone(mission: MissionState, killer: PlaneState, victim: PlaneState) -> str:
    """Where the victim fell, from the killer's point of view."""
    if victim.crash_zone is not None:
        # The crash zone is the victim's own point of view.
        seen = victim.crash_zone
        return _FLIPPED[seen] if victim.side != killer.side else seen
    return zones.zone_at(mission, killer.side, victim.x)


def witnessed(mission: MissionState, killer: PlaneState) -> bool:
    """A surviving witness of the killer's side at the mission's end (authored, see above)."""
    for plane in mission.planes.values():
        if plane.side != killer.side or plane.id == killer.id:
            continue
        if killer.pilot is not None and plane.pilot == killer.pilot:
            continue  # his own earlier plane (seed E.IV): he is no witness of himself
        if returned(mission, plane):
            return True
        if plane.status == "landed" and zones.in_own_zone(mission, plane.side, plane.x):
            return True
    return any(post.side == killer.side and not post.destroyed for post in mission.ground.values())


def victories(mission: MissionState, names: dict[str, str]) -> list[Victory]:
    """Every pilot's victory of the mission, in the mission's plane order then balloons by
    id, each with its zone and whether it is confirmed. ``names``: pilot id -> name."""
    found: list[Victory] = []
    planes = mission.planes
    for killer in planes.values():
        if killer.pilot is None:
            continue
        for victim_id in killer.kills:
            victim = planes[victim_id]
            zone = kill_zone(mission, killer, victim)
            confirmed = zone == "friendly" or witnessed(mission, killer)
            found.append(
                {
                    "pilot": killer.pilot,
                    "name": names.get(killer.pilot, killer.pilot),
                    "victim": victim.type,
                    "zone": zone,
                    "confirmed": confirmed,
                }
            )
    for balloon in sorted(mission.objectives.values(), key=lambda o: o.id):
        if balloon.kind != "balloon":
            continue
        credited = [balloon.fired_by] if balloon.fire > 0 else []
        if balloon.destroyed:
            credited.append(balloon.hit_by)
        seen: set[str] = set()
        for pid in credited:
            plane = planes.get(pid or "")
            if plane is None or plane.pilot is None or plane.pilot in seen:
                continue
            seen.add(plane.pilot)
            found.append(
                {
                    "pilot": plane.pilot,
                    "name": names.get(plane.pilot, plane.pilot),
                    "victim": "balloon",
                    "zone": zones.zone_at(mission, plane.side, balloon.x),
                    "confirmed": True,  # seed E.III.b: a balloon needs no witness
                }
            )
    return found


def tally(pilot: Pilot, found: list[Victory]) -> Pilot:
    """Add the pilot's confirmed plane kills of the mission to his roundels."""
    roundels = sum(
        1 for v in found if v["pilot"] == pilot.id and v["confirmed"] and v["victim"] != "balloon"
    )
    if not roundels:
        return pilot
    return pilot.model_copy(update={"confirmed": pilot.confirmed + roundels})

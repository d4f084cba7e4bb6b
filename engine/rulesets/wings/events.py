"""Who reads each kind of Wings event as it happens (``engine.sight``).

The engine marks an event its side's own (``secret_for``: a damage card drawn, a jam, the
first card a pursuer saw, a purchase); that instance is its side's, sealed until the
campaign ends, whatever its kind says. Every other event is read by everyone only if its
kind is listed public here: a kind added to the engine and not listed is kept sealed until
the campaign ends, never published by mistake.
"""

from __future__ import annotations

import engine.rulesets.wings.balloon_roles as balloon_roles
import engine.rulesets.wings.equipment as equipment
import engine.rulesets.wings.records as records
import engine.rulesets.wings.relief as relief
from engine.sight import kinds

# Kinds the engine tells everyone (a kind may also come as one side's secret: see above).
PUBLIC_KINDS = (
    # the table
    "turn-started", "moved", "card-revealed", "tailing", "collision-risk", "collision",
    "over-ceiling", "crashed-into-ground", "crashed-into-relief", relief.LIFTED,
    "floor-moved", "turbulence", "entered-clouds", "left-clouds", "left-table", "came-back",
    "deck-reshuffled", "mission-over", "special", "flames", "fire", "shot-cancelled", "crash",
    # planes down
    "shot-down", "exploded", "crashed", "forced-down", "stranded", "landed", "landed-home",
    "rescue-aboard", "took-off-rough",
    # people and powers
    "pilot-hit", "pilot-spared", "rammed", "behaviour-power", "killer", "sharpshooter",
    "special-seen", "expert-look", "pistol-shot", "pistol-card", "pistol-hit",
    # ground, balloons, bombs, rockets
    "aa-fire", "infantry-fire", "fire-at-ground", "fire-at-balloon", "fire-at-aa",
    "ground-destroyed", "flak-burst", "balloon-fire", "balloon-destroyed", "balloon-blast",
    "balloon-cables", "balloon-collision", "balloon-winched", "balloon-hauled-down",
    "winch-ordered", "net-contact", "net-crash", "artillery-fired", "alert-raised",
    "bomb-released", "bomb-hit", "bomb-missed", "bomb-blew-up", "rockets-fired",
    "rockets-fired-ground", "rockets-silenced", "photographed", "reconnoitred",
    # the campaign
    "mission-briefed", "major-targeted", "major-photographed", "major-not-photographed",
    "major-bombed", "major-destroyed", "major-missed", "period-bonus", "front-eastern", "sun-drawn",
    "sun-none", "sun-entered", "sun-entered-unopposed", "debrief", "repaired",
    "written-off", "campaign-over", "reinforcement", "reinforcement-short", "reserve-spent",
    # equipment seen in use (seed D.VIII)
    "incendiary", "extinguisher",
    *(f"parachute-{outcome}" for outcome in ("killed", *equipment.LANDINGS.values())),
    *(f"balloon-role-{role.replace('_', '-')}" for role in balloon_roles.ROLES),
    # the Dambuster raid (DB): nothing on its table is secret
    "run-started", "start-heading", "searchlights-on", "bomb-aimed", "aim-lapsed",
    "aim-off-water", "bomb-bounce", "bomb-exploded", "bomb-dropped", "crew-hit",
    "aa-eliminated", "complex-destroyed", "gibson-rejoins", "second-pass", "damage-card",
    "night-pick-asked", "night-pick", "raid-over",
)  # fmt: skip
# Kinds only ever one side's: listed for the reader; each instance says whose it is.
OWN_KINDS = (
    "jammed", "half-jammed", "skill-used", "first-card-shown", "flak-laid", "flak-moved",
    "pistol-silent", "rockets-held", "must-land", "equipment-bought", "purchased",
    "reserve-lost", "vest", records.PHASE_FLOWN,
)  # fmt: skip

SIGHTS = kinds(public=PUBLIC_KINDS, owned=OWN_KINDS)

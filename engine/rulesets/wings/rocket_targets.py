"""Le Prieur rockets against targets other than balloons (seed A.IV.j: "the balloon/target
takes 1 Type D damage card per rocket batch fired").

The attack's conditions are A.IV.j's, unchanged (``balloons``): two straights,
dives or stalls, no gun fire meanwhile, no special taken, a legal firing position after the
second maneuver, the target at the plane's level or one below, nothing in the rockets' path.

Authored target rule, after the second maneuver: an enemy balloon first, the nearest in a
legal position (the weapon was made for them, and the seed names them); with none, the
nearest enemy ground element still standing (trench, AA machine-gun post, flak battery) or
bombing target not destroyed (a target or a major objective), all on the ground at level 0,
so the plane must fly at level 0 or 1. Sites to photograph, reconnoitre or rescue take no
damage and are never aimed at.

A D card on the ground: its points count; an explosion destroys a trench or post outright
and another special puts a post's AA gun out of action, as A.IV.h's fire does; a bombing
target counts the points only, as it counts a bomb's.
"""

from __future__ import annotations

import engine.rulesets.wings.majors as majors
from engine.rulesets.wings.catalog import DamageCard, Gun
from engine.rulesets.wings.fire import check_at_ground
from engine.rulesets.wings.state import PlaneState
from engine.rulesets.wings.work import Turn

GROUND_LEVEL = 0  # seed A.IV.h: ground defences are immobile aircraft at level 0


def ground_target(work: Turn, plane: PlaneState, rail: Gun, flying: list[PlaneState]) -> str | None:
    """The nearest enemy ground element or bombing target the rockets may hit now."""
    if not 0 <= plane.level - GROUND_LEVEL <= 1:
        return None  # seed A.IV.j.2: at the target's level or one above
    spots: list[tuple[str, float, float]] = [
        (post.id, post.x, post.y)
        for post in work.ground.values()
        if not post.destroyed and post.side != plane.side
    ]
    spots += [
        (site.id, site.x, site.y)
        for site in work.objectives.values()
        if site.kind == "target" and not site.destroyed and site.side != plane.side
    ]
    best: tuple[float, str] | None = None
    for oid, x, y in sorted(spots):
        check = check_at_ground(work.catalog, plane, rail, x, y, flying, level=GROUND_LEVEL)
        if check.ok and (best is None or (check.distance, oid) < best):
            best = (check.distance, oid)
    return best[1] if best else None


def hit(work: Turn, pid: str, target: str, cards: list[DamageCard]) -> None:
    """The rockets' D cards (one a batch) on a ground element or a bombing target, told
    in one event."""
    points = 0
    silenced = destroyed = False
    if target in work.ground:
        post = work.ground[target]
        limit = (
            work.catalog.rules.objectives.dca_structure
            if post.kind == "dca"
            else work.catalog.rules.fire.ground_structure
        )
        for card in cards:
            points += card.value
            if card.special == "explosion" or post.damage + points >= limit:
                destroyed = True
                break
            if card.special not in ("none", "jam_red", "jam_green") and post.kind != "trench":
                silenced = True
        changes: dict[str, object] = {"damage": post.damage + points}
        if silenced:
            changes["silenced"] = True
        if destroyed:
            changes.update(destroyed=True, destroyed_by=pid)
        work.ground[target] = post.model_copy(update=changes)
    else:
        site = work.objectives[target]
        points = sum(card.value for card in cards)
        destroyed = site.damage + points >= majors.structure(work.catalog, site)
        work.objectives[target] = site.model_copy(
            update={"damage": site.damage + points, "destroyed": destroyed, "hit_by": pid}
        )
    work.event("rockets-fired-ground", plane=pid, post=target, batches=len(cards), damage=points)
    if destroyed:
        work.event("ground-destroyed", post=target, by=pid)
    elif silenced:
        work.event("rockets-silenced", post=target)

"""The strafing mission (seed E.I.a: "strafe one or more objectives: trench, AA gun, machine
gun..."). Its objectives are enemy ground posts: each is an infantry trench manned as any
other (it fires back, seed A.IV.h) and listed among the mission's objectives, linked to it
by ``Objective.post``. The post is achieved when the attacker's fire destroys it (authored:
the seed names the action, strafing, not the result; a post left standing is not strafed).
No two-seater is needed: the seed asks one only for recon, photography and bombing.
"""

from __future__ import annotations

from typing import Protocol

from engine.ruleset import Option
from engine.rulesets.wings.state import GroundElement, MissionState, Objective, other

KIND = "strafing"
# Short code of a post to strafe in objective ids ("c-G1"), as T for a target or B a balloon.
CODE = "G"
SELECT_ROOM = 25  # a Discord select holds 25 options


def fit_menu(options: list[Option]) -> list[Option]:
    """The briefing menu within a select's room: with every other mission open (a crew,
    a pilot to rescue, the four major objectives), strafing's two- and three-post options
    give way first, the highest count first; strafing a single post stays."""
    options = list(options)
    counts = [o for o in options if o.id.startswith(f"{KIND}-")]
    while len(options) > SELECT_ROOM and counts:
        options.remove(counts.pop())
    return options


class Work(Protocol):
    """The part of a turn under way this module reads and writes."""

    objectives: dict[str, Objective]
    ground: dict[str, GroundElement]


def man_posts(
    placed: dict[str, Objective], ground: dict[str, GroundElement]
) -> tuple[dict[str, Objective], dict[str, GroundElement]]:
    """Lays a trench on each post to strafe, numbered after the defender's own trenches
    (so those keep their ids and the order they act in), and links the objective to it."""
    ground = dict(ground)
    objectives = dict(placed)
    for oid in sorted(placed):
        site = placed[oid]
        if site.kind != "post":
            continue
        prefix = f"{site.side[0]}-I"
        number = 1 + sum(1 for g in ground.values() if g.kind == "trench" and g.side == site.side)
        trench = GroundElement(
            id=f"{prefix}{number}", kind="trench", side=site.side, x=site.x, y=site.y
        )
        ground[trench.id] = trench
        objectives[oid] = site.model_copy(update={"post": trench.id})
    return objectives, ground


def mirror(work: Work, post_id: str, shooter: str) -> None:
    """After a post is hit: its objective shows the same damage, and who hit it last, so the
    board, the objectives panel and the awards read it as they read a bombed target."""
    post = work.ground[post_id]
    for oid, site in work.objectives.items():
        if site.post == post_id:
            work.objectives[oid] = site.model_copy(
                update={
                    "damage": post.damage,
                    "destroyed": post.destroyed,
                    "hit_by": shooter,
                }
            )


def strafed(mission: MissionState, site: Objective) -> bool:
    """Achieved: the post's trench destroyed by a plane of the attacking side."""
    post = mission.ground.get(site.post or "")
    if post is None or not post.destroyed:
        return False
    plane = mission.planes.get(post.destroyed_by or "")
    return plane is not None and plane.side == other(site.side)

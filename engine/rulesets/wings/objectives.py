"""Mission objectives beyond the patrol (seed E.I.a): reconnaissance, photography, bombing
and balloon busting. Pure helpers: where objectives lie, where a bomb falls and what it
does, when a pass counts as a photograph or a reconnaissance, and the mission's awards.
``turn`` calls them during the phases; ``campaign`` scores with
``awards`` at the debrief.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

import engine.rulesets.wings.geometry as geo
import engine.rulesets.wings.strafing as strafing
from engine.rulesets.wings.catalog import Catalog, SideName
from engine.rulesets.wings.fire import base_polygon, ground_polygon
from engine.rulesets.wings.state import MissionState, Objective, ObjectiveKind, PlaneState, other

# The objective each mission type is flown against (seed E.I.a).
OBJECTIVE_OF: dict[str, ObjectiveKind] = {
    "recon": "recon",
    "photography": "photo",
    "bombing": "target",
    "balloon": "balloon",
    "rescue": "rescue",
    "strafing": "post",
}
# Short codes in objective ids ("c-B1"), read alike in every language the log is written in.
OBJECTIVE_CODES: dict[str, str] = {
    "recon": "R",
    "photo": "P",
    "target": "T",
    "balloon": "B",
    "rescue": "S",
    "post": strafing.CODE,
}
# Seed E.I.a: recon, photo (and bombing, but a fighter may carry one bomb, seed E.II.b)
# need a two-seater with its observer.
NEEDS_TWO_SEATER = ("recon", "photography", "rescue")
# Seed E.II.b prices extra objectives for these; a rescue is one pilot (authored).
COUNTED = ("recon", "photography", "bombing", "balloon", "strafing")


def mission_choice(kind: str, count: int) -> str:
    """The option id of a mission type flown against ``count`` objectives: the type alone
    for one, "photography-2" for two (seed E.II.b: the active side picks type and number)."""
    return kind if count <= 1 else f"{kind}-{count}"


def split_mission_choice(choice: str) -> tuple[str, int | None]:
    """``mission_choice`` read back: (mission type, number of objectives), the number None
    for the type alone (the generator's default)."""
    kind, _, count = choice.partition("-")
    if kind in COUNTED and count.isdigit() and int(count) >= 1:
        return kind, int(count)
    return choice, None


def place_objectives(
    catalog: Catalog, mission_kind: str, defender: SideName, count: int = 1
) -> dict[str, Objective]:
    """Seed E.I.b: a side's objectives lie within R/2 of the border of its own zone, at
    least R/2 apart. Authored: a quarter ruler inside the zone (a balloon half a ruler,
    behind the line), spread evenly across the table."""
    kind = OBJECTIVE_OF.get(mission_kind)
    if kind is None:
        return {}
    width, height = catalog.rules.units.table
    ruler = catalog.rules.units.ruler
    border = width * 3 / 4 if defender == "central" else width / 4
    inward = 1 if defender == "central" else -1
    depth = ruler * catalog.rules.objectives.depth[kind]
    level = catalog.rules.objectives.balloon_level if kind == "balloon" else 0
    result = {}
    for index in range(count):
        oid = f"{defender[0]}-{OBJECTIVE_CODES[kind]}{index + 1}"
        result[oid] = Objective(
            id=oid,
            kind=kind,
            side=defender,
            x=border + inward * depth,
            y=height * (2 * index + 1) / (2 * count),
            level=level,
        )
    return result


# --- bombs (seed A.IV.e, B.X) --------------------------------------------------------------


def bomb_markers(catalog: Catalog, level: int) -> int:
    """Seed A.IV.e: extra maneuvers the bomb falls after the first, by release level."""
    markers = 0
    for start, count in catalog.rules.objectives.bomb_markers:
        if level >= start:
            markers = count
    return markers


def bomb_fall(catalog: Catalog, plane: PlaneState, last_kind: str) -> tuple[float, float, float]:
    """Where the bomb card lands: moved from the bomber by a stall if its last card was a
    stall, else by a straight, once plus once per marker (seed A.IV.e). The fall is worked
    out at release (authored): a ground target does not move, so only the landing matters."""
    plane_type = catalog.planes[plane.type]
    deck = catalog.maneuver_decks[plane_type.deck]
    straight = next(card.code for card in deck.cards if card.is_straight)
    code = "ST" if last_kind == "stall" and deck.card("ST") is not None else straight
    move = catalog.move(plane_type, code)
    x, y, heading = plane.x, plane.y, plane.heading
    for _ in range(1 + bomb_markers(catalog, plane.level)):
        x, y, heading = geo.apply_move(x, y, heading, move)
    return x, y, heading


def bomb_damage(
    catalog: Catalog, pose: tuple[float, float, float], target: Objective, cluster: bool
) -> int:
    """Seed B.X: full damage when the bomb card covers the target's centre (its red dot),
    less when it only touches the target's card, nothing otherwise. The bomb card is a
    small base (authored)."""
    rules = catalog.rules.objectives
    centre, touch = rules.cluster if cluster else rules.bomb
    bomb = geo.rectangle(*pose, *catalog.rules.units.small_base)
    if geo.point_in_convex((target.x, target.y), bomb):
        return centre
    if geo.overlaps(bomb, ground_polygon(catalog, target.x, target.y)):
        return touch
    return 0


# --- photography and reconnaissance (seed A.IV.f, A.IV.g) ---------------------------------


def can_observe(catalog: Catalog, plane: PlaneState) -> bool:
    """A two-seater whose observer is neither wounded nor dead (seed A.IV.f)."""
    life = catalog.rules.pilot.life_points
    return (
        catalog.planes[plane.type].two_seater
        and plane.observer_lp is not None
        and plane.observer_lp >= life
    )


def photographs(catalog: Catalog, plane: PlaneState, last_kind: str, site: Objective) -> bool:
    """Seed A.IV.f: after a stall, at level 2 or lower, the base covers the site's centre."""
    return (
        last_kind == "stall"
        and plane.level <= catalog.rules.objectives.photo_max_level
        and can_observe(catalog, plane)
        and geo.point_in_convex((site.x, site.y), base_polygon(catalog, plane))
    )


def reconnoitres(catalog: Catalog, plane: PlaneState, site: Objective) -> bool:
    """Seed A.IV.g: within R/2 of the site at altitude 2, or within R lower down, measured
    as every range of the game is (authored 3.2): from the plane's centre to the nearest
    point of the site's card."""
    ruler = catalog.rules.units.ruler
    half_level, full_level = catalog.rules.objectives.recon_levels
    if plane.level <= full_level:
        reach = ruler
    elif plane.level == half_level:
        reach = ruler / 2
    else:
        return False
    near = to_card(catalog, (plane.x, plane.y), site) <= reach + geo.EPS
    return near and can_observe(catalog, plane)


def to_card(catalog: Catalog, point: geo.Point, site: Objective) -> float:
    """How far a point lies from a site's card: nought over it, else to its nearest edge."""
    card = ground_polygon(catalog, site.x, site.y)
    if geo.point_in_convex(point, card):
        return 0.0
    return min(
        geo.distance(point, geo.nearest_on_segment(point, start, end))
        for start, end in zip(card, (*card[1:], card[0]), strict=True)
    )


# --- awards (seed E.I.a, E.III.a) ---------------------------------------------------------


def returned(mission: MissionState, plane: PlaneState) -> bool:
    """Back to base (authored): still flying when the mission ends, or left the table over
    its own zone (a quarter of the table at its end)."""
    if plane.status == "flying":
        return True
    if plane.status != "left":
        return False
    left, right = mission.zones or (mission.table[0] / 4, mission.table[0] * 3 / 4)
    return plane.x < left if plane.side == "entente" else plane.x > right


def in_mission(plane: PlaneState) -> bool:
    """Still able to act: in the air, or on the ground awaiting take-off (seed B.I)."""
    return plane.status in ("flying", "landed")


def all_achieved(mission: MissionState) -> bool:
    """Seed E.I.a: the aggressor's mission succeeds when every objective is achieved."""
    return bool(mission.objectives) and all(
        _achieved(mission, objective) for objective in mission.objectives.values()
    )


def mission_result(mission: MissionState) -> SideName | Literal["draw"]:
    """Who won a mission with objectives, once it is over. Seed E.I.a and E.III.a: the
    aggressor wins by achieving his mission; the defender has two goals, protecting the
    objectives and holding the air (every aggressor shot down or off the table, and one of
    his own back at base, E.I.a's air superiority), and wins with both; with one only,
    neither side has met its goals and the mission is a draw (the aggressor has still
    failed: F.III.a passes the initiative, E.III.a's defender pilots score)."""
    defender = next(iter(mission.objectives.values())).side
    attacker = other(defender)
    if all_achieved(mission):
        return attacker
    planes = mission.planes.values()
    attackers_out = not any(in_mission(p) for p in planes if p.side == attacker)
    defender_home = any(returned(mission, p) for p in planes if p.side == defender)
    return defender if attackers_out and defender_home else "draw"


@dataclass
class Awards:
    success: bool
    team: Counter[str] = field(default_factory=Counter)  # side -> VP
    pilot: Counter[str] = field(default_factory=Counter)  # pilot id -> VP
    lines: list[tuple[str, str, str, int]] = field(default_factory=list)  # side, award, id, VP


def _achieved(mission: MissionState, objective: Objective) -> bool:
    if objective.kind == "recon":
        return objective.done_by is not None
    if objective.kind in ("photo", "rescue"):
        # Seed E.I.a: a photo mission needs the camera plane back at base, a rescue the
        # plane that took the pilot aboard.
        plane = mission.planes.get(objective.done_by or "")
        return plane is not None and returned(mission, plane)
    if objective.kind == "target":
        return objective.destroyed
    if objective.kind == "post":
        return strafing.strafed(mission, objective)
    return objective.destroyed or objective.fire > 0


def awards(catalog: Catalog, mission: MissionState) -> Awards:
    """Seed E.III.a objective awards. Success (seed E.I.a) means every objective achieved;
    an objective in deep enemy territory doubles the attacker's squadron award."""
    vp = catalog.rules.objectives.vp
    result = Awards(success=all_achieved(mission))
    attacker = other(next(iter(mission.objectives.values())).side) if mission.objectives else ""

    def give(side: str, award: str, objective: Objective, plane_id: str | None) -> None:
        team, pilot = vp[award]
        if side == attacker and objective.deep:
            team *= 2
        result.team[side] += team
        result.lines.append((side, award, objective.id, team))
        plane = mission.planes.get(plane_id or "")
        if objective.hauled_down:
            plane = None  # seed A.IV.i.3: winched down first, no victory for its shooter
        if pilot and plane is not None and plane.pilot is not None:
            result.pilot[plane.pilot] += pilot

    for objective in sorted(mission.objectives.values(), key=lambda o: o.id):
        defender = objective.side
        achieved = _achieved(mission, objective)
        if objective.kind in ("recon", "photo", "rescue"):
            if achieved:
                award = "rescued" if objective.kind == "rescue" else "recon_done"
                give(attacker, award, objective, objective.done_by)
            else:
                give(defender, "defended_intact", objective, None)
            continue
        prefix = objective.kind
        if objective.kind == "post" and objective.destroyed and not achieved:
            give(defender, "defended_damaged", objective, None)  # not by the attacker's fire
        elif objective.destroyed:
            give(attacker, f"{prefix}_destroyed", objective, objective.hit_by)
        elif objective.kind == "balloon" and objective.fire > 0:
            give(attacker, "balloon_burning", objective, objective.fired_by)
        elif objective.damage > 0:
            give(attacker, f"{prefix}_damaged", objective, objective.hit_by)
            give(defender, "defended_damaged", objective, None)
        else:
            give(defender, "defended_intact", objective, None)
    return result

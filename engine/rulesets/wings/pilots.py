"""The pilot's career (seed D): statuses, skills earned, life points and wounds, death and
capture, and the replacement of the dead.
"""

from __future__ import annotations

from engine.rulesets.wings.catalog import Catalog
from engine.rulesets.wings.state import Pilot, PilotState, PlaneState, Status

STATUS_ORDER: tuple[Status, ...] = ("rookie", "ace", "veteran", "ace_of_aces")


def skills_due(catalog: Catalog, pilot: Pilot) -> int:
    """Seed D.II: the behaviour's starting skills, one more on becoming an Ace, and one per
    full 20 VP after that."""
    start = catalog.behaviours[pilot.behaviour].start_skills
    if pilot.kills < catalog.rules.pilot.ace_kills:
        return start
    return start + 1 + (pilot.vp - pilot.vp_spent) // catalog.rules.pilot.vp_per_skill


def tokens(catalog: Catalog, pilot: Pilot) -> int:
    return catalog.rules.pilot.tokens[pilot.status]


def spendable_vp(pilot: Pilot) -> int:
    """Seed D.VIII: only VP above the last multiple of ten reached may buy equipment."""
    return (pilot.vp - pilot.vp_spent) % 10


def allowed_skills(catalog: Catalog, pilot: Pilot) -> tuple[list[str], list[tuple[str, str]]]:
    """Skills this pilot may take next, and the others with a reason key."""
    behaviour = catalog.behaviours[pilot.behaviour]
    legal: list[str] = []
    refused: list[tuple[str, str]] = []
    for key, skill in catalog.skills.items():
        if key in pilot.skills:
            refused.append((key, "owned"))
        elif skill.field in behaviour.barred_fields or key in behaviour.barred_skills:
            refused.append((key, "barred-by-behaviour"))
        elif not pilot.skills and skill.field not in behaviour.start_fields:
            refused.append((key, "not-a-starting-field"))
        elif skill.tier == 4 and any(
            other.field == skill.field and other.tier < 4 and other.key not in pilot.skills
            for other in catalog.skills.values()
        ):
            # Seed D.VII: an ultimate needs the other three skills of its field first.
            refused.append((key, "ultimate-needs-field"))
        else:
            legal.append(key)
    return legal, refused


def state_from_lp(catalog: Catalog, lp: int) -> PilotState:
    """Seed D.V: 6-10 active, 3-5 wounded, 0-2 seriously wounded, below 0 dead."""
    if lp < 0:
        return "dead"
    if lp <= 2:
        return "seriously_wounded"
    if lp <= catalog.rules.pilot.wounded_max_lp:
        return "wounded"
    return "active"


def after_mission(catalog: Catalog, pilot: Pilot, plane: PlaneState, vp: int) -> Pilot:
    """Fold a mission into the pilot's record: kills, VP (none for a Rookie, seed D.II),
    life points and state, capture where he came down (seed B.VIII)."""
    kills = pilot.kills + len(plane.kills)
    earned = vp if pilot.kills >= catalog.rules.pilot.ace_kills else 0
    state = state_from_lp(catalog, plane.pilot_lp)
    if plane.captured_by is not None:
        state = "captured"  # seed D.VI: a Knight spared him; a prisoner from now on
    elif state != "dead" and plane.crash_zone == "enemy":
        state = "captured"
    elif state != "dead" and plane.crash_zone == "no_mans_land":
        state = "missing"  # only a rescue mission brings him back (seed B.VIII)
    rest, flights, lp = 0, 0, max(plane.pilot_lp, 0)
    if state == "seriously_wounded":
        rest = 2  # seed D.IV: two missions on the ground, then Wounded
    elif state == "wounded" and pilot.wounded_flights > 0 and plane.pilot_lp >= pilot.lp:
        # Seed D.IV: one of the two missions flown at 5 LP is done, with no new wound.
        flights = pilot.wounded_flights - 1
        if flights == 0:
            state, lp = "active", catalog.rules.pilot.life_points
    elif state == "wounded":
        rest = 1  # seed D.IV: sits out the next mission, unless he chooses to fly hurt
    updated = pilot.model_copy(
        update={
            "kills": kills,
            "vp": pilot.vp + earned,
            "lp": lp,
            "state": state,
            "rest": rest,
            "wounded_flights": flights,
            "missions": pilot.missions + 1,
            "killed_by": plane.destroyed_by if state == "dead" else None,
        }
    )
    return with_skill_picks(catalog, updated)


def with_skill_picks(catalog: Catalog, pilot: Pilot) -> Pilot:
    owed = skills_due(catalog, pilot) - len(pilot.skills)
    return pilot.model_copy(update={"skill_picks": max(0, owed)})


def heal(catalog: Catalog, pilot: Pilot) -> Pilot:
    """Between missions: rest counts down; seriously wounded becomes wounded, wounded heals."""
    if pilot.state not in ("wounded", "seriously_wounded") or pilot.wounded_flights > 0:
        return pilot
    rest = pilot.rest - 1
    if rest > 0:
        return pilot.model_copy(update={"rest": rest})
    if pilot.state == "seriously_wounded":
        return pilot.model_copy(
            update={"state": "wounded", "rest": 1, "lp": catalog.rules.pilot.wounded_max_lp}
        )
    return pilot.model_copy(
        update={"state": "active", "rest": 0, "lp": catalog.rules.pilot.life_points}
    )


def killer_bonus(catalog: Catalog, victim: Pilot) -> int:
    """Seed D.III: +2 VP for killing a Veteran Ace, +5 for an Ace of Aces."""
    return catalog.rules.pilot.killer_bonus.get(victim.status, 0)


def replacement(catalog: Catalog, dead: Pilot, new_id: str) -> Pilot:
    """Seed D.III: a Veteran Ace is replaced by an Ace, an Ace of Aces by a Veteran Ace,
    anyone else by a Rookie. The replacement flies the dead pilot's plane type."""
    kills, vp = 0, 0
    if dead.status == "veteran":
        kills = catalog.rules.pilot.ace_kills
    elif dead.status == "ace_of_aces":
        kills, vp = catalog.rules.pilot.ace_kills, catalog.rules.pilot.veteran_vp
    pilot = Pilot(
        id=new_id,
        name=f"{dead.name} II",
        side=dead.side,
        behaviour=dead.behaviour,
        plane=dead.plane,
        kills=kills,
        confirmed=kills,  # seed E.III.b: the heir's tally is an Ace's, roundels and all
        vp=vp,
    )
    return with_skill_picks(catalog, pilot)


def can_fly(pilot: Pilot) -> bool:
    """Seed D.IV: active pilots fly, and Wounded ones who chose to fly hurt; a dead pilot
    never flies again."""
    return pilot.state == "active" or (pilot.state == "wounded" and pilot.wounded_flights > 0)


def fly_hurt(catalog: Catalog, pilot: Pilot) -> Pilot:
    """Seed D.IV: instead of resting, a Wounded pilot flies two missions at 5 LP."""
    return pilot.model_copy(
        update={"rest": 0, "wounded_flights": 2, "lp": catalog.rules.pilot.wounded_max_lp}
    )


def flying_skills(pilot: Pilot) -> tuple[str, ...]:
    """Seed D.IV-D.V: a Wounded pilot uses one skill only, except a Hothead (seed D.VI)."""
    if pilot.state == "wounded" and pilot.behaviour != "hothead":
        return pilot.skills[:1]
    return pilot.skills

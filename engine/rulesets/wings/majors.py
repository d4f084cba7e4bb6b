"""Major objectives (seed F.III.c), the airfield assault (F.III.d option) and the period
bonus (F.I, I.I).

Each squadron owns a railway station, a depot, a factory and an airfield, 10 structure
points each. The enemy destroys one in two missions: a photo-reconnaissance of it that
succeeds, then, still the active squadron, the bombing of it in the very next mission.
Bomb damage stays on the building from one bombing to the next (authored: the seed says
nothing of repairs), so a building spared once needs a new photograph and a new raid.
A destroyed station, factory or depot doubles what its owner pays to replenish the
resources it served; a destroyed airfield ends the campaign when the campaign plays the
airfield rule, and may only be photographed when its owner is weakened or far behind.

The campaign module calls in here at its seams: the mission choice
(``mission_options``), the mission's objective (``place``), the debrief
(``after_mission``), the prices (``price_factor``), the end (``airfield_lost``) and the
start (``period_bonus``).
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

import engine.rulesets.wings.hangar as hangar
from engine.rng import Rng
from engine.ruleset import Excluded, Option
from engine.rulesets.wings.catalog import Catalog, SideName
from engine.rulesets.wings.pilots import can_fly
from engine.rulesets.wings.state import (
    CampaignState,
    Event,
    MajorSite,
    MissionState,
    Objective,
    Squadron,
    other,
)

MAJORS = ("station", "depot", "factory", "airfield")
AIRFIELD = "airfield"
# The two missions against a major objective, as the mission choice names them:
# "photography:station", then "bombing:station".
PHOTO, BOMB = "photography", "bombing"
LABELS = {
    "station": "railway station",
    "depot": "depot",
    "factory": "factory",
    "airfield": "airfield",
}
DATA = Path(__file__).parent / "data" / "majors.toml"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Period(_Frozen):
    name: str
    start: str  # "YYYY-MM", first month of the period
    end: str  # last month
    side: SideName
    modifier: int


class MajorRules(_Frozen):
    structure: int
    penalty: int
    penalised: dict[str, tuple[str, ...]]
    depth: float
    spots: dict[str, float]
    periods: tuple[Period, ...]


@functools.cache
def rules() -> MajorRules:
    with DATA.open("rb") as handle:
        return MajorRules.model_validate(tomllib.load(handle))


def site(squadron: Squadron, major: str) -> MajorSite:
    """A squadron's major objective as it stands (intact when never touched)."""
    return squadron.majors.get(major) or MajorSite(kind=major, structure=rules().structure)


def choice(mission: str, major: str) -> str:
    return f"{mission}:{major}"


def split_choice(value: str) -> tuple[str, str] | None:
    """``choice`` read back: (mission type, major objective), or None for another mission."""
    mission, sep, major = value.partition(":")
    if sep and mission in (PHOTO, BOMB) and major in MAJORS:
        return mission, major
    return None


# --- the airfield assault (seed F.III.d option) ---------------------------------------------


def weakened(catalog: Catalog, state: CampaignState, side: SideName) -> bool:
    """Seed F.III.d: "not enough to field a complete squadron". Authored reading: fewer
    crews able to take off (a pilot fit to fly, a plane of his type or a spare as
    ``hangar`` gives it, a sortie of fuel and ammunition each) than the
    squadron has players, the squadron F.I built."""
    squadron = state.squadrons[side]
    planes = hangar.hangar_of(squadron.stock)
    fit = [p for p in sorted(state.pilots.values(), key=lambda p: p.id) if p.side == side]
    fit = [pilot for pilot in fit if can_fly(pilot)]
    seated: set[str] = set()
    for pilot in fit:  # every pilot of a type in stock has his before the spares go
        if planes.get(pilot.plane, 0) > 0:
            planes[pilot.plane] -= 1
            seated.add(pilot.id)
    for pilot in fit:
        spare = None if pilot.id in seated else hangar.spare_for(catalog, pilot, planes)
        if spare is not None:
            planes[spare] -= 1
            seated.add(pilot.id)
    crews = len(seated)
    sorties = min(squadron.stock.get("fuel", 0), squadron.stock.get("ammunition", 0))
    return min(crews, sorties) < squadron.players


def assault_allowed(catalog: Catalog, state: CampaignState, attacker: SideName) -> bool:
    """Seed F.III.d: the airfield's reconnaissance only when the enemy is weakened or the
    attacker's Total Campaign Score is more than twice the enemy's."""
    enemy = other(attacker)
    scores = state.squadrons
    return weakened(catalog, state, enemy) or scores[attacker].score > 2 * scores[enemy].score


def airfield_lost(state: CampaignState) -> SideName | None:
    """The side whose airfield was bombed to the ground, if any (the other side wins)."""
    for side in sorted(state.squadrons):
        if site(state.squadrons[side], AIRFIELD).destroyed:
            return side
    return None


# --- the active squadron's choice ------------------------------------------------------------


def mission_options(
    catalog: Catalog, state: CampaignState, can_photograph: bool
) -> tuple[list[Option], list[Excluded]]:
    """The missions against the enemy's major objectives the active squadron may fly, and
    those it may not with why. ``can_photograph``: it can launch a two-seater (seed E.I.a)."""
    active = state.active
    enemy = state.squadrons[other(active)]
    options: list[Option] = []
    excluded: list[Excluded] = []
    for major in MAJORS:
        if major == AIRFIELD and not state.airfield_assault:
            continue  # without the F.III.d option the airfield is no target
        target = site(enemy, major)
        photo, bomb = choice(PHOTO, major), choice(BOMB, major)
        photo_label = f"Photo-reconnaissance of the {LABELS[major]}"
        bomb_label = f"Bombing of the {LABELS[major]}"
        if target.destroyed:
            excluded.append(Excluded(id=photo, label=photo_label, reason="major-destroyed"))
            excluded.append(Excluded(id=bomb, label=bomb_label, reason="major-destroyed"))
            continue
        if major == AIRFIELD and not assault_allowed(catalog, state, active):
            excluded.append(Excluded(id=photo, label=photo_label, reason="enemy-not-weakened"))
        elif not can_photograph:
            excluded.append(Excluded(id=photo, label=photo_label, reason="needs-two-seater"))
        else:
            options.append(Option(id=photo, label=photo_label))
        # Seed F.III.c: the photograph succeeded in the mission just flown, by this side as
        # the active squadron (only the active side's success is recorded), and it is still
        # active now.
        if state.mission_number > 0 and target.photographed == state.mission_number:
            options.append(Option(id=bomb, label=bomb_label))
        else:
            excluded.append(Excluded(id=bomb, label=bomb_label, reason="needs-photo-recon"))
    return options, excluded


# --- the mission -----------------------------------------------------------------------------


def place(
    catalog: Catalog, state: CampaignState, mission: str, owner: SideName, major: str
) -> dict[str, Objective]:
    """The major objective as the mission's one objective, at its authored spot, carrying
    the damage earlier raids left on it (10 structure points in all, seed F.III.c)."""
    width, height = catalog.rules.units.table
    ruler = catalog.rules.units.ruler
    border = width * 3 / 4 if owner == "central" else width / 4
    inward = 1 if owner == "central" else -1
    kind = "photo" if mission == PHOTO else "target"
    code = "P" if mission == PHOTO else "T"
    oid = f"{owner[0]}-{code}1"
    standing = site(state.squadrons[owner], major)
    return {
        oid: Objective(
            id=oid,
            kind=kind,
            side=owner,
            x=border + inward * ruler * rules().depth,
            y=height * rules().spots[major],
            damage=standing.damage if kind == "target" else 0,
            major=major,
        )
    }


def structure(catalog: Catalog, target: Objective) -> int:
    """Structure points of a bombing target: 10 for a major objective (seed F.III.c)."""
    if target.major is None:
        return catalog.rules.objectives.target_structure
    return rules().structure


def after_mission(
    squadrons: dict[SideName, Squadron], mission: MissionState, success: bool
) -> tuple[dict[SideName, Squadron], list[Event]]:
    """Fold a mission against a major objective into its owner's record: a successful
    photo-reconnaissance opens the next mission's bombing; a bombing's damage stays, and
    spends the photograph whatever the outcome."""
    if mission.major is None or not mission.objectives:
        return squadrons, []
    objective = next(iter(mission.objectives.values()))
    owner = objective.side
    before = site(squadrons[owner], mission.major)
    data: dict[str, Any] = {"side": owner, "major": mission.major}
    if objective.kind == "photo":
        after = before.model_copy(update={"photographed": mission.number if success else None})
        kind = "major-photographed" if success else "major-not-photographed"
    else:
        after = before.model_copy(
            update={
                "damage": objective.damage,
                "destroyed": objective.destroyed,
                "photographed": None,
            }
        )
        data.update(damage=objective.damage, structure=before.structure)
        if objective.destroyed:
            kind = "major-destroyed"
        elif objective.damage > before.damage:
            kind = "major-bombed"
        else:
            kind = "major-missed"  # no bomb fell on it
    majors = {**squadrons[owner].majors, mission.major: after}
    squadrons = {**squadrons, owner: squadrons[owner].model_copy(update={"majors": majors})}
    return squadrons, [Event(kind=kind, turn=0, data=data)]


# --- the purchase penalty (seed F.III.c) -----------------------------------------------------


def price_factor(squadron: Squadron, kind: str) -> int:
    """How many times the normal price a squadron pays for a resource: doubled when the
    major objective serving it lies destroyed, unless the resource is new to the squadron
    (seed F.III.c: buying never-owned materiel is not penalised, only replenishing)."""
    if kind not in squadron.owned:
        return 1
    category = "plane" if kind.startswith("plane:") else kind
    for major, kinds in rules().penalised.items():
        if category in kinds and site(squadron, major).destroyed:
            return rules().penalty
    return 1


# --- the period bonus (seed F.I, I.I) --------------------------------------------------------


def period_of(date: str) -> Period | None:
    """The air-supremacy period of a "YYYY-MM" date (authored bounds, see majors.toml)."""
    for period in rules().periods:
        if period.start <= date <= period.end:
            return period
    return None


def period_bonus(seed: str, date: str) -> dict[str, Any] | None:
    """Seed F.I: one side starts with 1D10 (+/-2 by period, I.I) more Campaign Points. The
    die comes from its own stream, so the rest of the campaign draws as without it."""
    period = period_of(date)
    if period is None:
        return None
    roll = Rng(seed, 0, "campaign").stream("period-bonus").randint(1, 10)
    return {
        "period": period.name,
        "side": period.side,
        "roll": roll,
        "modifier": period.modifier,
        "dice": f"1D10{period.modifier:+d}" if period.modifier else "1D10",
        "points": max(0, roll + period.modifier),
    }

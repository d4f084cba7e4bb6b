"""Flying one land mission with the ZERO! strike engine (24.46-24.49, 23.0) and scoring it.

The Mission Targets row gives the attacker's aircraft and starting band; each side's
resource may add aircraft (the attacker's join the strike, the defender's fly as the
interceptors) or change the flak, the length or the pilots. The defender has fighters only
from a resource (authored 3.8.1), so without one the strike meets only the flak. A
single-number mission (a dogfight or an evacuation) is flown as that many turns of open
sky with no Over-Target phase: the strike engine's Target-Bound turns without a target.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.rng import Rng
from engine.rulesets.land.sheet import (
    AircraftOutcome,
    LandCampaign,
    LandEffect,
    LandResource,
    MissionLength,
    MissionTarget,
    VPLine,
    mission_length,
    mission_vp,
)
from engine.zero.cards import Deck
from engine.zero.catalog import AircraftType, Catalog, UnitSpec
from engine.zero.forces import SIDE_LETTER, expand, with_pilot
from engine.zero.loader import default_pilot_pool
from engine.zero.orders import DOCTRINE_PRESETS, Doctrine, FlightUnit, PilotFace, StrikeSetup
from engine.zero.pilots import draft_pilots
from engine.zero.report import StrikeReport
from engine.zero.strike import fly_strike
from engine.zero.types import AircraftClass, AircraftState, Band, BombMode, BombResult, Side

# The strike engine needs a Target Sheet even when nothing is bombed; a dogfight or an
# evacuation never reaches the Over-Target turns, so this sheet is never read.
OPEN_SKY_SHEET = "1A"
AIRFIELD_SHEET = "1A"  # Dispersal works only on an airfield (authored 3.8.1)
ACE = PilotFace(name="Ace pilot", skills=("A", "BU"))


@dataclass(frozen=True)
class Flown:
    report: StrikeReport
    length: MissionLength
    clouds_card: int | None
    clouds: bool
    dispersal_points: int
    lines: tuple[VPLine, ...]


def _listed(target: MissionTarget, catalog: Catalog) -> list[UnitSpec]:
    """24.46: listed bomb-capable fighters carry bombs on a mission with a target to bomb,
    unless the row says they strafe."""
    specs: list[UnitSpec] = []
    for spec in target.attackers:
        aircraft = catalog.aircraft[spec.aircraft]
        bombs = any(m in aircraft.undamaged.bomb for m in (BombMode.LEVEL, BombMode.DIVE))
        if (
            aircraft.cls is AircraftClass.FIGHTER
            and bombs
            and target.sheet is not None
            and not target.strafe
            and spec.ordnance == "default"
        ):
            spec = spec.model_copy(update={"ordnance": "bomb"})
        if target.strafe or target.sheet is None:
            spec = spec.model_copy(update={"ordnance": "none"})
        specs.append(spec)
    return specs


def _at_band(units: list[FlightUnit], band: Band | None) -> list[FlightUnit]:
    """24.48: the listed aircraft start at the row's band (``None``: where ``expand`` put them)."""
    if band is None:
        return units
    return [unit.model_copy(update={"band": band}) for unit in units]


def _pilots(
    units: list[FlightUnit], effect: LandEffect, catalog: Catalog, rng: Rng, side: Side
) -> tuple[list[FlightUnit], dict[str, str]]:
    """19.24 (and 19.3 for crews): one counter per Leader, formations' first aircraft too."""
    leaders: list[tuple[str, AircraftType]] = []
    seen: set[str] = set()
    for unit in units:
        first_of_formation = unit.role in ("formation", "recon") and unit.element not in seen
        if unit.role == "leader" or first_of_formation:
            leaders.append((unit.uid, catalog.aircraft[unit.aircraft]))
        seen.add(unit.element)
    faces: dict[str, PilotFace] = {}
    if leaders:
        draws = draft_pilots(
            leaders,
            default_pilot_pool(),
            rng.stream(f"pilots:{side.value}"),
            extra_draw_if_unskilled=effect.veteran_pilots,
        )
        for draw in draws:
            if draw.pilot is not None:
                faces[draw.uid] = draw.pilot
        if effect.ace_leader:
            fighter = next(
                (uid for uid, a in leaders if a.cls is AircraftClass.FIGHTER), leaders[0][0]
            )
            faces[fighter] = ACE
    return with_pilot(units, faces), {uid: face.name for uid, face in faces.items()}


def _dispersal(report: StrikeReport, catalog: Catalog) -> int:
    """Authored Dispersal: the first Direct or Vital on the airfield is read as a Hit."""
    sheet = catalog.targets[AIRFIELD_SHEET]
    for run in report.bomb_runs:
        for result in run.results:
            if result in (BombResult.DIRECT, BombResult.VITAL):
                return sheet.points.get(result, 0) - sheet.points.get(BombResult.HIT, 0)
    return 0


def fly_mission(
    catalog: Catalog,
    campaign: LandCampaign,
    target: MissionTarget,
    mission: int,
    resources: Mapping[Side, LandResource | None],
    doctrines: Mapping[Side, str],
    rng: Rng,
) -> tuple[Flown, dict[str, dict[str, str]]]:
    """Fly ``target`` with both sides' resources and doctrines; return it scored, and the
    pilots each side drew (uid -> name) for the log."""
    attacker = target.attacker
    defender = attacker.enemy
    effects: dict[Side, LandEffect] = {}
    added: dict[Side, tuple[UnitSpec, ...]] = {}
    for side in Side:
        resource = resources[side]
        effects[side] = resource.effect if resource is not None else LandEffect()
        # 24.46: an added fighter carries no bombs (``expand`` arms only fighter-bombers
        # and bombers by default); the defender's additions fly as interceptors.
        added[side] = resource.aircraft if resource is not None else ()
    doctrine = {side: DOCTRINE_PRESETS.get(doctrines[side], Doctrine()) for side in Side}
    # Who comes and who waits: on a mission with a target the defender intercepts, and the
    # strike engine gives the interceptor the initiative; in a dogfight nobody intercepts,
    # so a coin gives it (authored 3.2.1 leaves the first side to a coin).
    interceptor = defender
    if target.is_dogfight and rng.stream("initiative").random() < 0.5:
        interceptor = attacker
    raider = interceptor.enemy
    if target.sheet is None:
        # The listed fighters start at the row's band (24.48), not the doctrine's.
        doctrine[interceptor] = doctrine[interceptor].model_copy(update={"cap_band": target.band})
    caught = {side.enemy for side in Side if effects[side].surprise}
    if interceptor in caught:
        # Surprise: the waiting fighters are caught low.
        doctrine[interceptor] = doctrine[interceptor].model_copy(update={"cap_band": Band.VL})
    sheet_id = target.sheet or OPEN_SKY_SHEET
    naval = catalog.targets[sheet_id].naval
    listed = {attacker: _listed(target, catalog), defender: list(target.defenders)}
    r, i = SIDE_LETTER[raider], SIDE_LETTER[interceptor]

    def fielded(
        specs: Sequence[UnitSpec], side: Side, group: str, prefix: str, band: Band | None
    ) -> list[FlightUnit]:
        units = expand(specs, side, group, prefix, catalog, doctrine[side], naval)
        return _at_band(units, band)

    strike = fielded(
        listed[raider], raider, "strike", f"{r}S", Band.VL if raider in caught else target.band
    )
    strike += fielded(
        added[raider], raider, "strike", f"{r}R", Band.VL if raider in caught else None
    )
    cap = fielded(listed[interceptor], interceptor, "cap", f"{i}D", target.band)
    cap += fielded(added[interceptor], interceptor, "cap", f"{i}R", None)
    strike, strike_pilots = _pilots(strike, effects[raider], catalog, rng, raider)
    cap, cap_pilots = _pilots(cap, effects[interceptor], catalog, rng, interceptor)

    kinds = [catalog.aircraft[unit.aircraft] for unit in strike]
    length = mission_length(target.turns, kinds, target_bound_change=effects[defender].enemy_tb)
    clouds_card: int | None = None
    clouds = False
    if any(effects[side].clouds for side in Side) and target.sheet is not None:
        card = Deck(catalog.deck.cards, rng.stream("clouds")).draw("clouds")
        clouds_card, clouds = card.id, card.border == "blue"
    single = length.single is not None
    setup = StrikeSetup(
        id=f"M{mission}-{r}",
        turn=mission,
        kind="dogfight" if single else "land-mission",
        attacker=raider,
        origin="land",
        target=f"#{target.number}",
        sheet=sheet_id,
        carrier_fleet=False,
        order=mission,
        strike=tuple(strike),
        cap=tuple(cap),
        attacker_doctrine=doctrine[raider],
        defender_doctrine=doctrine[interceptor],
        target_bound=length.single if single and length.single is not None else length.target_bound,
        home_bound=0 if single else length.home_bound,
        area_flak_mod=effects[defender].area_flak,
        target_flak_mod=effects[defender].target_flak - (1 if clouds else 0),
        result_shift=1 if clouds else 0,
        hidden=single,  # no Over-Target turns: nothing to bomb
    )
    deck = Deck(catalog.deck.cards, rng.stream("mission"))
    report = fly_strike(setup, catalog, deck)
    if single:
        # ``hidden`` only kept the Over-Target turns out; the report is of a fight in the
        # open, not of a target that was not found.
        notes = tuple(n for n in report.notes if n not in ("hidden", "phase-skipped:home-bound"))
        report = report.model_copy(update={"hidden": False, "notes": notes})
    dispersal = 0
    if effects[defender].dispersal and target.sheet == AIRFIELD_SHEET:
        dispersal = min(report.target_points, _dispersal(report, catalog))
        report = report.model_copy(update={"target_points": report.target_points - dispersal})
    lines = score(catalog, campaign, target, report)
    flown = Flown(report, length, clouds_card, clouds, dispersal, lines)
    return flown, {raider.value: strike_pilots, interceptor.value: cap_pilots}


def score(
    catalog: Catalog, campaign: LandCampaign, target: MissionTarget, report: StrikeReport
) -> tuple[VPLine, ...]:
    """24.61 with the authored values of 3.5: aircraft lost or damaged, skilled pilots shot
    down, the target's damage level and the bombers that came home whole; an evacuation
    scores its row's VP when the aircraft survives (authored 3.4)."""
    outcomes: list[AircraftOutcome] = []
    home: list[str] = []
    for plane in report.aircraft:
        if plane.state is AircraftState.DESTROYED:
            outcomes.append(
                AircraftOutcome(
                    aircraft=plane.aircraft,
                    result="destroyed",
                    skilled_pilot=plane.pilot is not None,
                )
            )
        elif plane.state is AircraftState.DAMAGED:
            outcomes.append(AircraftOutcome(aircraft=plane.aircraft, result="damaged"))
        elif (
            target.sheet is not None
            and plane.side is report.attacker
            and plane.group == "strike"
            and not plane.disengaged
            and catalog.aircraft[plane.aircraft].cls is not AircraftClass.FIGHTER
        ):
            home.append(plane.aircraft)
    vp = mission_vp(
        report.attacker,
        target.sheet,
        report.target_points if target.sheet is not None else 0,
        outcomes,
        returned_undamaged=home,
        return_bonus=campaign.return_bonus,
        catalog=catalog,
    )
    lines = list(vp.lines)
    if target.is_evacuation:
        listed = {spec.aircraft for spec in target.attackers}
        alive = any(
            p.aircraft in listed
            and p.side is report.attacker
            and p.state is not AircraftState.DESTROYED
            for p in report.aircraft
        )
        if alive:
            lines.append(VPLine(side=report.attacker, vp=target.success_vp, reason="evacuation"))
    return tuple(lines)

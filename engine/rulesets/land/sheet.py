"""Land campaigns (24.0): the pure pieces the land ruleset (``engine.rulesets.land``) uses.

- the campaign sheet (``engine/zero/data/<key>.toml``, authored default of zero-authored-data.md
  section 3.8) as a validated ``LandCampaign``: periods, Missions and Mission Targets
  tables, both resource lists, the Air Group Performance table; read with the shared
  loader's helpers (``engine.zero.loader``) so errors read the same as every other file;
- the target draw: an Action card read as a Missions-table key and looked up for a period
  (24.44-24.46);
- the mission length from the Turns column and the slowest attacker (23.23-23.25);
- the mission VP totals of both sides (24.61), with the authored aircraft and target VP.

A malformed sheet raises ``engine.zero.catalog.DataError`` naming the file, the entry and the
field, like the rest of the data files.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from engine.sight import public_record
from engine.zero.catalog import ActionCard, AircraftType, Catalog, Provenance, UnitSpec
from engine.zero.loader import DATA_DIR, _fail, _path, _read, default_catalog
from engine.zero.report import Phase
from engine.zero.types import AircraftClass, Band, CardTitle, Side

OVER_TARGET_TURNS = 3  # 23.22
FIGHTER_SPEED = 6  # 23.24: fighters and fighter-bombers, whatever their card says

# Every row of a Missions table (24.44): IN MY SIGHTS split by burst cost, then the titles.
MISSION_KEYS: tuple[str, ...] = (
    "IMS-1B",
    "IMS-2B",
    "IMS-3B",
    *(title.value for title in CardTitle if title is not CardTitle.IMS),
)

# Authored VP extras of zero-authored-data.md section 3.5 (land log sheet, seed 24.61).
FIGHTER_BOMBER_DESTROYED_EXTRA = 2
FIGHTER_BOMBER_DAMAGED_EXTRA = 1
SKILLED_PILOT_VP = 2
RETURN_BONUS: dict[AircraftClass, int] = {
    AircraftClass.FIGHTER_BOMBER: 1,
    AircraftClass.MEDIUM: 2,
    AircraftClass.HEAVY: 3,
}

_BANDS = {band.name: band for band in Band}


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --- Campaign sheet -----------------------------------------------------------------------


class MissionTarget(_Frozen):
    """One row of the Mission Targets table (24.45-24.49)."""

    number: int
    target: str  # target type; the Target Sheet's name unless the sheet says otherwise
    location: str
    sheet: str | None = None  # Target Sheet id; None for a dogfight (24.47)
    attacker: Side
    attackers: tuple[UnitSpec, ...]
    defenders: tuple[UnitSpec, ...] = ()  # dogfight only: the other side's listed aircraft
    strafe: bool = False  # the listed fighters strafe rather than bomb
    band: Band  # starting altitude (24.48)
    turns: str  # "a/b" or "n" (23.23)
    map: tuple[int, int] | None = None  # circled number's place on the campaign map, 0-100
    replaced_by: int | None = None  # flown once only; a later draw flies this target instead
    success_vp: int = 0  # evacuation (authored 3.4): VP if the listed aircraft is not Destroyed
    provenance: Provenance = "authored-default"
    source: str = ""  # the seed rule a "seed" row comes from, for docs/data.md

    @property
    def is_dogfight(self) -> bool:
        return self.sheet is None and not self.success_vp

    @property
    def is_evacuation(self) -> bool:
        return self.sheet is None and self.success_vp > 0


class LandEffect(_Frozen):
    """What a land resource does besides adding aircraft (authored 3.8.1)."""

    veteran_pilots: bool = False  # an unskilled Leader draws again (19.24)
    ace_leader: bool = False  # a named A+BU pilot on the side's first Leader
    surprise: bool = False  # the enemy's fighters start at Very Low
    area_flak: int = 0  # on the side's own target (defending)
    target_flak: int = 0
    enemy_tb: int = 0  # extra Target-Bound turns for the enemy's strike
    clouds: bool = False  # 24.53 Clouds over Target
    dispersal: bool = False  # the first Direct or Vital on the side's airfield reads as a Hit


class LandResource(_Frozen):
    """One numbered line of a side's resource list (24.5); once per campaign (24.53)."""

    side: Side
    number: int
    name: str
    use: Literal["any", "attack", "defence"] = "any"
    periods: tuple[str, ...] = ()  # period keys it exists in; empty = every period
    aircraft: tuple[UnitSpec, ...] = ()
    effect: LandEffect = LandEffect()
    text: str
    provenance: Provenance = "authored-default"
    source: str = ""  # the seed rule a "seed" resource comes from, for docs/data.md

    def in_period(self, period_key: str) -> bool:
        return not self.periods or period_key in self.periods


class PerformanceRow(_Frozen):
    """A row of the Air Group Performance table (24.7), from ``min`` (Japanese - Allied VP)."""

    min: int
    japanese: str
    allied: str


class LandCampaign(_Frozen):
    """A land campaign sheet: its periods, Missions table and Mission Targets table (24.4)."""

    key: str
    name: str
    section: str  # the section of zero-authored-data.md the sheet's authored rows come from
    periods: tuple[str, ...]
    periods_source: str = ""  # the seed rule that names the periods, if one does
    period_keys: tuple[str, ...]  # short ids of ``periods``, used in scenario keys
    missions_per_period: int = 6  # 24.42, value authored 3.8.1
    return_bonus: bool = True  # the home-coming bomber VP of 24.61 (authored 3.5)
    performance: tuple[PerformanceRow, ...]
    resources: tuple[LandResource, ...]
    missions: dict[str, tuple[int, ...]]  # Missions-table key -> target number per period
    # Missions-table rows that are not plain authored defaults: key -> label and reason.
    missions_notes: dict[str, str] = {}
    targets: tuple[MissionTarget, ...]
    provenance: Provenance

    def period_name(self, period_key: str) -> str:
        return self.periods[self.period_keys.index(period_key)]

    def resources_of(self, side: Side, period_key: str) -> tuple[LandResource, ...]:
        """The side's list in a period, by number (a number changes with the period at most)."""
        found = [r for r in self.resources if r.side is side and r.in_period(period_key)]
        return tuple(sorted(found, key=lambda r: r.number))

    def numbers(self, side: Side) -> tuple[int, ...]:
        return tuple(sorted({r.number for r in self.resources if r.side is side}))

    def performance_for(self, difference: int, periods_played: int = 1) -> PerformanceRow:
        """24.7: the row for Japanese VP minus Allied VP; the bands are for one period of
        missions and scale with the number of periods played (authored 3.8.1)."""
        for row in self.performance:
            if difference >= row.min * max(1, periods_played):
                return row
        return self.performance[-1]

    def target(self, number: int) -> MissionTarget:
        for target in self.targets:
            if target.number == number:
                return target
        raise KeyError(number)

    def target_number(self, period: str, key: str) -> int:
        """24.44: the number in the row of ``key``, column of ``period``."""
        if period not in self.periods:
            raise KeyError(f"{self.name} has no period {period!r}")
        return self.missions[key][self.periods.index(period)]


def _target_raw(raw: object, file: str, entry: str, catalog: Catalog) -> object:
    """The file's friendlier notation converted: band by name, target type by sheet."""
    if not isinstance(raw, dict):
        _fail(file, entry, None, "Input should be a table")
    data = dict(raw)
    if "band" in data:
        band = data["band"]
        if not (isinstance(band, str) and band in _BANDS):
            _fail(file, entry, "band", f"unknown band {band!r} (one of VH, H, M, L, VL)")
        data["band"] = _BANDS[band]
    sheet = data.get("sheet")
    if "target" not in data and isinstance(sheet, str) and sheet in catalog.targets:
        data["target"] = catalog.targets[sheet].name
    return data


def _check_turns(spec: str, file: str, entry: str) -> None:
    parts = spec.split("/")
    if len(parts) not in (1, 2) or not all(part.strip().isdigit() for part in parts):
        _fail(file, entry, "turns", f"{spec!r} should be 'a/b' or a single number")


def _check_specs(
    specs: Sequence[UnitSpec], side: Side, catalog: Catalog, file: str, entry: str, field: str
) -> None:
    for index, spec in enumerate(specs):
        where = f"{field}[{index}]"
        aircraft = catalog.aircraft.get(spec.aircraft)
        if aircraft is None:
            _fail(file, entry, f"{where}.aircraft", f"unknown aircraft {spec.aircraft!r}")
        if aircraft.nation is not side:
            _fail(
                file, entry, f"{where}.aircraft", f"{spec.aircraft} does not fly for {side.value}"
            )
        if spec.count < 1:
            _fail(file, entry, f"{where}.count", "Input should be at least 1")
        if (spec.kind == "formation") != aircraft.cls.is_formation:
            wanted = "formation" if aircraft.cls.is_formation else "L or L/W"
            _fail(file, entry, f"{where}.kind", f"{spec.aircraft} flies as {wanted}")


def _check(campaign: LandCampaign, file: str, catalog: Catalog) -> None:
    """What one entry alone cannot show: table shape, references, aircraft sides."""
    numbers = [target.number for target in campaign.targets]
    for target in campaign.targets:
        entry = f"target #{target.number}"
        if target.provenance == "seed" and not target.source:
            _fail(file, entry, "source", "a seed row names the rule it comes from")
        if numbers.count(target.number) > 1:
            _fail(file, entry, "number", "duplicate target number")
        if target.sheet is not None and target.sheet not in catalog.targets:
            _fail(file, entry, "sheet", f"unknown Target Sheet {target.sheet!r}")
        if target.sheet is None and not target.defenders and not target.success_vp:
            _fail(file, entry, "defenders", "a dogfight (no sheet) lists both sides' aircraft")
        if target.map is not None and not all(0 <= v <= 100 for v in target.map):
            _fail(file, entry, "map", "x and y should be between 0 and 100")
        if target.replaced_by is not None and target.replaced_by not in numbers:
            _fail(file, entry, "replaced_by", f"no target #{target.replaced_by}")
        _check_turns(target.turns, file, entry)
        _check_specs(target.attackers, target.attacker, catalog, file, entry, "attackers")
        _check_specs(target.defenders, target.attacker.enemy, catalog, file, entry, "defenders")
    if len(campaign.period_keys) != len(campaign.periods):
        _fail(file, None, "period_keys", "should give one key per period")
    seen: set[tuple[Side, int, str]] = set()
    for index, resource in enumerate(campaign.resources):
        entry = f"resource [{index}]"
        if resource.provenance == "seed" and not resource.source:
            _fail(file, entry, "source", "a seed resource names the rule it comes from")
        for period in resource.periods:
            if period not in campaign.period_keys:
                _fail(file, entry, "periods", f"unknown period {period!r}")
        for period in resource.periods or campaign.period_keys:
            if (resource.side, resource.number, period) in seen:
                _fail(file, entry, "number", f"two {resource.side.value} #{resource.number}")
            seen.add((resource.side, resource.number, period))
        _check_specs(resource.aircraft, resource.side, catalog, file, entry, "aircraft")
    bands = [row.min for row in campaign.performance]
    if not bands or bands != sorted(bands, reverse=True):
        _fail(file, None, "performance", "rows should run from the best Japanese result down")
    for key in MISSION_KEYS:
        if key not in campaign.missions:
            _fail(file, "missions", key, "Field required")
    for key in campaign.missions_notes:
        if key not in MISSION_KEYS:
            _fail(file, "missions_notes", key, "unknown card key")
    for key, row in campaign.missions.items():
        if key not in MISSION_KEYS:
            _fail(file, "missions", key, f"unknown card key (one of {', '.join(MISSION_KEYS)})")
        if len(row) != len(campaign.periods):
            _fail(file, "missions", key, f"should give one target per period ({campaign.periods})")
        for index, number in enumerate(row):
            if number not in numbers:
                _fail(file, "missions", f"{key}[{index}]", f"no target #{number}")


def load_land_campaign(key: str, data_dir: Path | None = None) -> LandCampaign:
    """The land campaign sheet ``<key>.toml`` of ``data_dir`` (default ``engine/zero/data``),
    validated and cross-checked against the packaged aircraft and Target Sheets.

    Raises ``DataError`` naming the file, the entry and the field of the first problem.
    """
    file = f"{key}.toml"
    raw = _read(DATA_DIR if data_dir is None else data_dir, file)
    catalog = default_catalog()
    raw_targets = raw.get("target")
    if not isinstance(raw_targets, list):
        _fail(file, None, "target", "Field required: a [[target]] list")
    targets: list[object] = []
    for index, item in enumerate(raw_targets):
        number = item.get("number") if isinstance(item, dict) else None
        entry = f"target #{number}" if number is not None else f"target [{index}]"
        targets.append(_target_raw(item, file, entry, catalog))
    data = {k: v for k, v in raw.items() if k not in ("target", "resource")}
    data["targets"] = targets
    data["resources"] = raw.get("resource", [])
    try:
        campaign = LandCampaign.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        loc = list(errors[0]["loc"])
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        message = f"{errors[0]['msg']}{more}"
        if len(loc) >= 2 and loc[0] == "targets" and isinstance(loc[1], int):
            item = raw_targets[loc[1]]
            number = item.get("number") if isinstance(item, dict) else None
            entry = f"target #{number}" if number is not None else f"target [{loc[1]}]"
            _fail(file, entry, _path(loc[2:]) or None, message)
        if len(loc) >= 2 and loc[0] == "resources" and isinstance(loc[1], int):
            _fail(file, f"resource [{loc[1]}]", _path(loc[2:]) or None, message)
        if len(loc) >= 2 and loc[0] == "missions":
            _fail(file, "missions", _path(loc[1:]), message)
        _fail(file, key, _path(loc) or None, message)
    if campaign.key != key:
        _fail(file, key, "key", f"should be {key!r}, the file's name")
    _check(campaign, file, catalog)
    return campaign


# --- Target draw (24.44-24.46) ------------------------------------------------------------


def mission_key(card: ActionCard) -> str:
    """24.44: the Missions-table row of a drawn card: IN MY SIGHTS by its burst cost
    ("IMS-1B", "IMS-2B", "IMS-3B"), any other card by its title ("OTS", "MAN", ...)."""
    if card.title is CardTitle.IMS:
        return f"IMS-{card.burst}B"
    return card.title.value


def draw_target(campaign: LandCampaign, period: str, card: ActionCard) -> MissionTarget:
    """24.44-24.45: the Mission Targets row that ``card`` selects in ``period``."""
    return campaign.target(campaign.target_number(period, mission_key(card)))


# --- Mission length (23.2) ----------------------------------------------------------------


@public_record
class MissionLength(_Frozen):
    """Turns per phase (23.1). A single-number mission (23.23) has no phases: ``total`` turns."""

    target_bound: int
    over_target: int
    home_bound: int
    skipped: tuple[Phase, ...] = ()
    single: int | None = None  # the Turns column gave one number

    @property
    def total(self) -> int:
        if self.single is not None:
            return self.single
        return self.target_bound + self.over_target + self.home_bound


def mission_speed(aircraft: AircraftType) -> int:
    """23.24: fighters and fighter-bombers count as Speed 6, formation aircraft their own."""
    return aircraft.undamaged.speed if aircraft.cls.is_formation else FIGHTER_SPEED


def mission_length(
    turns_spec: str,
    attackers: Sequence[AircraftType],
    target_bound_change: int = 0,
    home_bound_change: int = 0,
) -> MissionLength:
    """23.23-23.25: "a/b" less the slowest attacker's Speed (fighters count 6), changed by
    resources; a phase brought to 0 or less is skipped. The Over-Target phase is always 3
    (23.22). A single number "n" is the whole mission's length and is not reduced."""
    parts = [part.strip() for part in turns_spec.split("/")]
    if len(parts) not in (1, 2) or not all(part.isdigit() for part in parts):
        raise ValueError(f"turns {turns_spec!r} should be 'a/b' or a single number")
    if len(parts) == 1:
        return MissionLength(target_bound=0, over_target=0, home_bound=0, single=int(parts[0]))
    if not attackers:
        raise ValueError("a mission needs at least one attacking aircraft (23.24)")
    slowest = min(mission_speed(aircraft) for aircraft in attackers)
    target_bound = int(parts[0]) - slowest + target_bound_change
    home_bound = int(parts[1]) - slowest + home_bound_change
    skipped: list[Phase] = []
    if target_bound <= 0:
        skipped.append("target-bound")
    if home_bound <= 0:
        skipped.append("home-bound")
    return MissionLength(
        target_bound=max(0, target_bound),
        over_target=OVER_TARGET_TURNS,
        home_bound=max(0, home_bound),
        skipped=tuple(skipped),
    )


# --- Mission VPs (24.61) ------------------------------------------------------------------


class AircraftOutcome(_Frozen):
    """One aircraft that ended the mission Damaged, Disengaged or Destroyed (24.61)."""

    aircraft: str  # catalog code; its nation is the side that lost it
    result: Literal["damaged", "disengaged", "destroyed"]
    skilled_pilot: bool = False  # a skilled pilot was shot down with it


@public_record
class VPLine(_Frozen):
    side: Side  # who scores
    vp: int
    reason: str


class MissionVP(_Frozen):
    lines: tuple[VPLine, ...]

    def total(self, side: Side) -> int:
        return sum(line.vp for line in self.lines if line.side is side)

    @property
    def japanese(self) -> int:
        return self.total(Side.JAPANESE)

    @property
    def allied(self) -> int:
        return self.total(Side.ALLIED)


def aircraft_vp(aircraft: AircraftType, result: str) -> int:
    """Authored 3.5: Destroyed = the card's VP, Damaged/Disengaged = half (rounded down);
    a fighter-bomber is worth +2 more Destroyed and +1 more Damaged/Disengaged."""
    fighter_bomber = aircraft.cls is AircraftClass.FIGHTER_BOMBER
    if result == "destroyed":
        return aircraft.vp + (FIGHTER_BOMBER_DESTROYED_EXTRA if fighter_bomber else 0)
    return aircraft.vp // 2 + (FIGHTER_BOMBER_DAMAGED_EXTRA if fighter_bomber else 0)


def mission_vp(
    bombing_side: Side,
    sheet: str | None,
    damage_points: int,
    outcomes: Sequence[AircraftOutcome] = (),
    returned_undamaged: Sequence[str] = (),
    return_bonus: bool = False,
    catalog: Catalog | None = None,
) -> MissionVP:
    """24.61: each side scores for enemy aircraft Damaged/Disengaged or Destroyed and enemy
    skilled pilots shot down; the bombing side also scores the level its damage points
    reached on the Target Sheet (21.8). With ``return_bonus`` (authored 3.5, OFF by default
    so the seed's Docks example adds up) the bombing side also scores each bomber in
    ``returned_undamaged`` that flew over the target and came home not Damaged."""
    catalog = catalog or default_catalog()
    lines: list[VPLine] = []
    if sheet is not None:
        target = catalog.targets[sheet]
        if not target.levels:
            raise ValueError(f"Target Sheet {sheet} has no land damage levels (21.81)")
        level = target.level(damage_points)
        if level is not None and level.vp:
            reason = f"{target.name} {level.name} ({damage_points} pts)"
            lines.append(VPLine(side=bombing_side, vp=level.vp, reason=reason))
    for outcome in outcomes:
        aircraft = catalog.aircraft[outcome.aircraft]
        scorer = aircraft.nation.enemy
        vp = aircraft_vp(aircraft, outcome.result)
        lines.append(VPLine(side=scorer, vp=vp, reason=f"{aircraft.code} {outcome.result}"))
        if outcome.skilled_pilot:
            reason = f"skilled pilot of {aircraft.code} shot down"
            lines.append(VPLine(side=scorer, vp=SKILLED_PILOT_VP, reason=reason))
    if return_bonus:
        for code in returned_undamaged:
            aircraft = catalog.aircraft[code]
            bonus = RETURN_BONUS.get(aircraft.cls, 0)
            if bonus:
                reason = f"{aircraft.code} came home not Damaged"
                lines.append(VPLine(side=bombing_side, vp=bonus, reason=reason))
    return MissionVP(lines=tuple(lines))

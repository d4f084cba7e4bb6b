"""Land campaigns (24.0): the first, pure pieces of the land ruleset. NOT playable yet.

What is here is only what the land worked examples of zero-campaign.md need:

- the campaign sheet (``engine/data/<key>.toml``, authored default of zero-authored-data.md
  section 3.8) as a validated ``LandCampaign``;
- the target draw: an Action card read as a Missions-table key and looked up for a period
  (24.44-24.46);
- the mission length from the Turns column and the slowest attacker (23.23-23.25);
- the mission VP totals of both sides (24.61), with the authored aircraft and target VP.

A malformed sheet raises ``engine.catalog.DataError`` naming the file, the entry and the
field, like the rest of the data files.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, NoReturn

from pydantic import BaseModel, ConfigDict, ValidationError

from engine.catalog import (
    ActionCard,
    AircraftType,
    Catalog,
    DataError,
    Provenance,
    UnitSpec,
)
from engine.loader import DATA_DIR, default_catalog
from engine.report import Phase
from engine.types import AircraftClass, Band, CardTitle, Side

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
    provenance: Provenance = "authored-default"

    @property
    def is_dogfight(self) -> bool:
        return self.sheet is None


class LandCampaign(_Frozen):
    """A land campaign sheet: its periods, Missions table and Mission Targets table (24.4)."""

    key: str
    name: str
    periods: tuple[str, ...]
    missions: dict[str, tuple[int, ...]]  # Missions-table key -> target number per period
    targets: tuple[MissionTarget, ...]
    provenance: Provenance

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


def _fail(file: str, entry: str | None, field: str | None, message: str) -> NoReturn:
    parts = [file]
    if entry is not None:
        parts.append(f"entry '{entry}'")
    if field:
        parts.append(f"field '{field}'")
    raise DataError(": ".join([*parts, message]))


def _field(loc: Sequence[str | int]) -> str:
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise DataError(f"{path.name}: file not found in {path.parent}") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path.name}: not valid TOML: {exc}") from exc
    except OSError as exc:
        raise DataError(f"{path.name}: cannot be read: {exc}") from exc


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
        if numbers.count(target.number) > 1:
            _fail(file, entry, "number", "duplicate target number")
        if target.sheet is not None and target.sheet not in catalog.targets:
            _fail(file, entry, "sheet", f"unknown Target Sheet {target.sheet!r}")
        if target.sheet is None and not target.defenders:
            _fail(file, entry, "defenders", "a dogfight (no sheet) lists both sides' aircraft")
        _check_turns(target.turns, file, entry)
        _check_specs(target.attackers, target.attacker, catalog, file, entry, "attackers")
        _check_specs(target.defenders, target.attacker.enemy, catalog, file, entry, "defenders")
    for key in MISSION_KEYS:
        if key not in campaign.missions:
            _fail(file, "missions", key, "Field required")
    for key, row in campaign.missions.items():
        if key not in MISSION_KEYS:
            _fail(file, "missions", key, f"unknown card key (one of {', '.join(MISSION_KEYS)})")
        if len(row) != len(campaign.periods):
            _fail(file, "missions", key, f"should give one target per period ({campaign.periods})")
        for index, number in enumerate(row):
            if number not in numbers:
                _fail(file, "missions", f"{key}[{index}]", f"no target #{number}")


def load_land_campaign(key: str, data_dir: Path | None = None) -> LandCampaign:
    """The land campaign sheet ``<key>.toml`` of ``data_dir`` (default ``engine/data``),
    validated and cross-checked against the packaged aircraft and Target Sheets.

    Raises ``DataError`` naming the file, the entry and the field of the first problem.
    """
    file = f"{key}.toml"
    raw = _read((DATA_DIR if data_dir is None else data_dir) / file)
    catalog = default_catalog()
    raw_targets = raw.get("target")
    if not isinstance(raw_targets, list):
        _fail(file, None, "target", "Field required: a [[target]] list")
    targets: list[object] = []
    for index, item in enumerate(raw_targets):
        number = item.get("number") if isinstance(item, dict) else None
        entry = f"target #{number}" if number is not None else f"target [{index}]"
        targets.append(_target_raw(item, file, entry, catalog))
    data = {k: v for k, v in raw.items() if k != "target"}
    data["targets"] = targets
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
            _fail(file, entry, _field(loc[2:]) or None, message)
        if len(loc) >= 2 and loc[0] == "missions":
            _fail(file, "missions", _field(loc[1:]), message)
        _fail(file, key, _field(loc) or None, message)
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

"""Validated Wings of War data: maneuver decks, damage decks, planes, pilots' skills and the
rule constants, read from the TOML files in ``engine/rulesets/wings/data``.

Almost none of these tables are in the seeds; the files hold the authored defaults of
wings-authored-data.md section 3, each entry naming its source. Any problem raises
``DataError`` with the file, the entry and the field, so a GM editing a table finds the line.
"""

from __future__ import annotations

import functools
import math
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

DATA_DIR = Path(__file__).parent / "data"
_M = TypeVar("_M", bound=BaseModel)

Special = Literal[
    "none",
    "explosion",
    "jam_red",
    "jam_green",
    "smoke",
    "fire",
    "rudder_left",
    "rudder_right",
    "engine",
    "pilot_wounded",
]
SideName = Literal["entente", "central"]
Field_ = Literal["pilotage", "tir", "mecanique", "esquive"]

# What a card code means (authored 3.3): its kind and the side its arrow points to. The side
# is what a jammed rudder forbids.
CODE_KIND: dict[str, tuple[str, str | None]] = {
    "S": ("straight", None),
    "SF": ("straight", None),
    "SS": ("straight", None),
    "BL": ("bank", "L"),
    "BR": ("bank", "R"),
    "TL": ("turn", "L"),
    "TR": ("turn", "R"),
    "HL": ("tight", "L"),
    "HR": ("tight", "R"),
    "SL": ("slip", "L"),
    "SR": ("slip", "R"),
    "WL": ("wide_slip", "L"),
    "WR": ("wide_slip", "R"),
    "ST": ("stall", None),
    "IM": ("immelmann", None),
    "CL": ("climb", None),
    "DV": ("dive", None),
}


class DataError(Exception):
    """A data file is missing, unreadable or has an invalid entry; the message says where."""


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ManeuverCard(Frozen):
    no: tuple[int, int]
    code: str
    a: float
    b: float
    theta: float
    steep: bool = False

    # Cached: program checks ask these of the same few cards thousands of times a turn.
    @functools.cached_property
    def copies(self) -> int:
        return self.no[1] - self.no[0] + 1

    @functools.cached_property
    def kind(self) -> str:
        return CODE_KIND[self.code][0]

    @functools.cached_property
    def side(self) -> str | None:
        return CODE_KIND[self.code][1]

    @functools.cached_property
    def is_straight(self) -> bool:
        return self.kind == "straight"

    @property
    def colour(self) -> str:
        # Climb and dive are the red arrows (found, 2.2); every other card is blue.
        return "red" if self.kind in ("climb", "dive") else "blue"


class Move(Frozen):
    """A rigid move in the plane's own frame: forward, to the left, and the turn (degrees)."""

    dx: float
    dy: float
    dtheta: float


class ManeuverDeck(Frozen):
    letter: str
    source: str
    base: Literal["small", "large"]
    cards: tuple[ManeuverCard, ...]

    def card(self, code: str) -> ManeuverCard | None:
        return self.by_code.get(code)

    @functools.cached_property
    def by_code(self) -> dict[str, ManeuverCard]:
        # Program checks look cards up thousands of times a turn; the first card of a code
        # wins, as a search through the deck would find it.
        found: dict[str, ManeuverCard] = {}
        for card in self.cards:
            found.setdefault(card.code, card)
        return found

    @functools.cached_property
    def codes(self) -> tuple[str, ...]:
        return tuple(card.code for card in self.cards)


class Step(Frozen):
    climb: int = 0
    descend: int = 0
    level: int = 0
    dive_shot: bool = False
    extra_card: bool = False


class ComplexManeuver(Frozen):
    key: str
    source: str
    skill: str | None = None
    cards: tuple[str, ...]
    steps: tuple[Step, ...]
    one_turn: bool = False  # seed C: flown within a single turn, never across the break


class DamageCard(Frozen):
    value: int = Field(ge=0, le=6)
    special: Special
    count: int = Field(ge=1)


class DamageDeck(Frozen):
    letter: str
    source: str
    cards: tuple[DamageCard, ...]

    @functools.cached_property
    def expanded(self) -> tuple[DamageCard, ...]:
        """One entry per physical card, in file order: a card's id is its index here."""
        return tuple(card for card in self.cards for _ in range(card.count))


class Gun(Frozen):
    name: str
    deck: str
    axis: float
    half_angle: float = Field(gt=0, lt=90)
    point: tuple[float, float] = (0.0, 0.0)
    dead_angle: bool = False
    all_round_above: bool = False
    short_bonus: int = 0
    crew: Literal["pilot", "observer"] = "pilot"
    turret: bool = False  # DB 9.c: a 360-degree rotating gun (its arc is then ignored)
    not_lower: bool = False  # DB 11.c: never fires at a target lower than its plane
    # DB 11.d: the black zones at the tailplane's ends (x0, y0, x1, y1 in the plane's frame)
    blind_spots: tuple[tuple[float, float, float, float], ...] = ()


class PlaneType(Frozen):
    key: str
    name: str
    side: SideName
    deck: str
    damage_points: int = Field(gt=0)
    climb: int = Field(ge=1)
    ceiling: int = Field(ge=0)
    points: int | None = None
    in_service: str = Field(pattern=r"^\d{4}-(0[1-9]|1[0-2])$")
    base: Literal["small", "large"] = "small"
    two_seater: bool = False
    guns: tuple[Gun, ...]
    found: tuple[str, ...] = ()

    def service_class(self, date: str) -> Literal["advanced", "period", "obsolete", "future"]:
        """Authored 3.7: advanced for 6 months after entry, period for 12 more, then obsolete."""
        year, month = (int(part) for part in date.split("-"))
        start_year, start_month = (int(part) for part in self.in_service.split("-"))
        months = (year - start_year) * 12 + (month - start_month)
        if months < 0:
            return "future"
        if months < 6:
            return "advanced"
        if months < 18:
            return "period"
        return "obsolete"


class Skill(Frozen):
    key: str
    field: Field_
    tier: int = Field(ge=1, le=4)
    engine: bool


class Behaviour(Frozen):
    key: str
    start_skills: int = Field(ge=1)
    start_fields: tuple[Field_, ...]
    barred_fields: tuple[Field_, ...] = ()
    barred_skills: tuple[str, ...] = ()


class Units(Frozen):
    bw_cm: float
    ruler: float
    small_base: tuple[float, float]
    large_base: tuple[float, float]
    table: tuple[float, float]
    dead_angle_reach: float


class AltitudeRules(Frozen):
    cap: int
    start_level: int
    # Seed B.V: (floor, game ceiling) rows the floor may move through, lowest first.
    floors: tuple[tuple[int, int], ...] = ((0, 3),)


class FireRules(Frozen):
    short_cards: int
    long_cards: int
    smoke_counters: int
    fire_counters: int
    jam_counters: int
    wounded_jam_counters: int
    wounded_no_fire: int
    ground_structure: int
    caa_deck: str
    max_trenches: int
    max_caa: int
    ammo_cards: int = Field(default=8, ge=1)  # B.II: face-down cards a gun carries
    ammo_values: tuple[int, ...] = (1, 2, 3)  # B.II: the values ammunition is taken from


class PilotRules(Frozen):
    life_points: int
    wound_cost: int
    wounded_max_lp: int
    ace_kills: int
    vp_per_skill: int
    veteran_vp: int
    ace_of_aces_vp: int
    tokens: dict[str, int]
    killer_bonus: dict[str, int]
    # Seed B.VIII, D.V (J 3): full turns a seriously wounded pilot has to get down.
    landing_window: int = Field(default=2, ge=1)


class Resource(Frozen):
    cost: int = Field(ge=0)
    lot: int = Field(ge=1)


class CampaignRules(Frozen):
    start_points_per_player: int
    mission_points_per_player: int
    max_turns: int
    resources: dict[str, Resource]
    deployment: dict[str, int]
    mission_table: dict[str, int]


class ObjectiveRules(Frozen):
    target_structure: int = Field(ge=1)
    balloon_structure: int = Field(ge=1)
    balloon_level: int = Field(ge=1)
    balloon_counters_per_level: int = Field(ge=1)
    bomb: tuple[int, int]  # damage when the bomb covers the target's centre / only touches
    cluster: tuple[int, int]
    bomb_markers: tuple[tuple[int, int], ...]  # (from level, markers), ascending
    recon_levels: tuple[int, int]  # (level for R/2, highest level for a full R)
    photo_max_level: int
    # Where an objective lies, by kind: rulers from the border of the defender's zone, into
    # it (negative: on the no-man's-land side). Seed E.I.b allows half a ruler either way.
    depth: dict[str, float]
    per_mission: dict[str, int]  # objectives a generated mission has, by mission kind
    # Flak (DCA, seed A.IV.h): per target level, burst distance bands in rulers; -1 stands
    # for the edge of the battery's card.
    dca_bands: tuple[tuple[int, float, float], ...]
    dca_counter: float  # radius of the burst counter in bw (authored)
    dca_structure: int
    max_objectives: int = Field(default=3, ge=1)  # objectives one mission may set (authored)
    vp: dict[str, tuple[int, int]]  # award -> (squadron VP, pilot VP)

    @field_validator("depth")
    @classmethod
    def _within_half_a_ruler(cls, depth: dict[str, float]) -> dict[str, float]:
        for kind, rulers in depth.items():
            if abs(rulers) > 0.5:
                raise ValueError(f"{kind}: seed E.I.b puts objectives within R/2 of the border")
        return depth


class Rules(Frozen):
    units: Units
    altitude: AltitudeRules
    fire: FireRules
    pilot: PilotRules
    campaign: CampaignRules
    objectives: ObjectiveRules


class Catalog(Frozen):
    maneuver_decks: dict[str, ManeuverDeck]
    complex: dict[str, ComplexManeuver]
    damage_decks: dict[str, DamageDeck]
    planes: dict[str, PlaneType]
    skills: dict[str, Skill]
    behaviours: dict[str, Behaviour]
    rules: Rules

    @functools.cached_property
    def move_cache(self) -> dict[tuple[str, str], Move]:
        return {}

    def base_size(self, plane: PlaneType) -> tuple[float, float]:
        units = self.rules.units
        return units.large_base if plane.base == "large" else units.small_base

    def move(self, plane: PlaneType, code: str) -> Move:
        # Moves are asked for many times a turn and never change: keep each one once.
        cache = self.move_cache
        key = (plane.key, code)
        if key not in cache:
            card = self.maneuver_decks[plane.deck].card(code)
            if card is None:
                raise KeyError(f"{plane.key} has no {code} card")
            cache[key] = centre_move(card, self.base_size(plane)[1])
        return cache[key]


def centre_move(card: ManeuverCard, length: float) -> Move:
    """Authored 3.1: the rear-edge midpoint lands on the arrow's tip, heading theta."""
    rad = math.radians(card.theta)
    half = length / 2
    return Move(
        dx=half + card.a + half * math.cos(rad),
        dy=card.b + half * math.sin(rad),
        dtheta=card.theta,
    )


# --- Loading ----------------------------------------------------------------------------------


def _read(directory: Path, name: str) -> dict[str, Any]:
    path = directory / name
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise DataError(f"{name}: file not found in {directory}") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{name}: not valid TOML: {exc}") from exc


def _validate(model: type[_M], data: object, file: str, entry: str | None) -> _M:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        field = ".".join(str(part) for part in error["loc"])
        where = [file] + ([f"entry '{entry}'"] if entry else []) + [f"field '{field}'"]
        raise DataError(": ".join([*where, error["msg"]])) from exc


def _fail(file: str, entry: str, message: str) -> DataError:
    return DataError(f"{file}: entry '{entry}': {message}")


def _table(raw: Mapping[str, Any], key: str, file: str) -> Mapping[str, Any]:
    value = raw.get(key)
    if not isinstance(value, dict):
        raise DataError(f"{file}: missing table [{key}]")
    return value


def _models(
    model: type[_M], data: Mapping[str, Any], table: str, file: str, name: str = "key"
) -> dict[str, _M]:
    """Every entry of ``[table]``, each validated with its key as its ``name`` field."""
    return {
        key: _validate(model, {name: key, **raw}, file, f"{table}.{key}")
        for key, raw in _table(data, table, file).items()
    }


def _check_deck(deck: ManeuverDeck, file: str) -> None:
    """What pydantic cannot see on one card: numbering, known codes, climb/dive last."""
    entry = f"decks.{deck.letter}"
    expected = 1
    for card in deck.cards:
        if card.code not in CODE_KIND:
            raise _fail(file, entry, f"unknown card code {card.code!r}")
        if card.no[0] != expected or card.no[1] < card.no[0]:
            raise _fail(file, entry, f"card {card.code} numbered {card.no}, expected {expected}")
        expected = card.no[1] + 1
    codes = deck.codes
    if len(set(codes)) != len(codes):
        raise _fail(file, entry, "a card code appears twice")
    # Found (2.2): climb and dive carry the two highest numbers of every deck.
    if codes[-2:] != ("CL", "DV"):
        raise _fail(file, entry, "climb and dive must be the last two cards")


def load_catalog(directory: Path | None = None) -> Catalog:
    """Read and check every data file; ``directory`` defaults to the package's own data."""
    where = directory or DATA_DIR
    maneuvers = _read(where, "maneuvers.toml")
    decks: dict[str, ManeuverDeck] = {}
    for letter, raw in _table(maneuvers, "decks", "maneuvers.toml").items():
        deck = _validate(
            ManeuverDeck, {"letter": letter, **raw}, "maneuvers.toml", f"decks.{letter}"
        )
        _check_deck(deck, "maneuvers.toml")
        decks[letter] = deck
    complex_: dict[str, ComplexManeuver] = {}
    for key, raw in maneuvers.get("complex", {}).items():
        maneuver = _validate(
            ComplexManeuver, {"key": key, **raw}, "maneuvers.toml", f"complex.{key}"
        )
        if len(maneuver.steps) != len(maneuver.cards):
            raise _fail("maneuvers.toml", f"complex.{key}", "one step per card")
        complex_[key] = maneuver

    damage = _read(where, "damage.toml")
    damage_decks = _models(DamageDeck, damage, "decks", "damage.toml", "letter")

    planes_raw = _read(where, "planes.toml")
    planes: dict[str, PlaneType] = {}
    for key, raw in _table(planes_raw, "planes", "planes.toml").items():
        plane = _validate(PlaneType, {"key": key, **raw}, "planes.toml", f"planes.{key}")
        if plane.deck not in decks:
            raise _fail("planes.toml", f"planes.{key}", f"unknown maneuver deck {plane.deck!r}")
        if decks[plane.deck].base != plane.base:
            raise _fail("planes.toml", f"planes.{key}", "base size differs from its deck's")
        for gun in plane.guns:
            if gun.deck not in damage_decks:
                raise _fail("planes.toml", f"planes.{key}", f"unknown damage deck {gun.deck!r}")
        if not plane.guns:
            raise _fail("planes.toml", f"planes.{key}", "a plane needs at least one gun")
        planes[key] = plane

    pilots = _read(where, "pilots.toml")
    skills = _models(Skill, pilots, "skills", "pilots.toml")
    behaviours = _models(Behaviour, pilots, "behaviours", "pilots.toml")
    for behaviour in behaviours.values():
        for skill in behaviour.barred_skills:
            if skill not in skills:
                raise _fail("pilots.toml", f"behaviours.{behaviour.key}", f"no skill {skill!r}")
    for key, maneuver in complex_.items():
        if maneuver.skill is not None and maneuver.skill not in skills:
            raise _fail("maneuvers.toml", f"complex.{key}", f"no skill {maneuver.skill!r}")

    rules = _validate(Rules, _read(where, "rules.toml"), "rules.toml", None)
    return Catalog(
        maneuver_decks=decks,
        complex=complex_,
        damage_decks=damage_decks,
        planes=planes,
        skills=skills,
        behaviours=behaviours,
        rules=rules,
    )


@functools.cache
def default_catalog() -> Catalog:
    return load_catalog()

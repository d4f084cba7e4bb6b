"""Validated game data: the Action deck, aircraft, target sheets, damage tracks, resources
and campaign sheets, loaded from the TOML files in ``engine/zero/data/``.

The rules documents give almost none of these tables (zero-campaign.md section (3)); the
files hold the authored defaults of zero-authored-data.md section 3, each file and each
seed-given value labelled with its provenance. A malformed file raises ``DataError`` naming
the file, the entry and the field.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.zero.types import AircraftClass, Band, BombMode, BombResult, CardTitle, Side

Provenance = Literal["seed", "authored-default", "authored-change"]


class DataError(Exception):
    """A data file is missing, unreadable or has an invalid entry; the message says where."""


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --- Action deck ------------------------------------------------------------------------


class ActionCard(Frozen):
    """One Action card (0.3): attack values, Spoiled Attack mark, bombing/strafe sections."""

    id: int
    title: CardTitle
    burst: int | None = None  # "xB" on IMS/OTS
    damage: int | None = None  # "yD" on IMS/OTS
    spoiled: bool = False
    bombing: BombResult
    strafe_hit: bool
    border: Literal["blue", "tan"]

    @property
    def is_attack(self) -> bool:
        return self.title in (CardTitle.IMS, CardTitle.OTS)

    @property
    def label(self) -> str:
        if self.is_attack:
            return f"{self.title.value} {self.burst}B/{self.damage}D"
        return self.title.value


class DeckData(Frozen):
    provenance: Provenance
    cards: tuple[ActionCard, ...]
    # Which titles each title can cancel as a response (authored 3.2.6); the same-title
    # rule and ACE PILOT are applied by the dogfight module, not listed here.
    answers: dict[CardTitle, tuple[CardTitle, ...]]


# --- Aircraft -----------------------------------------------------------------------------


class Ratings(Frozen):
    """One side of an aircraft card. Horsepower per band; ``None`` = band not allowed."""

    performance: int = 0
    horsepower: dict[Band, int | None] = Field(default_factory=dict)
    burst: int = 0
    offensive: int = 0
    defensive: int = 0
    gunner: int = 0
    turret_defense: int = 0
    turret_support: int = 0
    speed: int = 6
    bomb: dict[BombMode, int] = Field(default_factory=dict)


class AircraftType(Frozen):
    code: str  # "A6M2"
    name: str  # "A6M2 Zero"
    nation: Side
    service: str  # "navy", "army", "marines", "british", ...
    cls: AircraftClass
    undamaged: Ratings
    damaged: Ratings
    flip_at: int  # U: damage that flips the card (3.2.7)
    destroy_extra: int  # D: further damage that destroys it
    norden: bool = False  # 18.32: +2 bomb cards
    mk13: bool = False  # authored: the US Mk 13 torpedo reads a Hit as a Miss
    max_band: Band = Band.VH
    vp: int
    box: int  # cards in the game box (25.65 counter-mix limit)
    provenance: Provenance = "authored-default"

    def ratings(self, damaged: bool) -> Ratings:
        return self.damaged if damaged else self.undamaged


# --- Targets and tracks -------------------------------------------------------------------


class SheetLevel(Frozen):
    """One damage level of a Target Sheet (21.81): reached at ``min_points``, worth ``vp``."""

    name: str
    min_points: int
    vp: int
    provenance: Provenance = "authored-default"


class TargetSheet(Frozen):
    """21.9: flak values and damage points per result for one target type."""

    id: str  # "5A"
    name: str
    naval: bool
    area_flak: int
    target_flak: int
    points: dict[BombResult, int]  # MISS is always 0
    strafe: int | None  # points per strafe Hit; None = cannot be strafed (21.71)
    provenance: Provenance = "authored-default"
    # Land damage levels, lowest first; empty for the carrier sheets 5A-5D, whose damage
    # goes on a campaign track instead.
    levels: tuple[SheetLevel, ...] = ()

    def level(self, points: int) -> SheetLevel | None:
        current: SheetLevel | None = None
        for level in self.levels:
            if points >= level.min_points:
                current = level
        return current


class TrackLevel(Frozen):
    name: str
    min_boxes: int
    vp: int  # to the enemy, value of the highest level reached (25.83)
    strike_minus: int = 0  # "strike -n a/c" (25.63)
    cap_minus: int = 0
    no_large: bool = False
    no_strike_only: bool = False
    out_of_action: bool = False  # 25.9: ends the campaign at the end of the turn
    cap_shift: int = 0  # card-drawn CAP read this many levels lower
    no_cap: bool = False
    provenance: Provenance = "authored-default"


class DamageTrack(Frozen):
    """25.82: boxes ticked per damage point and per own aircraft destroyed."""

    id: str
    name: str
    boxes: int
    levels: tuple[TrackLevel, ...]
    provenance: Provenance = "authored-default"

    def level(self, boxes: int) -> TrackLevel:
        current = self.levels[0]
        for level in self.levels:
            if boxes >= level.min_boxes:
                current = level
        return current


# --- Resources ----------------------------------------------------------------------------


class ResourceEffect(Frozen):
    """A carrier resource as structured effects (authored 3.7.2); absent = no effect."""

    scout: bool = False
    enemy_tb_mod: int = 0  # on enemy strikes against your fleet (#3 Radar: +2, seed)
    own_tb_mod: int = 0  # on your own strike (#10 Early Launch: -1)
    cap_add_elements: int = 0  # L/W of a fighter or fighter-bomber still in the box
    cap_minus: int = 0
    strike_add_fighter_elements: int = 0
    strike_add_fighter_bomber_leaders: int = 0
    fleet_damage_bonus: int = 0  # per Hit/Direct/Vital on the enemy carrier fleet (#7)
    enemy_area_flak_mod: int = 0
    enemy_target_flak_mod: int = 0
    out_of_sight: bool = False
    damage_control: int = 0  # unticked damage-point boxes at end of turn
    ace_leader: bool = False
    veteran_aircrew: bool = False
    land_based_strike: bool = False
    cap_places_after_reveal: bool = False  # #3 Radar: CAP bands set once the raid's are known


class Resource(Frozen):
    number: int
    key: str
    name: str
    side: Side | None = None  # None = either side may pick it
    repeatable: bool = False  # only No Resource (25.52)
    effect: ResourceEffect = ResourceEffect()
    # Replaces ``effect`` for one side where the two differ (#11: Japanese repair less).
    effects_by_side: dict[Side, ResourceEffect] = Field(default_factory=dict)
    text: str
    provenance: Provenance = "authored-default"

    def effect_for(self, side: Side) -> ResourceEffect:
        return self.effects_by_side.get(side, self.effect)


# --- Campaign sheets ----------------------------------------------------------------------


class UnitSpec(Frozen):
    """A line of a strike or CAP list in the seed's notation: "1 L/W A6M2", "2 B-17E"."""

    count: int
    kind: Literal["L/W", "L", "formation"]
    aircraft: str
    ordnance: Literal["default", "bomb", "torpedo", "none"] = "default"


class ForceRow(Frozen):
    strike: tuple[UnitSpec, ...] = ()
    cap: tuple[UnitSpec, ...] = ()
    provenance: Provenance = "authored-default"


class CardCapRow(Frozen):
    """One row of a card-drawn CAP table (25.43): bombing result read -> CAP."""

    result: BombResult
    cap: tuple[UnitSpec, ...] = ()


class AirfieldRow(Frozen):
    """Midway: strike and CAP by the airfield's damage (25.43)."""

    min_boxes: int
    strike: tuple[UnitSpec, ...] = ()
    cap: tuple[UnitSpec, ...] = ()


class Place(Frozen):
    """A fleet, base or target with a damage track on the campaign log sheet."""

    key: str  # "japanese-fleet", "port-moresby", "midway-airfield"
    name: str
    side: Side  # who owns it (the enemy scores its track)
    sheet: str  # target sheet id
    track: str  # damage track id
    carrier_fleet: bool = False
    cap_table: tuple[CardCapRow, ...] = ()  # card-drawn CAP (Port Moresby, Invasion Force)
    airfield_table: tuple[AirfieldRow, ...] = ()  # Midway
    strike_target: str | None = None  # the place an airfield strike attacks
    strike_last_turn: int | None = None  # an airfield launches only up to this turn
    vp_only: bool = False  # a target that scores VP but has no track effects


class ScoutSpec(Frozen):
    aircraft: str
    band: Band
    bonus: UnitSpec  # added to the strike on success (25.53 [EX])


class TrackCondition(Frozen):
    """A condition on a place's damage track at the end of the campaign."""

    place: str
    min_boxes: int = 0
    below: int | None = None  # fewer boxes than this


class ObjectiveBonus(Frozen):
    """An optional end-of-campaign VP bonus (authored 3.7.3), met when every condition holds."""

    side: Side
    vp: int
    when: tuple[TrackCondition, ...]
    text: str = ""
    optional: bool = True


# The suffix of a scenario that plays its sheet's optional historical opening (3.7.4).
HISTORICAL = "-historical"


class Scenario(Frozen):
    key: str  # "coral-sea"
    name: str
    turns: int
    turn_labels: tuple[str, ...]
    places: tuple[Place, ...]
    flight_ops: dict[Side, dict[str, ForceRow]]  # "large"/"small"/"none"
    strike_targets: dict[Side, tuple[str, ...]]  # place keys each side may strike
    scouts: dict[Side, ScoutSpec]
    land_based: dict[Side, tuple[UnitSpec, ...]] = Field(default_factory=dict)
    land_based_target: dict[Side, tuple[str, ...]] = Field(default_factory=dict)
    submarine: bool = False  # Midway's resource #8 variant
    sighting_rule: dict[Side, bool] = Field(default_factory=dict)
    provenance: Provenance = "authored-default"
    objectives: tuple[ObjectiveBonus, ...] = ()
    # Optional rule: a side's turn-1 strike must go for one of these places (Midway 3.7.4).
    optional_opening_targets: dict[Side, tuple[str, ...]] = Field(default_factory=dict)
    # The GM's switch for it: on in the sheet's "<key>-historical" twin (``HISTORICAL``),
    # off in the sheet itself, so a campaign begun before keeps the rules it began under.
    historical_opening: bool = False

    @property
    def sheet_key(self) -> str:
        """The campaign sheet this scenario plays (its map, its data file)."""
        return self.key.removesuffix(HISTORICAL) if self.historical_opening else self.key

    def place(self, key: str) -> Place:
        for place in self.places:
            if place.key == key:
                return place
        raise KeyError(key)

    def fleet_of(self, side: Side) -> Place:
        for place in self.places:
            if place.carrier_fleet and place.side is side:
                return place
        raise KeyError(side)


class Catalog(Frozen):
    """Everything loaded from ``engine/zero/data``; the engine reads data only through this."""

    deck: DeckData
    aircraft: dict[str, AircraftType]
    targets: dict[str, TargetSheet]
    tracks: dict[str, DamageTrack]
    resources: tuple[Resource, ...]
    scenarios: dict[str, Scenario]

    def resource(self, number: int) -> Resource:
        for resource in self.resources:
            if resource.number == number:
                return resource
        raise KeyError(number)

"""What the land presenter may read: the public view of a campaign and its sheet in words.

Rendering imports this module and nothing else of the land ruleset. A ``LandView`` is built
from the state by ``LandRules.view``; nothing of a land state is secret (the coming target
is drawn in the open, 24.44, and the resource picks live in the application's locked
choices until the round resolves), so it copies the public fields. ``PublicSheet`` is the
sheet as the images show it (names, aircraft already in the seed's notation), so the
presenter never needs the engine's loaders or force builders.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from pydantic import BaseModel, ConfigDict, Field

from engine.rulesets.land.sheet import MissionLength, MissionTarget, VPLine, load_land_campaign
from engine.sight import public_record
from engine.zero.catalog import UnitSpec
from engine.zero.forces import describe, expand
from engine.zero.loader import default_catalog
from engine.zero.orders import Doctrine
from engine.zero.report import StrikeReport
from engine.zero.types import Band, Side

THEATRES = ("malaya", "philippines", "burma")
NO_RESOURCE = 0  # the pick of a side that spends nothing this mission
NO_RESOURCE_ID = "none"
LETTERS = {Side.JAPANESE: "J", Side.ALLIED: "A"}


class IllegalChoice(ValueError):
    """A pick that ``pending`` did not offer."""


def resource_id(side: Side, number: int) -> str:
    """A resource's option id: the side's letter and the number ("J2", "A4"), so a word
    for it can be found from the id alone (both lists are numbered from 1)."""
    return NO_RESOURCE_ID if number == NO_RESOURCE else f"{LETTERS[side]}{number}"


def resource_number(option_id: str) -> tuple[Side | None, int]:
    if option_id == NO_RESOURCE_ID:
        return None, NO_RESOURCE
    letter, digits = option_id[:1], option_id[1:]
    sides = {value: side for side, value in LETTERS.items()}
    if letter not in sides or not digits.isdigit():
        raise IllegalChoice(f"not a resource: {option_id!r}")
    return sides[letter], int(digits)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --- Records of play (public once resolved) ---------------------------------------------


@public_record
class Draw(_Frozen):
    """The card drawn for a mission and the target it selected (24.44-24.45)."""

    card: int  # Action card id
    key: str  # Missions-table row, e.g. "IMS-2B"
    listed: int  # the number the table gave
    target: int  # the number flown (a once-only target already flown is replaced)
    period: str  # period key of the column read


@public_record
class MissionRecord(_Frozen):
    """One flown mission."""

    mission: int
    draw: Draw
    resources: dict[Side, int]
    doctrines: dict[Side, str]
    length: MissionLength
    clouds_card: int | None = None  # the card Clouds over Target drew, if picked
    clouds: bool = False  # that card had a blue border
    dispersal_points: int = 0  # points Dispersal took off the damage
    report: StrikeReport
    lines: tuple[VPLine, ...] = ()
    vp: dict[Side, int]  # this mission's points
    totals: dict[Side, int]  # the campaign totals after it


# --- The sheet in words -----------------------------------------------------------------


class PublicTarget(_Frozen):
    number: int
    target: str
    location: str
    sheet: str | None
    sheet_name: str | None
    attacker: Side
    attackers: str  # "2 Ki-21, 1 L/W Ki-43"
    defenders: str  # "" unless a dogfight lists them
    band: Band
    turns: str
    map: tuple[int, int] | None
    dogfight: bool
    evacuation: bool


class PublicResource(_Frozen):
    side: Side
    number: int
    name: str
    text: str  # the sheet's English text
    use: str  # "any", "attack", "defence"
    periods: tuple[str, ...]
    aircraft: str  # what it adds, in the seed's notation; "" if nothing
    effects: tuple[str, ...]  # the LandEffect keys it sets, e.g. ("area_flak=1",)


class PublicSheet(_Frozen):
    key: str
    name: str
    periods: tuple[str, ...]
    period_keys: tuple[str, ...]
    targets: tuple[PublicTarget, ...]
    resources: tuple[PublicResource, ...]

    def target(self, number: int) -> PublicTarget:
        return next(t for t in self.targets if t.number == number)

    def period_name(self, period_key: str) -> str:
        return self.periods[self.period_keys.index(period_key)]

    def resources_named(self, side: Side, number: int, period_key: str) -> list[PublicResource]:
        """The resource(s) a number names: the period's own, else every period's (a long
        campaign's list changes with the period)."""
        found = [r for r in self.resources if r.side is side and r.number == number]
        exact = [r for r in found if not r.periods or period_key in r.periods]
        return exact or found


def _aircraft(target: MissionTarget, side: Side) -> str:
    return _units(target.attackers if side is target.attacker else target.defenders, side)


def _units(specs: Sequence[UnitSpec], side: Side) -> str:
    if not specs:
        return ""
    units = expand(
        specs,
        side=side,
        group="strike",
        prefix="X",
        catalog=default_catalog(),
        doctrine=Doctrine(),
        naval=False,
    )
    return describe(units)


@cache
def public_sheet(key: str) -> PublicSheet:
    """The sheet ``key`` of ``engine/zero/data`` in the words the images use."""
    campaign = load_land_campaign(key)
    catalog = default_catalog()
    return PublicSheet(
        key=campaign.key,
        name=campaign.name,
        periods=campaign.periods,
        period_keys=campaign.period_keys,
        targets=tuple(
            PublicTarget(
                number=t.number,
                target=t.target,
                location=t.location,
                sheet=t.sheet,
                sheet_name=catalog.targets[t.sheet].name if t.sheet else None,
                attacker=t.attacker,
                attackers=_aircraft(t, t.attacker),
                defenders=_aircraft(t, t.attacker.enemy),
                band=t.band,
                turns=t.turns,
                map=t.map,
                dogfight=t.is_dogfight,
                evacuation=t.is_evacuation,
            )
            for t in campaign.targets
        ),
        resources=tuple(
            PublicResource(
                side=r.side,
                number=r.number,
                name=r.name,
                text=r.text,
                use=r.use,
                periods=r.periods,
                aircraft=_units(r.aircraft, r.side),
                effects=tuple(
                    key if value is True else f"{key}={value}"
                    for key, value in r.effect.model_dump().items()
                    if value
                ),
            )
            for r in campaign.resources
        ),
    )


def sheet_of(scenario: str) -> PublicSheet:
    return public_sheet(scenario.partition("-")[0])


class LandView(_Frozen):
    """A land campaign as anyone may see it, and who is looking."""

    viewer: Side | None
    scenario: str
    sheet: PublicSheet
    periods: tuple[str, ...]
    turn: int
    missions: int
    draw: Draw
    used: dict[Side, tuple[int, ...]] = Field(default_factory=dict)
    vp: dict[Side, int] = Field(default_factory=dict)
    history: tuple[MissionRecord, ...] = ()
    flown: tuple[int, ...] = ()  # the targets flown so far, in order (the map greys them)
    finished: bool = False
    winner: str | None = None
    performance: dict[Side, str] = Field(default_factory=dict)

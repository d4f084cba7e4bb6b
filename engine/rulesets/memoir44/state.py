"""The whole state of a game's air war, secrets included, every field labelled for the
gate (``engine.sight``): what is not labelled public is secret.

Secret parts: each side's Air Combat ``hand`` (its own side's: unlabelled in a side's
entry) and the ``deck`` draw pile (sealed: nobody's until the game is over). Everything
else is public: the table sees planes, ammunition, lost types, medals, the discard pile
and every card once played (records of what happened are public records).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.rulesets.memoir44.catalog import PlaneType, SideId, Theatre
from engine.rulesets.memoir44.dice import Face, Target
from engine.sight import SIDE, Public, Sealed, Sight, public_record

SIDES: tuple[SideId, SideId] = ("allies", "axis")
Phase = Literal["command", "flight", "reaction", "over"]
Status = Literal["airborne", "airfield", "carrier"]
Action = Literal["none", "fly", "withdraw", "deploy"]
Finish = Literal["none", "bombing", "dogfight", "airfield", "carrier"]
Unit = Literal["infantry", "armour", "artillery", "destroyer", "sunk"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def other(side: str) -> SideId:
    return "axis" if side == "allies" else "allies"


@public_record
class Plane(_Frozen):
    type: PlaneType
    model: str
    hex: str
    status: Status = "airborne"
    mg: int
    bombs: int
    refill: bool = False  # landed: full ammunition at the start of its side's next turn

    @property
    def ammunition(self) -> int:
        return self.mg + self.bombs


@public_record
class Medal(_Frozen):
    """An air medal: a plane shot down (its model) or an objective bombed (its hex)."""

    kind: Literal["kill", "bombing"]
    turn: int
    detail: str


class SideState(_Frozen):
    """One side's air war; its entry in ``GameState.sides`` is owned by that side, so the
    one unlabelled field, the hand, is its own."""

    nation: Public[str]
    trio: Public[dict[PlaneType, str]]
    hand: tuple[str, ...] = ()  # secret: card instance ids, the side's own
    lost: Public[tuple[PlaneType, ...]] = ()
    medals: Public[tuple[Medal, ...]] = ()
    plane: Public[Plane | None] = None
    card_own: Public[bool] = False  # an Air Combat card played on its own turn, this turn
    card_opp: Public[bool] = False  # one played during the opponent's turn, this turn
    withdrew: Public[bool] = False  # withdrew (or was made to) at the start of this turn


@public_record
class Token(_Frozen):
    hex: str
    kind: Literal["mg", "bomb"]
    target: Target


@public_record
class Shot(_Frozen):
    """A ground unit's fire at the enemy plane (or the carrier it sat on going down)."""

    unit: Unit
    dice: int
    close_assault: bool = False


@public_record
class Roll(_Frozen):
    """Dice rolled in the open, for the log and the picture."""

    side: SideId  # who rolled
    purpose: str  # token, bombing, dogfight, fire-back, ground, ambush, flak, confirm...
    faces: tuple[Face, ...]
    hits: int = 0
    flags: int = 0
    token: int = 0  # the token's number in flight order, when it is about one
    outcome: str = ""


@public_record
class Fallen(_Frozen):
    """A plane shot down, forced off or sunk with its carrier this turn: where it was."""

    side: SideId
    model: str
    hex: str
    outcome: Literal["shot-down", "forced-off"]


@public_record
class Plan(_Frozen):
    """The active side's turn as given so far, and how the other side answered."""

    side: SideId
    command: str
    card: str | None = None  # the instance played on its own turn
    effect: str | None = None  # the card key whose effect is in force
    action: Action = "none"
    deploy: PlaneType | None = None
    start: str | None = None  # where the plane was when ordered (None when deployed)
    path: tuple[str, ...] = ()
    tokens: tuple[Token, ...] = ()
    finish: Finish = "none"
    markers: int = 0  # Their Finest Hour stars put on the plane
    shots: tuple[Shot, ...] = ()
    ambush: int = 0  # the token (1-based) Ambush was played on, 0 for none
    ambush_unit: Unit | None = None
    reaction: str | None = None  # the instance the other side played
    reaction_token: int = 0
    refused: str = ""  # why the side's picks were refused as a whole (see seam.py)


@public_record
class TurnRecord(_Frozen):
    turn: int
    plan: Plan
    rolls: tuple[Roll, ...] = ()
    drawn: dict[SideId, int] = Field(default_factory=dict)
    fallen: tuple[Fallen, ...] = ()  # planes that left the board this turn, and where


# Each side's entry is public, and owned by the side its key names.
BY_SIDE = Sight("public", "reveal", key=SIDE)


class GameState(_Frozen):
    theatre: Public[Theatre]
    year: Public[int]
    beach: Public[bool]
    superiority: Public[Literal["allies", "axis", "none"]]
    first: Public[SideId]
    turns: Public[int]  # the cap: the game ends after this many turns if nobody claimed victory
    turn: Public[int] = 1
    phase: Public[Phase] = "command"
    sides: Annotated[dict[SideId, SideState], BY_SIDE]
    deck: Sealed[tuple[str, ...]] = ()  # the draw pile, top first: nobody's
    discard: Public[tuple[str, ...]] = ()
    plan: Public[Plan | None] = None
    rolled: Public[tuple[Roll, ...]] = ()  # this turn's rolls so far
    fallen: Public[tuple[Fallen, ...]] = ()  # this turn's planes down so far
    drawn: Public[dict[SideId, int]] = Field(default_factory=dict)  # cards drawn this turn
    bombed: Public[dict[str, SideId]] = Field(default_factory=dict)  # objective hex -> taker
    streams: Public[int] = 0  # rolls and shuffles so far: names each one's random stream
    history: Public[tuple[TurnRecord, ...]] = ()
    finished: Public[bool] = False
    winner: Public[str | None] = None

    @property
    def active(self) -> SideId:
        return self.first if self.turn % 2 == 1 else other(self.first)

    def side(self, side: str) -> SideState:
        return self.sides["allies" if side == "allies" else "axis"]

"""The campaign state (secrets included) and the decisions a round waits for.

Design note: the chosen-but-unrevealed picks of an open round never enter ``State``; they
live in the service's locked-choice rows until ``resolve`` receives them. The one secret the
state does hold is each side's doctrine between the orders reveal and the strikes, which
``view`` keeps from the other side.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.ruleset import Decision, Event, Excluded, Option
from engine.sight import Owner, Public, own, public_record
from engine.zero.report import StrikeReport
from engine.zero.types import FleetTactic, RoundKind, Side, StrikeSize


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


__all__ = ["Decision", "Event", "Excluded", "Model", "Option", "State"]


@public_record
class TrackState(Model):
    """A damage track (25.82): boxes ticked never go down; repairs only restore capacity.

    The engine ticks no more than the track holds (``engine.turn.tick_track``): ``boxes``
    reaches the track's length, or its length plus the boxes repaired, never more; the log
    sheet, the views and the export show at most the length.
    """

    place: str
    damage_points: int = 0
    losses: int = 0  # own aircraft destroyed (not on scout missions)
    repaired: int = 0  # Damage Control (authored #11): capacity restored, VP kept

    @property
    def boxes(self) -> int:
        return self.damage_points + self.losses

    @property
    def effective(self) -> int:
        return max(0, self.boxes - self.repaired)


class SideState(Model):
    side: Owner[Side]
    tactic: Public[FleetTactic | None] = None  # this turn's, once revealed
    flight_ops: Public[str | None] = None  # "large:allied-fleet", "none"
    doctrine: Annotated[str, own("turn-end")] = (
        "balanced"  # secret from the other side until the strikes are flown
    )
    last_tactic: Public[FleetTactic | None] = None
    last_size: Public[StrikeSize | None] = None
    resources_used: Public[tuple[int, ...]] = ()


@public_record
class SidePicks(Model):
    tactic: FleetTactic
    flight_ops: str
    resource: int


@public_record
class RecoveryDraw(Model):
    uid: str
    strike: str
    cards: tuple[int, ...]
    lost: bool


@public_record
class PilotRecord(Model):
    """One draw from the pilot cup (19.24) or a named ace placed by a resource (#14)."""

    side: Side
    purpose: str  # the group the Leader flies in: "cap:<place>", "strike:<side>"...
    uid: str
    aircraft: str
    counter: str | None  # None: the cup was empty, or ``ace``
    face: int | None = None  # the coin flip: 0 or 1
    skilled: bool = False
    redraw: bool = False  # Veteran Aircrew's second draw
    ace: bool = False  # Ace Leader (authored #14), not drawn from the cup
    pilot: str | None = None  # the name that went on the aircraft, if any


@public_record
class Tick(Model):
    """Boxes ticked on a track this turn and why (25.82)."""

    place: str
    boxes: int
    cause: Literal["damage", "aircraft-lost", "submarine"]
    strike: str | None = None  # the strike whose bombs, or in which the aircraft was lost
    uid: str | None = None  # the aircraft lost


@public_record
class TurnRecord(Model):
    """A played turn, all of it public once the turn is resolved."""

    turn: int
    picks: dict[Side, SidePicks]
    strikes: tuple[StrikeReport, ...] = ()
    recovery: tuple[RecoveryDraw, ...] = ()
    vp: dict[Side, int] = Field(default_factory=dict)
    boxes: dict[str, int] = Field(default_factory=dict)
    notes: tuple[str, ...] = ()
    # Export format 2 (issue 11): the facts a rules check needs.
    pilots: tuple[PilotRecord, ...] = ()
    ticks: tuple[Tick, ...] = ()
    repaired: dict[str, int] = Field(default_factory=dict)  # Damage Control so far, per track


class State(Model):
    scenario: Public[str]
    seed_commitment: Public[str]
    turn: Public[int] = 1
    round: Public[RoundKind] = RoundKind.ORDERS
    finished: Public[bool] = False
    winner: Public[Side | Literal["draw"] | None] = None
    sides: Public[dict[Side, SideState]]
    tracks: Public[dict[str, TrackState]]
    vp: Public[dict[Side, int]]
    history: Public[tuple[TurnRecord, ...]] = ()
    next_turn_tb_mod: dict[Side, int] = Field(default_factory=dict)

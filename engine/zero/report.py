"""What a strike leaves behind: the public report the channel, the log and the images use.

A report is written only after the strike is flown, so it holds nothing secret. Every
card is named by id (the deck file gives its faces) with the purpose it was drawn for.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.sight import public_record
from engine.zero.types import AircraftState, Band, BombMode, BombResult, Ordnance, Side

Phase = Literal["target-bound", "ingress", "bomb", "egress", "home-bound", "scout"]


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


@public_record
class AircraftOutcome(Model):
    uid: str  # unique inside the strike, e.g. "J-S-B5N2-1L"
    aircraft: str  # type code
    side: Side
    role: Literal["leader", "wingman", "formation", "recon"]
    group: Literal["strike", "cap", "scout"]
    element: str  # element or formation id, shared by a Leader and its Wingman
    band: Band  # band at the end of the strike
    pilot: str | None = None  # "Honda (A, BU)"
    ordnance: Ordnance = Ordnance.NONE
    damage: int = 0
    state: AircraftState = AircraftState.OK
    disengaged: bool = False  # stayed out of the target area (23.5)
    lost_on_recovery: bool = False  # filled by the campaign step after the strike (25.7)


@public_record
class Exchange(Model):
    """One attack card and its answers, as played."""

    phase: Phase
    turn: int  # 1-based turn inside the phase
    attacker: str  # uid
    defender: str  # uid
    cards: tuple[tuple[str, int], ...]  # (who: uid, card id) in play order
    damage_to_defender: int = 0
    damage_to_attacker: int = 0
    note: str = ""  # a short key: "spoiled", "cancelled", "hit", "counter-fire"


@public_record
class FlakShot(Model):
    phase: Phase
    kind: Literal["area", "target", "strafe"]
    against: str  # uid
    cards: tuple[int, ...]
    answered: int | None = None  # card id answered (22.25: one answer at most)
    answer_card: int | None = None
    damage: int = 0
    spoils: int = 0


@public_record
class BombRun(Model):
    uid: str
    mode: BombMode | Literal["strafe"]
    band: Band
    cards: tuple[int, ...]  # bomb (or strafe) cards drawn
    cancelled: tuple[int, ...] = ()  # cancelled by flak spoils (22.23)
    results: tuple[BombResult, ...] = ()  # applied results after shifts (21.63, clouds)
    points: int = 0  # damage points inflicted
    note: str = ""


@public_record
class CardDraw(Model):
    """One call on the deck inside a strike (issue 11: every card with its purpose).

    ``who`` is the aircraft the cards were drawn for when one is named: a Leader's hand, a
    Wingman's or a bomber's mini-hand (its size is ``len(cards)``), a flak or bomb draw.
    """

    phase: Phase
    turn: int
    purpose: str
    who: str | None = None
    cards: tuple[int, ...] = ()


@public_record
class BandMove(Model):
    """An element changing band (3.2.2): a climb costs its Leader a card, a dive gives one."""

    phase: Phase
    turn: int
    element: str
    uids: tuple[str, ...]
    before: Band
    after: Band
    dive_brakes: bool = False  # the drop of a dive-bombing attack (21.42): no card for it


@public_record
class TurnBands(Model):
    """Where every aircraft flew in one turn of a phase, and which side's element moved
    first (15.2): ``start`` before the first element's turn, ``end`` after the last."""

    phase: Phase
    turn: int
    first: Side
    start: dict[str, Band] = Field(default_factory=dict)
    end: dict[str, Band] = Field(default_factory=dict)


@public_record
class StrikeReport(Model):
    id: str  # "T2-J1"
    turn: int
    kind: Literal[
        "carrier", "airfield", "land-based", "scout", "submarine", "land-mission", "dogfight"
    ]
    attacker: Side
    origin: str  # place key the strike flew from
    target: str  # place key
    order: int  # resolution slot (25.53, 25.61)
    simultaneous: bool = False
    target_bound: int = 2
    home_bound: int = 1
    hidden: bool = False  # Out of Sight (authored #9): found nothing
    aircraft: tuple[AircraftOutcome, ...] = ()
    exchanges: tuple[Exchange, ...] = ()
    flak: tuple[FlakShot, ...] = ()
    bomb_runs: tuple[BombRun, ...] = ()
    target_points: int = 0  # damage points put on the target's track
    scout_success: bool | None = None
    notes: tuple[str, ...] = Field(default=())  # short keys with data, e.g. "phase-skipped:tb"
    # Export format 2 (issue 11): the facts a rules check needs, recorded as they happened.
    start_bands: dict[str, Band] = Field(default_factory=dict)  # at launch, before any turn
    turns: tuple[TurnBands, ...] = ()
    moves: tuple[BandMove, ...] = ()
    draws: tuple[CardDraw, ...] = ()
    reshuffles: tuple[int, ...] = ()  # cards drawn before each reshuffle of the discards

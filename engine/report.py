"""What a strike leaves behind: the public report the channel, the log and the images use.

A report is written only after the strike is flown, so it holds nothing secret. Every
card is named by id (the deck file gives its faces) with the purpose it was drawn for.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.types import AircraftState, Band, BombMode, BombResult, Ordnance, Side

Phase = Literal["target-bound", "ingress", "bomb", "egress", "home-bound", "scout"]


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


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


class FlakShot(Model):
    phase: Phase
    kind: Literal["area", "target", "strafe"]
    against: str  # uid
    cards: tuple[int, ...]
    answered: int | None = None  # card id answered (22.25: one answer at most)
    answer_card: int | None = None
    damage: int = 0
    spoils: int = 0


class BombRun(Model):
    uid: str
    mode: BombMode | Literal["strafe"]
    band: Band
    cards: tuple[int, ...]  # bomb (or strafe) cards drawn
    cancelled: tuple[int, ...] = ()  # cancelled by flak spoils (22.23)
    results: tuple[BombResult, ...] = ()  # applied results after shifts (21.63, clouds)
    points: int = 0  # damage points inflicted
    note: str = ""


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

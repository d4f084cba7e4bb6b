"""What one viewer may see of the air war: built by keeping, field by field, what the table
sees (planes, ammunition, medals, lost types, the discard pile, every card once played,
hand sizes) and, for a side's own player only, that side's hand. The draw pile's order is
nobody's. Nothing here copies a state object whole, so a secret field added to the state
later stays out of every view until someone writes it in here on purpose.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

import engine.rulesets.memoir44.board as board
from engine.rulesets.memoir44.catalog import Catalog, PlaneType, SideId, card_key, default_catalog
from engine.rulesets.memoir44.deck import Refused
from engine.rulesets.memoir44.orders import parse_flight, reaction_triggers
from engine.rulesets.memoir44.state import (
    SIDES,
    Fallen,
    GameState,
    Medal,
    Phase,
    Plan,
    Plane,
    Roll,
    SideState,
    Token,
    TurnRecord,
)

__all__ = [
    "AirView",
    "Fallen",
    "Medal",
    "Plan",
    "Plane",
    "Roll",
    "SideView",
    "Token",
    "TurnRecord",
    "air_catalog",
    "air_view",
    "drafted_flight",
    "hex_centre",
    "hex_labels",
    "section_lines",
]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SideView(_Frozen):
    nation: str
    trio: dict[PlaneType, str]
    plane: Plane | None
    lost: tuple[PlaneType, ...]
    medals: tuple[Medal, ...]
    hand_size: int
    hand: tuple[str, ...] | None  # card keys; only in the side's own view
    card_own: bool
    card_opp: bool
    withdrew: bool


class AirView(_Frozen):
    viewer: SideId | None
    turn: int
    turns: int
    finished: bool
    winner: str | None
    theatre: str
    year: int
    beach: bool
    superiority: str
    first: SideId
    active: SideId
    phase: Phase
    sides: dict[SideId, SideView]
    deck_count: int
    discard: tuple[str, ...]  # card keys, oldest first
    plan: Plan | None
    rolled: tuple[Roll, ...]
    fallen: tuple[Fallen, ...]
    bombed: dict[str, SideId]
    triggers: tuple[str, ...]  # what the other side may answer now (public)
    history: tuple[TurnRecord, ...]

    @property
    def vp(self) -> dict[str, int]:
        return {side: len(self.sides[side].medals) for side in SIDES}


def _public_plan(plan: Plan | None) -> Plan | None:
    """A plan holds only what was given and played in the open; the instance ids of played
    cards say nothing a discard pile does not."""
    if plan is None:
        return None
    return Plan(
        side=plan.side,
        command=plan.command,
        card=plan.card,
        effect=plan.effect,
        action=plan.action,
        deploy=plan.deploy,
        start=plan.start,
        path=plan.path,
        tokens=plan.tokens,
        finish=plan.finish,
        markers=plan.markers,
        shots=plan.shots,
        ambush=plan.ambush,
        ambush_unit=plan.ambush_unit,
        reaction=plan.reaction,
        reaction_token=plan.reaction_token,
        refused=plan.refused,
    )


def _side(mine: SideState, own: bool) -> SideView:
    return SideView(
        nation=mine.nation,
        trio=dict(mine.trio),
        plane=mine.plane,
        lost=mine.lost,
        medals=mine.medals,
        hand_size=len(mine.hand),
        hand=tuple(card_key(card) for card in mine.hand) if own else None,
        card_own=mine.card_own,
        card_opp=mine.card_opp,
        withdrew=mine.withdrew,
    )


def air_view(state: GameState, viewer: str | None) -> AirView:
    me: SideId | None = "allies" if viewer == "allies" else "axis" if viewer == "axis" else None
    return AirView(
        viewer=me,
        turn=state.turn,
        turns=state.turns,
        finished=state.finished,
        winner=state.winner,
        theatre=state.theatre,
        year=state.year,
        beach=state.beach,
        superiority=state.superiority,
        first=state.first,
        active=state.active,
        phase=state.phase,
        sides={side: _side(state.sides[side], own=side == me) for side in SIDES},
        deck_count=len(state.deck),
        discard=tuple(card_key(card) for card in state.discard),
        plan=_public_plan(state.plan),
        rolled=state.rolled,
        fallen=state.fallen,
        bombed=dict(state.bombed),
        triggers=tuple(sorted(reaction_triggers(state))) if state.phase == "reaction" else (),
        history=state.history,
    )


# -- published data and board geometry for the pictures (no campaign's state here)


def air_catalog() -> Catalog:
    """The published data (plane names, card titles, type loads) the pictures name."""
    return default_catalog()


def drafted_flight(view: AirView, text: str) -> Plan | None:
    """The viewer's own flight as drafted (a line ``read_text`` stored), as a plan to draw
    on its panel's picture; None when it is not the viewer's flight or does not read."""
    plan = view.plan
    if plan is None or view.phase != "flight" or plan.side != view.viewer:
        return None
    mine = view.sides[plan.side].plane
    kind = plan.deploy or (mine.type if mine is not None else None)
    if kind is None:
        return None
    try:
        order = parse_flight(text, kind)
    except Refused:
        return None
    return plan.model_copy(update={"path": order.path, "tokens": order.tokens})


def hex_labels() -> tuple[str, ...]:
    return board.every_hex()


def hex_centre(hexlabel: str) -> tuple[float, float]:
    """Where a hex sits: its doubled column (0 to 24) and its row (0 to 8)."""
    spot = board.parse(hexlabel)
    assert spot is not None, hexlabel
    return float(spot[1]), float(spot[0])


def section_lines() -> tuple[int, int]:
    """The doubled columns the two dotted section lines run down."""
    return (7, 17)

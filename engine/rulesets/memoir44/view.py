"""What one viewer may see of the air war: ``project`` builds the view from what the gate
(``engine.sight.keep``) kept of the labelled state for that viewer, and from nothing else.
A side sees its own hand; everyone sees the rest the table sees (planes, ammunition,
medals, lost types, the discard pile, every card once played, hand and draw pile sizes).
"""

from __future__ import annotations

from typing import Any

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
from engine.sight import PUBLIC, Derived, Eyes, keep

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


def _active(turn: int, first: SideId) -> SideId:
    return first if turn % 2 == 1 else ("axis" if first == "allies" else "allies")


def _triggers(state: GameState, _root: object) -> tuple[str, ...]:
    return tuple(sorted(reaction_triggers(state))) if state.phase == "reaction" else ()


# Public facts the views show without the secrets they are counted from.
DERIVED = (
    Derived(GameState, "deck_count", PUBLIC, lambda state, _root: len(state.deck)),
    Derived(SideState, "hand_size", PUBLIC, lambda side, _root: len(side.hand)),
    Derived(GameState, "triggers", PUBLIC, _triggers),
)


def _side(part: Any) -> SideView:
    hand = part.get("hand")
    return SideView(
        nation=part["nation"],
        trio=dict(part["trio"]),
        plane=part["plane"],
        lost=part["lost"],
        medals=part["medals"],
        hand_size=part["hand_size"],
        hand=None if hand is None else tuple(card_key(card) for card in hand),
        card_own=part["card_own"],
        card_opp=part["card_opp"],
        withdrew=part["withdrew"],
    )


def project(kept: Any, eyes: Eyes) -> AirView:
    """The view built from what the gate kept for ``eyes``, and nothing else."""
    viewer: SideId | None = eyes.side if eyes.side in SIDES else None
    return AirView(
        viewer=viewer,
        turn=kept["turn"],
        turns=kept["turns"],
        finished=kept["finished"],
        winner=kept["winner"],
        theatre=kept["theatre"],
        year=kept["year"],
        beach=kept["beach"],
        superiority=kept["superiority"],
        first=kept["first"],
        active=_active(kept["turn"], kept["first"]),
        phase=kept["phase"],
        sides={side: _side(kept["sides"][side]) for side in SIDES},
        deck_count=kept["deck_count"],
        discard=tuple(card_key(card) for card in kept["discard"]),
        plan=kept["plan"],
        rolled=kept["rolled"],
        fallen=kept["fallen"],
        bombed=dict(kept["bombed"]),
        triggers=kept["triggers"],
        history=kept["history"],
    )


def air_view(state: GameState, viewer: str | None) -> AirView:
    """What side ``viewer`` (or the public, ``None``) may see of ``state``: the gate keeps,
    ``project`` builds."""
    eyes = Eyes(side=viewer)
    return project(keep(state, eyes, finished=state.finished, derived=DERIVED), eyes)


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

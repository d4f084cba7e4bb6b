"""Shared set-ups for the Memoir '44 air rules tests: loaded dice and stacked hands."""

from __future__ import annotations

from collections.abc import Iterable

from engine.rng import Rng
from engine.rulesets.memoir44.catalog import Catalog, default_catalog
from engine.rulesets.memoir44.deck import with_side
from engine.rulesets.memoir44.flow import fly, give_command, react
from engine.rulesets.memoir44.orders import CommandOrder, Reaction, parse_flight
from engine.rulesets.memoir44.setup import Setup, new_game
from engine.rulesets.memoir44.state import GameState, Plane, SideId, other

FACE_INDEX = {"infantry": 0, "armour": 2, "grenade": 3, "star": 4, "flag": 5}
CATALOG: Catalog = default_catalog()


class _Stream:
    def __init__(self, owner: Loaded) -> None:
        self.owner = owner

    def randrange(self, n: int) -> int:
        assert n == 6
        if not self.owner.faces:
            return 1  # an infantry face: hits infantry only, never a plane
        return FACE_INDEX[self.owner.faces.pop(0)]

    def shuffle(self, items: list[str]) -> None:
        return None  # the deck stays in data order, so tests know every card


class Loaded(Rng):
    """Dice that come up as scripted (then infantry), and shuffles that change nothing."""

    def __init__(self, *faces: str) -> None:
        super().__init__("loaded", 0, "test")
        self.faces = list(faces)
        self.asked: list[str] = []

    def stream(self, purpose: str) -> _Stream:  # type: ignore[override]
        self.asked.append(purpose)
        return _Stream(self)


def start(**setup: object) -> GameState:
    state, _events = new_game(CATALOG, Setup(**setup), Loaded())  # type: ignore[arg-type]
    return state


def give(state: GameState, side: SideId, *keys: str) -> GameState:
    """Move one copy of each card ``key`` from the draw pile into ``side``'s hand."""
    for key in keys:
        deck = list(state.deck)
        found = next((card for card in deck if card.split("#")[0] == key), None)
        if found is None:  # dealt already: take it from the other hand
            owner = other(side)
            rest = list(state.side(owner).hand)
            found = next(card for card in rest if card.split("#")[0] == key)
            rest.remove(found)
            state = with_side(state, owner, hand=tuple(rest))
        else:
            deck.remove(found)
            state = state.model_copy(update={"deck": tuple(deck)})
        state = with_side(state, side, hand=(*state.side(side).hand, found))
    return state


def empty_hands(state: GameState) -> GameState:
    for side in ("allies", "axis"):
        hand = state.side(side).hand
        state = with_side(state, side, hand=())  # type: ignore[arg-type]
        state = state.model_copy(update={"deck": (*hand, *state.deck)})
    return state


def place(state: GameState, side: SideId, kind: str, hexlabel: str, **extra: object) -> GameState:
    """Put ``side``'s plane of ``kind`` on the board, as if deployed earlier."""
    load = CATALOG.types[kind]  # type: ignore[index]
    plane = Plane(
        type=kind,  # type: ignore[arg-type]
        model=state.side(side).trio[kind],  # type: ignore[index]
        hex=hexlabel,
        mg=load.mg,
        bombs=load.bombs,
    ).model_copy(update=extra)
    return with_side(state, side, plane=plane)


def command(
    state: GameState,
    cmd: str,
    card: str | None = None,
    action: str = "none",
    rng: Rng | None = None,
) -> GameState:
    state, _ = give_command(CATALOG, state, CommandOrder(cmd, card, action), rng or Loaded())
    return state


def flight(state: GameState, text: str, rng: Rng | None = None, markers: int = 0) -> GameState:
    plan = state.plan
    assert plan is not None
    kind = plan.deploy or state.side(plan.side).plane.type  # type: ignore[union-attr]
    order = parse_flight(text, kind)
    if markers:
        order = type(order)(order.path, order.tokens, order.finish, markers)
    state, _ = fly(CATALOG, state, order, rng or Loaded())
    return state


def answer(state: GameState, rng: Rng | None = None, **reaction: object) -> GameState:
    state, _ = react(CATALOG, state, Reaction(**reaction), rng or Loaded())  # type: ignore[arg-type]
    return state


def cards_everywhere(state: GameState) -> list[str]:
    return [*state.deck, *state.discard, *state.sides["allies"].hand, *state.sides["axis"].hand]


def kinds(items: Iterable[str]) -> list[str]:
    return [item.split("#")[0] for item in items]

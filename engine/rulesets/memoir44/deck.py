"""The Air Combat deck: shuffles, draws, plays and reshuffles.

Thirty card instances live in exactly one place at a time: the draw pile, a hand, or the
discard pile. Draws are secret (the events say who drew how many, never what); a played
card is public from then on, in the event and the discard pile.

When the draw pile runs out, the discards are shuffled into a new one (the rulebook is
silent; memoir44-authored-data.md 4.2 authors it, as the base game does with its Command
deck). If every card is in a hand, a draw gives nothing and the event says so.
"""

from __future__ import annotations

from engine.rng import Rng
from engine.ruleset import Event
from engine.rulesets.memoir44.catalog import SideId, card_key
from engine.rulesets.memoir44.state import GameState


class Refused(ValueError):
    """An order the rules do not allow; ``reason`` is a locale key suffix, ``data`` fills it."""

    def __init__(self, reason: str, **data: object) -> None:
        super().__init__(reason if not data else f"{reason} {data}")
        self.reason = reason
        self.data = data


def told(state: GameState, kind: str, **data: object) -> Event:
    """A public event of this turn."""
    return Event(kind=kind, turn=state.turn, data=data)


def next_stream(state: GameState, rng: Rng, what: str) -> tuple[GameState, object]:
    """A fresh random stream for one roll or shuffle, named by the state's counter so no two
    of a campaign's draws share one, however many rounds a turn holds."""
    stream = rng.stream(f"{what}:{state.streams}")
    return state.model_copy(update={"streams": state.streams + 1}), stream


def shuffle(
    state: GameState, rng: Rng, cards: tuple[str, ...]
) -> tuple[GameState, tuple[str, ...]]:
    state, stream = next_stream(state, rng, "shuffle")
    order = list(cards)
    stream.shuffle(order)  # type: ignore[attr-defined]
    return state, tuple(order)


def reshuffle(state: GameState, rng: Rng, why: str) -> tuple[GameState, list[Event]]:
    """The draw pile and the discards shuffled together into a new draw pile."""
    state, pile = shuffle(state, rng, state.deck + state.discard)
    state = state.model_copy(update={"deck": pile, "discard": ()})
    return state, [
        Event(kind="m44-reshuffled", turn=state.turn, data={"why": why, "cards": len(pile)})
    ]


def draw(
    state: GameState, rng: Rng, side: SideId, count: int, why: str
) -> tuple[GameState, list[Event]]:
    events: list[Event] = []
    got = 0
    for _ in range(count):
        if not state.deck and state.discard:
            state, more = reshuffle(state, rng, "empty")
            events += more
        if not state.deck:
            break
        top, rest = state.deck[0], state.deck[1:]
        hand = (*state.side(side).hand, top)
        state = _with_side(state, side, hand=hand).model_copy(update={"deck": rest})
        got += 1
    drawn = dict(state.drawn)
    drawn[side] = drawn.get(side, 0) + got
    state = state.model_copy(update={"drawn": drawn})
    data: dict[str, object] = {"side": side, "cards": got, "why": why}
    if got < count:
        data["short"] = count - got
    events.append(Event(kind="m44-drew", turn=state.turn, data=data))
    return state, events


def holding(state: GameState, side: SideId, key: str) -> str | None:
    """The first instance of card ``key`` in ``side``'s hand, or None."""
    return next((card for card in state.side(side).hand if card_key(card) == key), None)


def play(state: GameState, side: SideId, key: str, *, own_turn: bool) -> tuple[GameState, str]:
    """Move one copy of ``key`` from the hand to the discards, keeping the one-card-a-turn
    limits: one on your own turn, one during the opponent's (II)."""
    instance = holding(state, side, key)
    if instance is None:
        raise Refused("card-not-in-hand", card=key)
    mine = state.side(side)
    if own_turn and mine.card_own:
        raise Refused("card-own-turn-limit")
    if not own_turn and mine.card_opp:
        raise Refused("card-opponent-turn-limit")
    hand = list(mine.hand)
    hand.remove(instance)
    flag = {"card_own": True} if own_turn else {"card_opp": True}
    state = _with_side(state, side, hand=tuple(hand), **flag)
    return state.model_copy(update={"discard": (*state.discard, instance)}), instance


def _with_side(state: GameState, side: SideId, **update: object) -> GameState:
    sides = dict(state.sides)
    sides[side] = sides[side].model_copy(update=update)
    return state.model_copy(update={"sides": sides})


with_side = _with_side

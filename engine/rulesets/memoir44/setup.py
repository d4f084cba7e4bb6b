"""Setting the air war up (rulebook I, I.a, I.b): superiority, each side's trio, the deck
shuffled and the opening hands dealt."""

from __future__ import annotations

from dataclasses import dataclass

from engine.rng import Rng
from engine.ruleset import Event
from engine.rulesets.memoir44.catalog import Catalog, SideId, Theatre
from engine.rulesets.memoir44.deck import draw, shuffle
from engine.rulesets.memoir44.state import SIDES, GameState, SideState


@dataclass(frozen=True)
class Setup:
    theatre: Theatre = "western"
    year: int = 1944
    beach: bool = False
    allies: str = "usa"
    axis: str = "germany"
    first: SideId = "allies"
    turns: int = 40


def chart_year(year: int) -> int:
    """The chart's columns run 1939 to 1945; earlier or later years use the nearest one
    (memoir44-authored-data.md 4.2)."""
    return min(1945, max(1939, year))


def superiority(catalog: Catalog, theatre: Theatre, year: int) -> str:
    return catalog.superiority[theatre][chart_year(year)]


def opening_hand(catalog: Catalog, side: str, who: str, beach: bool) -> int:
    """I.b: two cards, one more for the side with superiority, one fewer on a beach landing."""
    hands = catalog.hands
    size = hands.base + (hands.superiority if who == side else 0)
    return size + (hands.beach if beach else 0)


def new_game(catalog: Catalog, setup: Setup, rng: Rng) -> tuple[GameState, list[Event]]:
    for side, nation in (("allies", setup.allies), ("axis", setup.axis)):
        if nation not in catalog.nations or catalog.nations[nation].side != side:
            raise ValueError(f"{nation!r} is not a nation of the {side}")
    who = superiority(catalog, setup.theatre, setup.year)
    sides = {
        side: SideState(nation=nation, trio=catalog.trio(nation, setup.theatre))
        for side, nation in (("allies", setup.allies), ("axis", setup.axis))
    }
    state = GameState(
        theatre=setup.theatre,
        year=setup.year,
        beach=setup.beach,
        superiority=who,
        first=setup.first,
        turns=setup.turns,
        sides=sides,
    )
    state, pile = shuffle(state, rng, catalog.deck())
    state = state.model_copy(update={"deck": pile})
    events = [table_set(catalog, state)]
    for side in SIDES:
        state, dealt = draw(
            state, rng, side, opening_hand(catalog, side, who, setup.beach), "opening"
        )
        events += [e.model_copy(update={"turn": 0}) for e in dealt]
    # The opening hands are not a turn's draws.
    return state.model_copy(update={"drawn": {}}), events


def table_set(catalog: Catalog, state: GameState) -> Event:
    """The table as set: theatre, superiority, trios' nations, who begins (never a card)."""
    return Event(
        kind="m44-setup",
        turn=0,
        data={
            "theatre": state.theatre,
            "year": state.year,
            "beach": state.beach,
            "superiority": state.superiority,
            "allies": state.sides["allies"].nation,
            "axis": state.sides["axis"].nation,
            "first": state.first,
            "removed": list(catalog.removed),
        },
    )

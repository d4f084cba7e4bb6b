"""Helpers to play whole campaigns between random legal commanders."""

from __future__ import annotations

import random

from engine.rng import Rng
from engine.rulesets.carrier.campaign import new_campaign, pending, resolve
from engine.rulesets.carrier.state import Event, State
from engine.zero.catalog import Catalog
from engine.zero.types import Side


def random_choices(
    catalog: Catalog, state: State, rnd: random.Random
) -> dict[Side, dict[str, str]]:
    choices: dict[Side, dict[str, str]] = {side: {} for side in Side}
    for decision in pending(catalog, state):
        choices[decision.side][decision.field] = rnd.choice(decision.options).id
    return choices


def play(
    catalog: Catalog, scenario: str, seed: str, pick_seed: int
) -> tuple[State, list[Event], list[State]]:
    """A whole campaign; returns the final state, every event and the state after each round."""
    state = new_campaign(catalog, scenario, seed)
    rnd = random.Random(pick_seed)
    events: list[Event] = []
    states = [state]
    while not state.finished:
        choices = random_choices(catalog, state, rnd)
        state, new = resolve(catalog, state, choices, Rng(seed, state.turn, state.round.value))
        events.extend(new)
        states.append(state)
    return state, events, states

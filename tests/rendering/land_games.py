"""Land campaigns played to their end, for the tests that read what a finished one shows."""

from __future__ import annotations

import random

from engine.rng import Rng
from engine.rulesets.land import LandRules
from engine.rulesets.land.state import LandState


def finished_land(rules: LandRules, scenario: str, seed: str, picks: int) -> LandState:
    """``scenario`` played to its end on ``seed``, each choice drawn by
    ``random.Random(picks)``: the same campaign every run."""
    state = rules.new(scenario, seed)
    picker = random.Random(picks)
    while not state.finished:
        choices = rules.drawn(rules.pending(state), picker)
        state, _ = rules.resolve(state, choices, Rng(seed, state.turn, "mission"))
    return state

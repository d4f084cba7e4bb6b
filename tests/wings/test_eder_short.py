"""The short Eder scenario (seed DB 8.d): one Lancaster, won if the dam is hit."""

from __future__ import annotations

import random

from engine.rng import Rng
from engine.rulesets.wings import WingsRules
from engine.rulesets.wings import dambuster as db
from tests.wings.helpers import catalog


def test_the_short_scenario_flies_one_lancaster_and_is_won_by_one_hit() -> None:
    rules = WingsRules(catalog())
    assert "dambuster-eder-short" in rules.scenarios()
    state = rules.new("dambuster-eder-short", "s")
    assert state.dam is not None and state.dam.roster == ("AJ-L",)
    assert not state.dam.night and state.dam.guns == {}  # the Eder is undefended
    hit = state.dam.planes["AJ-L"].model_copy(
        update={"status": "done", "bomb": db.Bomb(stage="exploded", outcome="hit")}
    )
    won = state.dam.model_copy(update={"planes": {"AJ-L": hit}, "hits": 1, "finished": True})
    assert db.result(won)["result"] == "victory"
    missed = hit.model_copy(update={"bomb": db.Bomb(stage="exploded", outcome="missed")})
    lost = won.model_copy(update={"planes": {"AJ-L": missed}, "hits": 0})
    assert db.result(lost)["result"] == "defeat"
    # The full scenario still grades a single hit as a minor victory.
    full = db.new_dam("eder")
    one = {**full.planes, "AJ-L": hit}
    assert db.result(full.model_copy(update={"planes": one, "hits": 1}))["result"] == "minor"


def test_the_short_scenario_plays_to_its_end_through_the_ruleset() -> None:
    rules = WingsRules(catalog())
    state = rules.new("dambuster-eder-short", "play")
    picks = random.Random(3)
    rounds = 0
    while not rules.progress(state).finished:
        progress = rules.progress(state)
        choices = rules.drawn(rules.pending(state), picks)
        state, _ = rules.resolve(state, choices, Rng("play", progress.turn, progress.round))
        rounds += 1
        assert rounds < 200
    assert state.dam is not None and state.dam.finished
    assert rules.progress(state).winner in ("entente", "central")

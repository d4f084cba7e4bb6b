"""Every ruleset's recorded games replay to the same events (``tests/golden_rulesets.py``).

A refactoring of the seam or the layout must leave each of them byte-identical; a rules
change made on purpose rewrites the fixture (``python -m tests.golden_rulesets --write``) in
the same commit as the version bump, and says so.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.rng import Rng
from tests.golden_rulesets import ACCEPTED_ONLY, GAMES, _registry, load, replay


def _name(game: dict[str, Any]) -> str:
    return f"{game['ruleset']}-{game['scenario']}-{game['seed']}"


GAMES_RECORDED = load()


def test_the_fixture_records_every_game_listed() -> None:
    recorded = {(g["ruleset"], g["scenario"], g["seed"]) for g in GAMES_RECORDED}
    assert recorded == set(GAMES)


def test_every_registered_ruleset_has_a_recorded_game() -> None:
    assert set(_registry().keys()) <= {g["ruleset"] for g in GAMES_RECORDED}


@pytest.mark.parametrize("game", GAMES_RECORDED, ids=_name)
def test_a_recorded_game_replays_to_the_same_events(game: dict[str, Any]) -> None:
    rules = _registry().get(game["ruleset"]).rules
    assert replay(rules, game) == []


@pytest.mark.parametrize("game", GAMES_RECORDED, ids=_name)
def test_every_recorded_round_is_one_a_player_could_lock(game: dict[str, Any]) -> None:
    """A recorded side's picks, over the defaults of what it left, are a whole the rules
    take at Lock (``check_choice``), each typed text as the rules read it back: the tests
    that play a recording through the service (the generated secrecy and replay-page tests)
    then need not skip a game whose rules refuse a combination."""
    rules = _registry().get(game["ruleset"]).rules
    seed = f"golden-{game['seed']}"
    state = rules.new(game["scenario"], seed)
    for index, recorded in enumerate(game["rounds"]):
        asked = rules.pending(state)
        for side in {d.side for d in asked}:
            choice = {d.field: d.default for d in asked if d.side == side}
            choice.update(recorded["choices"].get(side, {}))
            refusal = rules.check_choice(state, side, choice)
            assert refusal is None, (index, side, choice, refusal)
            for decision in (d for d in asked if d.side == side and d.input == "text"):
                assert (
                    rules.read_text(state, decision, choice[decision.field])
                    == choice[decision.field]
                ), (index, decision.field)
        progress = rules.progress(state)
        state, _events = rules.resolve(
            state, recorded["choices"], Rng(seed, progress.turn, progress.round)
        )


@pytest.mark.parametrize(
    "game", [g for g in GAMES_RECORDED if g["ruleset"] in ACCEPTED_ONLY], ids=_name
)
def test_a_game_drawn_among_accepted_picks_still_plays_deep(game: dict[str, Any]) -> None:
    """Drawing only what the rules accept must not leave games that end before they show
    anything: each such game lasts many turns, its planes deploy and fly, the enemy
    reacts, dice roll."""
    rules = _registry().get(game["ruleset"]).rules
    seed = f"golden-{game['seed']}"
    state = rules.new(game["scenario"], seed)
    kinds: Counter[str] = Counter()
    for recorded in game["rounds"]:
        progress = rules.progress(state)
        state, events = rules.resolve(
            state, recorded["choices"], Rng(seed, progress.turn, progress.round)
        )
        kinds.update(e.kind for e in events)
    assert game["final"]["turn"] >= 20, game["final"]
    for kind in ("m44-deployed", "m44-flew", "m44-roll", "m44-ambush"):
        assert kinds[kind] >= 3, (kind, dict(kinds))
    assert kinds["m44-refused"] == 0, dict(kinds)

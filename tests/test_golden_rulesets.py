"""Every ruleset's recorded games replay to the same events (``tests/golden_rulesets.py``).

A refactoring of the seam or the layout must leave each of them byte-identical; a rules
change made on purpose rewrites the fixture (``python -m tests.golden_rulesets --write``) in
the same commit as the version bump, and says so.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.golden_rulesets import GAMES, _registry, load, replay


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

"""A resolution reads its state and builds a new one: the state it was given is left as it
was (issue 29).

The service runs a round's resolution in a thread (``bot.service_plan.plan_resolution``)
while the event loop goes on serving other requests, some of which hold the same parsed
state from the cache. A ruleset whose ``resolve`` wrote into the state it was handed would
let them read a state half resolved. Every recorded game (``tests/golden_rulesets.py``) is
replayed round by round, the state's stored form compared before and after each resolution.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.rng import Rng
from tests.golden_rulesets import _registry, load

GAMES = load()


def _name(game: dict[str, Any]) -> str:
    return f"{game['ruleset']}-{game['scenario']}-{game['seed']}"


@pytest.mark.parametrize("game", GAMES, ids=_name)
def test_a_resolution_leaves_the_state_it_reads_unchanged(game: dict[str, Any]) -> None:
    rules = _registry().get(game["ruleset"]).rules
    seed = f"golden-{game['seed']}"
    state = rules.new(game["scenario"], seed)
    for index, recorded in enumerate(game["rounds"]):
        before = rules.dump_stored(state)
        progress = rules.progress(state)
        after, _events = rules.resolve(
            state, recorded["choices"], Rng(seed, progress.turn, progress.round)
        )
        again = rules.dump_stored(state)
        assert (again.current, again.records, again.length) == (
            before.current,
            before.records,
            before.length,
        ), f"round {index}: resolve wrote into the state it was given"
        state = after

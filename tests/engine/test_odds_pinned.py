"""Odds previews on played states give, play for play, the figures pinned before the
preview was made cheaper (``tests/engine/odds_pinned.py``)."""

from __future__ import annotations

import json

from tests.engine.odds_pinned import FIXTURE, compute


def test_previews_on_played_states_give_the_pinned_figures() -> None:
    expected = json.loads(FIXTURE.read_text())
    actual = json.loads(json.dumps(compute()))
    assert actual.keys() == expected.keys()
    changed = sorted(name for name in expected if actual[name] != expected[name])
    assert not changed, f"figures changed: {changed}"

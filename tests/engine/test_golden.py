"""The carrier engine's outputs stay byte for byte what they were (issue 13's speed work).

A failure names each campaign or preview whose bytes changed. If the change is a rules
change made on purpose, bump ``CarrierRules.version`` and rewrite the fixture with
``python -m tests.engine.golden --write``.
"""

from __future__ import annotations

import json

from tests.engine.golden import FIXTURE, compute


def test_campaigns_and_odds_match_the_recorded_bytes() -> None:
    expected = json.loads(FIXTURE.read_text())
    actual = compute()
    changed = sorted(name for name in expected if actual.get(name) != expected[name])
    assert actual.keys() == expected.keys()
    assert not changed, f"outputs changed: {changed}"

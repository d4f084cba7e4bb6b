"""A campaign locked before fields were named after their planes (``plane1``, ``order2``,
``skill1``...: every Wings campaign begun before this release) still replays to the same
events, so its export still verifies: the recorded game below is the golden fixture's
wings-1917 seed 1 as recorded under wings rules 15, choices and digests untouched."""

from __future__ import annotations

import json
from pathlib import Path

from engine.rulesets.wings import legacy
from tests.golden_rulesets import _registry, replay

FIXTURE = Path(__file__).parents[1] / "fixtures" / "wings-numbered-fields.json"


def test_a_game_locked_under_the_numbered_fields_replays_to_the_same_events() -> None:
    (game,) = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert any(legacy.is_old(r["choices"]) for r in game["rounds"])  # the old names indeed
    assert replay(_registry().get("wings").rules, game) == []

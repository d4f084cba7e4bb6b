"""``verify --rules`` knows Midway's optional historical opening (authored 3.7.4): a
Japanese strike on turn 1 goes for Midway when the GM picked "midway-historical"."""

from __future__ import annotations

from rulecheck_sweep import random_export

from engine.rulesets.carrier.rulecheck import check_export
from engine.rulesets.carrier.rulecheck.data import GameData
from engine.zero.loader import default_catalog

OPENING = ("historical-opening", "authored 3.7.4")


def _findings(historical: bool, data: GameData) -> tuple[set[tuple[str, str]], int]:
    """The problems found in random "midway-historical" campaigns, played by an engine
    that applies the switch (or, ``historical=False``, one that forgets it)."""
    catalog = default_catalog()
    twin = catalog.scenarios["midway-historical"]
    if not historical:
        scenarios = {
            **catalog.scenarios,
            twin.key: twin.model_copy(update={"historical_opening": False}),
        }
        catalog = catalog.model_copy(update={"scenarios": scenarios})
    found: set[tuple[str, str]] = set()
    passed = 0
    for number in range(8):
        result = check_export(random_export(catalog, twin.key, f"opening-{number}", number), data)
        assert result.refused is None
        found |= {(p.check, p.rule) for p in result.problems}
        passed += result.passed
    return found, passed


def test_a_historical_opening_campaign_passes(game_data: GameData) -> None:
    found, passed = _findings(True, game_data)
    assert found == set()
    assert passed > 0


def test_an_engine_that_forgets_the_opening_is_caught(game_data: GameData) -> None:
    found, _ = _findings(False, game_data)
    assert OPENING in found

"""The engine mutations of issue 11 that survived the suite, killed through the checker:
an engine broken on purpose plays campaigns whose exports ``verify --rules`` refuses."""

from __future__ import annotations

from typing import Any

import pytest
from rulecheck_sweep import random_export

import engine.rulesets.carrier.turn
from engine.rulesets.carrier.rulecheck import check_export
from engine.rulesets.carrier.rulecheck.data import GameData
from engine.zero.loader import default_catalog


def _findings(scenario: str, campaigns: int, data: GameData) -> set[tuple[str, str]]:
    catalog = default_catalog()
    found: set[tuple[str, str]] = set()
    for number in range(campaigns):
        result = check_export(random_export(catalog, scenario, f"mutant-{number}", number), data)
        assert result.refused is None
        found |= {(p.check, p.rule) for p in result.problems}
    return found


def test_recovery_by_both_fleets_at_midway_is_caught(
    monkeypatch: pytest.MonkeyPatch, game_data: GameData
) -> None:
    """Mutation 1: each force counts its own side's tactic (Midway the Allied one) instead
    of 25.34's attacker's tactic."""

    def own_side(turn: Any, place: Any, opponent: Any) -> int:
        return int(turn.tactic(place.side).recovery_cards)

    monkeypatch.setattr(engine.rulesets.carrier.turn, "_range_of", own_side)
    assert ("recovery-cards", "25.71") in _findings("midway", 6, game_data)


def test_equal_resources_not_flying_together_is_caught(
    monkeypatch: pytest.MonkeyPatch, game_data: GameData
) -> None:
    """Mutation 2: equal resource numbers resolved one after the other (25.53)."""
    original = engine.rulesets.carrier.turn._carrier_setup

    def in_turn(turn: Any, side: Any, strike: Any, order: int, simultaneous: bool) -> Any:
        return original(turn, side, strike, order, False)

    monkeypatch.setattr(engine.rulesets.carrier.turn, "_carrier_setup", in_turn)
    assert ("strike-order", "25.53") in _findings("coral-sea", 8, game_data)


def test_the_unmutated_engine_passes_the_same_campaigns(game_data: GameData) -> None:
    assert _findings("midway", 6, game_data) == set()
    assert _findings("coral-sea", 8, game_data) == set()

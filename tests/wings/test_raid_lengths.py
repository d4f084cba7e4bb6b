"""A raid's length is worked out once per scenario, not each time a card or a panel names
the campaign's scenarios (``scenarios()``): it built a new raid for every Dambuster
scenario, 60 µs a call, several calls per Wings Lock (issue 29). Counted in raids built,
never timed; the lengths are those of a new raid."""

from __future__ import annotations

import pytest

import engine.rulesets.wings.dam as dam
from bot.rulesets import Registry


@pytest.mark.parametrize("game", ["wings", "dambuster"])
def test_the_scenarios_build_no_raid_once_known(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Registry().get(game).rules
    first = rules.scenarios()
    built: list[str] = []
    new_raid = dam.new_raid

    def counted(scenario: str) -> object:
        built.append(scenario)
        return new_raid(scenario)

    monkeypatch.setattr(dam, "new_raid", counted)
    for _ in range(3):
        assert rules.scenarios() == first
    assert built == []
    for key in dam.DAM_SCENARIOS:
        assert first[key].turns == len(new_raid(key).roster) * dam.TURNS_PER_RUN

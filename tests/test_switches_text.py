"""The GM's switch text on /campaign new (bot.switches.parse): what it reads and refuses."""

from __future__ import annotations

import pytest

from bot.service_model import ServiceError
from bot.switches import parse


def test_pairs_are_read_whatever_the_spacing_and_case() -> None:
    assert parse("front=Eastern, sun = off  Come-Back=on") == {
        "front": "eastern",
        "sun": "off",
        "come_back": "on",
    }
    assert parse("") == {} and parse(" , ") == {}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("front", "bad-switch"),
        ("=on", "bad-switch"),
        ("sun=", "bad-switch"),
        ("sun=on sun=off", "switch-twice"),
        (" ".join(f"s{n}=on" for n in range(41)), "too-many-switches"),
    ],
)
def test_malformed_text_is_refused(text: str, code: str) -> None:
    with pytest.raises(ServiceError) as refused:
        parse(text)
    assert refused.value.code == code


def test_the_text_completes_into_the_scenario_s_switches() -> None:
    from bot.switches import completions
    from engine.rulesets.wings import WingsRules
    from engine.rulesets.wings.catalog import default_catalog

    rules = WingsRules(default_catalog())
    assert completions(rules, "wings-1917", "fro") == ["front=western", "front=eastern"]
    assert completions(rules, "wings-1917", "front=e") == ["front=eastern"]
    # A switch already given is not offered again; the text so far is kept.
    assert completions(rules, "wings-1917", "front=eastern su") == [
        "front=eastern sun=on",
        "front=eastern sun=off",
        "front=eastern sun_above_clouds=on",
        "front=eastern sun_above_clouds=off",
    ]
    assert completions(rules, "wings-1917", "sun=on sun") == [
        "sun=on sun_above_clouds=on",
        "sun=on sun_above_clouds=off",
    ]
    assert completions(rules, "dambuster-eder", "") == []

"""The campaign log reads as a story: the log of a whole demo campaign of every ruleset,
and every event kind the services and the carrier engine write, rendered in English and
French, has no unfilled placeholder, no raw id or key, no full receipt, and its French
uses no word that only the English catalogue has."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from bot.demo import run
from bot.i18n import _catalog
from bot.logtext import describe
from engine.zero.loader import default_catalog
from rendering.zero.log_words import _place_names
from tests.demos import ZERO_DEMOS

DEMOS = (*ZERO_DEMOS, ("wings", None))
SIDE_IDS = ("japanese", "allied", "entente", "central")
# Data that is a proper name of the game's world, shown as the data spells it.
PROPER = (
    *("location", "placed", "cap", "aircraft", "target", "seed", "items", "japanese", "allied"),
    "reason",  # a GM's own words
)

# Words French writes as English does (and the log's French uses).
SAME_IN_FRENCH = frozenset({"tests", "collision"})

# Events the demos do not reach: GM tools, failures and the carrier's rarer outcomes, with
# the data their writers give them (bot/service_gm.py, bot/service_core.py,
# engine/rulesets/carrier/turn.py).
OTHER_EVENTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("resolution-failed", {"ref": "7f3a", "error": "boom"}),
    ("player-joined", {"user": 555000111222333444, "side": "allied", "commander": False}),
    ("player-removed", {"user": 555, "side": "allied", "new_commander": 556}),
    ("player-removed", {"user": 555, "side": "allied", "new_commander": None}),
    ("player-substituted", {"old": 555, "new": 556, "side": "japanese", "kept_old": True}),
    ("player-substituted", {"old": 555, "new": 556, "side": "japanese", "kept_old": False}),
    ("side-unlocked", {"side": "allied"}),
    ("side-locked", {"side": "allied", "receipt": "ab" * 32, "defaulted": True}),
    (
        "defaults-applied",
        {"sides": ["allied", "japanese"], "why": "resolve-now", "policy": "drafts"},
    ),
    ("deadline-extended", {"by": 7, "seconds": 129600, "deadline": 1746446400}),
    ("paused", {"by": 7, "reason": "holiday week"}),
    ("paused", {"by": 7, "reason": None}),
    ("resumed", {"by": 7, "shift": 3600}),
    (
        "rollback",
        {
            "by": 7,
            "reason": "wrong pick",
            "to_turn": 2,
            "from_branch": 0,
            "branch": 1,
            "void_rounds": 3,
        },
    ),
    ("campaign-finished", {"reason": "the players agreed", "winner": None, "by": 7}),
    ("campaign-finished", {"reason": "ended", "winner": "japanese", "by": 7}),
    ("strike-cut", {"side": "japanese", "size": "small", "reason": "fleet-damage"}),
    ("strike-cut", {"side": "japanese", "size": "none", "reason": "fleet-out-of-action"}),
    ("scout-mission", {"side": "allied", "success": True}),
    ("scout-bonus", {"side": "japanese", "aircraft": "D3A1"}),
    ("out-of-sight", {"side": "allied", "outcome": "hidden", "cards": [3, 9]}),
    ("out-of-sight", {"side": "allied", "outcome": "partial", "cards": [3]}),
    ("out-of-sight", {"side": "allied", "outcome": "failed", "cards": []}),
    ("out-of-sight", {"side": "allied", "outcome": "spotted", "cards": []}),
    ("strike-recalled", {"side": "allied", "reason": "not-sighted"}),
    (
        "strike-flown",
        {
            "strike": "T2-A1",
            "kind": "carrier",
            "attacker": "allied",
            "target": "japanese-fleet",
            "points": 1,
            "hidden": True,
        },
    ),
    ("submarine", {"side": "allied", "card": 12, "result": "HIT", "points": 4}),
    ("losses-ticked", {"place": "midway-airfield", "boxes": 3}),
    ("recovery", {"tests": 3, "lost": ["T1-J1-B5N2-2"]}),
    ("damage-control", {"side": "allied", "boxes": 1}),
    (
        "pilots-drafted",
        {"side": "japanese", "purpose": "strike:japanese", "placed": {"u1": "Sakai"}},
    ),
    ("pilots-drafted", {"side": "allied", "purpose": "strike:midway", "placed": {}}),
    ("cap-drawn", {"place": "invasion-force", "card": 4, "result": "HIT", "cap": "1 L A6M2"}),
)


@pytest.fixture(scope="module")
def demo_events(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, str, dict[str, Any]]]:
    import asyncio

    events: list[tuple[str, str, dict[str, Any]]] = []
    for ruleset, scenario in DEMOS:
        out = tmp_path_factory.mktemp(f"demo-{ruleset}")
        asyncio.run(run(scenario, 1942, out, ruleset=ruleset))
        export = json.loads((out / "export.json").read_text(encoding="utf-8"))
        events += [(ruleset, e["kind"], e["data"] | {"_turn": e["turn"]}) for e in export["events"]]
    return events


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z][a-z]{3,}", text)}


def _english_only() -> set[str]:
    """Words of the English catalogue that the French one never uses outside the log (the
    lines under test): a French line holding one of them has English left in it."""
    english = set().union(*(_words(v) for v in _catalog("en").values()))
    french = set().union(
        *(_words(v) for k, v in _catalog("fr").items() if not k.startswith("log."))
    )
    return english - french - SAME_IN_FRENCH


def _lines(
    events: list[tuple[str, str, dict[str, Any]]], lang: str
) -> Iterator[tuple[str, str, str]]:
    for ruleset, kind, data in events:
        turn = data.get("_turn")
        clean = {k: v for k, v in data.items() if k != "_turn"}
        yield ruleset, kind, describe(kind, clean, lang, turn=turn if isinstance(turn, int) else 1)


def _without_proper_names(line: str, data: Mapping[str, Any]) -> str:
    from rendering.zero.log_words import _aircraft_names

    for name in _aircraft_names(
        default_catalog()
    ).values():  # "B-17E Flying Fortress" in a strike's detail
        line = line.replace(name, "")
    for key in PROPER:
        value = data.get(key)
        values = value.values() if isinstance(value, Mapping) else [value]
        for item in values:
            if isinstance(item, str) and item:
                line = line.replace(item, "")
    return line


def _check(events: list[tuple[str, str, dict[str, Any]]]) -> list[str]:
    problems: list[str] = []
    english_only = _english_only()
    place_keys = [key for key in _place_names(default_catalog()) if "-" in key]
    for lang in ("en", "fr"):
        for (ruleset, kind, line), (_, _, data) in zip(_lines(events, lang), events, strict=True):
            where = f"{lang} {ruleset} {kind}: {line}"
            if "{" in line or "}" in line or line.startswith(kind + " ("):
                problems.append("unfilled or no template — " + where)
            if re.search(r"[0-9a-f]{20,}", line):
                problems.append("full hash — " + where)
            if re.search(r"(?<![<@\d])\d{15,}", line):
                problems.append("raw Discord id — " + where)
            if re.search(r"\b(" + "|".join(SIDE_IDS) + r")\b", line):
                problems.append("side id — " + where)
            if any(key in line for key in place_keys) or re.search(r"\b(cap|strike):[a-z]", line):
                problems.append("raw key — " + where)
            if line.rstrip().endswith(":"):
                problems.append("empty ending — " + where)
            if re.search(r"\b1 (boxes|points|tests|rounds|bombing runs)\b", line):
                problems.append("plural — " + where)
            if lang == "fr":
                leftover = _words(_without_proper_names(line, data)) & english_only
                if leftover:
                    problems.append(f"English {sorted(leftover)} — " + where)
    return problems


def test_every_demo_campaign_log_reads_in_both_languages(
    demo_events: list[tuple[str, str, dict[str, Any]]],
) -> None:
    assert {r for r, _, _ in demo_events} == {r for r, _ in DEMOS}
    assert _check(demo_events) == []


def test_gm_tools_and_rare_carrier_events_read_in_both_languages() -> None:
    events = [("carrier", kind, data) for kind, data in OTHER_EVENTS]
    assert _check(events) == []


def test_sentences_name_people_sides_and_counts() -> None:
    line = describe("rollback", dict(OTHER_EVENTS[13][1]), "en")
    assert line == (
        "<@7> rolled the campaign back to the start of turn 2 (reason: wrong pick); 3 rounds undone"
    )
    french = describe("rollback", dict(OTHER_EVENTS[13][1]), "fr")
    assert french.startswith(
        "<@7> a ramené la campagne au début du tour 2 (motif\u00a0: wrong pick)"
    )
    assert describe("losses-ticked", {"place": "japanese-fleet", "boxes": 1}, "en") == (
        "Japanese carrier fleet: 1 box ticked for aircraft lost"
    )
    locked = describe("side-locked", {"side": "japanese", "receipt": "c0ffee" * 10}, "en")
    assert "`c0ffeec0ffee…`" in locked and "/receipt" in locked
    revealed = describe(
        "orders-revealed",
        {
            "japanese": {"fleet_tactic": "long", "flight_ops": "large:allied-fleet"},
            "allied": {"fleet_tactic": "medium", "flight_ops": "none"},
        },
        "en",
    )
    assert revealed == (
        "Orders revealed: Japanese Long Range, Large Strike → Allied carrier fleet; "
        "Allied Medium Range, No Strike"
    )
    empty = describe(
        "pilots-drafted", {"side": "japanese", "purpose": "strike:japanese", "placed": {}}, "en"
    )
    assert empty == "Japanese, pilots for the strike: no skilled pilot drawn"


def test_the_english_detector_catches_english() -> None:
    english_only = _english_only()
    assert _words("Orders revealed: Japanese Long Range") & english_only
    assert not _words("Ordres révélés : Japonais Longue Distance") & english_only


def test_land_resources_are_named_in_the_readers_language() -> None:
    revealed = {"japanese": "#7 Att.: Surprise", "allied": "#1 L Buffalo I"}
    data = {**revealed, "japanese_doctrine": "balanced", "allied_doctrine": "balanced"}
    french = describe("land-resources", data, "fr")
    assert "#7 Att.\u00a0: Surprise" in french and "#1 Buffalo I (L seul)" in french
    assert "#7 Att.: Surprise" in describe("land-resources", data, "en")

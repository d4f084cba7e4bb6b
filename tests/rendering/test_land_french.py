"""The land campaigns in French (issue 10): every word of the sheets has a French entry,
the English entries are the sheets' own words, and the French panel, mission card, status
and mission report read with no English word and with French typography."""

from __future__ import annotations

import re

import pytest

from engine.rulesets.land import LandRules
from engine.rulesets.land.sheet import load_land_campaign
from engine.rulesets.land.state import LandState
from engine.rulesets.land.view import THEATRES
from engine.zero.loader import default_catalog
from rendering.i18n import keys, t
from rendering.rulesets.land import LandPresenter, kind_text
from tests.rendering.land_games import finished_land

# English words of the sheets (place descriptions, resource names and texts) that are not
# also French or a proper name; one of them in a French text means a string was missed.
ENGLISH = {
    "airfield", "harbour", "beaches", "invasion", "line", "river", "landing", "convoy",
    "columns", "pass", "oil", "tanks", "docks", "yard", "rail", "bridge", "over", "gulf",
    "bay", "held", "japanese", "allied", "attacking", "defending", "only", "joins", "join",
    "bombers", "fly", "flies", "more", "one", "two", "draws", "pilot", "pilots", "veteran",
    "reinforcement", "clouds", "target", "early", "warning", "ace", "dispersal", "lone",
    "element", "with", "the", "your", "enemy", "start", "turns", "longer", "counts", "hit",
    "def", "from", "at", "off", "ground", "forces", "freighter", "cruiser", "battleship",
    "dogfight", "evacuation", "depot", "town", "supply", "and", "dec", "jan", "feb", "apr",
    "mar", "burma", "malaya", "vp", "waiting", "locked", "mission-", "w",
}  # fmt: skip
SPACE_BEFORE = re.compile(r"(?<=\S)( |)([:;!?])(?=\s|$)")


def _finished(rules: LandRules, scenario: str) -> LandState:
    return finished_land(rules, scenario, "fr", picks=5)


def _french_texts(rules: LandRules, presenter: LandPresenter, scenario: str) -> list[str]:
    """What a French player reads of a campaign: the order panel's lines (mission card,
    resources offered and refused, the picked resource's effect), every target's line, the
    status lines, the turn summaries and the mission reports' text."""
    texts: list[str] = []
    state = rules.new(scenario, "fr")
    for side in ("japanese", "allied"):
        view = rules.view(state, side)
        for decision in rules.pending(state):
            if decision.side != side:
                continue
            texts += presenter.option_lines(scenario, decision, "fr")
            texts += [f"{a} {b}" for a, b in presenter.excluded_lines(scenario, decision, "fr")]
            for option in decision.options:
                texts.append(presenter.option_description(decision.field, option, "fr"))
        before, after = presenter.panel_notes(
            scenario, view, side, {"resource": f"{side[0].upper()}4"}, "fr"
        )
        texts += before + after
        texts.append(presenter.panel_summary(view, side, "fr"))
    # Every target as the after-action table and the map name it, drawn or not.
    sheet = rules.view(state, None).sheet
    texts += [presenter._target_line(sheet, target, "fr") for target in sheet.targets]
    done = _finished(rules, scenario)
    view = rules.view(done, None)
    texts += presenter.status_lines(view, "fr")
    for record in done.history:
        texts += presenter.turn_summary(view, record.mission, "fr")
        texts.append(presenter._summary(scenario, record, "fr"))
    return texts


@pytest.fixture(scope="module")
def plugin() -> tuple[LandRules, LandPresenter]:
    catalog = default_catalog()
    return LandRules(catalog), LandPresenter(catalog)


@pytest.mark.parametrize("theatre", THEATRES)
def test_every_sheet_word_has_an_english_entry_equal_to_the_sheet_and_a_french_one(
    theatre: str,
) -> None:
    campaign = load_land_campaign(theatre)
    assert t(f"land.theatre.{theatre}", "en") == campaign.name
    for name, key in zip(campaign.periods, campaign.period_keys, strict=True):
        assert t(f"land.period.{theatre}.{key}", "en") == name
        assert f"land.period.{theatre}.{key}" in keys("fr")
    for target in campaign.targets:
        assert t(f"land.location.{theatre}.{target.number}", "en") == target.location
        assert f"land.location.{theatre}.{target.number}" in keys("fr")
        assert kind_text(target.target, "en") == target.target
        assert kind_text(target.target, "fr") != target.target or target.target == "Transports"
    for resource in campaign.resources:
        periods = "@" + "+".join(resource.periods) if resource.periods else ""
        key = f"land.resource.{theatre}.{resource.side.value}.{resource.number}{periods}"
        assert t(f"{key}.name", "en") == resource.name
        assert t(f"{key}.text", "en") == resource.text
        assert t(f"{key}.name", "fr") != resource.name, key
        assert t(f"{key}.text", "fr") != resource.text, key


@pytest.mark.parametrize("scenario", ["malaya-all", "philippines-all", "burma-all"])
def test_the_french_land_panel_and_card_have_no_english_word(
    plugin: tuple[LandRules, LandPresenter], scenario: str
) -> None:
    rules, presenter = plugin
    texts = _french_texts(rules, presenter, scenario)
    assert len(texts) > 40
    for text in texts:
        words = {w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ][\w'-]*", text)}
        # "d'objectif", "l'AVG": the French elision is one word here; split it off.
        words = {w.split("'")[-1] for w in words}
        assert not words & ENGLISH, f"English in French text: {sorted(words & ENGLISH)}: {text}"


@pytest.mark.parametrize("scenario", ["malaya-all", "philippines-all", "burma-all"])
def test_the_french_land_texts_follow_french_typography(
    plugin: tuple[LandRules, LandPresenter], scenario: str
) -> None:
    rules, presenter = plugin
    for text in _french_texts(rules, presenter, scenario):
        for match in SPACE_BEFORE.finditer(text):
            space, mark = match.groups()
            wanted = "\u00a0" if mark == ":" else "\u202f"
            assert space in ("\u00a0", "\u202f"), f"{mark!r} without a no-break space: {text}"
            assert space == wanted or mark == ":", text
        assert '"' not in text, f"English quotes in French (use « »): {text}"


@pytest.mark.parametrize("name", ["land.toml", "pearl-harbor.toml"])
def test_every_french_land_and_pearl_harbor_string_follows_french_typography(name: str) -> None:
    import tomllib
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "rendering" / "locales" / "fr" / name
    strings: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, str):
            strings.append(node)

    walk(tomllib.loads(path.read_text(encoding="utf-8")))
    assert len(strings) > 20
    for text in strings:
        for match in SPACE_BEFORE.finditer(text.replace("ZERO!", "ZERO")):  # the game's name
            assert match.group(1) in ("\u00a0", "\u202f"), f"{name}: {text}"
        assert '"' not in text, f"{name}: English quotes in {text}"


def test_every_target_damage_level_has_a_french_name() -> None:
    from rendering.text import level_name

    catalog = default_catalog()
    names = {level.name for sheet in catalog.targets.values() for level in sheet.levels}
    assert names, "the target sheets name their damage levels"
    untranslated = sorted(name for name in names if level_name(name, "fr") == name)
    assert untranslated == []

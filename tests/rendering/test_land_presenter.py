"""The land presenter: its images render in both languages at 800 px, its words exist,
and what it says of a mission comes from the flown record."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image

from bot.i18n import keys
from engine.rulesets.land import LandRules
from engine.rulesets.land.state import LandState
from engine.zero.loader import default_catalog
from rendering.rulesets.land import LandPresenter
from tests.rendering.land_games import finished_land

SOURCE = Path(__file__).resolve().parents[2] / "rendering" / "rulesets" / "land" / "__init__.py"
SCENARIO = "burma-dec41-jan42"


@pytest.fixture(scope="module")
def plugin() -> tuple[LandRules, LandPresenter]:
    catalog = default_catalog()
    return LandRules(catalog), LandPresenter(catalog)


def _finished(rules: LandRules) -> LandState:
    return finished_land(rules, SCENARIO, "pres", picks=3)


def _width(png: bytes) -> int:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(png)).width


def test_every_land_key_the_presenter_names_exists() -> None:
    text = SOURCE.read_text(encoding="utf-8")
    used = {f"land.{m}" for m in re.findall(r"_l\(\s*\"([a-z0-9\-.]+)\"", text)}
    assert len(used) > 20
    for lang in ("en", "fr"):
        assert used <= keys(lang), used - keys(lang)
    levels = {"decisive-victory", "victory", "stalemate", "defeat", "rout"}
    assert {f"land.level.{level}" for level in levels} <= keys("fr")


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_images_render_at_800(plugin: tuple[LandRules, LandPresenter], locale: str) -> None:
    rules, presenter = plugin
    start = rules.view(rules.new(SCENARIO, "pres"), "allied")
    assert _width(presenter.status_board(start, {"japanese": True}, "soon", locale)) == 800
    assert _width(presenter.panel_image(start, locale)) == 800
    done = rules.view(_finished(rules), None)
    assert _width(presenter.status_board(done, {}, None, locale)) == 800
    assert _width(presenter.after_action(SCENARIO, done, locale)) == 800


def test_mission_report_and_summaries_follow_the_record(
    plugin: tuple[LandRules, LandPresenter],
) -> None:
    rules, presenter = plugin
    state = _finished(rules)
    view = rules.view(state, None)
    for record in state.history:
        assert presenter.report_count(view, record.mission) == 1
        report = presenter.report(SCENARIO, view, record.mission, 0, "en")
        assert report.image_name == f"mission-{record.mission}.png"
        assert report.image is not None and report.image[:4] == b"\x89PNG"
        assert f"Mission {record.mission}:" in report.text
    assert presenter.report_count(view, 99) == 0
    status = presenter.status_lines(view, "fr")
    assert "Vainqueur" in status[-1]
    french = presenter.option_text(SCENARIO, "resource", "A4", "fr")
    assert french == "#4 Nuages sur l'objectif"
    assert presenter.option_text(SCENARIO, "resource", "none", "fr") == "Aucune ressource"
    # A number the two lists share names each side's own resource.
    assert presenter.option_text(SCENARIO, "resource", "J2", "en") == "#2 L/W Ki-43"
    assert presenter.option_text(SCENARIO, "resource", "A2", "en") == "#2 L/W P-40B (AVG)"


def test_a_period_dependent_resource_names_both_in_a_long_campaign(
    plugin: tuple[LandRules, LandPresenter],
) -> None:
    _, presenter = plugin
    assert presenter.option_text("philippines-dec41", "resource", "J2", "en") == "#2 L/W A6M2"
    both = presenter.option_text("philippines-all", "resource", "J2", "en")
    assert both == "#2 L/W A6M2 / L/W Ki-27"


def test_french_resource_names_are_the_catalogue_s_own(
    plugin: tuple[LandRules, LandPresenter],
) -> None:
    _, presenter = plugin
    scenario = "philippines-dec41"
    nbsp = "\u00a0"  # French: a no-break space before ":"
    assert (
        presenter.option_text(scenario, "resource", "J8", "fr") == f"#8 Déf.{nbsp}: Renfort de flak"
    )
    assert presenter.option_text(scenario, "resource", "J4", "fr") == f"#4 Att.{nbsp}: +2 G4M1"
    assert presenter.option_text(scenario, "resource", "J4", "en") == "#4 Att.: +2 G4M1"
    assert presenter.option_text(scenario, "resource", "J2", "fr") == "#2 A6M2 (L/A)"
    from engine.ruleset import Option

    flak = Option(
        id="J8", label="#8", detail="Defending only: Area and Target Flak +1 at your target."
    )
    described = presenter.option_description("resource", flak, "fr")
    assert described == (
        f"En défense seulement{nbsp}: flak de zone et flak d'objectif +1 sur votre objectif."
    )
    assert presenter.option_description("resource", flak, "en") == flak.detail

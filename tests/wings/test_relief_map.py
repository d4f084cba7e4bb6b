"""The relief on the table map (seed F.V): public, shaded by its floor, with its marker."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from engine.rulesets.wings import WingsRules, WingsState
from rendering.rulesets.wings import WingsPresenter
from rendering.rulesets.wings.map import PAPER, RELIEF_TINT, table_map
from tests.rendering.phone import recording
from tests.test_french import problems
from tests.wings.helpers import catalog, with_planes
from tests.wings.test_relief import PLATEAU, VALLEY

WIDTH = 800


def _state(zones: Any, **planes: dict[str, Any]) -> WingsState:
    state = WingsRules(catalog()).new("wings-1917", "relief-map")
    return with_planes(state, planes, {"relief": zones})


def _map(state: WingsState, viewer: str | None, locale: str = "en") -> tuple[Image.Image, Any]:
    view = WingsRules(catalog()).view(state, viewer)
    return table_map(view.data["mission"], view.slots, WIDTH, locale), view.data["mission"]


def _pixel(image: Image.Image, mission: Any, x: float, y: float) -> tuple[int, int, int]:
    band = 36
    scale = (WIDTH - band - 8) / float(mission["table"][0])
    top = float(mission["table"][1])  # the table's y grows upwards (authored 3.1)
    return image.getpixel((round(band + x * scale), round(band + (top - y) * scale)))  # type: ignore[return-value]


def test_every_side_sees_the_ridges_shaded_by_their_floor() -> None:
    state = _state(VALLEY)
    for viewer in ("entente", "central", None):
        image, mission = _map(state, viewer)
        assert [zone["id"] for zone in mission["relief"]] == ["R1", "R2"]
        assert _pixel(image, mission, 10.7, 1.3) == RELIEF_TINT[0]  # the northern ridge
        assert _pixel(image, mission, 13.3, 21.0) == RELIEF_TINT[1]  # the southern, darker
        assert _pixel(image, mission, 13.3, 11.3) == PAPER  # the valley: no-man's land


def test_without_relief_the_same_spot_is_bare_ground() -> None:
    image, mission = _map(_state(()), None)
    assert _pixel(image, mission, 10.7, 1.3) == PAPER


def test_each_relief_wears_its_id_and_floor_in_readable_type() -> None:
    for locale, floor in (("en", "floor 1"), ("fr", "plancher 1")):
        with recording() as drawn:
            image, _ = _map(_state(PLATEAU), None, locale)
            image.save(io.BytesIO(), format="PNG")
        texts = {text.text: text.size for text in drawn[0].texts}
        assert texts["R1"] >= 22 and texts[floor] >= 22 and drawn[0].width == WIDTH


def test_a_plane_s_climb_counter_shows_by_its_level() -> None:
    """Over relief a counter decides (level 1 and a counter crosses a floor-1 hill, level 1
    alone does not), so the map says "1+1" as seed A.III's "L2 +1"."""
    state = _state(PLATEAU, P1={"level": 1, "counters": 1}, P2={"level": 1, "counters": 0})
    with recording() as drawn:
        image, _ = _map(state, "central")
        image.save(io.BytesIO(), format="PNG")
    labels = {text.text for text in drawn[0].texts}
    assert {"E1 · 1+1", "E2 · 1"} <= labels


def test_the_boards_say_in_words_where_the_relief_lies_and_what_it_asks() -> None:
    presenter = WingsPresenter()
    rules = WingsRules(catalog())
    view = rules.view(_state(PLATEAU), "central")
    english = presenter.status_lines(view, "en")
    assert "R1: floor 1, x 10.0 to 14.0, y 6.0 to 14.0" in english
    assert any(
        line.startswith("Relief: a plane crosses it only above its floor") for line in english
    )
    french = presenter.status_lines(view, "fr")
    assert "R1\u00a0: plancher 1, x de 10.0 à 14.0, y de 6.0 à 14.0" in french
    assert not problems([("relief-lines", line) for line in french])
    flat = presenter.status_lines(rules.view(_state(()), "central"), "en")
    assert not any("Relief" in line or "floor" in line for line in flat)

"""The historical-opening twin of Midway (authored 3.7.4) is drawn on Midway's own map,
not the empty ocean an unknown scenario gets."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.rulesets.carrier.campaign import new_campaign
from engine.rulesets.carrier.view import view
from engine.zero.loader import default_catalog
from rendering.rulesets.carrier.maps import draw_map

CATALOG = default_catalog()


def _picture(scenario: str) -> bytes:
    board = view(CATALOG, new_campaign(CATALOG, scenario, "map"), None)
    image = Image.new("RGB", (480, 300))
    draw_map(image, ImageDraw.Draw(image), (0, 0, 480, 300), board, "en")
    return image.tobytes()


def test_the_historical_opening_is_fought_on_midways_map() -> None:
    assert _picture("midway-historical") == _picture("midway")
    assert _picture("midway") != _picture("coral-sea")

"""The raid's table drawn on the status board (DB 8): the lake and the dam's red line, or
the industrial complex's card and red dot, the guns and the Lancaster; no City mat."""

from __future__ import annotations

from typing import Any

from engine.rulesets.wings import dambuster as db
from rendering.rulesets.wings.dam_map import LAKE, RED, dam_board

WIDTH = 800
BAND = 36


def pixel(dam: dict[str, Any], x: float, y: float) -> tuple[int, int, int]:
    image = dam_board(dam, WIDTH, "en")
    scale = (WIDTH - BAND - 8) / dam["layout"]["table"][0]
    top = dam["layout"]["table"][1]  # the table's y grows upwards (authored 3.1)
    colour = image.getpixel((int(BAND + x * scale), int(BAND + (top - y) * scale)))
    assert isinstance(colour, tuple)
    return (colour[0], colour[1], colour[2])


def test_the_dam_raid_shows_the_lake_the_red_line_and_the_plane() -> None:
    dam = db.new_dam("mohne").model_dump(mode="json")
    assert pixel(dam, 7.0, 4.0) == LAKE
    x0, y0, _x1, y1 = dam["layout"]["dam"]
    assert pixel(dam, x0, (y0 + y1) / 2) == RED
    start_x, start_y, _ = dam["layout"]["start"]
    assert pixel(dam, start_x, start_y) != LAKE  # the Lancaster over the water


def test_the_industrial_raid_shows_the_complex_and_no_lake() -> None:
    dam = db.new_dam("industrial").model_dump(mode="json")
    target = dam["target"]
    assert pixel(dam, target["x"], target["y"]) == RED
    assert pixel(dam, 7.0, 4.0) != LAKE

"""The Dambuster raid's table from above (DB 8), for its status board and order panel.

Drawn to scale from the view: the Allied edge on the left, the lake and the dam (its red
line and the two dots at its ends) for the dam raids, the complex's target card (its inner
zone and red dot) for the industrial raid, the AA guns with their reach at altitude 1,
the bomb marker once laid, and the Lancasters in the air as arrows along their headings.

No "City" mat is drawn under the dam map (DB 8.b): the seed's photos of where the map lies
on the mat are lost, the mat changes no rule, and invented streets would read as terrain.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from rendering.i18n import t
from rendering.rulesets.wings.dam import gun_name
from rendering.rulesets.wings.map import (
    EDGE,
    INK,
    LABEL_SIZE,
    MUTED,
    PAPER,
    SIDE_INK,
    TICK_SIZE,
    canvas,
    grid,
    pixels,
)
from rendering.style import font

LAKE = (188, 214, 232)
LAND = (226, 222, 200)
DAM = (150, 150, 150)
RED = (200, 30, 30)
CARD = (236, 226, 206)
BANDS = ((150, 200, 235), (40, 90, 160))  # the marker's light and dark blue bands (DB 5)
LANCASTER = (2.0, 2.4)  # the large base, length and width in bw (authored 3.2)


def dam_board(dam: Mapping[str, Any], width: int, locale: str) -> Image.Image:
    layout = dam["layout"]
    table_w, table_h = (float(v) for v in layout["table"])
    image, draw, scale, at = canvas(table_w, table_h, width)
    height = image.height
    draw.rectangle(pixels(at, 0, 0, table_w, table_h), fill=LAND)
    target = dam.get("target")
    if target is None:
        _lake(draw, at, layout)
    else:
        _complex(draw, at, target)
    guns = sorted(dam["guns"].values(), key=lambda g: g["id"])
    for gun in guns:
        _reach(draw, at, scale, gun)
    # The reach rings stop at the table's edge: the band round it is paper again.
    left, top, right, bottom = pixels(at, 0, 0, table_w, table_h)
    for box in ((0, 0, width, top), (0, bottom, width, height), (0, 0, left, height),
                (right, 0, width, height)):  # fmt: skip
        draw.rectangle(box, fill=PAPER)
    grid(draw, at, table_w, table_h)
    draw.rectangle(pixels(at, 0, 0, table_w, table_h), outline=EDGE, width=2)
    draw.line((*at(0, 0), *at(0, table_h)), fill=SIDE_INK["entente"], width=6)  # Allied edge
    for gun in guns:
        _gun(draw, at, scale, gun, locale)
    for reg in dam["roster"]:
        plane = dam["planes"][reg]
        bomb = plane["bomb"]
        if bomb["stage"] in ("aimed", "released"):
            _marker(draw, at, layout, bomb)
        if plane["status"] == "flying":
            _plane(draw, at, scale, plane, locale)
    return image


def _lake(draw: ImageDraw.ImageDraw, at: Any, layout: Mapping[str, Any]) -> None:
    x0, y0, x1, y1 = layout["water"]
    draw.rectangle(pixels(at, x0, y0, x1, y1), fill=LAKE)
    d0, e0, d1, e1 = layout["dam"]
    draw.rectangle(pixels(at, d0, e0, d1, e1), fill=DAM, outline=INK)
    draw.line((*at(d0, e0), *at(d0, e1)), fill=RED, width=4)  # the red line (DB 5)
    for y in (e0, e1):
        cx, cy = at(d0, y)
        draw.ellipse((cx - 6, cy - 6, cx + 6, cy + 6), fill=RED)


def _complex(draw: ImageDraw.ImageDraw, at: Any, target: Mapping[str, Any]) -> None:
    """DB 12: the target card, its red rectangle and its red dot."""
    x, y = target["x"], target["y"]
    for (length, wide), fill, outline in (
        (target["card"], CARD, INK),
        (target["inner"], None, RED),
    ):
        draw.rectangle(
            pixels(at, x - length / 2, y - wide / 2, x + length / 2, y + wide / 2),
            fill=fill,
            outline=outline,
            width=3,
        )
    cx, cy = at(x, y)
    draw.ellipse((cx - 6, cy - 6, cx + 6, cy + 6), fill=RED)


def _reach(draw: ImageDraw.ImageDraw, at: Any, scale: float, gun: Mapping[str, Any]) -> None:
    """A gun still firing: its reach at altitude 1 (DB 8.c)."""
    if gun["damage"] >= gun["structure"]:
        return
    cx, cy = at(gun["x"], gun["y"])
    reach = float(gun["reach"].get("1", gun["reach"].get(1, 0.0))) * scale
    box = (cx - reach, cy - reach, cx + reach, cy + reach)
    draw.ellipse(box, outline=SIDE_INK["central"], width=2)


def _gun(
    draw: ImageDraw.ImageDraw, at: Any, scale: float, gun: Mapping[str, Any], locale: str
) -> None:
    cx, cy = at(gun["x"], gun["y"])
    out = gun["damage"] >= gun["structure"]
    colour = MUTED if out else SIDE_INK["central"]
    r = 0.3 * scale
    draw.rectangle((cx - r, cy - r, cx + r, cy + r), fill=PAPER, outline=colour, width=3)
    name = gun_name(gun["id"], locale)
    draw.text(
        (cx, cy + r + 2), name, font=font(TICK_SIZE), fill=colour, anchor="ma",
        stroke_width=2, stroke_fill=PAPER,
    )  # fmt: skip


def _marker(
    draw: ImageDraw.ImageDraw, at: Any, layout: Mapping[str, Any], bomb: Mapping[str, Any]
) -> None:
    """The bouncing bomb's marker, its four bands across its length (DB 5)."""
    length, wide = layout["marker"]
    rad = math.radians(float(bomb["heading"]))
    ux, uy, vx, vy = math.cos(rad), math.sin(rad), -math.sin(rad), math.cos(rad)
    for band in range(4):
        a = -length / 2 + band * length / 4
        b = a + length / 4
        corners = [
            (bomb["x"] + ux * u + vx * v, bomb["y"] + uy * u + vy * v)
            for u, v in ((a, -wide / 2), (b, -wide / 2), (b, wide / 2), (a, wide / 2))
        ]
        draw.polygon([at(*c) for c in corners], fill=BANDS[band % 2], outline=INK)


def _plane(
    draw: ImageDraw.ImageDraw, at: Any, scale: float, plane: Mapping[str, Any], locale: str
) -> None:
    cx, cy = at(plane["x"], plane["y"])
    heading = math.radians(float(plane["heading"]))
    ux, uy = math.cos(heading), -math.sin(heading)  # the table's y grows upwards
    half_l, half_w = LANCASTER[0] / 2 * scale, LANCASTER[1] / 2 * scale
    nose = (cx + ux * half_l, cy + uy * half_l)
    left = (cx - ux * half_l - uy * half_w, cy - uy * half_l + ux * half_w)
    right = (cx - ux * half_l + uy * half_w, cy - uy * half_l - ux * half_w)
    tail = (cx - ux * half_l * 0.4, cy - uy * half_l * 0.4)
    colour = SIDE_INK["entente"]
    if plane.get("searchlights"):
        for side in (-1, 1):  # two beams meeting ahead, on the water (DB 6)
            sx = cx - uy * side * half_w * 0.6
            sy = cy + ux * side * half_w * 0.6
            draw.line((sx, sy, *nose), fill=(240, 200, 40), width=3)
    draw.polygon([nose, left, tail, right], fill=colour, outline=INK, width=2)
    label = t("wings.map.dam-plane", locale, reg=plane["id"], level=plane["level"])
    draw.text(
        (cx, cy - half_w - 4), label, font=font(LABEL_SIZE, "bold"), fill=colour, anchor="md",
        stroke_width=3, stroke_fill=PAPER,
    )  # fmt: skip

"""The shared visual language of every image: palette, fonts, side marks, icons, text.

Rules kept here so the images agree with each other:

- Sides never rely on hue alone. Japanese = vermilion with diagonal hatching and round
  markers; Allied = blue with a dot grid and square markers (Okabe-Ito colours, which stay
  apart for the common colour-vision deficiencies).
- Aircraft states use shapes: Damaged = amber triangle with "!", Destroyed = black disc
  with a white cross, Lost on recovery = a downward arrow into waves, Disengaged = grey
  U-turn arrow.
- Altitude bands are always drawn top-down VH, H, M, L, VL with the same light shading.
- No text below 18 px on a 1200 px wide image; fonts are the DejaVu files in ``fonts/``.
"""

from __future__ import annotations

import io
import math
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Literal

from PIL import Image, ImageChops, ImageDraw, ImageFont

from engine.zero.types import Band, BombResult, Side

FONT_DIR = Path(__file__).parent / "fonts"
WIDTH = 1200
MARGIN = 20
MIN_TEXT = 18

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]

# --- palette -------------------------------------------------------------------------------

PAPER: RGB = (246, 243, 235)
CARD_BG: RGB = (255, 255, 255)
INK: RGB = (30, 30, 30)
MUTED: RGB = (90, 90, 90)
FAINT: RGB = (170, 166, 156)
RULE: RGB = (208, 202, 188)
HEADER_BG: RGB = (38, 50, 59)
HEADER_INK: RGB = (255, 255, 255)
HEADER_MUTED: RGB = (196, 208, 216)
ACCENT: RGB = (230, 159, 0)  # amber: "now" on tracks and the turn track
SEA: RGB = (220, 233, 239)
SEA_GRID: RGB = (186, 206, 216)
SEA_LABEL: RGB = (92, 124, 140)
LAND: RGB = (238, 229, 205)
LAND_EDGE: RGB = (160, 140, 100)
LAND_LABEL: RGB = (120, 100, 64)
DAMAGE_FILL: RGB = (45, 45, 45)
REPAIRED_FILL: RGB = (150, 150, 150)
DAMAGED_ICON: RGB = (230, 159, 0)
DESTROYED_ICON: RGB = (20, 20, 20)
LOST_ICON: RGB = (94, 60, 153)
DISENGAGED_ICON: RGB = (110, 110, 110)
BLUE_BORDER: RGB = (86, 180, 233)  # card border "blue" (sky blue, not the Allied blue)
TAN_BORDER: RGB = (196, 160, 100)

# Severity tints of damage-track levels, lightest first (neutral, never a side colour).
LEVEL_TINTS: tuple[RGB, ...] = (
    (252, 250, 244),
    (242, 232, 206),
    (233, 214, 170),
    (222, 192, 134),
    (205, 162, 104),
    (180, 130, 86),
    (140, 96, 70),
)

# Bombing results: colour plus a count of pips (0 to 3) so the shape says it too.
RESULT_COLOURS: dict[BombResult, RGB] = {
    BombResult.MISS: (150, 150, 150),
    BombResult.HIT: (204, 121, 167),
    BombResult.DIRECT: (213, 94, 0),
    BombResult.VITAL: (120, 20, 20),
}

BANDS_TOP_DOWN: tuple[Band, ...] = (Band.VH, Band.H, Band.M, Band.L, Band.VL)
BAND_SHADES: dict[Band, RGB] = {
    Band.VH: (232, 236, 244),
    Band.H: (240, 242, 247),
    Band.M: (232, 236, 244),
    Band.L: (240, 242, 247),
    Band.VL: (232, 236, 244),
}


@dataclass(frozen=True)
class SideStyle:
    side: Side
    main: RGB
    dark: RGB
    light: RGB
    pattern: Literal["hatch", "dots"]
    marker: Literal["circle", "square"]


SIDE_STYLES: dict[Side, SideStyle] = {
    Side.JAPANESE: SideStyle(
        Side.JAPANESE, (213, 94, 0), (128, 48, 0), (250, 222, 204), "hatch", "circle"
    ),
    Side.ALLIED: SideStyle(
        Side.ALLIED, (0, 114, 178), (0, 60, 102), (210, 230, 244), "dots", "square"
    ),
}


def side_style(side: Side) -> SideStyle:
    return SIDE_STYLES[side]


# --- fonts ---------------------------------------------------------------------------------

FontKind = Literal["regular", "bold", "cond", "cond-bold", "mono"]
_FONT_FILES: dict[str, str] = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "cond": "DejaVuSansCondensed.ttf",
    "cond-bold": "DejaVuSansCondensed-Bold.ttf",
    "mono": "DejaVuSansMono.ttf",
}


_fonts = threading.local()


def font(size: int, kind: FontKind = "regular") -> ImageFont.FreeTypeFont:
    """A TrueType font from the repo; sizes are pixels.

    Cached per thread: the bot renders in worker threads, and one FreeType face should not
    be used by two threads at once.
    """
    cache: dict[tuple[int, str], ImageFont.FreeTypeFont] | None = getattr(_fonts, "cache", None)
    if cache is None:
        cache = _fonts.cache = {}
    key = (size, kind)
    loaded = cache.get(key)
    if loaded is None:
        loaded = cache[key] = ImageFont.truetype(str(FONT_DIR / _FONT_FILES[kind]), size)
    return loaded


def clear_font_cache() -> None:
    """Forget this thread's fonts (tests use it to watch which sizes get opened)."""
    _fonts.cache = {}


def text_width(text: str, fnt: ImageFont.FreeTypeFont) -> int:
    return _measured(text, fnt)


@lru_cache(maxsize=16384)
def _measured(text: str, fnt: ImageFont.FreeTypeFont) -> int:
    # Word wrapping measures the same words again and again; fonts are cached objects
    # (one per size, face and thread), so a font and a text always measure the same.
    return math.ceil(fnt.getlength(text))


def ellipsize(text: str, fnt: ImageFont.FreeTypeFont, max_width: int) -> str:
    """The text, cut with an ellipsis if it would be wider than ``max_width``."""
    if text_width(text, fnt) <= max_width:
        return text
    cut = text
    while cut and text_width(cut + "…", fnt) > max_width:
        cut = cut[:-1]
    return (cut.rstrip() + "…") if cut else ""


def fit_font(
    text: str, max_width: int, sizes: Sequence[int], kind: FontKind = "regular"
) -> ImageFont.FreeTypeFont:
    """The largest of ``sizes`` (and, failing those, the condensed face) that fits."""
    for size in sizes:
        fnt = font(size, kind)
        if text_width(text, fnt) <= max_width:
            return fnt
    condensed: FontKind = "cond-bold" if kind in ("bold", "cond-bold") else "cond"
    for size in sizes:
        fnt = font(size, condensed)
        if text_width(text, fnt) <= max_width:
            return fnt
    return font(sizes[-1], condensed)


_BREAKABLE = re.compile(r"[ \t\n\r]+")


def wrap(text: str, fnt: ImageFont.FreeTypeFont, max_width: int, max_lines: int = 3) -> list[str]:
    """Greedy word wrap; the last line is ellipsized if the text does not fit.

    Only ordinary spaces break a line: French puts a no-break space before ``: ; ! ?`` and
    inside guillemets, and a line must never start with the colon it guards."""
    words = _BREAKABLE.split(text.strip())
    lines: list[str] = []
    current = ""
    for word in words:
        trial = f"{current} {word}".strip()
        if text_width(trial, fnt) <= max_width or not current:
            current = trial
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], " ".join(lines[max_lines - 1 :])]
    return [ellipsize(line, fnt, max_width) for line in lines] or [""]


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fnt: ImageFont.FreeTypeFont,
    fill: RGB = INK,
    anchor: str = "la",
    max_width: int | None = None,
) -> int:
    """Draw one line (ellipsized to ``max_width``); return its width."""
    if max_width is not None:
        text = ellipsize(text, fnt, max_width)
    if text:
        draw.text(xy, text, font=fnt, fill=fill, anchor=anchor)
    return text_width(text, fnt)


# --- canvas, header, panels ----------------------------------------------------------------


def canvas(height: int, width: int = WIDTH) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, max(1, height)), PAPER)
    return image, ImageDraw.Draw(image)


def header(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    title: str,
    subtitle: str = "",
    right: str = "",
    side: Side | None = None,
    height: int = 76,
) -> int:
    """The dark title bar; a side's pattern strip on the left when the image is a side's."""
    width = image.width
    draw.rectangle((0, 0, width, height), fill=HEADER_BG)
    left = MARGIN
    if side is not None:
        fill_side(image, (0, 0, 18, height), side)
        left = 18 + MARGIN
    right_width = 0
    if right:
        fnt = font(22, "bold")
        right_width = min(text_width(right, fnt), width // 3)
        draw_text(
            draw, (width - MARGIN, 26), right, fnt, HEADER_INK, anchor="rm", max_width=width // 3
        )
    space = width - left - MARGIN - right_width - (20 if right else 0)
    title_font = fit_font(title, space, (30, 26, 24, 22), "bold")
    if subtitle:
        draw_text(draw, (left, 10), title, title_font, HEADER_INK, max_width=space)
        draw_text(
            draw, (left, 46), subtitle, font(20), HEADER_MUTED, max_width=width - left - MARGIN
        )
    else:
        draw_text(draw, (left, height // 2), title, title_font, HEADER_INK, "lm", space)
    return height


# --- phone-first layout (design/ux.md "Images") -----------------------------------------
# Discord shows a picture about 400 px wide on a phone and text must stay >= 11 px there:
# on an 800 px canvas that is 22 px in the file. Boards built for the phone use these.

PHONE_WIDTH = 800
PHONE_MARGIN = 20
PHONE_MIN_TEXT = 22  # 11 px once shown 400 px wide
PHONE_TEXT = 24
PHONE_TITLE = 34


def phone_header(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    title: str,
    subtitle: str = "",
    right: str = "",
    side: Side | None = None,
) -> int:
    """The dark title bar of an 800 px picture: title, a subtitle line, a right-hand tag."""
    width = image.width
    left = PHONE_MARGIN + (20 if side is not None else 0)
    sub_font, sub_lines = font(PHONE_TEXT), list[str]()
    if subtitle:
        sub_space = width - left - PHONE_MARGIN
        sub_font, sub_lines = phone_lines(subtitle, sub_space, (PHONE_TEXT, PHONE_MIN_TEXT))
    height = 64 + 32 * len(sub_lines) + (10 if sub_lines else 0)
    draw.rectangle((0, 0, width, height), fill=HEADER_BG)
    if side is not None:
        fill_side(image, (0, 0, 20, height), side)
    right_width = 0
    if right:
        fnt = fit_font(right, width // 3, (28, 26, 24), "bold")
        right_width = draw_text(
            draw, (width - PHONE_MARGIN, 32), right, fnt, HEADER_INK, "rm", width // 3
        )
    space = width - left - PHONE_MARGIN - right_width - (16 if right else 0)
    title_font = fit_font(title, space, (PHONE_TITLE, 30, 28, 26), "bold")
    draw_text(draw, (left, 32), title, title_font, HEADER_INK, "lm", space)
    for index, line in enumerate(sub_lines):
        draw.text((left, 62 + 32 * index), line, font=sub_font, fill=HEADER_MUTED)
    return height


def phone_icon(
    draw: ImageDraw.ImageDraw, kind: Icon, centre: tuple[float, float], size: int = 24
) -> None:
    """``draw_icon`` for a phone picture: the "no Large Strike" mark's letter is text, so it
    is drawn 22 px at least (the other icons are all shapes)."""
    if kind != "no-large":
        draw_icon(draw, kind, centre, size)
        return
    x, y = centre
    h = size / 2
    line = max(2, size // 10)
    draw.rectangle((x - h, y - h, x + h, y + h), fill=(255, 255, 255), outline=INK, width=line)
    letter = font(max(PHONE_MIN_TEXT, int(size * 0.8)), "bold")
    draw.text((x, y + 1), "L", font=letter, fill=INK, anchor="mm")
    _slash(draw, x, y, h, line)


def phone_section(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, width: int) -> int:
    """A section heading readable on a phone, with a rule under it; returns the height used."""
    x, y = xy
    title = text.upper()
    fnt = fit_font(title, width, (PHONE_MIN_TEXT,), "bold")
    draw_text(draw, (x, y), title, fnt, MUTED, max_width=width)
    draw.line((x, y + 30, x + width, y + 30), fill=RULE, width=2)
    return 40


def phone_lines(
    text: str, width: int, sizes: Sequence[int], kind: FontKind = "regular", max_lines: int = 2
) -> tuple[ImageFont.FreeTypeFont, list[str]]:
    """The largest font that shows ``text`` whole in ``max_lines`` lines, and those lines.

    Tries each size in the face asked for, then condensed; only if nothing fits is the last
    line cut (so a long place name wraps rather than loses its end).
    """
    condensed: FontKind = "cond-bold" if kind in ("bold", "cond-bold") else "cond"
    for face in (kind, condensed):
        for size in sizes:
            fnt = font(size, face)
            lines = wrap(text, fnt, width, max_lines=max_lines)
            if not any(line.endswith("…") and not text.endswith("…") for line in lines):
                return fnt, lines
    fnt = font(sizes[-1], condensed)
    return fnt, wrap(text, fnt, width, max_lines=max_lines)


def phone_legend(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    origin: tuple[int, int],
    width: int,
    items: Sequence[tuple[LegendMark, str]],
) -> int:
    """A legend readable on a phone (22 px words, 26 px marks); returns the height used.

    Drawing it on a canvas taller than needed and reading the height back is how callers
    size their picture.
    """
    x0, y0 = origin
    fnt = font(PHONE_MIN_TEXT)
    x, y = x0, y0
    line_height = 36
    for (kind, value), text in items:
        item_width = 34 + text_width(text, fnt) + 24
        if x + item_width > x0 + width and x > x0:
            x = x0
            y += line_height
        centre = (x + 13, y + line_height // 2)
        if kind == "side" and isinstance(value, Side):
            side_swatch(image, (x, y + 4, x + 26, y + 30), value)
        elif kind == "icon":
            phone_icon(draw, value, centre, 24)  # type: ignore[arg-type]
        elif kind == "box" and isinstance(value, tuple):
            draw.rectangle((x + 2, y + 6, x + 24, y + 28), fill=value, outline=MUTED, width=1)
        draw_text(draw, (x + 34, y + line_height // 2), text, fnt, INK, "lm", width)
        x += item_width
    return y - y0 + line_height


def section_title(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, width: int) -> int:
    """A small-caps-like section heading with a rule under it; returns the height used."""
    x, y = xy
    title = text.upper()
    draw_text(draw, (x, y), title, fit_font(title, width, (18,), "bold"), MUTED, max_width=width)
    draw.line((x, y + 24, x + width, y + 24), fill=RULE, width=2)
    return 32


def panel(draw: ImageDraw.ImageDraw, box: Box, fill: RGB = CARD_BG, outline: RGB = RULE) -> None:
    draw.rounded_rectangle(box, radius=10, fill=fill, outline=outline, width=2)


# --- side patterns and markers -------------------------------------------------------------

_TILE = 12


@cache
def _pattern_layer(side: Side, width: int, height: int) -> Image.Image:
    """An RGBA layer of the side's pattern (transparent between strokes), cached by size."""
    style = side_style(side)
    tile = Image.new("RGBA", (_TILE, _TILE), (0, 0, 0, 0))
    tdraw = ImageDraw.Draw(tile)
    colour = (*style.main, 255)
    if style.pattern == "hatch":
        # 45-degree lines that join across tile edges.
        tdraw.line((0, _TILE, _TILE, 0), fill=colour, width=2)
        tdraw.line((-_TILE // 2, _TILE // 2, _TILE // 2, -_TILE // 2), fill=colour, width=2)
        tdraw.line(
            (_TILE // 2, _TILE + _TILE // 2, _TILE + _TILE // 2, _TILE // 2), fill=colour, width=2
        )
    else:
        tdraw.ellipse((3, 3, 7, 7), fill=colour)
    # Grow by doubling: a handful of pastes instead of one per tile.
    layer = tile
    while layer.width < width:
        wider = Image.new("RGBA", (layer.width * 2, layer.height))
        wider.paste(layer, (0, 0))
        wider.paste(layer, (layer.width, 0))
        layer = wider
    while layer.height < height:
        taller = Image.new("RGBA", (layer.width, layer.height * 2))
        taller.paste(layer, (0, 0))
        taller.paste(layer, (0, layer.height))
        layer = taller
    return layer.crop((0, 0, width, height))


def _round_up(value: int, step: int = 64) -> int:
    return max(step, ((value + step - 1) // step) * step)


def fill_side(
    image: Image.Image, box: Box, side: Side, radius: int = 0, outline: bool = False
) -> None:
    """Fill a box with the side's light colour and pattern (hatch or dots)."""
    x0, y0, x1, y1 = box
    width, height = x1 - x0, y1 - y0
    if width <= 0 or height <= 0:
        return
    style = side_style(side)
    draw = ImageDraw.Draw(image)
    if radius:
        draw.rounded_rectangle(box, radius=radius, fill=style.light)
    else:
        draw.rectangle(box, fill=style.light)
    layer = _pattern_layer(side, _round_up(width), _round_up(height)).crop((0, 0, width, height))
    mask = layer.getchannel("A")
    if radius:
        shape = Image.new("L", (width, height), 0)
        ImageDraw.Draw(shape).rounded_rectangle(
            (0, 0, width - 1, height - 1), radius=radius, fill=255
        )
        mask = ImageChops.multiply(mask, shape)
    faded = Image.new("RGB", (width, height), style.main)
    image.paste(faded, (x0, y0), _scale_mask(mask, 110))
    if outline:
        if radius:
            draw.rounded_rectangle(box, radius=radius, outline=style.dark, width=2)
        else:
            draw.rectangle(box, outline=style.dark, width=2)


def _scale_mask(mask: Image.Image, alpha: int) -> Image.Image:
    return mask.point(lambda value: value * alpha // 255)


def draw_marker(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    size: int,
    side: Side,
    hollow: bool = False,
) -> None:
    """The side's marker: a disc (Japanese) or a square (Allied), dark outlined."""
    style = side_style(side)
    x, y = centre
    half = size / 2
    box = (x - half, y - half, x + half, y + half)
    fill = None if hollow else style.main
    width = max(2, size // 9)
    if style.marker == "circle":
        draw.ellipse(box, fill=fill, outline=style.dark, width=width)
        if not hollow:
            inner = half * 0.38
            draw.ellipse((x - inner, y - inner, x + inner, y + inner), fill=(255, 255, 255))
    else:
        draw.rectangle(box, fill=fill, outline=style.dark, width=width)
        if not hollow:
            inner = half * 0.36
            draw.rectangle((x - inner, y - inner, x + inner, y + inner), fill=(255, 255, 255))


def side_swatch(image: Image.Image, box: Box, side: Side) -> None:
    """A legend swatch: pattern fill with the marker on top."""
    fill_side(image, box, side, radius=4, outline=True)
    x0, y0, x1, y1 = box
    draw_marker(
        ImageDraw.Draw(image), ((x0 + x1) / 2, (y0 + y1) / 2), min(x1 - x0, y1 - y0) - 8, side
    )


# --- icons ---------------------------------------------------------------------------------

Icon = Literal[
    "damaged",
    "destroyed",
    "lost",
    "disengaged",
    "strike",
    "cap",
    "no-large",
    "no-strike",
    "no-cap",
    "out-of-action",
    "locked",
    "waiting",
    "bomb",
    "torpedo",
    "spoiled",
]


def draw_icon(
    draw: ImageDraw.ImageDraw, kind: Icon, centre: tuple[float, float], size: int = 22
) -> None:
    """Vector icons, drawn rather than taken from a font so they look the same everywhere."""
    x, y = centre
    h = size / 2
    line = max(2, size // 10)
    if kind == "damaged":
        points = [(x, y - h), (x + h, y + h * 0.85), (x - h, y + h * 0.85)]
        draw.polygon(points, fill=DAMAGED_ICON, outline=INK, width=line)
        draw.line((x, y - h * 0.35, x, y + h * 0.3), fill=INK, width=line)
        draw.ellipse((x - line, y + h * 0.45, x + line, y + h * 0.45 + 2 * line), fill=INK)
    elif kind == "destroyed":
        draw.ellipse((x - h, y - h, x + h, y + h), fill=DESTROYED_ICON)
        k = h * 0.5
        draw.line((x - k, y - k, x + k, y + k), fill=(255, 255, 255), width=line + 1)
        draw.line((x - k, y + k, x + k, y - k), fill=(255, 255, 255), width=line + 1)
    elif kind == "lost":
        # An arrow plunging into two wave lines: ditched while landing on the carrier.
        draw.polygon(
            [(x - h * 0.55, y - h), (x + h * 0.55, y - h), (x, y + h * 0.1)], fill=LOST_ICON
        )
        for dy in (h * 0.35, h * 0.8):
            _wave(draw, x - h, x + h, y + dy, h * 0.22, LOST_ICON, line)
    elif kind == "disengaged":
        draw.arc(
            (x - h * 0.8, y - h * 0.8, x + h * 0.8, y + h * 0.5),
            180,
            360,
            fill=DISENGAGED_ICON,
            width=line + 1,
        )
        draw.line(
            (x + h * 0.8, y - h * 0.15, x + h * 0.8, y + h * 0.6),
            fill=DISENGAGED_ICON,
            width=line + 1,
        )
        draw.line(
            (x - h * 0.8, y - h * 0.15, x - h * 0.8, y + h * 0.1),
            fill=DISENGAGED_ICON,
            width=line + 1,
        )
        draw.polygon(
            [
                (x - h * 0.8 - h * 0.45, y + h * 0.05),
                (x - h * 0.8 + h * 0.45, y + h * 0.05),
                (x - h * 0.8, y + h * 0.75),
            ],
            fill=DISENGAGED_ICON,
        )
    elif kind in ("strike", "no-strike"):
        _plane(draw, x, y, h, INK)
        if kind == "no-strike":
            _slash(draw, x, y, h, line)
    elif kind in ("cap", "no-cap"):
        shield = [
            (x - h * 0.8, y - h * 0.85),
            (x + h * 0.8, y - h * 0.85),
            (x + h * 0.8, y),
            (x, y + h),
            (x - h * 0.8, y),
        ]
        draw.polygon(shield, fill=(255, 255, 255), outline=INK, width=line)
        draw.line((x, y - h * 0.85, x, y + h * 0.9), fill=INK, width=line)
        if kind == "no-cap":
            _slash(draw, x, y, h, line)
    elif kind == "no-large":
        draw.rectangle((x - h, y - h, x + h, y + h), fill=(255, 255, 255), outline=INK, width=line)
        draw.text(
            (x, y + 1),
            "L",
            font=font(max(MIN_TEXT, int(size * 0.8)), "bold"),
            fill=INK,
            anchor="mm",
        )
        _slash(draw, x, y, h, line)
    elif kind == "out-of-action":
        points = [
            (
                x + h * math.cos(math.radians(22.5 + 45 * i)),
                y + h * math.sin(math.radians(22.5 + 45 * i)),
            )
            for i in range(8)
        ]
        draw.polygon(points, fill=INK)
        draw.rectangle((x - h * 0.6, y - h * 0.18, x + h * 0.6, y + h * 0.18), fill=(255, 255, 255))
    elif kind == "locked":
        draw.arc(
            (x - h * 0.55, y - h, x + h * 0.55, y + h * 0.1), 180, 360, fill=INK, width=line + 1
        )
        draw.line((x - h * 0.55, y - h * 0.45, x - h * 0.55, y - h * 0.1), fill=INK, width=line + 1)
        draw.line((x + h * 0.55, y - h * 0.45, x + h * 0.55, y - h * 0.1), fill=INK, width=line + 1)
        draw.rounded_rectangle(
            (x - h * 0.85, y - h * 0.15, x + h * 0.85, y + h), radius=3, fill=INK
        )
        draw.ellipse((x - h * 0.15, y + h * 0.25, x + h * 0.15, y + h * 0.55), fill=(255, 255, 255))
    elif kind == "waiting":
        draw.polygon([(x - h * 0.7, y - h), (x + h * 0.7, y - h), (x, y)], outline=INK, width=line)
        draw.polygon([(x, y), (x + h * 0.7, y + h), (x - h * 0.7, y + h)], fill=INK, outline=INK)
        draw.line((x - h * 0.8, y - h, x + h * 0.8, y - h), fill=INK, width=line)
        draw.line((x - h * 0.8, y + h, x + h * 0.8, y + h), fill=INK, width=line)
    elif kind == "bomb":
        draw.ellipse((x - h * 0.45, y - h * 0.55, x + h * 0.45, y + h * 0.9), fill=INK)
        draw.polygon([(x - h * 0.45, y - h), (x + h * 0.45, y - h), (x, y - h * 0.3)], fill=INK)
    elif kind == "torpedo":
        draw.rounded_rectangle(
            (x - h, y - h * 0.28, x + h * 0.7, y + h * 0.28), radius=int(h * 0.28), fill=INK
        )
        draw.polygon(
            [
                (x + h * 0.6, y - h * 0.5),
                (x + h, y - h * 0.5),
                (x + h, y + h * 0.5),
                (x + h * 0.6, y + h * 0.5),
            ],
            fill=INK,
        )
    elif kind == "spoiled":
        # The Spoiled Attack mark: a ring broken by a bar.
        draw.ellipse((x - h, y - h, x + h, y + h), outline=INK, width=line + 1)
        draw.line((x - h * 0.7, y + h * 0.7, x + h * 0.7, y - h * 0.7), fill=INK, width=line + 1)


def _wave(
    draw: ImageDraw.ImageDraw, x0: float, x1: float, y: float, amp: float, fill: RGB, width: int
) -> None:
    steps = 12
    points = [
        (x0 + (x1 - x0) * i / steps, y + amp * math.sin(i / steps * 2 * math.pi * 1.5))
        for i in range(steps + 1)
    ]
    draw.line(points, fill=fill, width=width)


def _slash(draw: ImageDraw.ImageDraw, x: float, y: float, h: float, line: int) -> None:
    draw.line((x - h, y + h, x + h, y - h), fill=(255, 255, 255), width=line + 3)
    draw.line((x - h, y + h, x + h, y - h), fill=INK, width=line + 1)


def _plane(draw: ImageDraw.ImageDraw, x: float, y: float, h: float, fill: RGB) -> None:
    """A top-down aircraft silhouette pointing right."""
    body = [
        (x + h, y),
        (x + h * 0.55, y - h * 0.16),
        (x + h * 0.2, y - h * 0.16),
        (x - h * 0.1, y - h * 0.95),
        (x - h * 0.35, y - h * 0.95),
        (x - h * 0.2, y - h * 0.16),
        (x - h * 0.7, y - h * 0.16),
        (x - h * 0.9, y - h * 0.5),
        (x - h, y - h * 0.5),
        (x - h * 0.88, y),
        (x - h, y + h * 0.5),
        (x - h * 0.9, y + h * 0.5),
        (x - h * 0.7, y + h * 0.16),
        (x - h * 0.2, y + h * 0.16),
        (x - h * 0.35, y + h * 0.95),
        (x - h * 0.1, y + h * 0.95),
        (x + h * 0.2, y + h * 0.16),
        (x + h * 0.55, y + h * 0.16),
    ]
    draw.polygon(body, fill=fill)


def result_pips(
    draw: ImageDraw.ImageDraw, result: BombResult, left: float, centre_y: float, size: int = 9
) -> int:
    """A bombing result as 0-3 diamonds (Miss = hollow ring); returns the width used."""
    colour = RESULT_COLOURS[result]
    h = size / 2
    if result is BombResult.MISS:
        draw.ellipse((left, centre_y - h, left + size, centre_y + h), outline=colour, width=2)
        return size
    for i in range(int(result)):
        cx = left + h + i * (size + 2)
        draw.polygon(
            [
                (cx, centre_y - h - 1),
                (cx + h + 1, centre_y),
                (cx, centre_y + h + 1),
                (cx - h - 1, centre_y),
            ],
            fill=colour,
        )
    return int(result) * (size + 2) - 2


def dashed_line(
    draw: ImageDraw.ImageDraw,
    start: tuple[float, float],
    end: tuple[float, float],
    fill: RGB,
    width: int = 2,
    dash: int = 10,
    gap: int = 7,
) -> None:
    x0, y0 = start
    x1, y1 = end
    length = math.hypot(x1 - x0, y1 - y0)
    if length == 0:
        return
    dx, dy = (x1 - x0) / length, (y1 - y0) / length
    pos = 0.0
    while pos < length:
        stop = min(pos + dash, length)
        draw.line(
            (x0 + dx * pos, y0 + dy * pos, x0 + dx * stop, y0 + dy * stop), fill=fill, width=width
        )
        pos = stop + gap


def arrow(
    draw: ImageDraw.ImageDraw,
    start: tuple[float, float],
    end: tuple[float, float],
    fill: RGB,
    width: int = 4,
    head: int = 16,
    dashed: bool = False,
) -> None:
    x0, y0 = start
    x1, y1 = end
    length = math.hypot(x1 - x0, y1 - y0)
    if length < 1:
        return
    dx, dy = (x1 - x0) / length, (y1 - y0) / length
    bx, by = x1 - dx * head, y1 - dy * head
    if dashed:
        dashed_line(draw, (x0, y0), (bx, by), fill, width)
    else:
        draw.line((x0, y0, bx, by), fill=fill, width=width)
    px, py = -dy, dx
    draw.polygon(
        [
            (x1, y1),
            (bx + px * head * 0.55, by + py * head * 0.55),
            (bx - px * head * 0.55, by - py * head * 0.55),
        ],
        fill=fill,
    )


# --- altitude bands ------------------------------------------------------------------------


def band_rows(
    draw: ImageDraw.ImageDraw, box: Box, heights: dict[Band, int], labels: dict[Band, str]
) -> dict[Band, tuple[int, int]]:
    """Shade the band rows VH..VL inside ``box`` with their labels in a left gutter.

    Returns each band's (top, bottom) so callers can place content in the rows.
    """
    x0, y0, x1, _ = box
    gutter = 56
    spans: dict[Band, tuple[int, int]] = {}
    y = y0
    for band in BANDS_TOP_DOWN:
        h = heights[band]
        draw.rectangle((x0, y, x1, y + h), fill=BAND_SHADES[band])
        draw.line((x0, y, x1, y), fill=RULE, width=1)
        draw.text(
            (x0 + gutter // 2, y + h // 2),
            labels[band],
            font=font(20, "bold"),
            fill=MUTED,
            anchor="mm",
        )
        spans[band] = (y, y + h)
        y += h
    draw.line((x0 + gutter, y0, x0 + gutter, y), fill=RULE, width=2)
    draw.rectangle((x0, y0, x1, y), outline=RULE, width=2)
    return spans


BAND_GUTTER = 56


# --- encoding ------------------------------------------------------------------------------


# Every eighth row is enough to choose the palette from: a board's colours come in areas,
# lines and glyphs several rows tall, and each pixel is then mapped to its nearest colour.
PALETTE_ROWS = 8


def to_png(image: Image.Image, colours: int = 128, *, height: int | None = None) -> bytes:
    """Encode for Discord: a palette PNG (deterministic, small), RGB in, bytes out; with
    ``height``, only the image's top ``height`` rows (a canvas drawn taller than its
    picture), the same bytes as encoding ``image.crop`` of them.

    The palette is chosen from every ``PALETTE_ROWS``-th row, then the whole picture is
    mapped to it. Quantizing the whole picture (FASTOCTREE) copied it into two arrays of
    4 bytes a pixel: 12 MiB at once for an 800 × 1,660 board, the drawing process's peak
    (issue 29). The mapping writes the paletted picture only (a byte a pixel) and picks
    each pixel's nearest palette colour, where the octree took its cube's: fewer pixels
    far from their colour, in about half the CPU (docs/benchmarks.md, eighth pass). A
    canvas is cut once paletted, at a byte a pixel, not copied first at four.
    """
    rgb = image.convert("RGB") if image.mode != "RGB" else image
    used = rgb.height if height is None else max(1, min(height, rgb.height))
    sample = rgb.resize(
        (rgb.width, max(1, used // PALETTE_ROWS)),
        Image.Resampling.NEAREST,
        box=(0, 0, rgb.width, used),
    )
    palette = sample.quantize(
        colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    del sample
    if used < rgb.height:
        quantized = _top_mapped(rgb, palette, used)
    else:
        quantized = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    quantized.save(out, format="PNG", optimize=False, compress_level=3)
    return out.getvalue()


# Rows of a canvas mapped to the palette at once when only its top rows are the picture.
MAP_ROWS = 128


def _top_mapped(rgb: Image.Image, palette: Image.Image, used: int) -> Image.Image:
    """The top ``used`` rows of ``rgb`` mapped to ``palette``, ``MAP_ROWS`` at a time, into
    a paletted picture of those rows only: the same bytes as mapping the whole canvas and
    cutting the paletted copy, without that copy of the canvas's unused rows (a carrier
    status board: 2,601 rows mapped, 2.0 MiB, for a picture of 1,810, 1.4 MiB, both held at
    once over the canvas, the drawing process's peak; issue 29). Pillow maps each pixel to
    the palette's nearest colour through a cache kept on the palette, which every band
    shares, filled in the same order as one pass over the canvas; the first band, padded
    to ``used`` rows, carries the palette as mapping the canvas gives it."""
    width = rgb.width
    band = rgb.crop((0, 0, width, min(used, MAP_ROWS)))
    out = band.quantize(palette=palette, dither=Image.Dither.NONE).crop((0, 0, width, used))
    for top in range(MAP_ROWS, used, MAP_ROWS):  # (the rows past the first band)
        del band  # (one band at a time)
        band = rgb.crop((0, top, width, min(used, top + MAP_ROWS)))
        out.paste(band.quantize(palette=palette, dither=Image.Dither.NONE), (0, top))
    return out


# --- legends -------------------------------------------------------------------------------

LegendMark = tuple[Literal["side", "icon", "box", "result", "text"], object]


def legend(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    origin: tuple[int, int],
    width: int,
    items: Sequence[tuple[LegendMark, str]],
) -> int:
    """Lay legend items (a mark and its words) in lines; returns the height used."""
    x0, y0 = origin
    fnt = font(18)
    x, y = x0, y0
    line_height = 30
    for (kind, value), text in items:
        item_width = 30 + text_width(text, fnt) + 22
        if kind == "text" and isinstance(value, str):
            item_width += max(0, text_width(value, font(18, "bold")) - 24)
        if x + item_width > x0 + width and x > x0:
            x = x0
            y += line_height
        centre = (x + 12, y + line_height // 2)
        if kind == "side" and isinstance(value, Side):
            side_swatch(image, (x, y + 3, x + 24, y + 27), value)
        elif kind == "icon":
            draw_icon(draw, value, centre, 20)  # type: ignore[arg-type]
        elif kind == "box" and isinstance(value, tuple):
            draw.rectangle((x + 2, y + 5, x + 22, y + 25), fill=value, outline=MUTED, width=1)
        elif kind == "result" and isinstance(value, BombResult):
            result_pips(draw, value, x, centre[1], 7)
        elif kind == "text" and isinstance(value, str):
            mark = font(18, "bold")
            draw.text((x, centre[1]), value, font=mark, fill=INK, anchor="lm")
            extra = max(0, text_width(value, mark) - 24)
            draw_text(draw, (x + 30 + extra, y + line_height // 2), text, fnt, INK, anchor="lm")
            x += item_width
            continue
        draw_text(draw, (x + 30, y + line_height // 2), text, fnt, INK, anchor="lm")
        x += item_width
    return y - y0 + line_height


def legend_height(width: int, items: Sequence[tuple[LegendMark, str]]) -> int:
    fnt = font(18)
    x, lines = 0, 1
    for (kind, value), text in items:
        item_width = 30 + text_width(text, fnt) + 22
        if kind == "text" and isinstance(value, str):
            item_width += max(0, text_width(value, font(18, "bold")) - 24)
        if x + item_width > width and x > 0:
            x = 0
            lines += 1
        x += item_width
    return lines * 30

"""The air picture of a Memoir '44 game: each side's air state over a schematic 13 x 9 hex
overlay of the board, 800 px wide for a phone (text 22 px at the least, 11 px on a phone).

Only the air layer is drawn: hex labels, section lines, the planes, the path flown this
turn with its numbered tokens, the objectives taken from the air. No terrain, no ground
units: those stay on the table. Sides keep the shared visual language (Allies: blue,
squares and dots; Axis: vermilion, discs and hatching), so shape says it as well as hue.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.rulesets.memoir44.view import (
    AirView,
    Fallen,
    Plan,
    SideView,
    air_catalog,
    hex_centre,
    hex_labels,
    section_lines,
)
from engine.zero.types import Side
from rendering import style
from rendering.i18n import t
from rendering.presenter import RevealLine
from rendering.rulesets.memoir44.words import card_title, model_name

WIDTH = 800
PAD = 24
INNER = WIDTH - 2 * PAD
SMALL = 22
TEXT = 24
LINE = 34
HEX_W = (INNER - 8) / 13  # pointy-top hexes: 13 on a long row
HEX_SIZE = HEX_W / math.sqrt(3)
ROW_STEP = HEX_SIZE * 1.5
MAP_TOP_PAD = 36  # the Axis edge's word above the hexes
MAP_HEIGHT = int(MAP_TOP_PAD + 8 * ROW_STEP + 2 * HEX_SIZE + 40)
SIDE_HEIGHT = 236
TOKEN_INK = (120, 72, 0)
SHADE = (236, 232, 222)

STYLE_OF = {"allies": Side.ALLIED, "axis": Side.JAPANESE}


def _plate(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], edge: style.RGB
) -> None:
    """A white plate edged in the side's dark colour: a name or a tag read over its pattern."""
    draw.rounded_rectangle(box, radius=8, fill=style.CARD_BG, outline=edge)


def _w(key: str, locale: str, **params: object) -> str:
    return t(f"m44.{key}", locale, **params)


# ------------------------------------------------------------------ a side's air state


def _pips(draw: ImageDraw.ImageDraw, x: int, y: int, have: int, load: int, square: bool) -> int:
    """``load`` pips, the first ``have`` filled: MG tokens as discs, bombs as squares."""
    for index in range(load):
        box = (x, y - 9, x + 18, y + 9)
        fill = style.INK if index < have else style.CARD_BG
        if square:
            draw.rectangle(box, fill=fill, outline=style.INK, width=2)
        else:
            draw.ellipse(box, fill=fill, outline=style.INK, width=2)
        x += 24
    return x


def _die(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    draw.rounded_rectangle(
        (x, y - 11, x + 22, y + 11), radius=4, fill=style.CARD_BG, outline=style.INK, width=2
    )
    draw.ellipse((x + 8, y - 3, x + 14, y + 3), fill=style.INK)


def _side_panel(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: AirView, side: str, top: int, locale: str
) -> int:
    mine: SideView = view.sides[side]  # type: ignore[index]
    catalog = air_catalog()
    style_side = STYLE_OF[side]
    look = style.side_style(style_side)
    box = (PAD, top, WIDTH - PAD, top + SIDE_HEIGHT)
    style.panel(draw, box, style.CARD_BG, look.dark if view.active == side else style.RULE)
    band = (PAD + 2, top + 2, WIDTH - PAD - 2, top + 56)
    style.fill_side(image, band, style_side)
    nation = catalog.nations[mine.nation].name.get(locale)
    name = _w(f"side.{side}", locale) + " · " + nation
    plate_font = style.fit_font(name, INNER - 260, (TEXT, SMALL), "bold")
    plate = style.text_width(name, plate_font) + 70
    _plate(draw, (PAD + 12, top + 9, PAD + 12 + plate, top + 49), look.dark)
    style.draw_marker(draw, (PAD + 34, top + 29), 24, style_side)
    style.draw_text(draw, (PAD + 54, top + 29), name, plate_font, look.dark, "lm", plate - 50)
    tags = [_w("hand", locale, count=mine.hand_size), _w("medals", locale, count=len(mine.medals))]
    tag = " · ".join(tags)
    tag_font = style.fit_font(tag, WIDTH - 2 * PAD - plate - 40, (TEXT, SMALL), "bold")
    tag_width = style.text_width(tag, tag_font) + 20
    _plate(draw, (WIDTH - PAD - 12 - tag_width, top + 9, WIDTH - PAD - 12, top + 49), look.dark)
    style.draw_text(draw, (WIDTH - PAD - 22, top + 29), tag, tag_font, style.INK, "rm")
    y = top + 80
    x = PAD + 16
    plane = mine.plane
    if plane is None:
        line = _w("no-plane", locale)
        if mine.withdrew:
            line = _w("withdrew", locale)
        style.draw_text(
            draw, (x, y), line, style.fit_font(line, INNER - 32, (TEXT, SMALL)), style.MUTED, "lm"
        )
        y += LINE
    else:
        kind = catalog.types[plane.type].name.get(locale)
        where = _w(f"status.{plane.status}", locale, hex=plane.hex)
        line = f"✈ {model_name(plane.model)} · {kind.lower()} · {where}"
        style.draw_text(
            draw,
            (x, y),
            line,
            style.fit_font(line, INNER - 32, (TEXT, SMALL), "bold"),
            style.INK,
            "lm",
        )
        y += LINE
        load = catalog.types[plane.type]
        px = x
        if load.mg:
            px += (
                style.draw_text(
                    draw, (px, y), _w("mg", locale), style.font(SMALL, "bold"), style.MUTED, "lm"
                )
                + 10
            )
            px = _pips(draw, px, y, plane.mg, load.mg, square=False) + 14
        if load.bombs:
            px += style.draw_text(
                draw, (px, y), _w("bombs", locale), style.font(SMALL, "bold"), style.MUTED, "lm"
            )
            px = _pips(draw, px + 10, y, plane.bombs, load.bombs, square=True) + 14
        px += style.draw_text(
            draw, (px, y), _w("dogfight", locale), style.font(SMALL, "bold"), style.MUTED, "lm"
        )
        px += 10
        for _ in range(load.dogfight):
            _die(draw, px, y)
            px += 28
        y += LINE
    # The three types: which is up, which is lost for the game.
    tx = x
    for kind in ("fighter", "fighter_bomber", "bomber"):
        label = model_name(mine.trio[kind])  # type: ignore[index]
        lost = kind in mine.lost
        chip_font = style.font(SMALL, "cond-bold" if not lost else "cond")
        width = style.text_width(label, chip_font) + 22
        chip = (tx, y - 16, tx + width, y + 16)
        up = plane is not None and plane.type == kind
        draw.rounded_rectangle(
            chip,
            radius=6,
            fill=look.light if up else (style.CARD_BG if not lost else SHADE),
            outline=look.dark if up else (style.FAINT if lost else style.RULE),
            width=2,
        )
        style.draw_text(
            draw, (tx + 11, y), label, chip_font, style.MUTED if lost else style.INK, "lm"
        )
        if lost:
            draw.line((tx + 6, y, tx + width - 6, y), fill=style.INK, width=3)
        tx += width + 10
    y += LINE + 4
    notes = []
    if any(m.kind == "kill" for m in mine.medals):
        kills = ", ".join(model_name(m.detail) for m in mine.medals if m.kind == "kill")
        notes.append(_w("kills", locale, planes=kills))
    if any(m.kind == "bombing" for m in mine.medals):
        hexes = ", ".join(m.detail for m in mine.medals if m.kind == "bombing")
        notes.append(_w("bombed", locale, hexes=hexes))
    if mine.lost:
        lost_words = ", ".join(catalog.types[k].name.get(locale).lower() for k in mine.lost)
        notes.append(_w("lost", locale, types=lost_words))
    if not notes:
        notes.append(_w("no-medal", locale))
    if mine.hand is not None:  # the viewer's own side, or every side once the game is over
        titles = ", ".join(card_title(key, locale) for key in sorted(mine.hand)) or "—"
        whose = "your-hand" if view.viewer == side else "open-hand"
        notes.insert(0, _w(whose, locale, cards=titles))
    for note in style.wrap(" · ".join(notes), style.font(SMALL), INNER - 32, max_lines=2):
        style.draw_text(draw, (x, y), note, style.font(SMALL), style.MUTED, "lm")
        y += 30
    return top + SIDE_HEIGHT


# ------------------------------------------------------------------ the hex overlay


def _centre(hexlabel: str, left: float, top: float) -> tuple[float, float]:
    cx, cy = hex_centre(hexlabel)  # in hex-width and row units
    return left + HEX_W / 2 + cx * HEX_W / 2, top + HEX_SIZE + cy * ROW_STEP


def _hexagon(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    return [
        (
            cx + size * math.cos(math.radians(60 * k - 30)),
            cy + size * math.sin(math.radians(60 * k - 30)),
        )
        for k in range(6)
    ]


def _shown_plan(view: AirView) -> tuple[Plan | None, Sequence[Fallen]]:
    """The turn being played if its plane has flown, else the last turn played; and the
    planes that turn brought down."""
    if view.plan is not None and view.plan.path:
        return view.plan, view.fallen
    if view.history:
        last = view.history[-1]
        return last.plan, last.fallen
    return None, ()


def _fallen_mark(draw: ImageDraw.ImageDraw, centre: tuple[float, float], fallen: Fallen) -> None:
    """Where a plane went down (a cross) or was forced off (an arrow off the board)."""
    look = style.side_style(STYLE_OF[fallen.side])
    x, y = centre
    r = HEX_SIZE * 0.5
    draw.ellipse((x - r, y - r + 6, x + r, y + r + 6), fill=SHADE, outline=look.dark, width=3)
    sign = "✕" if fallen.outcome == "shot-down" else "↗"
    style.draw_text(draw, (x, y + 6), sign, style.font(28, "bold"), look.dark, "mm")


def _plane_mark(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], side: str, landed: bool
) -> None:
    look = style.side_style(STYLE_OF[side])
    x, y = centre
    r = HEX_SIZE * 0.62
    box = (x - r, y - r + 6, x + r, y + r + 6)
    if look.marker == "circle":
        draw.ellipse(box, fill=look.light if landed else look.main, outline=look.dark, width=3)
    else:
        draw.rectangle(box, fill=look.light if landed else look.main, outline=look.dark, width=3)
    ink = look.dark if landed else (255, 255, 255)
    style.draw_text(draw, (x, y + 6), "✈", style.font(30, "bold"), ink, "mm")


def _token_mark(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], number: int, kind: str
) -> None:
    x, y = centre
    r = 15
    box = (x + 4, y - 4, x + 4 + 2 * r, y - 4 + 2 * r)
    if kind == "bomb":
        draw.rectangle(box, fill=style.ACCENT, outline=style.INK, width=2)
    else:
        draw.ellipse(box, fill=style.ACCENT, outline=style.INK, width=2)
    style.draw_text(
        draw, (x + 4 + r, y - 4 + r), str(number), style.font(SMALL, "bold"), style.INK, "mm"
    )


def _map(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: AirView,
    top: int,
    locale: str,
    ghost: Plan | None = None,
) -> int:
    style.panel(draw, (PAD, top, WIDTH - PAD, top + MAP_HEIGHT), style.PAPER, style.RULE)
    left = PAD + 4
    grid_top = top + MAP_TOP_PAD
    edge_font = style.font(SMALL, "bold")
    style.draw_text(
        draw,
        (WIDTH // 2, top + 18),
        _w("edge.axis", locale),
        edge_font,
        style.side_style(Side.JAPANESE).dark,
        "mm",
    )
    style.draw_text(
        draw,
        (WIDTH // 2, top + MAP_HEIGHT - 18),
        _w("edge.allies", locale),
        edge_font,
        style.side_style(Side.ALLIED).dark,
        "mm",
    )
    label_font = style.font(SMALL)
    for hexlabel in hex_labels():
        cx, cy = _centre(hexlabel, left, grid_top)
        draw.polygon(_hexagon(cx, cy, HEX_SIZE - 1), fill=style.CARD_BG, outline=style.RULE)
        style.draw_text(draw, (cx, cy - HEX_SIZE * 0.42), hexlabel, label_font, style.FAINT, "mm")
    for x in section_lines():
        px = left + HEX_W / 2 + x * HEX_W / 2
        style.dashed_line(
            draw,
            (px, grid_top),
            (px, grid_top + 8 * ROW_STEP + 2 * HEX_SIZE),
            style.MUTED,
            3,
            10,
            8,
        )
    for hexlabel, side in sorted(view.bombed.items()):
        cx, cy = _centre(hexlabel, left, grid_top)
        look = style.side_style(STYLE_OF[side])
        draw.polygon(_hexagon(cx, cy, HEX_SIZE - 4), outline=look.dark, width=4)
        style.draw_text(draw, (cx - 16, cy + 10), "✹", style.font(28, "bold"), look.dark, "mm")
    plan, fallen = _shown_plan(view)
    ghosted = ghost is not None
    if ghost is not None:
        plan = ghost
    if plan is not None and plan.path:
        start = [plan.start] if plan.start else []
        points = [_centre(h, left, grid_top) for h in (*start, *plan.path)]
        ink = style.side_style(STYLE_OF[plan.side]).dark
        if len(points) > 1 and ghosted:
            # A flight still being drafted: dashed, so nobody takes it for one flown.
            for frm, to in itertools.pairwise(points):
                style.dashed_line(draw, frm, to, ink, 5, 12, 8)
            _arrow_head(draw, points[-2], points[-1], ink)
        elif len(points) > 1:
            draw.line(points, fill=ink, width=5, joint="curve")
            _arrow_head(draw, points[-2], points[-1], ink)
        first = points[0]
        draw.ellipse(
            (first[0] - 8, first[1] - 8, first[0] + 8, first[1] + 8),
            fill=style.CARD_BG,
            outline=ink,
            width=3,
        )
        for number, token in enumerate(plan.tokens, 1):
            _token_mark(draw, _centre(token.hex, left, grid_top), number, token.kind)
    for down in fallen:
        _fallen_mark(draw, _centre(down.hex, left, grid_top), down)
    for side in ("allies", "axis"):
        plane = view.sides[side].plane
        if plane is not None:
            _plane_mark(draw, _centre(plane.hex, left, grid_top), side, plane.status != "airborne")
    return top + MAP_HEIGHT


def _arrow_head(
    draw: ImageDraw.ImageDraw,
    frm: tuple[float, float],
    to: tuple[float, float],
    ink: tuple[int, int, int],
) -> None:
    angle = math.atan2(to[1] - frm[1], to[0] - frm[0])
    tip = (to[0] - 20 * math.cos(angle), to[1] - 20 * math.sin(angle))
    wing = 14
    left = (tip[0] - wing * math.cos(angle - 0.5), tip[1] - wing * math.sin(angle - 0.5))
    right = (tip[0] - wing * math.cos(angle + 0.5), tip[1] - wing * math.sin(angle + 0.5))
    draw.polygon([tip, left, right], fill=ink)


# ------------------------------------------------------------------ the picture


def air_picture(
    view: AirView,
    lines: Sequence[str],
    locale: str,
    title: str = "",
    ghost: Plan | None = None,
) -> bytes:
    """The whole picture: title, both sides' air state, the overlay, then ``lines`` (the
    turn in words, a few lines) under it. ``ghost``: the viewer's own flight as drafted,
    drawn dashed on its own panel's picture."""
    text_lines = [
        part
        for line in lines
        for part in style.wrap(line, style.font(SMALL), INNER - 28, max_lines=3)
    ][:14]
    legend = [
        _w("legend.path", locale),
        _w("legend.tokens", locale),
        _w("legend.bombed", locale),
        _w("legend.fallen", locale),
    ]
    legend_lines = style.wrap(" · ".join(legend), style.font(SMALL), INNER, max_lines=3)
    height = 110 + 2 * (SIDE_HEIGHT + 14) + MAP_HEIGHT + 12 + 30 * len(legend_lines) + 12
    if text_lines:
        height += 16 + 30 * len(text_lines) + 16
    # The header grows with its wrapped subtitle: drawn on room to spare, cut where it ends.
    image, draw = style.canvas(height + 80, WIDTH)
    superiority = _w(f"superiority.{view.superiority}", locale)
    subtitle = _w(
        "subtitle",
        locale,
        theatre=_w(f"theatre.{view.theatre}", locale),
        year=view.year,
        superiority=superiority,
    )
    heading = title or _w("title", locale, turn=view.turn, side=_w(f"side.{view.active}", locale))
    if view.finished:
        heading = title or _w("title-over", locale)
    score = f"★ {len(view.sides['allies'].medals)} – {len(view.sides['axis'].medals)}"
    y = style.phone_header(image, draw, heading, subtitle, score) + 14
    for side in ("allies", "axis"):
        y = _side_panel(image, draw, view, side, y, locale) + 14
    y = _map(image, draw, view, y, locale, ghost) + 12
    for line in legend_lines:
        style.draw_text(draw, (PAD, y + 14), line, style.font(SMALL), style.MUTED, "lm")
        y += 30
    y += 12
    if text_lines:
        bottom = y + 30 * len(text_lines) + 28
        style.panel(draw, (PAD, y, WIDTH - PAD, bottom), style.CARD_BG, style.RULE)
        y += 14
        for line in text_lines:
            style.draw_text(
                draw, (PAD + 14, y + 15), line, style.font(SMALL), style.INK, "lm", INNER - 28
            )
            y += 30
        y = bottom + 16
    return style.to_png(image.crop((0, 0, WIDTH, y)))


# ------------------------------------------------------------------ the reveal


def reveal_picture(title: str, sides: Sequence[RevealLine], locale: str) -> bytes:
    """What each side locked, as the reveal shows it (words given by the application)."""
    blocks: list[tuple[str, list[str], str]] = []
    for line in sides:
        body = [
            part
            for label, value in line.pairs
            for part in style.wrap(f"{label}: {value}", style.font(TEXT), INNER - 40, max_lines=3)
        ]
        blocks.append((line.side, body or ["—"], line.receipt))
    height = 110 + sum(56 + 20 + LINE * len(body) + 50 for _, body, _ in blocks) + 16
    image, draw = style.canvas(height, WIDTH)
    y = style.phone_header(image, draw, title, "") + 14
    for side, body, receipt in blocks:
        style_side = STYLE_OF.get(side, Side.ALLIED)
        look = style.side_style(style_side)
        box_height = 56 + 20 + LINE * len(body) + 36
        style.panel(draw, (PAD, y, WIDTH - PAD, y + box_height), style.CARD_BG, look.dark)
        style.fill_side(image, (PAD + 2, y + 2, WIDTH - PAD - 2, y + 50), style_side)
        name = _w(f"side.{side}", locale)
        plate = style.text_width(name, style.font(TEXT, "bold")) + 64
        _plate(draw, (PAD + 12, y + 7, PAD + 12 + plate, y + 45), look.dark)
        style.draw_marker(draw, (PAD + 32, y + 26), 22, style_side)
        style.draw_text(draw, (PAD + 50, y + 26), name, style.font(TEXT, "bold"), look.dark, "lm")
        line_y = y + 66
        for part in body:
            style.draw_text(
                draw, (PAD + 20, line_y + 14), part, style.font(TEXT), style.INK, "lm", INNER - 40
            )
            line_y += LINE
        if receipt:
            label = _w("receipt", locale, receipt=receipt)
            style.draw_text(
                draw, (PAD + 20, line_y + 14), label, style.font(SMALL, "mono"), style.MUTED, "lm"
            )
        y += box_height + 16
    return style.to_png(image)

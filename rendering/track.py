"""A damage track (Piste de Suivi des Dommages) as a ruler of boxes, shared by the images.

Left: the place with its owner's marker, its level and the VP it gives the enemy. Right: one
box per track box on level tints (lighter = less damage), ticked boxes dark, boxes restored
by Damage Control grey; a thick line at each level threshold, and under the boxes each
level's name with its penalties as icons (strike -n aircraft, CAP -n aircraft, no Large
Strike, No Strike only, no CAP, Out of Action). Labels alternate between two rows so that
neighbours never collide.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from engine.view import LevelView, TrackView
from rendering.style import (
    DAMAGE_FILL,
    INK,
    LEVEL_TINTS,
    MUTED,
    REPAIRED_FILL,
    RULE,
    Icon,
    draw_icon,
    draw_marker,
    draw_text,
    fit_font,
    font,
    text_width,
    wrap,
)
from rendering.text import level_name, place_name, side_plural, tr

LABEL_WIDTH = 290
BOX_HEIGHT = 28
ROW_HEIGHT = 24
TRACK_HEIGHT = 2 * ROW_HEIGHT + BOX_HEIGHT + 8  # 84
ICON = 20


@dataclass(frozen=True)
class Effect:
    icon: Icon | None
    text: str


def parse_effects(effects: tuple[str, ...]) -> list[Effect]:
    out: list[Effect] = []
    for key in effects:
        if key.startswith("cap-shift-"):
            out.append(Effect("cap", "↓" + key.removeprefix("cap-shift-")))
        elif key.startswith("strike-") and key.removeprefix("strike-").isdigit():
            out.append(Effect("strike", "−" + key.removeprefix("strike-")))
        elif key.startswith("cap-") and key.removeprefix("cap-").isdigit():
            out.append(Effect("cap", "−" + key.removeprefix("cap-")))
        elif key == "no-large":
            out.append(Effect("no-large", ""))
        elif key == "no-strike-only":
            out.append(Effect("no-strike", ""))
        elif key == "no-cap":
            out.append(Effect("no-cap", ""))
        elif key == "out-of-action":
            out.append(Effect("out-of-action", ""))
        else:
            out.append(Effect(None, key))
    return out


def effects_width(effects: list[Effect]) -> int:
    fnt = font(18, "bold")
    width = 0
    for effect in effects:
        width += (
            (ICON + 2 if effect.icon else 0)
            + (text_width(effect.text, fnt) if effect.text else 0)
            + 8
        )
    return max(0, width - 8)


def draw_effects(
    draw: ImageDraw.ImageDraw, x: float, centre_y: float, effects: list[Effect]
) -> int:
    fnt = font(18, "bold")
    start = x
    for effect in effects:
        if effect.icon:
            draw_icon(draw, effect.icon, (x + ICON / 2, centre_y), ICON)
            x += ICON + 2
        if effect.text:
            draw.text((x, centre_y), effect.text, font=fnt, fill=INK, anchor="lm")
            x += text_width(effect.text, fnt)
        x += 8
    return int(x - start)


def reached_level(track: TrackView, boxes: int) -> LevelView | None:
    current: LevelView | None = None
    for level in sorted(track.levels, key=lambda item: item.min_boxes):
        if boxes >= level.min_boxes:
            current = level
    return current


def draw_track(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    origin: tuple[int, int],
    width: int,
    track: TrackView,
    locale: str,
) -> int:
    """Draw one track at ``origin`` across ``width`` pixels; returns the height used."""
    x0, y0 = origin
    # --- left column: who, how bad, what it is worth to the enemy.
    draw_marker(draw, (x0 + 10, y0 + 12), 18, track.side)
    name = place_name(track.place, track.name, locale)
    space = LABEL_WIDTH - 34
    max_boxes = max(1, track.max_boxes)
    state = f"{level_name(track.level, locale)} · {min(track.boxes, max_boxes)}/{max_boxes}"
    vp_level = reached_level(track, track.boxes)
    vp = vp_level.vp if vp_level else 0
    vp_text = tr("track.vp_to", locale, vp=vp, side=side_plural(track.side.enemy, locale))
    one_line = fit_font(name, space, (20, 18), "bold")
    if text_width(name, one_line) <= space:
        draw_text(draw, (x0 + 26, y0 + 1), name, one_line, INK, max_width=space)
        draw_text(
            draw, (x0 + 26, y0 + 29), state, fit_font(state, space, (20, 18)), INK, max_width=space
        )
        draw_text(draw, (x0 + 26, y0 + 57), vp_text, font(18), MUTED, max_width=space)
    else:
        # A long name takes two condensed lines; the rest moves up a notch.
        name_font = font(18, "cond-bold")
        for index, line in enumerate(wrap(name, name_font, space, max_lines=2)):
            draw_text(draw, (x0 + 26, y0 + 2 + 21 * index), line, name_font, INK, max_width=space)
        draw_text(draw, (x0 + 26, y0 + 44), state, font(18), INK, max_width=space)
        draw_text(draw, (x0 + 26, y0 + 65), vp_text, font(18), MUTED, max_width=space)

    # --- the ruler of boxes, with label rows above (A) and below (B).
    left = x0 + LABEL_WIDTH
    right = x0 + width
    box_width = (right - left) / max_boxes
    levels = sorted(track.levels, key=lambda item: item.min_boxes)
    tints = _tints(len(levels))
    top = y0 + ROW_HEIGHT + 2
    bottom = top + BOX_HEIGHT
    ticked = min(track.boxes, max_boxes)
    effective = min(track.effective, ticked)
    for number in range(1, max_boxes + 1):
        index = 0
        for i, level in enumerate(levels):
            if number >= level.min_boxes:
                index = i
        bx0 = left + (number - 1) * box_width
        bx1 = left + number * box_width
        fill = tints[index] if levels else LEVEL_TINTS[0]
        if number <= effective:
            fill = DAMAGE_FILL
        elif number <= ticked:
            fill = REPAIRED_FILL
        draw.rectangle((bx0, top, bx1, bottom), fill=fill, outline=RULE, width=1)
    draw.rectangle((left, top, right, bottom), outline=MUTED, width=2)

    rows_end: list[float] = [left - 10.0, left - 10.0]
    row_centre = (y0 + ROW_HEIGHT // 2, bottom + 2 + ROW_HEIGHT // 2)
    label_font = font(18, "cond-bold")
    for i, level in enumerate(levels):
        start = max(1, level.min_boxes)
        if start > max_boxes:
            continue
        line_x = left + (start - 1) * box_width
        name = level_name(level.name, locale)
        effects = parse_effects(level.effects)
        placed = _place_label(name, effects, line_x, left, right, rows_end, i % 2, label_font)
        if placed is None:
            continue
        row, x, show_name, label_width = placed
        y = row_centre[row]
        if level.min_boxes > 0:
            if x + 2 < line_x:  # label pushed left of its threshold: keep the pole off it
                pole = (line_x, top - 3, line_x, bottom + 3)
            elif row == 0:
                pole = (line_x, y - ROW_HEIGHT // 2 + 2, line_x, bottom + 3)
            else:
                pole = (line_x, top - 3, line_x, y + ROW_HEIGHT // 2 - 2)
            draw.line(pole, fill=INK, width=3)
        used = 0
        if show_name:
            used = (
                draw_text(draw, (x, y), name, label_font, INK, anchor="lm", max_width=label_width)
                + 6
            )
        if effects and x + used + effects_width(effects) <= right + 1:
            draw_effects(draw, x + used, y, effects)
        rows_end[row] = x + label_width
    return TRACK_HEIGHT


def _place_label(
    name: str,
    effects: list[Effect],
    line_x: float,
    left: float,
    right: float,
    rows_end: list[float],
    preferred: int,
    label_font: ImageFont.FreeTypeFont,
) -> tuple[int, float, bool, int] | None:
    """Pick a row and an x for a threshold label: full label first, icons only if crowded."""
    full = text_width(name, label_font) + (6 + effects_width(effects) if effects else 0)
    options: list[tuple[bool, int]] = [(True, full)]
    if effects:
        options.append((False, effects_width(effects)))
    for show_name, label_width in options:
        label_width = min(label_width, int(right - left))
        x = min(max(line_x + 4, left), right - label_width)
        for row in (preferred, 1 - preferred):
            if x >= rows_end[row] + 8:
                return row, x, show_name, label_width
    # Crowded: the icons alone after the freer row's last label, else the name cut short.
    row = 0 if rows_end[0] <= rows_end[1] else 1
    x = max(rows_end[row] + 8, line_x + 4)
    if effects and x + effects_width(effects) <= right:
        return row, x, False, effects_width(effects)
    if x + 40 > right:
        return None
    return row, x, True, int(right - x)


def _tints(count: int) -> list[tuple[int, int, int]]:
    if count <= 1:
        return [LEVEL_TINTS[0]]
    last = len(LEVEL_TINTS) - 1
    return [LEVEL_TINTS[round(i * last / (count - 1))] for i in range(count)]

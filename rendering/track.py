"""A damage track (Piste de Suivi des Dommages) as a ruler of boxes, shared by the images.

Drawn for a phone (800 px pictures, text 22 px and up): on top the place with its owner's
marker, its level and box count, and the VP it gives the enemy; under it a ruler across the
whole width, one box per track box on level tints (lighter = less damage), ticked boxes
dark, boxes restored by Damage Control grey; a thick pole at each level threshold. Each
level's name, in full, with its penalties as icons (strike -n aircraft, CAP -n aircraft, no
Large Strike, No Strike only, no CAP, Out of Action) sits by its pole, in a row above or
below the ruler (a third row when the levels crowd), so that neighbours never collide.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.view import LevelView, TrackView
from rendering.style import (
    DAMAGE_FILL,
    INK,
    LEVEL_TINTS,
    MUTED,
    REPAIRED_FILL,
    RULE,
    Icon,
    draw_marker,
    draw_text,
    fit_font,
    font,
    phone_icon,
    phone_lines,
    text_width,
)
from rendering.text import level_name, place_name, side_plural, tr

BOX_HEIGHT = 32
ROW_HEIGHT = 32
HEAD_LINE = 31
ICON = 22
LABEL_SIZE = 22


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
    fnt = font(LABEL_SIZE, "bold")
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
    fnt = font(LABEL_SIZE, "bold")
    start = x
    for effect in effects:
        if effect.icon:
            phone_icon(draw, effect.icon, (x + ICON / 2, centre_y), ICON)
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


def height_bound(track: TrackView) -> int:
    """A height no drawing of ``track`` exceeds (each level adds one label row at most)."""
    rows = max(1, len(track.levels))
    return 2 * HEAD_LINE + 2 + ROW_HEIGHT + BOX_HEIGHT + 2 + rows * ROW_HEIGHT + 6


def draw_track(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    origin: tuple[int, int],
    width: int,
    track: TrackView,
    locale: str,
) -> int:
    """Draw one track at ``origin`` across ``width`` pixels; returns the height used."""
    del image
    x0, y0 = origin
    max_boxes = max(1, track.max_boxes)
    # --- the head: who, how many boxes, what it is worth to the enemy (its level is the
    # highlighted label on the ruler).
    count = f"{min(track.boxes, max_boxes)}/{max_boxes}"
    count_font = font(26, "bold")
    count_width = draw_text(draw, (x0 + width, y0 + HEAD_LINE // 2), count, count_font, INK, "rm")
    vp_level = reached_level(track, track.boxes)
    vp = vp_level.vp if vp_level else 0
    vp_text = tr("track.vp_to", locale, vp=vp, side=side_plural(track.side.enemy, locale))
    vp_font = fit_font(vp_text, width // 3, (LABEL_SIZE,), "regular")
    vp_width = draw_text(
        draw, (x0 + width - count_width - 14, y0 + HEAD_LINE // 2), vp_text, vp_font, MUTED, "rm"
    )
    draw_marker(draw, (x0 + 11, y0 + HEAD_LINE // 2), 22, track.side)
    name = place_name(track.place, track.name, locale)
    space = width - 30 - count_width - vp_width - 14 - 18
    name_font, lines = phone_lines(name, space, (26, 24, LABEL_SIZE), "bold", max_lines=2)
    for index, line in enumerate(lines):
        draw_text(
            draw, (x0 + 30, y0 + HEAD_LINE // 2 + HEAD_LINE * index), line, name_font, INK, "lm"
        )
    y = y0 + HEAD_LINE * len(lines) + 2

    # --- the ruler of boxes, with label rows above (0) and below (1, then 2 if crowded).
    left = x0
    right = x0 + width
    box_width = (right - left) / max_boxes
    levels = sorted(track.levels, key=lambda item: item.min_boxes)
    tints = _tints(len(levels))
    top = y + ROW_HEIGHT
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

    # Row 0 is above the ruler, rows 1, 2, ... below it; a row is added when levels crowd.
    rows_end: list[float] = [left - 12.0, left - 12.0]
    label_font = font(LABEL_SIZE, "cond-bold")
    placed: list[tuple[float, int, float, str, list[Effect], bool, bool]] = []
    for i, level in enumerate(levels):
        start = max(1, level.min_boxes)
        if start > max_boxes:
            continue
        line_x = left + (start - 1) * box_width
        name = level_name(level.name, locale)
        effects = parse_effects(level.effects)
        row, x, with_effects = _place_label(name, effects, line_x, left, right, rows_end, i % 2)
        placed.append((line_x, row, x, name, effects, with_effects, level.name == track.level))
    for line_x, row, x, name, effects, with_effects, current in placed:
        label_y = (
            y + ROW_HEIGHT // 2
            if row == 0
            else bottom + 2 + ROW_HEIGHT * (row - 1) + ROW_HEIGHT // 2
        )
        if line_x > left:
            if row == 0:
                pole = (line_x, label_y - ROW_HEIGHT // 2 + 3, line_x, bottom + 3)
            else:
                pole = (line_x, top - 3, line_x, label_y + ROW_HEIGHT // 2 - 3)
            if x + 2 < line_x:  # label pushed left of its threshold: keep the pole off it
                pole = (line_x, top - 3, line_x, bottom + 3)
            draw.line(pole, fill=INK, width=3)
        if current:
            # The level the place is at now: white on dark, the way ticked boxes are drawn.
            name_width = text_width(name, label_font)
            draw.rounded_rectangle(
                (x - 3, label_y - 14, x + name_width + 3, label_y + 14), radius=4, fill=INK
            )
        colour = (255, 255, 255) if current else INK
        used = draw_text(draw, (x, label_y), name, label_font, colour, anchor="lm") + 6
        if with_effects:
            draw_effects(draw, x + used, label_y, effects)
    rows_below = max(1, len(rows_end) - 1)
    return bottom + 2 + rows_below * ROW_HEIGHT + 6 - y0


def _place_label(
    name: str,
    effects: list[Effect],
    line_x: float,
    left: float,
    right: float,
    rows_end: list[float],
    preferred: int,
) -> tuple[int, float, bool]:
    """Pick a row and an x for a threshold label, the name always whole and, unless that
    would need a fourth row, its penalty icons after it. Updates ``rows_end``."""
    label_font = font(LABEL_SIZE, "cond-bold")
    name_width = text_width(name, label_font)
    full = name_width + (6 + effects_width(effects) if effects else 0)
    choices = [(True, full)] if not effects else [(True, full), (False, name_width)]
    for with_effects, label_width in choices:
        label_width = min(label_width, int(right - left))
        x = min(max(line_x + 4, left), right - label_width)
        order = [preferred, 1 - preferred, *range(2, len(rows_end))]
        for row in order:
            if x >= rows_end[row] + 12:
                rows_end[row] = x + label_width
                return row, x, with_effects
        if with_effects and len(rows_end) < 3:
            rows_end.append(x + label_width)
            return len(rows_end) - 1, x, True
    # Crowded beyond three rows: a new row, where the whole label fits.
    label_width = min(full, int(right - left))
    x = min(max(line_x + 4, left), right - label_width)
    rows_end.append(x + label_width)
    return len(rows_end) - 1, x, True


def _tints(count: int) -> list[tuple[int, int, int]]:
    if count <= 1:
        return [LEVEL_TINTS[0]]
    last = len(LEVEL_TINTS) - 1
    return [LEVEL_TINTS[round(i * last / (count - 1))] for i in range(count)]

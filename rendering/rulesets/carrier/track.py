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

from engine.rulesets.carrier.view import LevelView, TrackView
from rendering import style
from rendering.text import (
    level_name,
    place_name,
    repaired_words,
    side_plural,
    tr,
    track_level_name,
)

BOX_HEIGHT = 32
ROW_HEIGHT = 32
HEAD_LINE = 31
ICON = 22
LABEL_SIZE = 22


@dataclass(frozen=True)
class Effect:
    icon: style.Icon | None
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
    fnt = style.font(LABEL_SIZE, "bold")
    width = 0
    for effect in effects:
        width += (
            (ICON + 2 if effect.icon else 0)
            + (style.text_width(effect.text, fnt) if effect.text else 0)
            + 8
        )
    return max(0, width - 8)


def draw_effects(
    draw: ImageDraw.ImageDraw, x: float, centre_y: float, effects: list[Effect]
) -> int:
    fnt = style.font(LABEL_SIZE, "bold")
    start = x
    for effect in effects:
        if effect.icon:
            style.phone_icon(draw, effect.icon, (x + ICON / 2, centre_y), ICON)
            x += ICON + 2
        if effect.text:
            draw.text((x, centre_y), effect.text, font=fnt, fill=style.INK, anchor="lm")
            x += style.text_width(effect.text, fnt)
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
    rows = 4 + 6  # label rows (two above, two below at most), then the penalties
    return 2 * HEAD_LINE + 2 + BOX_HEIGHT + 2 + rows * ROW_HEIGHT + 10


def draw_track(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    origin: tuple[int, int],
    width: int,
    track: TrackView,
    locale: str,
    *,
    words: bool = False,
    compact: bool = False,
) -> int:
    """Draw one track at ``origin`` across ``width`` pixels; returns the height used.

    Penalties show as the legend's icons, or, with ``words``, spelled out (a picture that
    has no legend, such as the order panel). ``compact`` leaves out the names of the levels
    by their poles: only the level now and the next one are named, under the ruler (the
    status board, where every track must fit on a phone; /status lists every level)."""
    del image
    x0, y0 = origin
    max_boxes = max(1, track.max_boxes)
    # --- the head: who, how many boxes, what it is worth to the enemy (its level is the
    # highlighted label on the ruler).
    count = f"{min(track.boxes, max_boxes)}/{max_boxes}"
    count_font = style.font(26, "bold")
    count_width = style.draw_text(
        draw, (x0 + width, y0 + HEAD_LINE // 2), count, count_font, style.INK, "rm"
    )
    vp_level = reached_level(track, track.boxes)
    vp = vp_level.vp if vp_level else 0
    vp_text = tr("track.vp_to", locale, vp=vp, side=side_plural(track.side.enemy, locale))
    vp_font = style.fit_font(vp_text, width // 3, (LABEL_SIZE,), "regular")
    vp_width = style.draw_text(
        draw,
        (x0 + width - count_width - 14, y0 + HEAD_LINE // 2),
        vp_text,
        vp_font,
        style.MUTED,
        "rm",
    )
    style.draw_marker(draw, (x0 + 11, y0 + HEAD_LINE // 2), 22, track.side)
    name = place_name(track.place, track.name, locale)
    space = width - 30 - count_width - vp_width - 14 - 18
    name_font, lines = style.phone_lines(name, space, (26, 24, LABEL_SIZE), "bold", max_lines=2)
    for index, line in enumerate(lines):
        style.draw_text(
            draw,
            (x0 + 30, y0 + HEAD_LINE // 2 + HEAD_LINE * index),
            line,
            name_font,
            style.INK,
            "lm",
        )
    y = y0 + HEAD_LINE * len(lines) + 2

    # --- the ruler of boxes; each level's name by its threshold pole, in a row above or
    # below the ruler (a second row on one side when the levels crowd).
    left = x0
    right = x0 + width
    box_width = (right - left) / max_boxes
    levels = sorted(track.levels, key=lambda item: item.min_boxes)
    label_font = style.font(LABEL_SIZE, "cond-bold")
    labels = level_labels(track, left, width, locale)
    rows = [] if compact else arrange(labels)
    above = 0 if compact else 2 if -1 in rows else 1
    below = 0 if compact else 2 if 2 in rows else 1
    top = y + above * ROW_HEIGHT + (4 if compact else 0)
    bottom = top + BOX_HEIGHT
    tints = _tints(len(levels))
    ticked = min(track.boxes, max_boxes)
    effective = min(track.effective, ticked)
    for number in range(1, max_boxes + 1):
        index = 0
        for i, level in enumerate(levels):
            if number >= level.min_boxes:
                index = i
        bx0 = left + (number - 1) * box_width
        bx1 = left + number * box_width
        fill = tints[index] if levels else style.LEVEL_TINTS[0]
        if number <= effective:
            fill = style.DAMAGE_FILL
        elif number <= ticked:
            fill = style.REPAIRED_FILL
        draw.rectangle((bx0, top, bx1, bottom), fill=fill, outline=style.RULE, width=1)
    draw.rectangle((left, top, right, bottom), outline=style.MUTED, width=2)

    if compact:
        for label in labels:
            if label.line_x > left:
                draw.line(
                    (label.line_x, top - 4, label.line_x, bottom + 4), fill=style.INK, width=3
                )
    for label, row in zip([] if compact else labels, rows, strict=True):
        if row <= 0:
            label_y = top - ROW_HEIGHT * (-row) - ROW_HEIGHT // 2
            pole = (label.line_x, label_y - ROW_HEIGHT // 2 + 3, label.line_x, bottom + 3)
        else:
            label_y = bottom + 2 + ROW_HEIGHT * (row - 1) + ROW_HEIGHT // 2
            pole = (label.line_x, top - 3, label.line_x, label_y + ROW_HEIGHT // 2 - 3)
        if label.line_x > left:
            draw.line(pole, fill=style.INK, width=3)
        if label.current:
            # The level the place is at now: white on dark, the way ticked boxes are drawn.
            draw.rounded_rectangle(
                (label.x - 3, label_y - 14, label.x + label.width + 3, label_y + 14),
                radius=4,
                fill=style.INK,
            )
        colour = (255, 255, 255) if label.current else style.INK
        style.draw_text(draw, (label.x, label_y), label.name, label_font, colour, "lm", width)
    y = bottom + 2 + below * ROW_HEIGHT + 4
    if compact:
        y = _penalty_line(draw, (x0, y), width, track, levels, locale, named=True)
    elif any(level.effects for level in levels):
        penalties = _penalty_words if words else _penalty_line
        y = penalties(draw, (x0, y), width, track, levels, locale)
    return y + 6 - y0


def _penalty_line(
    draw: ImageDraw.ImageDraw,
    origin: tuple[int, int],
    width: int,
    track: TrackView,
    levels: list[LevelView],
    locale: str,
    *,
    named: bool = False,
) -> int:
    """What the level now costs, then the next level and its cost; returns the y below.

    ``named`` puts the level's own name (white on dark, as on the ruler's labels) where
    "Now:" would be, for a track drawn without its level labels."""
    x0, y = origin
    fnt = style.font(LABEL_SIZE)
    bold = style.font(LABEL_SIZE, "bold")
    parts = _level_parts(track, levels, locale)
    if named:
        parts[0] = (track_level_name(track.level, track.boxes, locale), parts[0][1])
    x = x0
    centre = y + ROW_HEIGHT // 2
    for n, (words, effects) in enumerate(parts):
        shown = (
            effects_width(effects)
            if effects
            else style.text_width(tr("track.no_penalty", locale), fnt)
        )
        part_width = style.text_width(words, bold) + 8 + shown
        if n and x + 24 + part_width > x0 + width:
            x, centre = x0, centre + ROW_HEIGHT
        elif n:
            x += 24
        if named and n == 0:
            chip = style.text_width(words, bold)
            draw.rounded_rectangle(
                (x, centre - 14, x + chip + 8, centre + 14), radius=4, fill=style.INK
            )
            x += style.draw_text(draw, (x + 4, centre), words, bold, (255, 255, 255), "lm") + 20
            if not effects and len(parts) > 1:
                continue  # a dark chip alone says "no penalty" well enough
            x -= 8
            x += style.draw_text(draw, (x, centre), ":", bold, style.MUTED, "lm") + 4
        else:
            x += style.draw_text(draw, (x, centre), words, bold, style.MUTED, "lm") + 8
        if effects:
            x += draw_effects(draw, x, centre, effects)
        else:
            x += style.draw_text(
                draw, (x, centre), tr("track.no_penalty", locale), fnt, style.MUTED, "lm"
            )
    repaired = _repaired_words(track, locale)
    if repaired:
        # After the next level: the ticked count on the head line is more than the level
        # reads, and this says by how much, beside a swatch of the ruler's grey boxes.
        part_width = ICON + 6 + style.text_width(repaired, fnt)
        if x + 24 + part_width > x0 + width:
            x, centre = x0, centre + ROW_HEIGHT
        else:
            x += 24
        _draw_repaired(draw, x, centre, repaired)
    return centre + ROW_HEIGHT // 2


def _draw_repaired(draw: ImageDraw.ImageDraw, x: float, centre: float, words: str) -> None:
    """A swatch of the ruler's grey boxes, then "2 repaired"."""
    half = ICON // 2 - 2
    draw.rectangle(
        (x, centre - half, x + ICON - 4, centre + half),
        fill=style.REPAIRED_FILL,
        outline=style.MUTED,
        width=1,
    )
    style.draw_text(draw, (x + ICON + 2, centre), words, style.font(LABEL_SIZE), style.MUTED, "lm")


def _repaired_words(track: TrackView, locale: str) -> str:
    """``repaired_words`` for the boxes the ruler draws (no more than the track has)."""
    ticked = min(track.boxes, max(1, track.max_boxes))
    return repaired_words(ticked, min(track.effective, ticked), locale)


def effect_words(effects: list[Effect], locale: str) -> str:
    """Penalties as words ("strike −1 aircraft, CAP −1 aircraft"), for pictures without a
    legend."""
    out: list[str] = []
    for effect in effects:
        amount = effect.text[1:]
        if effect.icon == "strike":
            out.append(tr("panel.strike_minus", locale, n=amount))
        elif effect.icon == "cap" and effect.text.startswith("↓"):
            out.append(tr("track.cap_shift", locale, n=amount))
        elif effect.icon == "cap":
            out.append(tr("panel.cap_minus", locale, n=amount))
        elif effect.icon is not None:
            key = {"no-strike": "no_strike", "out-of-action": "out_of_action"}.get(
                effect.icon, effect.icon.replace("-", "_")
            )
            out.append(tr(f"legend.{key}", locale))
        else:
            out.append(effect.text)
    return ", ".join(out) if out else tr("track.no_penalty", locale)


def level_ladder(track: TrackView, locale: str) -> str:
    """Every level after the first with the box it starts at and what it costs, in words:
    the board draws only the cost now and next, the whole ladder is told in text."""
    steps: list[str] = []
    costly = any(level.effects for level in track.levels)
    for level in sorted(track.levels, key=lambda item: item.min_boxes):
        if not 0 < level.min_boxes <= track.max_boxes:
            continue
        name = level_name(level.name, locale)
        effects = effect_words(parse_effects(level.effects), locale)
        if not costly or effects == name:  # "Out of Action (Out of Action)" says it twice
            steps.append(tr("track.ladder_plain", locale, level=name, boxes=level.min_boxes))
        else:
            steps.append(
                tr("track.ladder_step", locale, level=name, boxes=level.min_boxes, effects=effects)
            )
    return tr("track.ladder", locale, steps=" · ".join(steps)) if steps else ""


def _level_parts(
    track: TrackView, levels: list[LevelView], locale: str
) -> list[tuple[str, list[Effect]]]:
    """("Now:", its penalties), then ("Next, <level> at <boxes>:", its penalties)."""
    index = next((i for i, level in enumerate(levels) if level.name == track.level), 0)
    parts = [(tr("track.now", locale), parse_effects(levels[index].effects))]
    if index + 1 < len(levels) and levels[index + 1].min_boxes <= track.max_boxes:
        following = levels[index + 1]
        words = tr(
            "track.next",
            locale,
            level=level_name(following.name, locale),
            boxes=following.min_boxes,
        )
        parts.append((words, parse_effects(following.effects)))
    return parts


def _penalty_words(
    draw: ImageDraw.ImageDraw,
    origin: tuple[int, int],
    width: int,
    track: TrackView,
    levels: list[LevelView],
    locale: str,
) -> int:
    """The same as ``_penalty_line`` in words, each part on its own lines."""
    x0, y = origin
    fnt = style.font(LABEL_SIZE)
    for words, effects in _level_parts(track, levels, locale):
        for line in style.wrap(f"{words} {effect_words(effects, locale)}", fnt, width, max_lines=3):
            style.draw_text(draw, (x0, y + ROW_HEIGHT // 2), line, fnt, style.INK, "lm")
            y += ROW_HEIGHT
    repaired = _repaired_words(track, locale)
    if repaired:
        _draw_repaired(draw, x0, y + ROW_HEIGHT // 2, repaired)
        y += ROW_HEIGHT
    return y


def _label_x(line_x: float, width: float, left: float, right: float) -> float:
    """A label starts just right of its pole, or ends just left of it near the right end."""
    if line_x + 4 + width <= right:
        return max(line_x + 4, left)
    return max(line_x - 4 - width, left)


@dataclass(frozen=True)
class Label:
    name: str
    line_x: float  # the level's threshold pole
    x: float
    width: float
    current: bool


# Label rows: 0 just above the ruler, -1 above that, 1 just below, 2 below that. The rows
# tried, fewest first; a label two rows away hangs from a pole crossing the row between.
_ROW_SETS: tuple[tuple[int, ...], ...] = ((0, 1), (0, 1, 2), (-1, 0, 1, 2))
_GAP = 8


def _between(row: int) -> tuple[int, ...]:
    return {-1: (0,), 2: (1,)}.get(row, ())


def _clash(label: Label, row: int, other: Label, other_row: int) -> bool:
    if row == other_row:
        return label.x < other.x + other.width + _GAP and other.x < label.x + label.width + _GAP
    if other_row in _between(row):  # this label's pole crosses the other's row
        return other.x - 5 < label.line_x < other.x + other.width + 5
    if row in _between(other_row):
        return label.x - 5 < other.line_x < label.x + label.width + 5
    return False


def level_labels(track: TrackView, left: int, width: int, locale: str) -> list[Label]:
    """Each level's name where its threshold pole stands on a ruler ``width`` wide."""
    max_boxes = max(1, track.max_boxes)
    box_width = width / max_boxes
    label_font = style.font(LABEL_SIZE, "cond-bold")
    labels: list[Label] = []
    for level in sorted(track.levels, key=lambda item: item.min_boxes):
        start = max(1, level.min_boxes)
        if start > max_boxes:
            continue
        line_x = left + (start - 1) * box_width
        name = level_name(level.name, locale)
        label_width = min(style.text_width(name, label_font), width)
        x = _label_x(line_x, label_width, left, left + width)
        labels.append(Label(name, line_x, x, label_width, level.name == track.level))
    return labels


def clashes(labels: list[Label], rows: list[int]) -> list[tuple[str, str]]:
    """The pairs of labels that overlap, or whose pole crosses the other (none, normally)."""
    return [
        (a.name, b.name)
        for i, (a, row_a) in enumerate(zip(labels, rows, strict=True))
        for b, row_b in zip(labels[i + 1 :], rows[i + 1 :], strict=True)
        if _clash(a, row_a, b, row_b)
    ]


def arrange(labels: list[Label]) -> list[int]:
    """A row for each label so that no two collide and no pole crosses a label, with as
    few rows as possible and neighbours alternating above and below when they can."""
    for allowed in _ROW_SETS:
        found = _search(labels, allowed, [])
        if found is not None:
            return found
    # More crowded than four rows can hold (no real track is): alternate and accept it.
    return [i % 2 for i in range(len(labels))]


def _search(labels: list[Label], allowed: tuple[int, ...], chosen: list[int]) -> list[int] | None:
    index = len(chosen)
    if index == len(labels):
        return chosen
    preferred = index % 2
    order = sorted(allowed, key=lambda row: (abs(row - preferred) if row >= 0 else 3, row))
    label = labels[index]
    for row in order:
        if any(_clash(label, row, labels[n], r) for n, r in enumerate(chosen)):
            continue
        found = _search(labels, allowed, [*chosen, row])
        if found is not None:
            return found
    return None


def _tints(count: int) -> list[tuple[int, int, int]]:
    if count <= 1:
        return [style.LEVEL_TINTS[0]]
    last = len(style.LEVEL_TINTS) - 1
    return [style.LEVEL_TINTS[round(i * last / (count - 1))] for i in range(count)]

"""The status board: the public picture of a campaign at the start of a round.

Drawn for a phone (800 px wide, no text under 22 px, so 11 px once Discord shows it 400 px
wide) and stacked top to bottom: one card per side (VP, what it revealed, whether it has
locked this round), the round with its deadline and the turn track, the theatre map with
both fleets on their revealed range band, every damage track, and a legend of the marks
the tracks use. The board's words (VP, boxes, levels) are also in its alt text and in the
round message, so nothing here is the only place a fact is told.
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image, ImageDraw, ImageFont

from engine.rulesets.carrier.view import View
from engine.zero.types import RoundKind, Side
from rendering import style
from rendering.rulesets.carrier.maps import draw_map, map_height
from rendering.rulesets.carrier.track import draw_track, height_bound, parse_effects
from rendering.text import (
    place_label,
    place_name,
    round_name,
    scenario_name,
    side_name,
    size_name,
    tactic_name,
    tr,
    turn_label,
)

SIDES = (Side.JAPANESE, Side.ALLIED)
WIDTH = style.PHONE_WIDTH
MARGIN = style.PHONE_MARGIN
INNER = WIDTH - 2 * MARGIN
GAP = 14


def track_legend(view: View, locale: str) -> list[tuple[style.LegendMark, str]]:
    """The marks the board's tracks use, and only those (a legend is read, not skimmed)."""
    icons: set[str] = set()
    for track in view.tracks:
        for level in track.levels:
            icons.update(str(effect.icon) for effect in parse_effects(level.effects) if effect.icon)
    items: list[tuple[style.LegendMark, str]] = [
        (("box", style.DAMAGE_FILL), tr("legend.box_ticked", locale))
    ]
    if any(track.effective < track.boxes for track in view.tracks):
        items.append((("box", style.REPAIRED_FILL), tr("legend.box_repaired", locale)))
    for icon, key in (
        ("strike", "legend.strike_minus"),
        ("cap", "legend.cap_minus"),
        ("no-large", "legend.no_large"),
        ("no-strike", "legend.no_strike"),
        ("no-cap", "legend.no_cap"),
        ("out-of-action", "legend.out_of_action"),
    ):
        if icon in icons:
            items.append((("icon", icon), tr(key, locale)))
    return items


def _card_rows(view: View, side: Side, locale: str) -> list[str]:
    """What a side's card says under its name: its choice, its target."""
    own = view.sides.get(side)
    if own is None:
        return []
    places = {t.place: place_name(t.place, t.name, locale) for t in view.tracks}
    if own.tactic is not None:
        size, _, target_key = (own.flight_ops or "").partition(":")
        size_text = size_name(size, locale) if size else tr("unknown", locale)
        choice = f"{tactic_name(own.tactic, locale)} · {size_text}"
        rows = [tr("status.this_turn", locale, choice=choice)]
        if target_key:
            rows.append("→ " + places.get(target_key, place_label(target_key, locale)))
        return rows
    if own.last_tactic is not None:
        last_size = size_name(own.last_size, locale) if own.last_size else "—"
        choice = f"{tactic_name(own.last_tactic, locale)} · {last_size}"
        return [tr("status.last_turn", locale, choice=choice)]
    return [tr("status.no_choice_yet", locale)]


CardLines = list[tuple[str, ImageFont.FreeTypeFont]]


def _card_lines(view: View, side: Side, locale: str, space: int) -> CardLines:
    lines: CardLines = []
    for text in _card_rows(view, side, locale):
        fnt, wrapped = style.phone_lines(
            text, space, (style.PHONE_TEXT, style.PHONE_MIN_TEXT), max_lines=2
        )
        lines += [(line, fnt) for line in wrapped]
    return lines


def _side_card(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    view: View,
    side: Side,
    locked: bool | None,
    locale: str,
) -> None:
    """One side's card (half the board's width): name and VP, its choice, its lock (None:
    no round waits on the side, so no lock is shown)."""
    x0, top, x1, bottom = box
    look = style.side_style(side)
    own = view.sides.get(side)
    text_x = x0 + 32
    space = x1 - 12 - text_x
    style.panel(draw, box, style.CARD_BG, look.dark)
    style.fill_side(image, (x0 + 2, top + 2, x0 + 18, bottom - 2), side)
    vp_text = str(own.vp if own else 0)
    vp_font = style.font(44, "bold")
    draw.text((x1 - 14, top + 6), vp_text, font=vp_font, fill=look.dark, anchor="ra")
    vp_left = x1 - 14 - style.text_width(vp_text, vp_font)
    vp_label = tr("vp", locale)
    draw.text(
        (vp_left - 6, top + 46),
        vp_label,
        font=style.font(22, "bold"),
        fill=style.MUTED,
        anchor="rs",
    )
    label_left = vp_left - 6 - style.text_width(vp_label, style.font(22, "bold"))
    style.draw_marker(draw, (x0 + 40, top + 30), 24, side)
    name = side_name(side, locale)
    name_space = label_left - 10 - (x0 + 58)
    style.draw_text(
        draw, (x0 + 58, top + 30), name, style.fit_font(name, name_space, (30, 26, 24), "bold"),
        look.dark, "lm", name_space,
    )  # fmt: skip
    y = top + 58
    for line, fnt in _card_lines(view, side, locale, space):
        draw.text((text_x, y + 15), line, font=fnt, fill=style.INK, anchor="lm")
        y += 30
    if own is not None and not view.finished and locked is not None:
        words = tr("status.locked" if locked else "status.waiting", locale)
        lock_y = bottom - 22
        style.draw_icon(draw, "locked" if locked else "waiting", (text_x + 11, lock_y), 22)
        kind: style.FontKind = "bold" if locked else "regular"
        fnt = style.fit_font(words, space - 30, (style.PHONE_TEXT, style.PHONE_MIN_TEXT), kind)
        style.draw_text(
            draw, (text_x + 30, lock_y), words, fnt, style.INK if locked else style.MUTED, "lm"
        )


def _side_cards(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    top: int,
    view: View,
    locked: Mapping[Side, bool],
    locale: str,
) -> int:
    """Both sides' cards side by side, as tall as the fuller one; returns their height."""
    half = (INNER - 12) // 2
    space = half - 44
    lines = max(len(_card_lines(view, side, locale, space)) for side in SIDES)
    # No side named in ``locked``: no round waits (a played turn on the replay page).
    lock_row = not view.finished and all(side in view.sides for side in SIDES) and bool(locked)
    height = 58 + 30 * lines + (40 if lock_row else 0) + 10
    for index, side in enumerate(SIDES):
        x0 = MARGIN + index * (half + 12)
        box = (x0, top, x0 + half, top + height)
        flag = bool(locked.get(side, False)) if locked else None
        _side_card(image, draw, box, view, side, flag, locale)
    return height


def _round_box(
    draw: ImageDraw.ImageDraw,
    top: int,
    view: View,
    deadline: str | None,
    locale: str,
    waiting: bool = True,
) -> int:
    """The round (or the result) and its deadline, then the turn track; returns the height.
    ``waiting``: a round waits on the sides; else (a played turn shown again) no deadline
    is named, not even 'no deadline set'."""
    x0, x1 = MARGIN, WIDTH - MARGIN
    inner = x1 - x0 - 32
    lines: list[tuple[str, tuple[int, ...], style.FontKind]] = []  # text, sizes, face
    if view.finished:
        if view.winner == "draw":
            result = tr("status.draw", locale)
        elif isinstance(view.winner, Side):
            result = tr("status.winner", locale, side=side_name(view.winner, locale))
        else:
            result = tr("status.over", locale)
        lines.append((result, (28, 26, 24), "bold"))
    else:
        title = tr("status.round", locale, name=round_name(view.round, locale))
        lines.append((title, (28, 26, 24), "bold"))
        if deadline or waiting:
            text = (
                tr("status.deadline", locale, when=deadline)
                if deadline
                else tr("status.no_deadline", locale)
            )
            lines.append((text, (style.PHONE_TEXT, style.PHONE_MIN_TEXT), "regular"))
    drawn: list[tuple[str, ImageFont.FreeTypeFont, style.RGB]] = []
    for text, sizes, kind in lines:
        fnt, wrapped = style.phone_lines(text, inner, sizes, kind, 2)
        for line in wrapped:
            drawn.append((line, fnt, style.INK if kind == "bold" else style.MUTED))
    text_height = 16 + 34 * len(drawn)
    track_top = top + text_height + 6
    height = text_height + 6 + _turn_track_height(view) + 14
    style.panel(draw, (x0, top, x1, top + height))
    y = top + 14
    for line, fnt, colour in drawn:
        draw.text((x0 + 16, y), line, font=fnt, fill=colour)
        y += 34
    _turn_track(draw, (x0 + 12, track_top, x1 - 12), view, locale)
    return height


def _turn_track_height(view: View) -> int:
    return 44 + (34 if view.turn_label and not view.finished else 0)


def _turn_track(
    draw: ImageDraw.ImageDraw, span: tuple[int, int, int], view: View, locale: str
) -> None:
    x0, y0, x1 = span
    turns = max(1, view.turns)
    cell = (x1 - x0) / turns
    for index in range(turns):
        number = index + 1
        cx0 = x0 + index * cell
        square = (cx0 + 3, y0, cx0 + cell - 3, y0 + 42)
        current = number == view.turn and not view.finished
        past = number < view.turn or (view.finished and number <= view.turn)
        fill = (70, 70, 70) if past else style.ACCENT if current else style.CARD_BG
        draw.rectangle(
            square,
            fill=fill,
            outline=style.INK if current else style.RULE,
            width=3 if current else 2,
        )
        colour = (255, 255, 255) if past else style.INK
        text = f"{number}" if cell < 70 else tr("status.turn_short", locale, n=number)
        draw.text(
            ((square[0] + square[2]) / 2, y0 + 21), text, font=style.font(24, "bold"),
            fill=colour, anchor="mm",
        )  # fmt: skip
    if view.turn_label and not view.finished:
        # Only the current turn's label is known: centred under it, kept inside the panel.
        label = turn_label(view.turn_label, locale)
        fnt = style.fit_font(label, x1 - x0, (style.PHONE_TEXT, style.PHONE_MIN_TEXT), "bold")
        half = style.text_width(label, fnt) / 2
        centre = x0 + (view.turn - 0.5) * cell
        lx = min(max(centre, x0 + half), x1 - half)
        draw.text((lx, y0 + 48), label, font=fnt, fill=style.INK, anchor="ma")


def render_status_board(
    view: View,
    *,
    locked: Mapping[Side, bool],
    deadline_text: str | None,
    locale: str,
) -> bytes:
    """The public status board as PNG bytes (800 px wide, read on a phone)."""
    likely, bound = _heights(view)
    image, y = _status_image(
        view, locked=locked, deadline_text=deadline_text, locale=locale, height=likely
    )
    if y > likely:  # taller than its likely canvas: drawn again on the sure one
        del image  # (freed before the taller canvas is filled)
        image, y = _status_image(
            view, locked=locked, deadline_text=deadline_text, locale=locale, height=bound
        )
    return style.to_png(image, height=y)


# The rows a board's header, side cards, round box and legend may take beyond its map's
# height and its tracks' bounds: 1,600, a bound no words have come near. Every board of
# every recorded carrier game, in English and in French, ended 480 to 990 rows short of
# the map's and tracks' bounds alone.
SLACK = 1600


def _heights(view: View) -> tuple[int, int]:
    """The canvas a board is drawn on first, and the one it is sure to fit (``SLACK``).

    The canvas is filled with paper to its last row, and a board was drawn on the sure
    one: 3,761 to 4,201 rows, 12 to 13 MiB, for a board of 1,660 to 1,748 rows, the drawing
    process's largest allocation (issue 29). Drawn on the first, and on the sure one only
    if it overflows: the rows it fits are the same pixels on either canvas.
    """
    tracked = map_height(view, INNER) + sum(height_bound(t) + 12 for t in view.tracks)
    return tracked, tracked + SLACK


def _status_image(
    view: View,
    *,
    locked: Mapping[Side, bool],
    deadline_text: str | None,
    locale: str,
    height: int,
) -> tuple[Image.Image, int]:
    """The board drawn on a canvas ``height`` rows tall, and the rows it used (more than
    ``height`` if it did not fit)."""
    image, draw = style.canvas(height, WIDTH)
    turn_text = tr("status.turn_of", locale, turn=view.turn, turns=view.turns)
    subtitle = (
        f"{turn_text} · {turn_label(view.turn_label, locale)}" if view.turn_label else turn_text
    )
    number = 1 if view.round is RoundKind.ORDERS else 2
    right = tr("status.over", locale) if view.finished else tr("status.round_n", locale, n=number)
    title = scenario_name(view.scenario, view.scenario_name, locale)
    y = style.phone_header(image, draw, title, subtitle, right) + GAP
    y += _side_cards(image, draw, y, view, locked, locale) + 10
    y += _round_box(draw, y, view, deadline_text, locale, waiting=bool(locked)) + GAP
    map_bottom = y + map_height(view, INNER)
    draw_map(image, draw, (MARGIN, y, WIDTH - MARGIN, map_bottom), view, locale)
    y = map_bottom + GAP
    for track in view.tracks:
        y += draw_track(image, draw, (MARGIN, y), INNER, track, locale, compact=True)
        draw.line((MARGIN, y + 4, WIDTH - MARGIN, y + 4), fill=style.RULE, width=2)
        y += 12
    y += style.phone_legend(image, draw, (MARGIN, y), INNER, track_legend(view, locale)) + GAP
    return image, y

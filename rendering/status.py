"""The status board: the public picture of a campaign at the start of a round.

Top left the theatre map with both fleets on their revealed range band; top right one card
per side (VP, what it revealed, whether it has locked this round), the round and its deadline,
and the turn track; below, every damage track; a legend at the bottom.
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image, ImageDraw

from engine.types import RoundKind, Side
from engine.view import View
from rendering.maps import draw_map
from rendering.style import (
    ACCENT,
    CARD_BG,
    DAMAGE_FILL,
    INK,
    MARGIN,
    MUTED,
    REPAIRED_FILL,
    RULE,
    WIDTH,
    LegendMark,
    canvas,
    draw_icon,
    draw_marker,
    draw_text,
    fill_side,
    fit_font,
    font,
    header,
    legend,
    legend_height,
    panel,
    side_style,
    text_width,
    to_png,
    wrap,
)
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
from rendering.track import TRACK_HEIGHT, draw_track

SIDES = (Side.JAPANESE, Side.ALLIED)
BODY_TOP = 90
BODY_HEIGHT = 420
MAP_WIDTH = 640
COLUMN_X = MARGIN + MAP_WIDTH + 20
COLUMN_WIDTH = WIDTH - MARGIN - COLUMN_X
TRACK_GAP = 6


def track_legend(locale: str) -> list[tuple[LegendMark, str]]:
    return [
        (("side", Side.JAPANESE), side_name(Side.JAPANESE, locale)),
        (("side", Side.ALLIED), side_name(Side.ALLIED, locale)),
        (("box", DAMAGE_FILL), tr("legend.box_ticked", locale)),
        (("box", REPAIRED_FILL), tr("legend.box_repaired", locale)),
        (("icon", "strike"), tr("legend.strike_minus", locale)),
        (("icon", "cap"), tr("legend.cap_minus", locale)),
        (("icon", "no-large"), tr("legend.no_large", locale)),
        (("icon", "no-strike"), tr("legend.no_strike", locale)),
        (("icon", "no-cap"), tr("legend.no_cap", locale)),
        (("icon", "out-of-action"), tr("legend.out_of_action", locale)),
    ]


def _side_card(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    view: View,
    side: Side,
    locked: bool,
    locale: str,
) -> None:
    x0, y0, x1, y1 = box
    style = side_style(side)
    panel(draw, box, CARD_BG, style.dark)
    fill_side(image, (x0 + 2, y0 + 2, x0 + 18, y1 - 2), side)
    own = view.sides.get(side)
    vp = own.vp if own else 0
    vp_font = font(40, "bold")
    vp_text = str(vp)
    draw.text((x1 - 14, y0 + 6), vp_text, font=vp_font, fill=style.dark, anchor="ra")
    vp_left = x1 - 14 - text_width(vp_text, vp_font)
    draw.text(
        (vp_left - 6, y0 + 40), tr("vp", locale), font=font(18, "bold"), fill=MUTED, anchor="rs"
    )
    draw_marker(draw, (x0 + 40, y0 + 24), 24, side)
    name_space = vp_left - 40 - (x0 + 58)
    draw_text(
        draw,
        (x0 + 58, y0 + 24),
        side_name(side, locale),
        fit_font(side_name(side, locale), name_space, (26, 24, 22), "bold"),
        style.dark,
        "lm",
        name_space,
    )
    if own is None:
        return
    space = x1 - x0 - 44
    places = {track.place: place_name(track.place, track.name, locale) for track in view.tracks}
    target = ""
    if own.tactic is not None:
        size, _, target_key = (own.flight_ops or "").partition(":")
        size_text = size_name(size, locale) if size else tr("unknown", locale)
        choice = f"{tactic_name(own.tactic, locale)} · {size_text}"
        line = tr("status.this_turn", locale, choice=choice)
        if target_key:
            target = "→ " + places.get(target_key, place_label(target_key, locale))
    elif own.last_tactic is not None:
        last_size = size_name(own.last_size, locale) if own.last_size else "—"
        line = tr(
            "status.last_turn",
            locale,
            choice=f"{tactic_name(own.last_tactic, locale)} · {last_size}",
        )
    else:
        line = tr("status.no_choice_yet", locale)
    draw_text(draw, (x0 + 30, y0 + 58), line, fit_font(line, space, (20, 18)), INK, "lm", space)
    if target:
        draw_text(
            draw, (x0 + 30, y0 + 84), target, fit_font(target, space, (20, 18)), INK, "lm", space
        )
    if view.finished:
        return
    lock_y = y0 + (110 if target else 88)
    if locked:
        draw_icon(draw, "locked", (x0 + 42, lock_y), 22)
        draw_text(
            draw,
            (x0 + 62, lock_y),
            tr("status.locked", locale),
            font(20, "bold"),
            INK,
            "lm",
            x1 - x0 - 80,
        )
    else:
        draw_icon(draw, "waiting", (x0 + 42, lock_y), 20)
        draw_text(
            draw,
            (x0 + 62, lock_y),
            tr("status.waiting", locale),
            font(20),
            MUTED,
            "lm",
            x1 - x0 - 80,
        )


def _round_box(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    view: View,
    deadline: str | None,
    locale: str,
) -> None:
    x0, y0, x1, _ = box
    panel(draw, box)
    inner = x1 - x0 - 28
    if view.finished:
        if view.winner == "draw":
            result = tr("status.draw", locale)
        elif isinstance(view.winner, Side):
            result = tr("status.winner", locale, side=side_name(view.winner, locale))
        else:
            result = tr("status.over", locale)
        draw_text(
            draw,
            (x0 + 14, y0 + 10),
            tr("status.over", locale),
            font(20, "bold"),
            INK,
            max_width=inner,
        )
        draw_text(draw, (x0 + 14, y0 + 40), result, font(22, "bold"), INK, max_width=inner)
        return
    title = tr("status.round", locale, name=round_name(view.round, locale))
    draw_text(
        draw,
        (x0 + 14, y0 + 10),
        title,
        fit_font(title, inner, (22, 20), "bold"),
        INK,
        max_width=inner,
    )
    text = (
        tr("status.deadline", locale, when=deadline)
        if deadline
        else tr("status.no_deadline", locale)
    )
    lines = wrap(text, font(18), inner, max_lines=1)
    draw_text(draw, (x0 + 14, y0 + 42), lines[0], font(18), MUTED, max_width=inner)


def _turn_track(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], view: View, locale: str
) -> None:
    x0, y0, x1, _ = box
    turns = max(1, view.turns)
    cell = (x1 - x0) / turns
    labels = _turn_labels(view, locale)
    for index in range(turns):
        number = index + 1
        cx0 = x0 + index * cell
        square = (cx0 + 3, y0, cx0 + cell - 3, y0 + 34)
        current = number == view.turn and not view.finished
        past = number < view.turn or (view.finished and number <= view.turn)
        fill = (70, 70, 70) if past else ACCENT if current else CARD_BG
        draw.rectangle(
            square, fill=fill, outline=INK if current else RULE, width=3 if current else 2
        )
        colour = (255, 255, 255) if past else INK
        text = f"{number}" if cell < 60 else tr("status.turn_short", locale, n=number)
        draw.text(
            ((square[0] + square[2]) / 2, y0 + 17),
            text,
            font=font(20, "bold"),
            fill=colour,
            anchor="mm",
        )
        label = labels.get(number, "")
        if label:
            # Only the current turn's label is known: it may spread over its neighbours.
            fnt = font(18, "cond-bold")
            span = min(int(x1 - x0), int(3 * cell))
            lines = wrap(label, fnt, span, max_lines=2)
            for line_no, line in enumerate(lines):
                half = text_width(line, fnt) / 2
                lx = min(max((square[0] + square[2]) / 2, x0 + half), x1 - half)
                draw.text((lx, y0 + 40 + line_no * 21), line, font=fnt, fill=INK, anchor="ma")


def _turn_labels(view: View, locale: str) -> dict[int, str]:
    labels = {view.turn: turn_label(view.turn_label, locale)} if view.turn_label else {}
    return labels


def render_status_board(
    view: View,
    *,
    locked: Mapping[Side, bool],
    deadline_text: str | None,
    locale: str,
) -> bytes:
    """The public status board as PNG bytes (1200 px wide)."""
    image = _status_image(view, locked=locked, deadline_text=deadline_text, locale=locale)
    return to_png(image)


def _status_image(
    view: View,
    *,
    locked: Mapping[Side, bool],
    deadline_text: str | None,
    locale: str,
) -> Image.Image:
    inner = WIDTH - 2 * MARGIN
    items = track_legend(locale)
    tracks_top = BODY_TOP + BODY_HEIGHT + 16
    tracks_height = len(view.tracks) * (TRACK_HEIGHT + TRACK_GAP)
    legend_top = tracks_top + tracks_height + 6
    height = legend_top + legend_height(inner, items) + 14
    image, draw = canvas(height)
    turn_text = tr("status.turn_of", locale, turn=view.turn, turns=view.turns)
    subtitle = (
        f"{turn_text} · {turn_label(view.turn_label, locale)}" if view.turn_label else turn_text
    )
    number = 1 if view.round is RoundKind.ORDERS else 2
    right = tr("status.over", locale) if view.finished else tr("status.round_n", locale, n=number)
    header(image, draw, scenario_name(view.scenario, view.scenario_name, locale), subtitle, right)

    draw_map(
        image, draw, (MARGIN, BODY_TOP, MARGIN + MAP_WIDTH, BODY_TOP + BODY_HEIGHT), view, locale
    )
    y = BODY_TOP
    card_height = 126
    for side in SIDES:
        _side_card(
            image,
            draw,
            (COLUMN_X, y, COLUMN_X + COLUMN_WIDTH, y + card_height),
            view,
            side,
            bool(locked.get(side, False)),
            locale,
        )
        y += card_height + 8
    _round_box(draw, (COLUMN_X, y, COLUMN_X + COLUMN_WIDTH, y + 72), view, deadline_text, locale)
    y += 80
    _turn_track(draw, (COLUMN_X, y, COLUMN_X + COLUMN_WIDTH, BODY_TOP + BODY_HEIGHT), view, locale)

    y = tracks_top
    for track in view.tracks:
        draw_track(image, draw, (MARGIN, y), inner, track, locale)
        y += TRACK_HEIGHT + TRACK_GAP
        draw.line(
            (MARGIN, y - TRACK_GAP // 2 - 1, WIDTH - MARGIN, y - TRACK_GAP // 2 - 1),
            fill=RULE,
            width=1,
        )
    legend(image, draw, (MARGIN, legend_top), inner, items)
    return image

"""The after-action report: who won, VP over the turns, losses, the strikes that mattered.

Everything is read from the view's history (public once a turn is resolved): VP from
``TurnRecord.vp``, aircraft losses from the strike reports (destroyed in combat or lost on
recovery, counted once each), decisive strikes by ``target_points``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise

from PIL import Image, ImageDraw

from engine.report import StrikeReport
from engine.types import AircraftState, Side
from engine.view import View
from rendering.style import (
    CARD_BG,
    INK,
    MARGIN,
    MUTED,
    RULE,
    WIDTH,
    canvas,
    dashed_line,
    draw_icon,
    draw_marker,
    draw_text,
    fill_side,
    fit_font,
    font,
    header,
    panel,
    section_title,
    side_style,
    text_width,
    to_png,
)
from rendering.text import level_name, place_label, place_name, scenario_name, side_name, tr

SIDES = (Side.JAPANESE, Side.ALLIED)
DECISIVE_MARGIN = 10  # authored: a margin of 10 VP or more is a decisive victory
CHART_WIDTH = 720
CHART_HEIGHT = 430
TOP_STRIKES = 3


@dataclass(frozen=True)
class Losses:
    shot_down: int
    lost_on_recovery: int

    @property
    def total(self) -> int:
        return self.shot_down + self.lost_on_recovery


def count_losses(view: View) -> dict[Side, Losses]:
    """Aircraft each side lost over the campaign, each aircraft of each strike counted once."""
    shot: dict[Side, int] = dict.fromkeys(SIDES, 0)
    recovery: dict[Side, int] = dict.fromkeys(SIDES, 0)
    for record in view.history:
        strikes = {strike.id: strike for strike in record.strikes}
        lost_uids = {(draw.strike, draw.uid) for draw in record.recovery if draw.lost}
        for strike in record.strikes:
            for aircraft in strike.aircraft:
                key = (strike.id, aircraft.uid)
                if aircraft.lost_on_recovery or key in lost_uids:
                    recovery[aircraft.side] += 1
                    lost_uids.discard(key)
                elif aircraft.state is AircraftState.DESTROYED:
                    shot[aircraft.side] += 1
        for strike_id, _ in lost_uids:  # recovery draws whose aircraft the report lacks
            flown = strikes.get(strike_id)
            if flown is not None:
                recovery[flown.attacker] += 1
    return {side: Losses(shot[side], recovery[side]) for side in SIDES}


def decisive_strikes(view: View, count: int = TOP_STRIKES) -> list[StrikeReport]:
    strikes = [
        strike for record in view.history for strike in record.strikes if strike.target_points > 0
    ]
    strikes.sort(key=lambda strike: (-strike.target_points, strike.turn, strike.id))
    return strikes[:count]


def vp_series(view: View) -> dict[Side, list[tuple[int, int]]]:
    """(turn, VP) points per side, from turn 0 at 0 VP."""
    series: dict[Side, list[tuple[int, int]]] = {side: [(0, 0)] for side in SIDES}
    for record in sorted(view.history, key=lambda item: item.turn):
        for side in SIDES:
            if side in record.vp:
                series[side].append((record.turn, record.vp[side]))
    return series


def _nice_step(top: int) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100):
        if top / step <= 8:
            return step
    return max(1, top // 8)


def _chart(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], view: View, locale: str
) -> None:
    x0, y0, x1, y1 = box
    panel(draw, box)
    series = vp_series(view)
    last_turn = max(
        [view.turns, view.turn, *(turn for points in series.values() for turn, _ in points)]
    )
    top_vp = max(
        [
            10,
            *(vp for points in series.values() for _, vp in points),
            *(own.vp for own in view.sides.values()),
        ]
    )
    step = _nice_step(top_vp)
    top_vp = ((top_vp + step - 1) // step) * step
    draw_text(
        draw,
        (x0 + 16, y0 + 12),
        tr("report.chart_title", locale),
        font(20, "bold"),
        INK,
        max_width=x1 - x0 - 32,
    )
    left, right = x0 + 64, x1 - 70
    top, bottom = y0 + 72, y1 - 56

    def px(turn: float) -> float:
        return left + (right - left) * turn / max(1, last_turn)

    def py(vp: float) -> float:
        return bottom - (bottom - top) * vp / max(1, top_vp)

    tick = font(18)
    for value in range(0, top_vp + 1, step):
        y = py(value)
        draw.line((left, y, right, y), fill=RULE, width=1)
        draw.text((left - 10, y), str(value), font=tick, fill=MUTED, anchor="rm")
    label_every = 1 if (right - left) / max(1, last_turn) >= 40 else 2
    for turn in range(0, last_turn + 1):
        x = px(turn)
        draw.line((x, bottom, x, bottom + 6), fill=MUTED, width=2)
        if turn % label_every == 0:
            draw.text((x, bottom + 10), str(turn), font=tick, fill=MUTED, anchor="ma")
    draw.line((left, bottom, right, bottom), fill=INK, width=2)
    draw.line((left, top - 8, left, bottom), fill=INK, width=2)
    draw.text(
        ((left + right) / 2, y1 - 8),
        tr("report.axis_turn", locale),
        font=font(18, "bold"),
        fill=MUTED,
        anchor="md",
    )
    draw.text(
        (left - 10, top - 16),
        tr("report.axis_vp", locale),
        font=font(18, "bold"),
        fill=MUTED,
        anchor="rs",
    )

    # End labels must not collide: push the lower one down if both end close together.
    ends: dict[Side, float] = {}
    for side in SIDES:
        points = series[side]
        style = side_style(side)
        xy = [(px(turn), py(vp)) for turn, vp in points]
        for a, b in pairwise(xy):
            if style.marker == "circle":
                draw.line((*a, *b), fill=style.main, width=4)
            else:
                dashed_line(draw, a, b, style.main, width=4, dash=12, gap=6)
        for point in xy:
            draw_marker(draw, point, 14, side)
        if xy:
            ends[side] = xy[-1][1]
    if len(ends) == 2:
        japanese, allied = ends[Side.JAPANESE], ends[Side.ALLIED]
        if abs(japanese - allied) < 24:
            middle = (japanese + allied) / 2
            upper = (
                Side.JAPANESE
                if series[Side.JAPANESE][-1][1] >= series[Side.ALLIED][-1][1]
                else Side.ALLIED
            )
            ends[upper] = middle - 12
            ends[upper.enemy] = middle + 12
    for side, y in ends.items():
        points = series[side]
        x = px(points[-1][0]) + 12
        draw.text(
            (x, y),
            str(points[-1][1]),
            font=font(22, "bold"),
            fill=side_style(side).dark,
            anchor="lm",
        )
    # key: line style per side
    kx = x1 - 16
    for side in reversed(SIDES):
        name = side_name(side, locale)
        width = text_width(name, font(18, "bold"))
        kx -= width
        draw.text(
            (kx, y0 + 22), name, font=font(18, "bold"), fill=side_style(side).dark, anchor="lm"
        )
        style = side_style(side)
        if style.marker == "circle":
            draw.line((kx - 46, y0 + 22, kx - 8, y0 + 22), fill=style.main, width=4)
        else:
            dashed_line(
                draw, (kx - 46, y0 + 22), (kx - 8, y0 + 22), style.main, width=4, dash=10, gap=5
            )
        draw_marker(draw, (kx - 27, y0 + 22), 13, side)
        kx -= 70


def _winner(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    view: View,
    locale: str,
) -> None:
    x0, y0, x1, y1 = box
    vp = {side: view.sides[side].vp if side in view.sides else 0 for side in SIDES}
    score = tr("report.score", locale, japanese=vp[Side.JAPANESE], allied=vp[Side.ALLIED])
    if not view.finished:
        panel(draw, box)
        text = tr("report.in_progress", locale, turn=view.turn, turns=view.turns)
        draw_text(
            draw,
            (x0 + 24, (y0 + y1) // 2),
            text,
            fit_font(text, x1 - x0 - 340, (30, 26, 22), "bold"),
            INK,
            "lm",
            x1 - x0 - 340,
        )
    elif isinstance(view.winner, Side):
        side = view.winner
        style = side_style(side)
        fill_side(image, box, side, radius=12, outline=True)
        margin = vp[side] - vp[side.enemy]
        key = "report.decisive_victory" if margin >= DECISIVE_MARGIN else "report.victory"
        text = tr(key, locale, side=side_name(side, locale))
        text_font = fit_font(text, x1 - x0 - 420, (34, 30, 26), "bold")
        plate = text_width(text, text_font) + 76
        draw.rounded_rectangle(
            (x0 + 14, y0 + 14, x0 + 14 + plate, y1 - 14),
            radius=10,
            fill=CARD_BG,
            outline=style.dark,
            width=2,
        )
        draw_marker(draw, (x0 + 42, (y0 + y1) // 2), 28, side)
        draw_text(draw, (x0 + 66, (y0 + y1) // 2), text, text_font, style.dark, "lm")
    else:
        panel(draw, box)
        draw_text(
            draw, (x0 + 24, (y0 + y1) // 2), tr("report.draw", locale), font(34, "bold"), INK, "lm"
        )
    score_width = text_width(score, font(30, "bold")) + 32
    draw.rounded_rectangle(
        (x1 - 14 - score_width, y0 + 14, x1 - 14, y1 - 14),
        radius=10,
        fill=CARD_BG,
        outline=RULE,
        width=2,
    )
    draw_text(
        draw, (x1 - 14 - score_width // 2, (y0 + y1) // 2), score, font(30, "bold"), INK, "mm"
    )


def render_after_action(view: View, *, place_names: Mapping[str, str], locale: str) -> bytes:
    """The after-action report as PNG bytes (1200 px wide)."""
    return to_png(after_action_image(view, place_names=place_names, locale=locale))


def after_action_image(view: View, *, place_names: Mapping[str, str], locale: str) -> Image.Image:
    tracks = list(view.tracks)
    track_rows = (len(tracks) + 1) // 2
    height = 76 + 14 + 96 + 14 + CHART_HEIGHT + 14 + 32 + max(1, track_rows) * 32 + 20
    image, draw = canvas(height)
    scenario = scenario_name(view.scenario, view.scenario_name, locale)
    header(
        image,
        draw,
        tr("report.title", locale, scenario=scenario),
        tr("report.subtitle", locale, turns=len(view.history)),
    )
    y = 76 + 14
    _winner(image, draw, (MARGIN, y, WIDTH - MARGIN, y + 96), view, locale)
    y += 96 + 14
    _chart(draw, (MARGIN, y, MARGIN + CHART_WIDTH, y + CHART_HEIGHT), view, locale)

    # --- right column: losses, then the strikes that did the most damage
    x = MARGIN + CHART_WIDTH + 24
    width = WIDTH - MARGIN - x
    ry = y
    ry += section_title(draw, (x, ry), tr("report.losses", locale), width)
    losses = count_losses(view)
    for side in SIDES:
        own = losses[side]
        style = side_style(side)
        draw_marker(draw, (x + 11, ry + 14), 20, side)
        draw_text(
            draw,
            (x + 28, ry + 14),
            side_name(side, locale),
            font(22, "bold"),
            style.dark,
            "lm",
            width - 110,
        )
        draw_text(
            draw,
            (x + width, ry + 14),
            tr("report.aircraft_lost", locale, n=own.total),
            font(22, "bold"),
            INK,
            "rm",
        )
        ry += 32
        draw_icon(draw, "destroyed", (x + 40, ry + 12), 20)
        draw_text(
            draw,
            (x + 58, ry + 12),
            tr("report.shot_down", locale, n=own.shot_down),
            font(18),
            INK,
            "lm",
            width - 60,
        )
        ry += 26
        draw_icon(draw, "lost", (x + 40, ry + 12), 20)
        draw_text(
            draw,
            (x + 58, ry + 12),
            tr("report.lost_recovery", locale, n=own.lost_on_recovery),
            font(18),
            INK,
            "lm",
            width - 60,
        )
        ry += 36
    ry += 6
    ry += section_title(draw, (x, ry), tr("report.decisive", locale), width)
    strikes = decisive_strikes(view)
    if not strikes:
        draw_text(draw, (x, ry + 12), tr("report.no_strikes", locale), font(18), MUTED, "lm", width)
    for strike in strikes:
        target = place_names.get(strike.target) or place_label(strike.target, locale)
        draw.rounded_rectangle(
            (x, ry, x + width, ry + 58),
            radius=8,
            fill=CARD_BG,
            outline=side_style(strike.attacker).dark,
            width=2,
        )
        draw_marker(draw, (x + 18, ry + 18), 18, strike.attacker)
        head = tr(
            "report.strike_head", locale, turn=strike.turn, side=side_name(strike.attacker, locale)
        )
        points = tr("report.strike_points", locale, n=strike.target_points)
        points_width = draw_text(
            draw, (x + width - 12, ry + 18), points, font(22, "bold"), INK, "rm"
        )
        draw_text(
            draw,
            (x + 34, ry + 18),
            head,
            font(18, "bold"),
            side_style(strike.attacker).dark,
            "lm",
            width - 60 - points_width,
        )
        draw_text(draw, (x + 34, ry + 42), "→ " + target, font(18), INK, "lm", width - 46)
        ry += 66

    # --- final damage, two tracks per line
    y += CHART_HEIGHT + 14
    y += section_title(draw, (MARGIN, y), tr("report.final_damage", locale), WIDTH - 2 * MARGIN)
    column = (WIDTH - 2 * MARGIN) // 2
    for index, track in enumerate(tracks):
        tx = MARGIN + (index % 2) * column
        ty = y + (index // 2) * 32
        draw_marker(draw, (tx + 10, ty + 13), 18, track.side)
        name = place_names.get(track.place) or place_name(track.place, track.name, locale)
        ticked = min(track.boxes, track.max_boxes)
        state = f"{level_name(track.level, locale)} · {ticked}/{track.max_boxes}"
        state_width = min(text_width(state, font(20)), column // 2)
        name_space = column - 60 - state_width
        name_font = fit_font(name, name_space, (20, 18), "bold")
        name_width = draw_text(draw, (tx + 26, ty + 13), name, name_font, INK, "lm", name_space)
        draw_text(draw, (tx + 36 + name_width, ty + 13), state, font(20), MUTED, "lm", state_width)
    return image

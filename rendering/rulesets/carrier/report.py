"""The after-action report: who won, VP over the turns, losses, the strikes that mattered.

Drawn for a phone (``rendering.zero.mobile``): 800 px wide, one part under another, no word under
22 px.

Everything is read from the view's history (public once a turn is resolved): VP from
``TurnRecord.vp``, aircraft losses from the strike reports (destroyed in combat or lost on
recovery, counted once each), decisive strikes by ``target_points``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise

from PIL import Image, ImageDraw

from engine.rulesets.carrier.view import TrackView, View
from engine.zero.report import StrikeReport
from engine.zero.types import AircraftState, Side
from rendering import style
from rendering.text import (
    place_label,
    place_name,
    scenario_name,
    side_name,
    tr,
    track_level_name,
)
from rendering.zero import mobile
from rendering.zero.mobile import BODY, INNER, MARGIN, SECTION, TEXT, WIDTH

SIDES = (Side.JAPANESE, Side.ALLIED)
DECISIVE_MARGIN = 10  # authored: a margin of 10 VP or more is a decisive victory
CHART_HEIGHT = 460
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
    style.panel(draw, box)
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
    title = tr("report.chart_title", locale)
    style.draw_text(
        draw,
        (x0 + 16, y0 + 22),
        title,
        style.fit_font(title, x1 - x0 - 32, (BODY, TEXT), "bold"),
        style.INK,
        "lm",
        x1 - x0 - 32,
    )
    # key: line style per side, under the title
    kx = x0 + 16
    for side in SIDES:
        look = style.side_style(side)
        key_y = y0 + 58
        if look.marker == "circle":
            draw.line((kx, key_y, kx + 44, key_y), fill=look.main, width=4)
        else:
            style.dashed_line(
                draw, (kx, key_y), (kx + 44, key_y), look.main, width=4, dash=10, gap=5
            )
        style.draw_marker(draw, (kx + 22, key_y), 15, side)
        kx += 54
        kx += style.draw_text(
            draw, (kx, key_y), side_name(side, locale), style.font(TEXT, "bold"), look.dark, "lm"
        )
        kx += 30
    left, right = x0 + 70, x1 - 64
    top, bottom = y0 + 110, y1 - 64

    def px(turn: float) -> float:
        return left + (right - left) * turn / max(1, last_turn)

    def py(vp: float) -> float:
        return bottom - (bottom - top) * vp / max(1, top_vp)

    tick = style.font(TEXT)
    for value in range(0, top_vp + 1, step):
        y = py(value)
        draw.line((left, y, right, y), fill=style.RULE, width=1)
        draw.text((left - 10, y), str(value), font=tick, fill=style.MUTED, anchor="rm")
    label_every = 1 if (right - left) / max(1, last_turn) >= 44 else 2
    for turn in range(0, last_turn + 1):
        x = px(turn)
        draw.line((x, bottom, x, bottom + 6), fill=style.MUTED, width=2)
        if turn % label_every == 0:
            draw.text((x, bottom + 10), str(turn), font=tick, fill=style.MUTED, anchor="ma")
    draw.line((left, bottom, right, bottom), fill=style.INK, width=2)
    draw.line((left, top - 8, left, bottom), fill=style.INK, width=2)
    draw.text(
        ((left + right) / 2, y1 - 6),
        tr("report.axis_turn", locale),
        font=style.font(TEXT, "bold"),
        fill=style.MUTED,
        anchor="md",
    )
    draw.text(
        (left - 10, top - 16),
        tr("report.axis_vp", locale),
        font=style.font(TEXT, "bold"),
        fill=style.MUTED,
        anchor="rs",
    )

    # End labels must not collide: push the lower one down if both end close together.
    ends: dict[Side, float] = {}
    for side in SIDES:
        points = series[side]
        look = style.side_style(side)
        xy = [(px(turn), py(vp)) for turn, vp in points]
        for a, b in pairwise(xy):
            if look.marker == "circle":
                draw.line((*a, *b), fill=look.main, width=4)
            else:
                style.dashed_line(draw, a, b, look.main, width=4, dash=12, gap=6)
        for point in xy:
            style.draw_marker(draw, point, 16, side)
        if xy:
            ends[side] = xy[-1][1]
    if len(ends) == 2:
        japanese, allied = ends[Side.JAPANESE], ends[Side.ALLIED]
        if abs(japanese - allied) < 30:
            middle = (japanese + allied) / 2
            upper = (
                Side.JAPANESE
                if series[Side.JAPANESE][-1][1] >= series[Side.ALLIED][-1][1]
                else Side.ALLIED
            )
            ends[upper] = middle - 15
            ends[upper.enemy] = middle + 15
    for side, y in ends.items():
        points = series[side]
        x = px(points[-1][0]) + 12
        draw.text(
            (x, y),
            str(points[-1][1]),
            font=style.font(26, "bold"),
            fill=style.side_style(side).dark,
            anchor="lm",
        )


WINNER_ROW = 76


def _winner(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    view: View,
    locale: str,
) -> None:
    """Who won on the first row, the score under it."""
    x0, y0, x1, y1 = box
    vp = {side: view.sides[side].vp if side in view.sides else 0 for side in SIDES}
    score = tr("report.score", locale, japanese=vp[Side.JAPANESE], allied=vp[Side.ALLIED])
    room = x1 - x0 - 28
    first = (x0 + 14, y0 + 12, x1 - 14, y0 + WINNER_ROW)
    if not view.finished:
        style.panel(draw, box)
        text = tr("report.in_progress", locale, turn=view.turn, turns=view.turns)
        text_font = style.fit_font(text, room - 20, (30, 26, BODY), "bold")
        style.draw_text(
            draw, (x0 + 24, (first[1] + first[3]) // 2), text, text_font, style.INK, "lm", room
        )
    elif isinstance(view.winner, Side):
        side = view.winner
        look = style.side_style(side)
        style.fill_side(image, box, side, radius=12, outline=True)
        margin = vp[side] - vp[side.enemy]
        key = "report.decisive_victory" if margin >= DECISIVE_MARGIN else "report.victory"
        text = tr(key, locale, side=side_name(side, locale))
        text_font = style.fit_font(text, room - 80, (36, 32, 28, BODY), "bold")
        plate = min(room, style.text_width(text, text_font) + 80)
        draw.rounded_rectangle(
            (x0 + 14, first[1], x0 + 14 + plate, first[3]),
            radius=10,
            fill=style.CARD_BG,
            outline=look.dark,
            width=2,
        )
        middle = (first[1] + first[3]) // 2
        style.draw_marker(draw, (x0 + 44, middle), 30, side)
        style.draw_text(draw, (x0 + 70, middle), text, text_font, look.dark, "lm", room - 66)
    else:
        style.panel(draw, box)
        style.draw_text(
            draw,
            (x0 + 24, (first[1] + first[3]) // 2),
            tr("report.draw", locale),
            style.font(36, "bold"),
            style.INK,
            "lm",
        )
    score_font = style.fit_font(score, room - 40, (32, 28, BODY), "bold")
    score_width = min(room, style.text_width(score, score_font) + 40)
    sy0, sy1 = first[3] + 10, y1 - 12
    draw.rounded_rectangle(
        (x0 + 14, sy0, x0 + 14 + score_width, sy1),
        radius=10,
        fill=style.CARD_BG,
        outline=style.RULE,
        width=2,
    )
    style.draw_text(
        draw,
        (x0 + 14 + score_width // 2, (sy0 + sy1) // 2),
        score,
        score_font,
        style.INK,
        "mm",
        room,
    )


def render_after_action(view: View, *, place_names: Mapping[str, str], locale: str) -> bytes:
    """The after-action report as PNG bytes (800 px wide)."""
    return style.to_png(after_action_image(view, place_names=place_names, locale=locale))


LOSS_BLOCK = 3 * 34 + 10
STRIKE_CARD = 76
TRACK_ROW = 40
GAP = 18


def after_action_image(view: View, *, place_names: Mapping[str, str], locale: str) -> Image.Image:
    tracks = list(view.tracks)
    strikes = decisive_strikes(view)
    scenario = scenario_name(view.scenario, view.scenario_name, locale)
    title = tr("report.title", locale, scenario=scenario)
    subtitle = tr("report.subtitle", locale, turns=len(view.history))
    top = mobile.header_height(title, [subtitle]) + GAP
    banner = 2 * WINNER_ROW + 12
    height = top + banner + GAP + CHART_HEIGHT + GAP
    height += SECTION + LOSS_BLOCK + GAP
    height += SECTION + max(1, len(strikes)) * (STRIKE_CARD + 10) + GAP
    height += SECTION + max(1, len(tracks)) * TRACK_ROW + GAP
    image, draw = style.canvas(height, WIDTH)
    mobile.draw_header(image, draw, title, [subtitle])
    y = top
    _winner(image, draw, (MARGIN, y, WIDTH - MARGIN, y + banner), view, locale)
    y += banner + GAP
    _chart(draw, (MARGIN, y, WIDTH - MARGIN, y + CHART_HEIGHT), view, locale)
    y += CHART_HEIGHT + GAP
    y += mobile.section(draw, (MARGIN, y), tr("report.losses", locale), INNER)
    _losses(draw, y, view, locale)
    y += LOSS_BLOCK + GAP
    y += mobile.section(draw, (MARGIN, y), tr("report.decisive", locale), INNER)
    if not strikes:
        style.draw_text(
            draw,
            (MARGIN, y + 20),
            tr("report.no_strikes", locale),
            style.font(TEXT),
            style.MUTED,
            "lm",
            INNER,
        )
    for strike in strikes:
        _strike_card(draw, y, strike, place_names, locale)
        y += STRIKE_CARD + 10
    if not strikes:
        y += STRIKE_CARD + 10
    y += GAP
    y += mobile.section(draw, (MARGIN, y), tr("report.final_damage", locale), INNER)
    for track in tracks:
        middle = y + TRACK_ROW // 2
        style.draw_marker(draw, (MARGIN + 11, middle), 20, track.side)
        name = place_names.get(track.place) or place_name(track.place, track.name, locale)
        ticked = min(track.boxes, track.max_boxes)
        level = track_level_name(level_reached(track, ticked), ticked, locale)
        state = f"{level} · {ticked}/{track.max_boxes}"
        state_width = style.draw_text(
            draw, (WIDTH - MARGIN, middle), state, style.font(TEXT), style.MUTED, "rm", INNER // 2
        )
        room = INNER - 30 - state_width - 16
        style.draw_text(
            draw,
            (MARGIN + 30, middle),
            name,
            style.fit_font(name, room, (BODY, TEXT), "bold"),
            style.INK,
            "lm",
            room,
        )
        y += TRACK_ROW
    return image


def _losses(draw: ImageDraw.ImageDraw, y: int, view: View, locale: str) -> None:
    """Each side's aircraft lost, side by side: the total, then how they were lost."""
    losses = count_losses(view)
    column = (INNER - 24) // 2
    for index, side in enumerate(SIDES):
        x = MARGIN + index * (column + 24)
        own = losses[side]
        look = style.side_style(side)
        middle = y + 20
        style.draw_marker(draw, (x + 11, middle), 22, side)
        total = tr("report.aircraft_lost", locale, n=own.total)
        total_width = style.draw_text(
            draw, (x + column, middle), total, style.font(BODY, "bold"), style.INK, "rm"
        )
        style.draw_text(
            draw,
            (x + 30, middle),
            side_name(side, locale),
            style.font(BODY, "bold"),
            look.dark,
            "lm",
            column - 40 - total_width,
        )
        for row, (icon, key, n) in enumerate(
            (
                ("destroyed", "report.shot_down", own.shot_down),
                ("lost", "report.lost_recovery", own.lost_on_recovery),
            )
        ):
            middle = y + 20 + 34 * (row + 1)
            style.draw_icon(draw, icon, (x + 14, middle), 22)  # type: ignore[arg-type]
            style.draw_text(
                draw,
                (x + 34, middle),
                tr(key, locale, n=n),
                style.font(TEXT),
                style.INK,
                "lm",
                column - 34,
            )


def _strike_card(
    draw: ImageDraw.ImageDraw,
    y: int,
    strike: StrikeReport,
    place_names: Mapping[str, str],
    locale: str,
) -> None:
    x, width = MARGIN, INNER
    target = place_names.get(strike.target) or place_label(strike.target, locale)
    dark = style.side_style(strike.attacker).dark
    draw.rounded_rectangle(
        (x, y, x + width, y + STRIKE_CARD), radius=8, fill=style.CARD_BG, outline=dark, width=2
    )
    style.draw_marker(draw, (x + 20, y + 21), 20, strike.attacker)
    head = tr(
        "report.strike_head", locale, turn=strike.turn, side=side_name(strike.attacker, locale)
    )
    points = tr("report.strike_points", locale, count=strike.target_points)
    points_width = style.draw_text(
        draw, (x + width - 14, y + 22), points, style.font(26, "bold"), style.INK, "rm"
    )
    style.draw_text(
        draw,
        (x + 38, y + 21),
        head,
        style.font(TEXT, "bold"),
        dark,
        "lm",
        width - 70 - points_width,
    )
    style.draw_text(
        draw, (x + 38, y + 55), "→ " + target, style.font(TEXT), style.INK, "lm", width - 52
    )


def level_reached(track: TrackView, ticked: int) -> str:
    """The highest level the ticked boxes reached: the one its victory points are scored on
    (25.83). ``track.level`` reads the boxes left after repairs (the penalties in force), so a
    repaired fleet read "Light · 11/30" beside a score counted at Damaged."""
    reached = [level for level in track.levels if level.min_boxes <= ticked]
    if not reached:
        return track.level
    return max(reached, key=lambda level: level.min_boxes).name

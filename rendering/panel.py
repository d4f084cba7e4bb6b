"""The order panel image: one side's own situation while it chooses its orders.

Built from that side's view only: its fleet track, what each Flight Ops option would field
now (``View.previews``), the Fleet Tactics open after last turn's choice, its resources
still available, last turn's choices and its own doctrine. The options marked "not this
turn" repeat the rules of 25.32 and 25.42 for display; the select menus come from the
engine's pending decisions, which stay the authority.
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import ImageDraw

from engine.types import FleetTactic, RoundKind, Side, StrikeSize
from engine.view import ForcePreview, SideView, TrackView, View
from rendering.style import (
    CARD_BG,
    FAINT,
    INK,
    MARGIN,
    MUTED,
    RULE,
    WIDTH,
    Icon,
    canvas,
    draw_icon,
    draw_text,
    fit_font,
    font,
    header,
    panel,
    section_title,
    side_style,
    text_width,
    to_png,
)
from rendering.text import (
    doctrine_name,
    round_name,
    side_name,
    size_name,
    tactic_name,
    tr,
    turn_label,
)
from rendering.track import TRACK_HEIGHT, draw_track

LEFT_WIDTH = 680
RIGHT_X = MARGIN + LEFT_WIDTH + 20
RIGHT_WIDTH = WIDTH - MARGIN - RIGHT_X
OPTION_HEIGHT = 100


def own_fleet(view: View, side: Side) -> TrackView | None:
    for track in view.tracks:
        if track.carrier_fleet and track.side is side:
            return track
    return None


def _level_effects(track: TrackView | None) -> tuple[str, ...]:
    if track is None:
        return ()
    for level in track.levels:
        if level.name == track.level:
            return level.effects
    return ()


def size_excluded(size: StrikeSize, own: SideView, track: TrackView | None) -> str | None:
    """Why a Flight Ops size is not open this turn, as a translation key, or None."""
    effects = _level_effects(track)
    if size is StrikeSize.NONE:
        return None
    if "no-strike-only" in effects or "out-of-action" in effects:
        return "panel.why_no_strike_only"
    if size is StrikeSize.LARGE:
        if own.last_size is StrikeSize.LARGE:
            return "panel.why_large_twice"
        if "no-large" in effects:
            return "panel.why_no_large"
    return None


def tactic_excluded(tactic: FleetTactic, own: SideView) -> str | None:
    if tactic is FleetTactic.CLOSE and own.last_tactic is FleetTactic.LONG:
        return "panel.why_after_long"
    if tactic is FleetTactic.LONG and own.last_tactic is FleetTactic.CLOSE:
        return "panel.why_after_close"
    return None


def _option(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    preview: ForcePreview,
    reason: str | None,
    locale: str,
) -> None:
    x0, y0, x1, y1 = box
    panel(draw, box, CARD_BG if reason is None else (240, 238, 232), RULE)
    colour = INK if reason is None else MUTED
    title = size_name(preview.size, locale)
    title_width = draw_text(draw, (x0 + 14, y0 + 8), title, font(22, "bold"), colour)
    if reason is not None:
        draw.line((x0 + 12, y0 + 21, x0 + 16 + title_width, y0 + 21), fill=INK, width=3)
        note = tr("panel.not_this_turn", locale, why=tr(reason, locale))
        draw_text(
            draw,
            (x1 - 14, y0 + 20),
            note,
            fit_font(note, x1 - x0 - title_width - 50, (20, 18)),
            INK,
            "rm",
            x1 - x0 - title_width - 50,
        )
    rows: list[tuple[Icon, str, str]] = [
        ("strike", tr("panel.strike", locale), preview.strike),
        ("cap", tr("panel.cap", locale), preview.cap),
    ]
    y = y0 + 44
    for icon, label, value in rows:
        draw_icon(draw, icon, (x0 + 26, y + 10), 20)
        label_width = draw_text(draw, (x0 + 44, y), label, font(20, "bold"), colour)
        draw_text(
            draw,
            (x0 + 54 + label_width, y),
            value or "—",
            font(20),
            colour,
            max_width=x1 - x0 - 70 - label_width,
        )
        y += 26
    del y1


def render_order_panel(view: View, *, resource_names: Mapping[int, str], locale: str) -> bytes:
    """One side's order panel image as PNG bytes (1200 px wide). Needs a side's view."""
    if view.viewer is None:
        raise ValueError("the order panel is drawn from one side's view, not the public one")
    side = view.viewer
    own = view.sides[side]
    fleet = own_fleet(view, side)
    style = side_style(side)

    previews = list(view.previews)
    options_height = 32 + max(1, len(previews)) * (OPTION_HEIGHT + 10) + 40 + 60
    resources = list(own.resources_available)
    resource_rows = (len(resources) + 1) // 2
    right_height = 32 + 74 + 32 + 46 + 32 + 42 + 32 + max(1, resource_rows) * 28
    body_top = 76 + 16 + (TRACK_HEIGHT + 18 if fleet else 0)
    height = body_top + max(options_height, right_height) + 20
    image, draw = canvas(height)

    title = tr(
        "panel.title", locale, side=side_name(side, locale), turn=view.turn, turns=view.turns
    )
    number = 1 if view.round is RoundKind.ORDERS else 2
    subtitle = tr("panel.subtitle", locale, n=number, name=round_name(view.round, locale))
    if view.turn_label:
        subtitle = f"{turn_label(view.turn_label, locale)} · {subtitle}"
    header(image, draw, title, subtitle, tr("panel.vp", locale, vp=own.vp), side=side)

    y = 76 + 16
    if fleet is not None:
        draw_track(image, draw, (MARGIN, y), WIDTH - 2 * MARGIN, fleet, locale)
        y += TRACK_HEIGHT + 18
    top = y

    # --- left: Flight Ops options and Fleet Tactics
    y += section_title(draw, (MARGIN, y), tr("panel.flight_ops_now", locale), LEFT_WIDTH)
    if not previews:
        draw_text(
            draw,
            (MARGIN, y + 4),
            tr("panel.no_preview", locale),
            font(20),
            MUTED,
            max_width=LEFT_WIDTH,
        )
        y += 40
    for preview in previews:
        reason = size_excluded(preview.size, own, fleet)
        _option(draw, (MARGIN, y, MARGIN + LEFT_WIDTH, y + OPTION_HEIGHT), preview, reason, locale)
        y += OPTION_HEIGHT + 10
    y += 8
    y += section_title(draw, (MARGIN, y), tr("panel.tactics", locale), LEFT_WIDTH)
    chip_width = (LEFT_WIDTH - 20) // 3
    for index, tactic in enumerate(FleetTactic):
        x = MARGIN + index * (chip_width + 10)
        why = tactic_excluded(tactic, own)
        box = (x, y, x + chip_width, y + 52)
        if why is None:
            draw.rounded_rectangle(box, radius=8, fill=CARD_BG, outline=style.dark, width=2)
            draw_text(
                draw,
                (x + chip_width // 2, y + 26),
                tactic_name(tactic, locale),
                fit_font(tactic_name(tactic, locale), chip_width - 16, (22, 20), "bold"),
                INK,
                "mm",
            )
        else:
            draw.rounded_rectangle(box, radius=8, fill=(240, 238, 232), outline=FAINT, width=2)
            name = tactic_name(tactic, locale)
            name_font = fit_font(name, chip_width - 16, (20, 18), "bold")
            draw_text(draw, (x + chip_width // 2, y + 15), name, name_font, MUTED, "mm")
            half = text_width(name, name_font) // 2
            draw.line(
                (x + chip_width // 2 - half, y + 16, x + chip_width // 2 + half, y + 16),
                fill=INK,
                width=2,
            )
            draw_text(
                draw,
                (x + chip_width // 2, y + 38),
                tr(why, locale),
                font(18, "cond"),
                INK,
                "mm",
                chip_width - 10,
            )

    # --- right: last turn, doctrine, penalties, resources
    x = RIGHT_X
    y = top
    y += section_title(draw, (x, y), tr("panel.last_turn", locale), RIGHT_WIDTH)
    last_tactic = tactic_name(own.last_tactic, locale) if own.last_tactic else "—"
    last_size = size_name(own.last_size, locale) if own.last_size else "—"
    draw_text(draw, (x, y), last_tactic, font(22, "bold"), INK, max_width=RIGHT_WIDTH)
    draw_text(draw, (x, y + 30), last_size, font(22, "bold"), INK, max_width=RIGHT_WIDTH)
    y += 74
    # In the orders round the state still holds the doctrine set last turn; say so.
    doctrine_key = "panel.doctrine" if view.round.value == "resource" else "panel.doctrine_last"
    y += section_title(draw, (x, y), tr(doctrine_key, locale), RIGHT_WIDTH)
    doctrine = doctrine_name(own.doctrine, locale) if own.doctrine else "—"
    draw_text(draw, (x, y), doctrine, font(22, "bold"), INK, max_width=RIGHT_WIDTH)
    y += 46
    y += section_title(draw, (x, y), tr("panel.penalties", locale), RIGHT_WIDTH)
    px = x
    if own.strike_minus or own.cap_minus:
        for icon, value in (("strike", own.strike_minus), ("cap", own.cap_minus)):
            if not value:
                continue
            draw_icon(draw, icon, (px + 11, y + 12), 20)  # type: ignore[arg-type]
            text = tr(f"panel.{icon}_minus", locale, n=value)
            px += (
                26
                + draw_text(
                    draw, (px + 26, y), text, font(20), INK, max_width=RIGHT_WIDTH // 2 - 30
                )
                + 20
            )
    else:
        draw_text(
            draw, (x, y), tr("panel.no_penalty", locale), font(20), MUTED, max_width=RIGHT_WIDTH
        )
    y += 42
    used = len(own.resources_used)
    title = tr("panel.resources", locale, n=len(resources), used=used)
    y += section_title(draw, (x, y), title, RIGHT_WIDTH)
    if not resources:
        draw_text(draw, (x, y), "—", font(20), MUTED)
    column = RIGHT_WIDTH // 2
    for index, number in enumerate(resources):
        cx = x + (index // max(1, resource_rows)) * column
        cy = y + (index % max(1, resource_rows)) * 28
        name = resource_names.get(number, "")
        number_width = draw_text(draw, (cx, cy), f"#{number}", font(20, "bold"), style.dark)
        draw_text(
            draw,
            (cx + number_width + 6, cy),
            name,
            font(20, "cond"),
            INK,
            max_width=column - number_width - 14,
        )
    return to_png(image)

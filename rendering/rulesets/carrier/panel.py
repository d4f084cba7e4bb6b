"""The order panel image: one side's own situation while it chooses its orders.

Built from that side's view only: its fleet track, what each Flight Ops option would field
now (``View.previews``), the Fleet Tactics open after last turn's choice, its resources
still available, last turn's choices and its own doctrine. The options marked "not this
turn" repeat the rules of 25.32 and 25.42 for display; the select menus come from the
engine's pending decisions, which stay the authority.

Drawn for a phone: 800 px wide, every word 22 px or more, one column read top to bottom.
The panel's text says the same options, exclusions and reasons in words.
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image, ImageDraw

from engine.rulesets.carrier.view import ForcePreview, SideView, TrackView, View
from engine.zero.types import FleetTactic, RoundKind, Side, StrikeSize
from rendering import style
from rendering.rulesets.carrier.track import draw_track, height_bound
from rendering.text import (
    doctrine_name,
    round_name,
    side_name,
    size_name,
    tactic_name,
    tr,
    turn_label,
)

WIDTH = style.PHONE_WIDTH
MARGIN = style.PHONE_MARGIN
INNER = WIDTH - 2 * MARGIN
LINE = 34
GAP = 16


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
    draw: ImageDraw.ImageDraw, top: int, preview: ForcePreview, reason: str | None, locale: str
) -> int:
    """One Flight Ops option as a card: its name, why it is shut, what it fields; returns
    the height."""
    x0, x1 = MARGIN, WIDTH - MARGIN
    colour = style.INK if reason is None else style.MUTED
    title = size_name(preview.size, locale)
    title_font = style.font(26, "bold")
    title_width = style.text_width(title, title_font)
    note = tr("panel.not_this_turn", locale, why=tr(reason, locale)) if reason else ""
    note_space = x1 - x0 - 28 - title_width - 24
    note_font = (
        style.fit_font(note, note_space, (style.PHONE_TEXT, style.PHONE_MIN_TEXT)) if note else None
    )
    note_below = (
        bool(note) and note_font is not None and style.text_width(note, note_font) > note_space
    )
    if note_below:
        note_font, _ = style.phone_lines(
            note, x1 - x0 - 28, (style.PHONE_TEXT, style.PHONE_MIN_TEXT), max_lines=1
        )
    rows: list[tuple[style.Icon, str, str]] = [
        ("strike", tr("panel.strike", locale), preview.strike),
        ("cap", tr("panel.cap", locale), preview.cap),
    ]
    height = 14 + 34 + (LINE if note_below else 0) + LINE * len(rows) + 10
    style.panel(
        draw,
        (x0, top, x1, top + height),
        style.CARD_BG if reason is None else (240, 238, 232),
        style.RULE,
    )
    y = top + 14
    draw.text((x0 + 14, y + 16), title, font=title_font, fill=colour, anchor="lm")
    if reason is not None:
        draw.line((x0 + 12, y + 17, x0 + 16 + title_width, y + 17), fill=style.INK, width=3)
        assert note_font is not None
        if note_below:
            style.draw_text(
                draw, (x0 + 14, y + 34 + 16), note, note_font, style.INK, "lm", x1 - x0 - 28
            )
        else:
            style.draw_text(draw, (x1 - 14, y + 16), note, note_font, style.INK, "rm", note_space)
    y += 34 + (LINE if note_below else 0)
    for icon, label, value in rows:
        style.draw_icon(draw, icon, (x0 + 28, y + 16), 24)
        label_font = style.font(style.PHONE_TEXT, "bold")
        label_width = style.draw_text(draw, (x0 + 48, y + 16), label, label_font, colour, "lm")
        space = x1 - 14 - (x0 + 60 + label_width)
        value_font = style.fit_font(value or "—", space, (style.PHONE_TEXT, style.PHONE_MIN_TEXT))
        style.draw_text(
            draw, (x0 + 60 + label_width, y + 16), value or "—", value_font, colour, "lm", space
        )
        y += LINE
    return height


def _tactics(
    image: Image.Image, draw: ImageDraw.ImageDraw, top: int, own: SideView, side: Side, locale: str
) -> int:
    """The three Fleet Tactics as chips, a shut one struck through with its reason."""
    del image
    look = style.side_style(side)
    chip_width = (INNER - 20) // 3
    height = 76
    for index, tactic in enumerate(FleetTactic):
        x = MARGIN + index * (chip_width + 10)
        why = tactic_excluded(tactic, own)
        box = (x, top, x + chip_width, top + height)
        name = tactic_name(tactic, locale)
        if why is None:
            draw.rounded_rectangle(box, radius=8, fill=style.CARD_BG, outline=look.dark, width=3)
            name_font, lines = style.phone_lines(
                name, chip_width - 16, (style.PHONE_TEXT, style.PHONE_MIN_TEXT), "bold"
            )
            first = top + height // 2 - (len(lines) - 1) * 14
            for n, line in enumerate(lines):
                draw.text(
                    (x + chip_width // 2, first + 28 * n),
                    line,
                    font=name_font,
                    fill=style.INK,
                    anchor="mm",
                )
        else:
            draw.rounded_rectangle(
                box, radius=8, fill=(240, 238, 232), outline=style.FAINT, width=2
            )
            name_font = style.fit_font(
                name, chip_width - 16, (style.PHONE_TEXT, style.PHONE_MIN_TEXT), "bold"
            )
            style.draw_text(
                draw,
                (x + chip_width // 2, top + 21),
                name,
                name_font,
                style.MUTED,
                "mm",
                chip_width - 12,
            )
            half = min(style.text_width(name, name_font), chip_width - 12) // 2
            draw.line(
                (x + chip_width // 2 - half, top + 22, x + chip_width // 2 + half, top + 22),
                fill=style.INK,
                width=2,
            )
            reason = tr(why, locale)
            reason_font = style.fit_font(reason, chip_width - 12, (style.PHONE_MIN_TEXT,), "cond")
            style.draw_text(
                draw,
                (x + chip_width // 2, top + 55),
                reason,
                reason_font,
                style.INK,
                "mm",
                chip_width - 12,
            )
    return height


def render_order_panel(view: View, *, resource_names: Mapping[int, str], locale: str) -> bytes:
    """One side's order panel image as PNG bytes (800 px wide). Needs a side's view."""
    if view.viewer is None:
        raise ValueError("the order panel is drawn from one side's view, not the public one")
    side = view.viewer
    own = view.sides[side]
    fleet = own_fleet(view, side)
    look = style.side_style(side)
    # Drawn on a canvas taller than the panel can be, then cut to what was used.
    bound = 1000 + (height_bound(fleet) if fleet else 0) + 180 * len(view.previews)
    image, draw = style.canvas(bound + 20 * len(own.resources_available), WIDTH)

    title = tr(
        "panel.title", locale, side=side_name(side, locale), turn=view.turn, turns=view.turns
    )
    number = 1 if view.round is RoundKind.ORDERS else 2
    subtitle = tr("panel.subtitle", locale, n=number, name=round_name(view.round, locale))
    if view.turn_label:
        subtitle = f"{turn_label(view.turn_label, locale)} · {subtitle}"
    y = style.phone_header(
        image, draw, title, subtitle, tr("panel.vp", locale, vp=own.vp), side=side
    )
    y += GAP

    if fleet is not None:
        # The track says the fleet's penalties now and at the next level, in words.
        y += draw_track(image, draw, (MARGIN, y), INNER, fleet, locale, words=True) + GAP

    # --- Flight Ops options, then Fleet Tactics
    y += style.phone_section(draw, (MARGIN, y), tr("panel.flight_ops_now", locale), INNER)
    previews = list(view.previews)
    if not previews:
        style.draw_text(
            draw,
            (MARGIN, y),
            tr("panel.no_preview", locale),
            style.font(style.PHONE_TEXT),
            style.MUTED,
            max_width=INNER,
        )
        y += LINE
    for preview in previews:
        reason = size_excluded(preview.size, own, fleet)
        y += _option(draw, y, preview, reason, locale) + 10
    y += GAP - 10
    y += style.phone_section(draw, (MARGIN, y), tr("panel.tactics", locale), INNER)
    y += _tactics(image, draw, y, own, side, locale) + GAP

    # --- last turn and doctrine side by side, then resources
    half = (INNER - 20) // 2
    right_x = MARGIN + half + 20
    top = y
    style.phone_section(draw, (MARGIN, y), tr("panel.last_turn", locale), half)
    # In the orders round the state still holds the doctrine set last turn; say so.
    doctrine_key = "panel.doctrine" if view.round.value == "resource" else "panel.doctrine_last"
    y += style.phone_section(draw, (right_x, y), tr(doctrine_key, locale), half)
    last_tactic = tactic_name(own.last_tactic, locale) if own.last_tactic else "—"
    last_size = size_name(own.last_size, locale) if own.last_size else "—"
    for n, text in enumerate((last_tactic, last_size)):
        fnt = style.fit_font(text, half, (style.PHONE_TEXT, style.PHONE_MIN_TEXT), "bold")
        style.draw_text(draw, (MARGIN, y + n * LINE), text, fnt, style.INK, max_width=half)
    doctrine = doctrine_name(own.doctrine, locale) if own.doctrine else "—"
    fnt = style.fit_font(doctrine, half, (26, style.PHONE_TEXT, style.PHONE_MIN_TEXT), "bold")
    style.draw_text(draw, (right_x, y), doctrine, fnt, look.dark, max_width=half)
    y = top + 40 + 2 * LINE + GAP

    resources = list(own.resources_available)
    used = len(own.resources_used)
    heading = tr("panel.resources", locale, n=len(resources), used=used)
    y += style.phone_section(draw, (MARGIN, y), heading, INNER)
    if not resources:
        style.draw_text(draw, (MARGIN, y), "—", style.font(style.PHONE_TEXT), style.MUTED)
        y += LINE
    rows = (len(resources) + 1) // 2
    for index, number in enumerate(resources):
        cx = MARGIN + (index // max(1, rows)) * (half + 20)
        cy = y + (index % max(1, rows)) * LINE
        tag = f"#{number}"
        tag_width = style.draw_text(
            draw, (cx, cy), tag, style.font(style.PHONE_TEXT, "bold"), look.dark
        )
        name = resource_names.get(number, "")
        space = half - tag_width - 8
        style.draw_text(
            draw,
            (cx + tag_width + 8, cy),
            name,
            style.fit_font(name, space, (style.PHONE_TEXT, style.PHONE_MIN_TEXT)),
            style.INK,
            max_width=space,
        )
    y += rows * LINE + GAP
    return style.to_png(image, height=y)

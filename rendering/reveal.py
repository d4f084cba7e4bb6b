"""The reveal card: both sides' choices side by side, each with its short receipt.

Works for either secret round: the caller gives each side's lines already in words
("Fleet Tactic" / "Long Range", "Resource" / "#3 Radar"); the card only lays them out, so it
can never show more than the caller chose to reveal.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from engine.types import Side
from rendering.style import (
    CARD_BG,
    INK,
    MARGIN,
    MUTED,
    WIDTH,
    canvas,
    draw_marker,
    draw_text,
    fill_side,
    fit_font,
    font,
    header,
    panel,
    side_style,
    text_width,
    to_png,
    wrap,
)
from rendering.text import side_name, tr


class RevealSide(BaseModel):
    """One side's revealed choices: (label, value) lines and its receipt (short hash)."""

    model_config = ConfigDict(frozen=True)

    side: Side
    lines: list[tuple[str, str]]
    receipt: str


HEADER = 76
SIDE_HEADER = 58
VALUE_LINE = 30
LABEL_LINE = 24
RECEIPT = 64


def _value_lines(value: str, width: int) -> list[str]:
    return wrap(value, font(24, "bold"), width, max_lines=2)


def render_reveal(title: str, sides: Sequence[RevealSide], *, locale: str) -> bytes:
    """Both sides' revealed choices as PNG bytes (1200 px wide)."""
    ordered = sorted(sides, key=lambda item: list(Side).index(item.side))[:2] or []
    columns = max(1, len(ordered))
    gap = 40
    column_width = (WIDTH - 2 * MARGIN - gap * (columns - 1)) // columns
    text_width_max = column_width - 40
    bodies = [
        sum(
            LABEL_LINE + VALUE_LINE * len(_value_lines(value, text_width_max)) + 12
            for _, value in side.lines
        )
        for side in ordered
    ]
    body = max(bodies, default=0)
    height = HEADER + 20 + SIDE_HEADER + 14 + max(body, 40) + RECEIPT + 20
    image, draw = canvas(height)
    header(image, draw, title, tr("reveal.subtitle", locale))
    top = HEADER + 20
    for index, side in enumerate(ordered):
        x0 = MARGIN + index * (column_width + gap)
        x1 = x0 + column_width
        style = side_style(side.side)
        panel(draw, (x0, top, x1, height - 20), CARD_BG, style.dark)
        fill_side(image, (x0 + 2, top + 2, x1 - 2, top + SIDE_HEADER), side.side)
        name = side_name(side.side, locale)
        name_font = fit_font(name, column_width - 100, (28, 24, 22), "bold")
        plate = text_width(name, name_font) + 70
        draw.rounded_rectangle(
            (x0 + 12, top + 9, x0 + 12 + min(plate, column_width - 24), top + SIDE_HEADER - 9),
            radius=8,
            fill=CARD_BG,
            outline=style.dark,
            width=2,
        )
        draw_marker(draw, (x0 + 36, top + SIDE_HEADER // 2), 24, side.side)
        draw_text(
            draw,
            (x0 + 56, top + SIDE_HEADER // 2),
            name,
            name_font,
            style.dark,
            "lm",
            column_width - 100,
        )
        y = top + SIDE_HEADER + 14
        for label, value in side.lines:
            draw_text(draw, (x0 + 20, y), label, font(18), MUTED, max_width=text_width_max)
            y += LABEL_LINE
            for line in _value_lines(value, text_width_max):
                draw_text(draw, (x0 + 20, y), line, font(24, "bold"), INK, max_width=text_width_max)
                y += VALUE_LINE
            y += 12
        receipt_y = height - 20 - RECEIPT + 8
        draw.line((x0 + 20, receipt_y - 6, x1 - 20, receipt_y - 6), fill=style.light, width=2)
        label = tr("reveal.receipt", locale)
        label_w = draw_text(draw, (x0 + 20, receipt_y + 22), label, font(18), MUTED, "lm")
        draw_text(
            draw,
            (x0 + 30 + label_w, receipt_y + 22),
            side.receipt,
            font(20, "mono"),
            INK,
            "lm",
            column_width - 60 - label_w,
        )
    if len(ordered) == 2:
        centre = WIDTH // 2
        draw.ellipse((centre - 24, top + 110, centre + 24, top + 158), fill=INK)
        draw.text(
            (centre, top + 134),
            tr("reveal.versus", locale),
            font=font(20, "bold"),
            fill=CARD_BG,
            anchor="mm",
        )
    return to_png(image)

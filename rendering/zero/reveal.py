"""The reveal card: both sides' choices, one above the other, each with its short receipt.

Works for either secret round: the caller gives each side's lines already in words
("Fleet Tactic" / "Long Range", "Resource" / "#3 Radar"); the card only lays them out, so it
can never show more than the caller chose to reveal. Drawn for a phone (``rendering.zero.mobile``):
800 px wide, the sides stacked, no word under 22 px.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw
from pydantic import BaseModel, ConfigDict

from engine.zero.types import Side
from rendering import style
from rendering.text import side_name, tr
from rendering.zero.mobile import (
    BODY,
    INNER,
    MARGIN,
    TEXT,
    WIDTH,
    draw_header,
    draw_wrapped,
    header_height,
    wrapped_height,
)


class RevealSide(BaseModel):
    """One side's revealed choices: (label, value) lines and its receipt (short hash)."""

    model_config = ConfigDict(frozen=True)

    side: Side
    lines: list[tuple[str, str]]
    receipt: str


SIDE_HEADER = 60
LABEL_LINE = 32
RECEIPT = 56
GAP = 36  # between the two sides, where the "VS" disc sits
PAD = 20
VALUE = 26
MIN_HEIGHT = 200  # a reveal with nothing to show still looks like a card


def _text_width() -> int:
    return INNER - 2 * PAD


def _body_height(side: RevealSide) -> int:
    return sum(
        LABEL_LINE + wrapped_height(value, VALUE, _text_width()) + 10 for _, value in side.lines
    )


def _side_height(side: RevealSide) -> int:
    return SIDE_HEADER + 12 + max(_body_height(side), 10) + RECEIPT


def render_reveal(title: str, sides: Sequence[RevealSide], *, locale: str) -> bytes:
    """Both sides' revealed choices as PNG bytes (800 px wide, the sides stacked)."""
    ordered = sorted(sides, key=lambda item: list(Side).index(item.side))[:2]
    subtitle = tr("reveal.subtitle", locale)
    top = header_height(title, [subtitle]) + 20
    height = top + sum(_side_height(side) for side in ordered) + GAP * max(0, len(ordered) - 1)
    image, draw = style.canvas(max(MIN_HEIGHT, height + 20), WIDTH)
    draw_header(image, draw, title, [subtitle])
    y = top
    for index, side in enumerate(ordered):
        if index:
            centre = y - GAP // 2
            draw.ellipse(
                (WIDTH // 2 - 28, centre - 28, WIDTH // 2 + 28, centre + 28), fill=style.INK
            )
            draw.text(
                (WIDTH // 2, centre),
                tr("reveal.versus", locale),
                font=style.font(TEXT, "bold"),
                fill=style.CARD_BG,
                anchor="mm",
            )
        _draw_side(image, draw, y, side, locale)
        y += _side_height(side) + GAP
    return style.to_png(image)


def _draw_side(
    image: Image.Image, draw: ImageDraw.ImageDraw, top: int, side: RevealSide, locale: str
) -> None:
    x0, x1 = MARGIN, WIDTH - MARGIN
    bottom = top + _side_height(side)
    look = style.side_style(side.side)
    style.panel(draw, (x0, top, x1, bottom), style.CARD_BG, look.dark)
    style.fill_side(image, (x0 + 2, top + 2, x1 - 2, top + SIDE_HEADER), side.side)
    name = side_name(side.side, locale)
    name_font = style.fit_font(name, INNER - 100, (30, 28, 26), "bold")
    plate = style.text_width(name, name_font) + 76
    draw.rounded_rectangle(
        (x0 + 12, top + 8, x0 + 12 + min(plate, INNER - 24), top + SIDE_HEADER - 8),
        radius=8,
        fill=style.CARD_BG,
        outline=look.dark,
        width=2,
    )
    style.draw_marker(draw, (x0 + 38, top + SIDE_HEADER // 2), 26, side.side)
    style.draw_text(
        draw, (x0 + 60, top + SIDE_HEADER // 2), name, name_font, look.dark, "lm", INNER - 100
    )
    y = top + SIDE_HEADER + 12
    for label, value in side.lines:
        style.draw_text(
            draw,
            (x0 + PAD, y + LABEL_LINE // 2),
            label,
            style.font(TEXT),
            style.MUTED,
            "lm",
            _text_width(),
        )
        y += LABEL_LINE
        y += draw_wrapped(draw, (x0 + PAD, y), value, VALUE, _text_width()) + 10
    receipt_y = bottom - RECEIPT
    draw.line((x0 + PAD, receipt_y + 4, x1 - PAD, receipt_y + 4), fill=look.light, width=2)
    middle = receipt_y + RECEIPT // 2 + 2
    label = tr("reveal.receipt", locale)
    label_width = style.draw_text(
        draw, (x0 + PAD, middle), label, style.font(TEXT), style.MUTED, "lm"
    )
    style.draw_text(
        draw,
        (x0 + PAD + 12 + label_width, middle),
        side.receipt,
        style.font(BODY, "mono"),
        style.INK,
        "lm",
        _text_width() - 12 - label_width,
    )

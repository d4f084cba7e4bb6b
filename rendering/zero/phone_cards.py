"""Phone-first building blocks for the 800 px images of the land and Pearl Harbor campaigns.

Discord shows an image about 400 px wide on a phone, so an 800 px image is halved: no text
here is below 22 px (11 px on the phone), body text is 24 px. The pieces keep the shared
visual language of ``rendering.style`` (the dark title bar, the side patterns and markers,
the icons) and only change sizes and layout: one column, read from top to bottom.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.zero.types import Side
from rendering import style
from rendering.i18n import t
from rendering.text import side_name, tr
from rendering.zero.reveal import RevealSide

WIDTH = style.PHONE_WIDTH
PAD = 24
INNER = WIDTH - 2 * PAD
SMALL = style.PHONE_MIN_TEXT  # the smallest text: 11 px on a 400 px phone
TEXT = 24
TITLE = 32
BAR = 104  # the title bar with a subtitle under the title
BAR_PLAIN = 72


def title_bar(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    title: str,
    subtitle: str = "",
    right: str = "",
    side: Side | None = None,
) -> int:
    """The dark title bar of ``style.header`` at phone sizes; returns its height."""
    height = BAR if subtitle else BAR_PLAIN
    draw.rectangle((0, 0, WIDTH, height), fill=style.HEADER_BG)
    left = PAD
    if side is not None:
        style.fill_side(image, (0, 0, 18, height), side)
        left = 18 + PAD
    right_width = 0
    if right:
        right_font = style.fit_font(right, WIDTH // 3, (26, 24, 22), "bold")
        right_width = min(style.text_width(right, right_font), WIDTH // 3)
        style.draw_text(
            draw, (WIDTH - PAD, 34), right, right_font, style.HEADER_INK, "rm", WIDTH // 3
        )
    space = WIDTH - left - PAD - right_width - (20 if right else 0)
    title_font = style.fit_font(title, space, (TITLE, 28, 26, 24), "bold")
    if subtitle:
        style.draw_text(draw, (left, 14), title, title_font, style.HEADER_INK, max_width=space)
        sub_font = style.fit_font(subtitle, WIDTH - left - PAD, (TEXT, SMALL))
        style.draw_text(
            draw, (left, 62), subtitle, sub_font, style.HEADER_MUTED, max_width=WIDTH - left - PAD
        )
    else:
        style.draw_text(draw, (left, height // 2), title, title_font, style.HEADER_INK, "lm", space)
    return height


def section(draw: ImageDraw.ImageDraw, y: int, text: str) -> int:
    """A section heading with a rule under it; returns the height used."""
    heading = text.upper()
    style.draw_text(
        draw, (PAD, y), heading, style.fit_font(heading, INNER, (SMALL,), "bold"), style.MUTED
    )
    draw.line((PAD, y + 30, WIDTH - PAD, y + 30), fill=style.MUTED, width=2)
    return 42


def side_plate(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    side: Side,
    name: str,
) -> None:
    """A side's band: its pattern across the box, its marker and name on a white plate."""
    x0, y0, x1, y1 = box
    look = style.side_style(side)
    style.fill_side(image, box, side)
    name_font = style.fit_font(name, x1 - x0 - 100, (28, 26, 24), "bold")
    plate = min(style.text_width(name, name_font) + 76, x1 - x0 - 24)
    draw.rounded_rectangle(
        (x0 + 12, y0 + 9, x0 + 12 + plate, y1 - 9),
        radius=8,
        fill=style.CARD_BG,
        outline=look.dark,
        width=2,
    )
    centre = (y0 + y1) // 2
    style.draw_marker(draw, (x0 + 38, centre), 26, side)
    style.draw_text(draw, (x0 + 60, centre), name, name_font, look.dark, "lm", plate - 56)


# --- the reveal ------------------------------------------------------------------------------

SIDE_BAND = 62
LABEL_LINE = 32
VALUE_LINE = 36
RECEIPT_LINE = 50


def _values(value: str) -> list[str]:
    return style.wrap(value, style.font(28, "bold"), INNER - 40, max_lines=3)


def _side_height(side: RevealSide) -> int:
    body = sum(LABEL_LINE + VALUE_LINE * len(_values(value)) + 10 for _, value in side.lines)
    return SIDE_BAND + 14 + max(body, 40) + RECEIPT_LINE + 12


def reveal_card(title: str, sides: Sequence[RevealSide], locale: str) -> bytes:
    """Both sides' revealed choices, one side above the other (800 px wide).

    The caller gives each side's words; the card lays them out and shows nothing else, so
    it never tells more than the reveal does.
    """
    ordered = sorted(sides, key=lambda item: list(Side).index(item.side))
    gap = 56  # room for the "vs" disc between the two sides
    heights = [_side_height(side) for side in ordered]
    height = BAR + 20 + sum(heights) + gap * max(0, len(ordered) - 1) + 20
    image, draw = style.canvas(height, WIDTH)
    # A solitaire game reveals one side: "both sides" would not be true there.
    subtitle = tr("reveal.subtitle", locale) if len(ordered) > 1 else t("phone.reveal-one", locale)
    title_bar(image, draw, title, subtitle)
    y = BAR + 20
    for index, (side, side_height) in enumerate(zip(ordered, heights, strict=True)):
        if index:
            centre = y - gap // 2
            draw.ellipse(
                (WIDTH // 2 - 26, centre - 26, WIDTH // 2 + 26, centre + 26), fill=style.INK
            )
            versus = tr("reveal.versus", locale)
            style.draw_text(
                draw, (WIDTH // 2, centre), versus, style.font(SMALL, "bold"), style.CARD_BG, "mm"
            )
        look = style.side_style(side.side)
        style.panel(draw, (PAD, y, WIDTH - PAD, y + side_height), style.CARD_BG, look.dark)
        band = (PAD + 2, y + 2, WIDTH - PAD - 2, y + SIDE_BAND)
        side_plate(image, draw, band, side.side, side_name(side.side, locale))
        line_y = y + SIDE_BAND + 14
        for label, value in side.lines:
            style.draw_text(
                draw,
                (PAD + 20, line_y),
                label,
                style.font(SMALL),
                style.MUTED,
                max_width=INNER - 40,
            )
            line_y += LABEL_LINE
            for part in _values(value):
                style.draw_text(draw, (PAD + 20, line_y), part, style.font(28, "bold"), style.INK)
                line_y += VALUE_LINE
            line_y += 10
        receipt_y = y + side_height - 12 - RECEIPT_LINE // 2
        draw.line(
            (PAD + 20, receipt_y - 22, WIDTH - PAD - 20, receipt_y - 22), fill=look.light, width=2
        )
        label = tr("reveal.receipt", locale)
        used = style.draw_text(
            draw, (PAD + 20, receipt_y), label, style.font(SMALL), style.MUTED, "lm"
        )
        style.draw_text(
            draw,
            (PAD + 34 + used, receipt_y),
            side.receipt,
            style.font(TEXT, "mono"),
            style.INK,
            "lm",
            INNER - 60 - used,
        )
        y += side_height + gap
    return style.to_png(image)


# --- legends ---------------------------------------------------------------------------------

LegendItem = tuple[Side | style.Icon | str, str]  # a side's swatch, an icon, or a few letters
LEGEND_LINE = 40


def _legend_width(mark: Side | style.Icon | str, text: str, icons: frozenset[str]) -> int:
    mark_width = 34
    if not isinstance(mark, Side) and mark not in icons:
        mark_width = style.text_width(mark, style.font(SMALL, "bold")) + 10
    return mark_width + style.text_width(text, style.font(SMALL)) + 28


def legend(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    y: int,
    items: Sequence[LegendItem],
    icons: frozenset[str],
) -> int:
    """Legend items flowed in lines at 22 px; returns the height used. A mark is a side
    (its swatch), an icon name from ``icons``, or letters drawn in bold."""
    x = PAD
    for mark, text in items:
        width = _legend_width(mark, text, icons)
        if x + width > WIDTH - PAD and x > PAD:
            x = PAD
            y += LEGEND_LINE
        middle = y + LEGEND_LINE // 2
        if isinstance(mark, Side):
            style.side_swatch(image, (x, middle - 14, x + 28, middle + 14), mark)
            x += 34
        elif mark in icons:
            style.draw_icon(draw, mark, (x + 14, middle), 24)  # type: ignore[arg-type]
            x += 34
        else:
            x += (
                style.draw_text(draw, (x, middle), mark, style.font(SMALL, "bold"), style.INK, "lm")
                + 10
            )
        x += style.draw_text(draw, (x, middle), text, style.font(SMALL), style.INK, "lm") + 28
    return y + LEGEND_LINE

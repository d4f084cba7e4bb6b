"""Building blocks for pictures read on a phone: the reveal, strike and after-action images.

Discord shows an image about 400 px wide on a phone, whatever the file's width, and text
must stay at least 11 px there (design/ux.md, "Images"). These pictures are drawn 800 px
wide, so no word on them is smaller than ``TEXT`` (22 px): one column, rows stacked, and
the details a phone cannot hold left to the campaign log. The palette, side patterns,
markers and icons are those of ``rendering.style``, so the pictures keep one look.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.zero.catalog import ActionCard
from engine.zero.types import BombResult, Side
from rendering import style
from rendering.zero.card import PHONE_SCALE, Variant, card_size, card_tile

WIDTH = style.PHONE_WIDTH
MARGIN = style.PHONE_MARGIN
INNER = WIDTH - 2 * MARGIN
TEXT = style.PHONE_MIN_TEXT  # the smallest type: 11 px on a 400 px phone
BODY = 24
TITLE = 32
# Cards are drawn a quarter larger than on the desktop pictures, so their smallest words
# (the 18 px values and results of a card at scale 1) reach TEXT.
CARD_SCALE = PHONE_SCALE


# --- header --------------------------------------------------------------------------------

HeaderRow = tuple[str, int, bool]  # text, size, bold


def _header_rows(title: str, lines: Sequence[str], width: int) -> list[HeaderRow]:
    title_font = style.fit_font(title, width, (TITLE, 28, 26), "bold")
    rows: list[HeaderRow] = []
    if title_font.size >= 26 and style.text_width(title, title_font) <= width:
        rows.append((title, int(title_font.size), True))
    else:
        rows += [
            (row, 28, True) for row in style.wrap(title, style.font(28, "bold"), width, max_lines=2)
        ]
    for line in lines:
        if line:
            rows += [
                (row, TEXT, False) for row in style.wrap(line, style.font(TEXT), width, max_lines=2)
            ]
    return rows


def _row_height(size: int) -> int:
    return size + 10


def header_height(title: str, lines: Sequence[str], *, side: Side | None = None) -> int:
    width = INNER - (18 if side is not None else 0)
    return 24 + sum(_row_height(size) for _, size, _ in _header_rows(title, lines, width))


def draw_header(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    title: str,
    lines: Sequence[str] = (),
    *,
    side: Side | None = None,
) -> int:
    """The dark title bar with its lines under the title; returns its height."""
    height = header_height(title, lines, side=side)
    draw.rectangle((0, 0, image.width, height), fill=style.HEADER_BG)
    left = MARGIN
    if side is not None:
        style.fill_side(image, (0, 0, 18, height), side)
        left += 18
    width = image.width - left - MARGIN
    y = 12
    for text, size, bold in _header_rows(title, lines, width):
        fnt = style.font(size, "bold" if bold else "regular")
        colour = style.HEADER_INK if bold else style.HEADER_MUTED
        style.draw_text(draw, (left, y + _row_height(size) // 2), text, fnt, colour, "lm", width)
        y += _row_height(size)
    return height


# --- sections ------------------------------------------------------------------------------

SECTION = 42


def section(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, width: int) -> int:
    """A section heading in capitals with a rule under it; returns the height used."""
    x, y = xy
    title = text.upper()
    fnt = style.fit_font(title, width, (TEXT,), "bold")
    style.draw_text(draw, (x, y + 14), title, fnt, style.MUTED, "lm", width)
    draw.line((x, y + 32, x + width, y + 32), fill=style.RULE, width=2)
    return SECTION


def wrapped_height(text: str, size: int, width: int, max_lines: int = 2, bold: bool = True) -> int:
    fnt = style.font(size, "bold" if bold else "regular")
    return len(style.wrap(text, fnt, width, max_lines)) * (size + 8)


def draw_wrapped(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    text: str,
    size: int,
    width: int,
    colour: tuple[int, int, int] = style.INK,
    *,
    max_lines: int = 2,
    bold: bool = True,
) -> int:
    """Text over up to ``max_lines`` lines (the last one cut); returns the height used."""
    x, y = xy
    fnt = style.font(size, "bold" if bold else "regular")
    rows = style.wrap(text, fnt, width, max_lines)
    for row in rows:
        style.draw_text(draw, (x, y), row, fnt, colour, "la", width)
        y += size + 8
    return len(rows) * (size + 8)


# --- cards ---------------------------------------------------------------------------------


def card_box(card: ActionCard | None, variant: Variant) -> tuple[int, int]:
    """A card's size on these pictures (an unknown card takes the plain tile's size)."""
    return card_size(variant, CARD_SCALE, card)


def paste_card(
    image: Image.Image,
    card: ActionCard | None,
    card_id: int,
    xy: tuple[int, int],
    *,
    locale: str,
    variant: Variant = "full",
    struck: bool = False,
) -> int:
    """A card tile, or for a card not in the deck given a grey frame with its number."""
    if card is not None:
        tile = card_tile(card, locale=locale, scale=CARD_SCALE, variant=variant, struck=struck)
        image.paste(tile, xy, tile)
        return tile.width
    width, height = card_box(None, variant)
    x, y = xy
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (x, y, x + width - 1, y + height - 1), radius=8, outline=style.FAINT, width=3
    )
    draw.text(
        (x + width // 2, y + height // 2),
        f"#{card_id}",
        font=style.font(BODY, "bold"),
        fill=style.MUTED,
        anchor="mm",
    )
    return width


# --- legend --------------------------------------------------------------------------------

LEGEND_LINE = 36


def _legend_item_width(kind: str, value: object, text: str) -> int:
    item = 34 + style.text_width(text, style.font(TEXT)) + 24
    if kind == "text" and isinstance(value, str):
        item += max(0, style.text_width(value, style.font(TEXT, "bold")) - 26)
    return item


def legend_height(width: int, items: Sequence[tuple[style.LegendMark, str]]) -> int:
    x, lines = 0, 1
    for (kind, value), text in items:
        item = _legend_item_width(kind, value, text)
        if x + item > width and x > 0:
            x = 0
            lines += 1
        x += item
    return lines * LEGEND_LINE


def legend(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    origin: tuple[int, int],
    width: int,
    items: Sequence[tuple[style.LegendMark, str]],
) -> int:
    """Legend items (a mark and its words) laid in lines; returns the height used."""
    x0, y0 = origin
    fnt = style.font(TEXT)
    x, y = x0, y0
    for (kind, value), text in items:
        item = _legend_item_width(kind, value, text)
        if x + item > x0 + width and x > x0:
            x = x0
            y += LEGEND_LINE
        middle = y + LEGEND_LINE // 2
        words_x = x + 34
        if kind == "side" and isinstance(value, Side):
            style.side_swatch(image, (x, middle - 13, x + 26, middle + 13), value)
        elif kind == "icon":
            style.draw_icon(draw, value, (x + 13, middle), 24)  # type: ignore[arg-type]
        elif kind == "box" and isinstance(value, tuple):
            draw.rectangle(
                (x + 3, middle - 11, x + 25, middle + 11), fill=value, outline=style.MUTED, width=1
            )
        elif kind == "result" and isinstance(value, BombResult):
            style.result_pips(draw, value, x, middle, 8)
        elif kind == "text" and isinstance(value, str):
            mark = style.font(TEXT, "bold")
            draw.text((x, middle), value, font=mark, fill=style.INK, anchor="lm")
            words_x += max(0, style.text_width(value, mark) - 26)
        style.draw_text(draw, (words_x, middle), text, fnt, style.INK, "lm", x0 + width - words_x)
        x += item
    return y - y0 + LEGEND_LINE

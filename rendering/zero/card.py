"""The Action card badge: one drawn card, wherever a card is shown.

Anatomy (scale 1, 150 x 66 px): a frame in the card's border colour (sky blue or tan), the
title code with its burst/damage values ("IMS 2B/3D"), the Spoiled Attack mark (a barred
ring) when the card has it, then the bombing section as 0-3 diamonds plus the word
(Miss / Hit / Direct / Vital) and the strafe section as a gun-sight that is solid on a Hit
and faint on a Miss.

The one-line form (``variant="line"``, 38 px high, as wide as its words) keeps the frame,
title, values and spoiled mark for flak, where the bombing section does not matter.
A card that was cancelled or spoiled is drawn "struck": veiled, with a bar across it.

Scale 1 was made for a 1200 px desktop picture; on an 800 px picture read on a phone the
badge is drawn at ``PHONE_SCALE``, where its smallest word is 22 px (11 px once Discord
shows the picture 400 px wide).
"""

from __future__ import annotations

from typing import Literal

from PIL import Image, ImageDraw

from engine.zero.catalog import ActionCard
from rendering import style
from rendering.text import result_name

Variant = Literal["full", "line"]
FULL_SIZE = (150, 66)
LINE_SIZE = (128, 38)
STRUCK_BAR = (170, 30, 30)
PHONE_SCALE = 1.25  # smallest word 18 px x 1.25 = 22 px: readable in an 800 px picture


def card_size(
    variant: Variant = "full", scale: float = 1.0, card: ActionCard | None = None
) -> tuple[int, int]:
    """Tile size; the one-line form is as wide as its words (a plain "VR" stays narrow)."""
    width, height = FULL_SIZE if variant == "full" else LINE_SIZE
    if variant == "line" and card is not None:
        width = 5 + 6 + style.text_width(card.title.value, style.font(20, "bold")) + 8
        if _values(card):
            width += 5 + style.text_width(_values(card), style.font(18, "cond-bold"))
        if card.spoiled:
            width += 24
        width = max(width, 56)
    return round(width * scale), round(height * scale)


def _values(card: ActionCard) -> str:
    if card.is_attack and card.burst is not None and card.damage is not None:
        return f"{card.burst}B/{card.damage}D"
    return ""


def card_tile(
    card: ActionCard,
    *,
    locale: str,
    scale: float = 1.0,
    variant: Variant = "full",
    struck: bool = False,
) -> Image.Image:
    """Draw a card as an RGBA tile (transparent outside the rounded frame)."""
    width, height = card_size(variant, scale, card)

    def s(value: float) -> int:
        return max(1, round(value * scale))

    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    border = style.BLUE_BORDER if card.border == "blue" else style.TAN_BORDER
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=s(8), fill=border)
    inset = s(5)
    draw.rounded_rectangle(
        (inset, inset, width - 1 - inset, height - 1 - inset), radius=s(4), fill=style.CARD_BG
    )
    line1_y = s(19) if variant == "full" else height // 2
    x = inset + s(6)
    full = variant == "full"
    title_font = style.font(s(21 if full else 20), "bold")
    draw.text((x, line1_y), card.title.value, font=title_font, fill=style.INK, anchor="lm")
    x += style.text_width(card.title.value, title_font) + s(6 if full else 5)
    values = _values(card)
    if values:
        draw.text(
            (x, line1_y),
            values,
            font=style.font(s(19 if full else 18), "cond-bold"),
            fill=style.INK,
            anchor="lm",
        )
    if card.spoiled:
        style.draw_icon(draw, "spoiled", (width - inset - s(13), line1_y), s(18))
    if variant == "full":
        line2_y = s(45)
        draw.line((inset + s(2), s(31), width - inset - s(2), s(31)), fill=style.FAINT, width=s(1))
        left = inset + s(6)
        used = style.result_pips(draw, card.bombing, left, line2_y, s(9))
        draw.text(
            (left + used + s(5), line2_y),
            result_name(card.bombing, locale),
            font=style.font(s(18), "cond-bold"),
            fill=style.RESULT_COLOURS[card.bombing] if card.bombing else style.MUTED,
            anchor="lm",
        )
        _sight(draw, (width - inset - s(13), line2_y), s(9), hit=card.strafe_hit, line=s(2))
    if struck:
        veil = Image.new("RGBA", (width, height), (255, 255, 255, 150))
        mask = Image.new("L", (width, height), 0)
        ImageDraw.Draw(mask).rounded_rectangle((0, 0, width - 1, height - 1), radius=s(8), fill=150)
        image.paste(veil, (0, 0), mask)
        draw = ImageDraw.Draw(image)
        draw.line((s(4), height - s(6), width - s(4), s(6)), fill=STRUCK_BAR, width=s(4))
    return image


def _sight(
    draw: ImageDraw.ImageDraw, centre: tuple[int, int], radius: int, *, hit: bool, line: int
) -> None:
    """The strafe section: a gun-sight, solid for a Hit, faint for a Miss."""
    x, y = centre
    colour = style.INK if hit else style.FAINT
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), outline=colour, width=line)
    reach = radius + line + 1
    draw.line((x - reach, y, x + reach, y), fill=colour, width=line)
    draw.line((x, y - reach, x, y + reach), fill=colour, width=line)
    if hit:
        draw.ellipse((x - line, y - line, x + line, y + line), fill=colour)


def render_card_badge(card: ActionCard, *, locale: str, scale: float = 1.0) -> Image.Image:
    """The full card badge as an RGBA image (about 150 x 66 px at scale 1)."""
    return card_tile(card, locale=locale, scale=scale, variant="full")


def paste_card(
    image: Image.Image,
    card: ActionCard,
    xy: tuple[int, int],
    *,
    locale: str,
    variant: Variant = "full",
    struck: bool = False,
    scale: float = 1.0,
) -> int:
    """Paste a card tile onto an RGB image; returns the tile width."""
    tile = card_tile(card, locale=locale, scale=scale, variant=variant, struck=struck)
    image.paste(tile, xy, tile)
    return tile.width


def paste_unknown_card(
    image: Image.Image,
    card_id: int,
    xy: tuple[int, int],
    variant: Variant = "line",
    scale: float = 1.0,
) -> int:
    """A card whose face is not in the deck given: a grey frame with its number."""
    width, height = card_size(variant, scale)
    draw = ImageDraw.Draw(image)
    x, y = xy
    radius, line = max(1, round(8 * scale)), max(1, round(3 * scale))
    draw.rounded_rectangle(
        (x, y, x + width - 1, y + height - 1), radius=radius, outline=style.FAINT, width=line
    )
    draw.text(
        (x + width // 2, y + height // 2),
        f"#{card_id}",
        font=style.font(round(19 * scale), "bold"),
        fill=style.MUTED,
        anchor="mm",
    )
    return width

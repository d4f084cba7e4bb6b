"""Pillow images from engine views: status board, order panel, reveal, strike report, report.

Belongs here: pure functions ``view -> PNG bytes``, the fonts (files in ``fonts/``, with
their licence) and the shared visual language. Does not belong here: Discord, the
database, or anything that reads state the view does not carry (that is how secrets stay
out of images).
"""

from rendering.card import render_card_badge
from rendering.panel import render_order_panel
from rendering.report import render_after_action
from rendering.reveal import RevealSide, render_reveal
from rendering.status import render_status_board
from rendering.strike import render_strike_report

__all__ = [
    "RevealSide",
    "render_after_action",
    "render_card_badge",
    "render_order_panel",
    "render_reveal",
    "render_status_board",
    "render_strike_report",
]

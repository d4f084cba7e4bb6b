"""Where the cogs hand the bot their Discord controls, so that ``bot`` never imports ``cogs``.

A cog registers, at setup, how a composed panel (``bot.panel.PanelSpec``) and a campaign
card become Discord components; the sender asks this registry when it posts one. Until a
cog has registered, panels and cards go out as text only (the demo has no controls).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.panel import PanelSpec

PanelControls = Callable[[PanelSpec], discord.ui.View]
CardControls = Callable[[int], Awaitable[discord.ui.View | None]]


@dataclass
class Controls:
    panel: PanelControls | None = None
    card: CardControls | None = None


def of(client: Any) -> Controls:
    """The client's registry (created on first use)."""
    controls = getattr(client, "controls", None)
    if not isinstance(controls, Controls):
        controls = Controls()
        client.controls = controls
    return controls

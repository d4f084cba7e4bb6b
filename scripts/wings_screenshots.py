"""Photograph a Wings of War turn as players see it (issue 27): the DM panel with its preview
(a program drafted, flown as a ghost path) and the channel with the turn flown, each at 1000
and 400 px, played in simcord and shot in headless Chromium.

    .venv/bin/python scripts/wings_screenshots.py [OUT_DIR]

Needs ``simcord[preview]`` and Debian's ``chromium``. Writes ``wings-panel-preview-<w>.png``
and ``wings-channel-turn-<w>.png`` to OUT_DIR (default ``docs/images``).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import discord

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.screenshots import lock_both, photograph, table


def _select_id(panel: discord.Message, field: str) -> str:
    for row in panel.components:
        for child in getattr(row, "children", ()):
            custom_id = getattr(child, "custom_id", "") or ""
            if custom_id.startswith("sortie:o:") and custom_id.endswith(f":{field}"):
                return custom_id
    raise SystemExit(f"no {field} menu on the panel")


def _options(panel: discord.Message, field: str) -> list[str]:
    for row in panel.components:
        for child in getattr(row, "children", ()):
            if isinstance(child, discord.SelectMenu) and child.custom_id.endswith(f":{field}"):
                return [option.value for option in child.options]
    raise SystemExit(f"no {field} menu on the panel")


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    sides = ("entente", "central")
    async with table("western-front", "wings-1917", sides, ruleset="wings", seed="ux") as at:
        env, alice_user = at.env, at.alice_user
        # Alice drafts Albert Ball's program from the menu: the panel's picture shows it
        # flown as a ghost path.
        panel = [m for m in alice_user.dm_channel.history() if m.components][-1]
        program = next(p for p in _options(panel, "plane1") if p.startswith("BL"))
        await alice_user.select(panel, [program], custom_id=_select_id(panel, "plane1"))
        await env.settle()
        await photograph(env, alice_user.dm_channel, alice_user, out / "wings-panel-preview", 3000)
        # Everyone else flies the default programs.
        await lock_both(
            at, lambda decision, drafts: None if decision.field in drafts else decision.default
        )
        await photograph(env, at.channel, at.spectator, out / "wings-channel-turn", 2600)
    print(f"screenshots in {out}")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images")))

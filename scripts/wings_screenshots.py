"""Photograph a Wings of War turn as players see it (issue 27): the DM panel with its preview
(a program written in the Write modal, flown as a ghost path) and the channel with the turn
flown, each at 1000 and 400 px, played in simcord and shot in headless Chromium.

    .venv/bin/python scripts/wings_screenshots.py [OUT_DIR]

Needs ``simcord[preview]`` and Debian's ``chromium``. Writes ``wings-panel-preview-<w>.png``
and ``wings-channel-turn-<w>.png`` to OUT_DIR (default ``docs/images``). Every step is
played through the panel's controls, as a player would; a step that finds nothing to click
or does not show what it should stops the script with a message (exit status 1), so a
change in the panel cannot leave the pictures silently stale.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import discord

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.screenshots import Table, photograph, table

BALL = "program:P1"  # Albert Ball's Nieuport 17, the Entente's first plane
WRITTEN = "TL TL S"  # two turns: his Nieuport has two TL cards; on no quick pick
PILOT = "Albert Ball"


class Missing(SystemExit):
    """A step found nothing: the panel changed and this script must follow it."""

    def __init__(self, what: str) -> None:
        super().__init__(f"wings_screenshots: {what}")


def panel_of(user: Any) -> discord.Message:
    panels = [m for m in user.dm_channel.history() if m.components]
    if not panels:
        raise Missing(f"{user.name} has no order panel in DMs")
    return panels[-1]


def controls(panel: discord.Message) -> list[Any]:
    return [child for row in panel.components for child in getattr(row, "children", ())]


def control(panel: discord.Message, prefix: str, end: str = "") -> Any:
    found = [
        c
        for c in controls(panel)
        if (c.custom_id or "").startswith(prefix) and (c.custom_id or "").endswith(end)
    ]
    if not found:
        shown = [c.custom_id for c in controls(panel)]
        raise Missing(f"no control {prefix}…{end} on the panel (it has {shown})")
    return found[0]


def modal_fields(shown: Any) -> set[str]:
    """The custom ids of the text inputs in the modal a click opened."""
    if shown.modal is None:
        raise Missing("the Write button opened no modal")
    found: set[str] = set()

    def walk(node: dict[str, Any]) -> None:
        if node.get("type") == 4:
            found.add(node["custom_id"])
        for child in node.get("components") or ():
            walk(child)
        if isinstance(node.get("component"), dict):
            walk(node["component"])

    for row in shown.modal["components"]:
        walk(row)
    return found


def said(result: Any) -> str:
    """What the bot answered to the player alone (a refusal)."""
    return "\n".join(m.content for m in result.followups if m.ephemeral)


async def write_program(at: Table) -> None:
    """Alice writes Albert Ball's program in the Write modal; the panel reads it back and
    its picture changes (the ghost path)."""
    user = at.alice_user
    panel = panel_of(user)
    picks = [o.value for o in control(panel, "sortie:o:", f":{BALL}").options]
    if WRITTEN in picks:
        raise Missing(f"{WRITTEN} is a quick pick now: write a program no quick pick offers")
    if not panel.attachments:
        raise Missing("the panel has no picture")
    before = await panel.attachments[0].read()
    shown = await user.click(panel, custom_id=control(panel, "sortie:write:").custom_id)
    if BALL not in modal_fields(shown):
        raise Missing(f"the Write modal has no field {BALL}")
    written = await user.submit_modal(shown, {BALL: WRITTEN.lower().replace(" ", ", ")})
    if not written.acknowledged or said(written):
        raise Missing(f"{WRITTEN} was refused: {said(written) or 'no answer'}")
    await at.bot.pump()
    await at.env.settle()
    panel = next(m for m in user.dm_channel.history() if m.id == panel.id)
    if f"✓ {WRITTEN}" not in panel.content:
        raise Missing(f"the panel does not read back ✓ {WRITTEN}:\n{panel.content}")
    if not panel.attachments or await panel.attachments[0].read() == before:
        raise Missing("the panel's picture did not change with the program (no preview)")


async def fill_and_lock(at: Table, user: Any) -> None:
    """Take the first quick pick or option of every field still to choose, then Lock."""
    service = at.services.campaigns
    for field in (await service.panel(at.campaign_id, user.id)).missing:
        panel = panel_of(user)
        menu = control(panel, "sortie:o:", f":{field}")
        picked = await user.select(panel, [menu.options[0].value], custom_id=menu.custom_id)
        if not picked.acknowledged:
            raise Missing(f"{user.name}'s pick for {field} was not taken")
    panel = panel_of(user)
    locked = await user.click(panel, custom_id=control(panel, "sortie:lock:").custom_id)
    if not locked.acknowledged or said(locked):
        raise Missing(f"{user.name} could not lock: {said(locked) or 'no answer'}")
    await at.bot.pump()
    await at.env.settle()


def turn_flown(at: Table) -> None:
    """The channel shows the turn: the written program flown by its pilot, with a picture."""
    for message in at.channel.history():
        if WRITTEN in message.content and PILOT in message.content and message.attachments:
            return
    contents = "\n---\n".join(m.content for m in at.channel.history())
    raise Missing(f"no channel message shows {PILOT} flying {WRITTEN}:\n{contents}")


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    sides = ("entente", "central")
    async with table("western-front", "wings-1917", sides, ruleset="wings", seed="ux") as at:
        env = at.env
        await write_program(at)
        dms = at.alice_user.dm_channel
        await photograph(env, dms, at.alice_user, out / "wings-panel-preview", 3000)
        # Every other field takes its first quick pick; both sides lock: the turn flies.
        await fill_and_lock(at, at.alice_user)
        await fill_and_lock(at, at.bob_user)
        turn_flown(at)
        await photograph(env, at.channel, at.spectator, out / "wings-channel-turn", 2600)
    print(f"screenshots in {out}")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images")))

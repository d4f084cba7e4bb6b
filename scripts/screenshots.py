"""Photograph what players see: one Coral Sea turn played in simcord, shot in Chromium.

    .venv/bin/python scripts/screenshots.py [OUT_DIR]

Needs ``simcord[preview]`` and Debian's ``chromium``. Writes the campaign channel (as a
spectator sees it) and a commander's DM panel, each at 1000 px and 400 px (a phone), to
OUT_DIR (default ``./screenshots``). Nothing here is part of the bot; it is how we look at it.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
import simcord

from bot.client import COGS, SortieBot
from bot.demo import SeededTokens
from bot.runtime import FuncClock, Services, open_services
from bot.service_model import Pace
from engine.ruleset import Decision
from engine.zero.types import Side

# Pictures drawn in this process's threads: the drawing pool's worker processes buy nothing
# for one turn photographed (the old Wings script hung ten minutes starting them).
os.environ.setdefault("SORTIE_DRAW_WORKERS", "0")

EPOCH = datetime(2026, 1, 1, tzinfo=UTC)

WIDTHS = (1000, 400)


async def shoot(url: str, path: Path, width: int, height: int) -> None:
    # The preview is served by this process's event loop: wait for Chromium without
    # blocking it.
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        raise SystemExit("chromium is not installed (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory() as profile:
        process = await asyncio.create_subprocess_exec(
            *[
                browser,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--no-first-run",
                f"--user-data-dir={profile}",
                f"--window-size={width},{height}",
                "--virtual-time-budget=8000",
                f"--screenshot={path}",
                url,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if await asyncio.wait_for(process.wait(), 120) != 0:
            raise SystemExit(f"chromium failed to photograph {url}")


async def photograph(
    env: simcord.Env, channel: object, viewer: object, stem: Path, height: int
) -> None:
    """The channel as ``viewer`` sees it, once per width: ``<stem>-<width>.png``."""
    for width in WIDTHS:
        async with env.preview(
            channel,  # type: ignore[arg-type]
            viewers=[viewer],  # type: ignore[list-item]
            layout="channel",
            display="fixed",
            width=width,
            height=height,
        ) as pv:
            await shoot(pv.url, stem.with_name(f"{stem.name}-{width}.png"), width, height)


@dataclass
class Table:
    """A campaign started in simcord: the bot, its services, the channel and who sits at it."""

    env: simcord.Env
    bot: SortieBot
    services: Services
    campaign_id: int
    channel: Any
    alice_user: Any
    bob_user: Any
    alice: Any
    bob: Any
    spectator: Any


@asynccontextmanager
async def table(
    channel_name: str, scenario: str, sides: tuple[str, str], **create: Any
) -> AsyncIterator[Table]:
    """A server with ``channel_name`` where a GM has started ``scenario``, Alice and Bob
    commanding ``sides``; a spectator watches. The bot has posted all it had to."""
    holder: list[simcord.Env] = []
    clock = FuncClock(lambda: holder[0].now() if holder else EPOCH)
    with tempfile.TemporaryDirectory() as tmp:
        services = await open_services(Path(tmp) / "sortie.db", clock, seeds=SeededTokens(7))
        bot = SortieBot(services=services, cogs=COGS)
        try:
            async with simcord.run(bot) as env:
                holder.append(env)
                guild = env.create_guild()
                channel = guild.create_text_channel(channel_name)
                managers = guild.create_role(
                    "Organisers", permissions=discord.Permissions(manage_guild=True)
                )
                gm = guild.add_member(env.create_user("gm"), roles=[managers])
                alice_user, bob_user = env.create_user("alice"), env.create_user("bob")
                alice, bob = guild.add_member(alice_user), guild.add_member(bob_user)
                spectator = guild.add_member(env.create_user("spectator"))
                svc = services.campaigns
                info = await svc.create_campaign(
                    guild.id, channel.id, gm.id, scenario, Pace(), **create
                )
                await svc.join(info.id, alice.id, sides[0])
                await svc.join(info.id, bob.id, sides[1])
                await svc.start(info.id, gm.id)
                await bot.pump()
                await env.settle()
                yield Table(
                    env, bot, services, info.id, channel, alice_user, bob_user, alice, bob,
                    spectator,
                )  # fmt: skip
        finally:
            await services.close()


async def lock_both(at: Table, pick: Callable[[Decision, Mapping[str, str]], str | None]) -> None:
    """Alice and Bob draft ``pick(decision, drafts)`` in every field (None keeps the draft)
    and lock; the bot posts what follows."""
    svc = at.services.campaigns
    for user in (at.alice, at.bob):
        panel = await svc.panel(at.campaign_id, user.id)
        for decision in panel.decisions:
            value = pick(decision, panel.drafts)
            if value is not None:
                await svc.draft(at.campaign_id, user.id, panel.round_id, decision.field, value)
        await svc.lock(at.campaign_id, user.id, panel.round_id)
    await at.bot.pump()
    await at.env.settle()


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    sides = (Side.JAPANESE.value, Side.ALLIED.value)
    async with table("coral-sea", "coral-sea", sides, seed="screenshots") as at:
        env = at.env
        await photograph(env, at.alice_user.dm_channel, at.alice_user, out / "dm-panel", 1400)
        # Both commanders lock the first legal options: the reveal reaches the channel.
        await lock_both(at, lambda decision, drafts: decision.options[0].id)
        await photograph(env, at.channel, at.spectator, out / "channel", 1800)
    print(f"screenshots in {out}")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1] if len(sys.argv) > 1 else "screenshots")))

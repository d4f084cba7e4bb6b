"""Photograph what players see: one Coral Sea turn played in simcord, shot in Chromium.

    .venv/bin/python scripts/screenshots.py [OUT_DIR]

Needs ``simcord[preview]`` and Debian's ``chromium``. Writes the campaign channel (as a
spectator sees it) and a commander's DM panel, each at 1000 px and 400 px (a phone), to
OUT_DIR (default ``./screenshots``). Nothing here is part of the bot; it is how we look at it.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import discord
import simcord

from bot.client import COGS, SortieBot
from bot.demo import SeededTokens
from bot.runtime import FuncClock, open_services
from bot.service_model import Pace
from engine.zero.types import Side

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


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    holder: list[simcord.Env] = []
    clock = FuncClock(lambda: holder[0].now() if holder else EPOCH)
    with tempfile.TemporaryDirectory() as tmp:
        services = await open_services(Path(tmp) / "sortie.db", clock, seeds=SeededTokens(7))
        bot = SortieBot(services=services, cogs=COGS)
        try:
            async with simcord.run(bot) as env:
                holder.append(env)
                guild = env.create_guild()
                channel = guild.create_text_channel("coral-sea")
                managers = guild.create_role(
                    "Organisers", permissions=discord.Permissions(manage_guild=True)
                )
                gm = guild.add_member(env.create_user("gm"), roles=[managers])
                alice_user, bob_user = env.create_user("alice"), env.create_user("bob")
                alice, bob = guild.add_member(alice_user), guild.add_member(bob_user)
                spectator = guild.add_member(env.create_user("spectator"))
                svc = services.campaigns
                info = await svc.create_campaign(
                    guild.id, channel.id, gm.id, "coral-sea", Pace(), seed="screenshots"
                )
                await svc.join(info.id, alice.id, Side.JAPANESE)
                await svc.join(info.id, bob.id, Side.ALLIED)
                await svc.start(info.id, gm.id)
                await bot.pump()
                await env.settle()
                await photograph(env, alice_user.dm_channel, alice_user, out / "dm-panel", 1400)
                # Both commanders lock the first legal options: the reveal reaches the channel.
                for user in (alice, bob):
                    panel = await svc.panel(info.id, user.id)
                    for decision in panel.decisions:
                        await svc.draft(
                            info.id,
                            user.id,
                            panel.round_id,
                            decision.field,
                            decision.options[0].id,
                        )
                    await svc.lock(info.id, user.id, panel.round_id)
                await bot.pump()
                await env.settle()
                await photograph(env, channel, spectator, out / "channel", 1800)
        finally:
            await services.close()
    print(f"screenshots in {out}")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1] if len(sys.argv) > 1 else "screenshots")))

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
import tempfile
from pathlib import Path

import discord
import simcord

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.client import COGS, SortieBot
from bot.demo import SeededTokens
from bot.runtime import FuncClock, open_services
from bot.service_model import Pace
from scripts.screenshots import EPOCH, photograph


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
    holder: list[simcord.Env] = []
    clock = FuncClock(lambda: holder[0].now() if holder else EPOCH)
    with tempfile.TemporaryDirectory() as tmp:
        services = await open_services(Path(tmp) / "sortie.db", clock, seeds=SeededTokens(7))
        bot = SortieBot(services=services, cogs=COGS)
        try:
            async with simcord.run(bot) as env:
                holder.append(env)
                guild = env.create_guild()
                channel = guild.create_text_channel("western-front")
                managers = guild.create_role(
                    "Organisers", permissions=discord.Permissions(manage_guild=True)
                )
                gm = guild.add_member(env.create_user("gm"), roles=[managers])
                alice_user, bob_user = env.create_user("alice"), env.create_user("bob")
                alice, bob = guild.add_member(alice_user), guild.add_member(bob_user)
                spectator = guild.add_member(env.create_user("spectator"))
                svc = services.campaigns
                info = await svc.create_campaign(
                    guild.id, channel.id, gm.id, "wings-1917", Pace(), ruleset="wings", seed="ux"
                )
                await svc.join(info.id, alice.id, "entente")
                await svc.join(info.id, bob.id, "central")
                await svc.start(info.id, gm.id)
                await bot.pump()
                await env.settle()
                # Alice drafts Albert Ball's program from the menu: the panel's picture shows
                # it flown as a ghost path.
                panel = [m for m in alice_user.dm_channel.history() if m.components][-1]
                program = next(p for p in _options(panel, "plane1") if p.startswith("BL"))
                await alice_user.select(panel, [program], custom_id=_select_id(panel, "plane1"))
                await env.settle()
                await photograph(
                    env, alice_user.dm_channel, alice_user, out / "wings-panel-preview", 3000
                )
                for user in (alice, bob):
                    drafts = await svc.panel(info.id, user.id)
                    for decision in drafts.decisions:
                        if decision.field not in drafts.drafts:
                            await svc.draft(
                                info.id, user.id, drafts.round_id, decision.field,
                                decision.default,
                            )  # fmt: skip
                    await svc.lock(info.id, user.id, drafts.round_id)
                await bot.pump()
                await env.settle()
                await photograph(env, channel, spectator, out / "wings-channel-turn", 2600)
        finally:
            await services.close()
    print(f"screenshots in {out}")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images")))

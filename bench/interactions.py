"""Interaction latency through simcord, as ratios to a no-op slash command in the same run.

Times a DM select (drafting an order), a Lock and ``/status`` with 1 and with 500 live
campaigns in the database, each divided by the median of a no-op command measured in the
same environment, so the figures compare across machines.

    python bench/interactions.py [repetitions, default 15]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord
import simcord
from discord import app_commands
from discord.ext import commands

from bot.client import SortieBot
from bot.demo import SeededTokens
from bot.runtime import FuncClock, open_services
from engine.types import Side

EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
COGS = ("cogs.about", "cogs.campaign", "cogs.orders", "cogs.status")


class Noop(commands.Cog):
    @app_commands.command(name="noop", description="does nothing")
    async def noop(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("ok", ephemeral=True)


class BenchBot(SortieBot):
    async def setup_hook(self) -> None:
        await self.add_cog(Noop())
        await super().setup_hook()


def _ids(message: discord.Message) -> list[str]:
    return [
        child.custom_id
        for row in message.components
        for child in getattr(row, "children", ())
        if getattr(child, "custom_id", None)
    ]


async def timed(call: Any, env: simcord.Env) -> float:
    """Seconds to await ``call`` (a coroutine object) and let the bot finish its work."""
    start = time.perf_counter()
    await call
    await env.settle()
    return time.perf_counter() - start


class NullSender:
    """Marks the background campaigns' announcements delivered without drawing them."""

    def __init__(self) -> None:
        self.next_id = 1

    async def send(self, target: Any, announcement: Any, *, edit_message_id: int | None) -> int:
        self.next_id += 1
        return edit_message_id or self.next_id


async def drain(services: Any) -> None:
    from bot.announce import Announcement
    from bot.outbox import OutboxWorker

    async def build(row: Any) -> Announcement:
        return Announcement(kind=row.kind, text=row.kind)

    worker = OutboxWorker(services.repo, NullSender(), services.clock, builder=build, batch=1000)
    while (await worker.deliver_due()).delivered:
        pass


async def run(live: int, reps: int) -> dict[str, float]:
    holder: list[Any] = []
    clock = FuncClock(lambda: holder[0].now() if holder else EPOCH)
    with tempfile.TemporaryDirectory() as folder:
        services = await open_services(Path(folder) / "bench.db", clock, seeds=SeededTokens(1))
        svc = services.campaigns
        for index in range(live - 1):  # background campaigns in other channels
            info = await svc.create_campaign(1, 10_000 + index, 5, "coral-sea")
            await svc.join(info.id, 20_000 + index, Side.JAPANESE)
            await svc.join(info.id, 30_000 + index, Side.ALLIED)
            await svc.start(info.id, 5)
        await drain(services)
        bot = BenchBot(services=services, cogs=COGS)
        async with simcord.run(bot) as env:
            holder.append(env)
            guild = env.create_guild()

            gm = guild.add_member(env.create_user("gm"))
            players = []
            for _ in range(reps):
                players.append(
                    (
                        env.create_user(f"j{len(players)}"),
                        env.create_user(f"a{len(players)}"),
                    )
                )
            timings: dict[str, list[float]] = {"noop": [], "select": [], "lock": [], "status": []}
            for j_user, a_user in players:
                japanese = guild.add_member(j_user)
                guild.add_member(a_user)
                chan = guild.create_text_channel(f"c-{j_user.name}")
                info = await svc.create_campaign(guild.id, chan.id, gm.id, "coral-sea")
                await svc.join(info.id, japanese.id, Side.JAPANESE)
                await svc.join(info.id, a_user.id, Side.ALLIED)
                await svc.start(info.id, gm.id)
                await bot.pump()
                await env.settle()
                panel = [m for m in j_user.dm_channel.history() if m.components][-1]
                select_id = next(c for c in _ids(panel) if c.endswith(":fleet_tactic"))
                lock_id = next(c for c in _ids(panel) if c.startswith("sortie:lock:"))
                timings["noop"].append(await timed(japanese.slash(chan, "noop"), env))
                timings["select"].append(
                    await timed(j_user.select(panel, ["medium"], custom_id=select_id), env)
                )
                for field, value in (("flight_ops", "none"), ("doctrine", "balanced")):
                    fresh = next(m for m in j_user.dm_channel.history() if m.id == panel.id)
                    cid = next(c for c in _ids(fresh) if c.endswith(f":{field}"))
                    await j_user.select(fresh, [value], custom_id=cid)
                fresh = next(m for m in j_user.dm_channel.history() if m.id == panel.id)
                timings["lock"].append(await timed(j_user.click(fresh, custom_id=lock_id), env))
                timings["status"].append(await timed(japanese.slash(chan, "status"), env))
        await services.close()
    noop = statistics.median(timings["noop"])
    return {name: statistics.median(values) / noop for name, values in timings.items()} | {
        "noop_ms": noop * 1000
    }


def main() -> None:
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    for live in (1, 500):
        result = asyncio.run(run(live, reps))
        print(
            f"{live:>4} live campaign(s): no-op {result['noop_ms']:.1f} ms · "
            f"DM select x{result['select']:.2f} · Lock x{result['lock']:.2f} · "
            f"/status x{result['status']:.2f} (medians of {reps}, ratios to the no-op)"
        )


if __name__ == "__main__":
    main()

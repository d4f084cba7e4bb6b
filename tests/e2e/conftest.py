"""End-to-end fixtures: the real bot in simcord, over services on a temporary SQLite file.

The services' clock reads simcord's virtual time (``env.now()``), so ``env.advance_time``
moves deadlines and reminders too. The services outlive any one bot: a test restarts the
bot with ``env.restart_bot(world.new_bot())`` and the campaign is still there.
"""

from __future__ import annotations

import importlib.util
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

import discord
import pytest
import simcord

from bot.client import SortieBot
from bot.demo import SeededTokens
from bot.runtime import FuncClock, Services, open_services
from bot.service_model import Pace

# simcord's virtual clock starts here (simcord._clock.Clock); the services read it before
# the environment exists (the bot's first pump runs during its start).
SIMCORD_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
OPTIONAL_COGS = (
    "cogs.write",
    "cogs.steps",
    "cogs.campaign",
    "cogs.status",
    "cogs.odds",
    "cogs.dice",
)


def bot_cogs() -> tuple[str, ...]:
    """About and orders, plus the lead's cogs once they exist."""
    extra = tuple(name for name in OPTIONAL_COGS if importlib.util.find_spec(name) is not None)
    return ("cogs.about", "cogs.orders", *extra)


@dataclass
class World:
    """Services shared by every bot generation of one test, and the simcord env once running."""

    services: Services
    env: simcord.Env | None = None
    bots: list[SortieBot] = field(default_factory=list)

    def now(self) -> datetime:
        return self.env.now() if self.env is not None else SIMCORD_EPOCH

    def new_bot(self) -> SortieBot:
        bot = SortieBot(services=self.services, cogs=bot_cogs())
        self.bots.append(bot)
        return bot

    @property
    def bot(self) -> SortieBot:
        assert self.env is not None
        current = self.env.bot
        assert isinstance(current, SortieBot)
        return current

    @asynccontextmanager
    async def running(self) -> AsyncIterator[simcord.Env]:
        """simcord around a new bot, kept as this world's env (the services' clock)."""
        async with simcord.run(self.new_bot()) as env:
            self.env = env
            yield env

    async def pump(self) -> None:
        """What the bot's loop does every 30 s: fire due timers, deliver the outbox."""
        assert self.env is not None
        await self.bot.pump()
        await self.env.settle()


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    holder: list[World] = []
    clock = FuncClock(lambda: holder[0].now() if holder else SIMCORD_EPOCH)
    services = await open_services(tmp_path / "sortie.db", clock, seeds=SeededTokens(7))
    holder.append(World(services))
    try:
        yield holder[0]
    finally:
        await services.close()


@pytest.fixture
def close_dms() -> Callable[[simcord.Env, simcord.UserHandle], None]:
    """Make a user's DMs closed: every bot message to them fails as Discord does (403/50007).

    simcord has no switch for this; its fault injection answers the bot's message POST to
    that user's DM channel with Discord's "Cannot send messages to this user".
    """

    def close(env: simcord.Env, user: simcord.UserHandle) -> None:
        env.inject_error(
            "POST",
            f"/channels/{user.dm_channel.id}/messages",
            status=403,
            code=50007,
            message="Cannot send messages to this user",
            times=None,
        )

    return close


def manager_role(guild: simcord.GuildHandle) -> simcord.RoleHandle:
    """A role with Manage Server: its members may create campaigns (the default setting)."""
    return guild.create_role("Organisers", permissions=discord.Permissions(manage_guild=True))


class Table(NamedTuple):
    """A server with a channel to play in, a GM who may create campaigns, two players (as
    users, for their DMs, and as members) and a spectator."""

    guild: Any
    channel: Any
    gm: Any
    alice_user: Any
    bob_user: Any
    alice: Any
    bob: Any
    spectator: Any


def table(env: simcord.Env, channel: str = "front", gm_name: str = "gm") -> Table:
    guild = env.create_guild()
    room = guild.create_text_channel(channel)
    gm = guild.add_member(env.create_user(gm_name), roles=[manager_role(guild)])
    alice_user, bob_user = env.create_user("alice"), env.create_user("bob")
    alice, bob = guild.add_member(alice_user), guild.add_member(bob_user)
    spectator = guild.add_member(env.create_user("spectator"))
    return Table(guild, room, gm, alice_user, bob_user, alice, bob, spectator)


async def join_and_start(world: World, seats: Table, sides: tuple[str, str]) -> None:
    """Alice and Bob join by /campaign join and the GM starts by /campaign start, as a table
    fills in Discord; then the bot's loop posts the first round."""
    await seats.alice.slash(seats.channel, "campaign join", side=sides[0])
    await seats.bob.slash(seats.channel, "campaign join", side=sides[1])
    await seats.gm.slash(seats.channel, "campaign start")
    await world.pump()


async def open_by_slash(
    world: World,
    seats: Table,
    scenario: str,
    sides: tuple[str, str],
    *,
    ruleset: str,
    seed: str,
    locale: str | None = None,
) -> int:
    """A campaign made through the service (creating it by slash is tested elsewhere), then
    joined and started by slash commands; its id."""
    info = await world.services.campaigns.create_campaign(
        seats.guild.id,
        seats.channel.id,
        seats.gm.id,
        scenario,
        Pace(),
        seed,
        ruleset=ruleset,
        locale=locale,
    )
    await join_and_start(world, seats, sides)
    return info.id


async def gm_creates(
    gm: simcord.MemberActor, channel: simcord.ChannelHandle, **options: str
) -> simcord.InteractionResult:
    """The GM's /campaign new, answered privately with the campaign created."""
    created = await gm.slash(channel, "campaign new", **options)
    assert created.ephemeral and "created" in created.response.content
    return created


async def campaign_over(
    world: World, campaign_id: int, channel: simcord.ChannelHandle, spectator: Any
) -> tuple[str, list[str]]:
    """A finished campaign as the channel shows it to a spectator: it says so and posts the
    after-action report. Returns the channel's text and file names for more checks."""
    status = await world.services.campaigns.status(campaign_id)
    assert status.campaign.status == "finished"
    public = channel.history(viewer=spectator)
    text = "\n".join(m.content for m in public)
    files = [a.filename for m in public for a in m.attachments]
    assert "Campaign over" in text
    assert "after-action.png" in files
    return text, files


def is_disabled(message: discord.Message, custom_id_prefix: str) -> bool:
    """Whether every control whose custom id starts with the prefix is disabled."""
    found = [
        child
        for row in message.components
        for child in getattr(row, "children", ())
        if (getattr(child, "custom_id", None) or "").startswith(custom_id_prefix)
    ]
    assert found, f"no control {custom_id_prefix!r} on the message"
    return all(getattr(child, "disabled", False) for child in found)

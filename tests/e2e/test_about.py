"""The real bot in simcord's in-memory Discord: /sortie about and the error handler."""

from __future__ import annotations

import logging

import discord
import pytest
import simcord
from discord import app_commands
from discord.ext import commands

from bot.client import SortieBot


async def test_about_answers_with_version_and_rulesets() -> None:
    async with simcord.run(SortieBot(cogs=("cogs.about",))) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("campaign")
        alice = guild.add_member(env.create_user("alice"))
        result = await alice.slash(channel, "sortie about")
        assert result.ephemeral
        embed = result.response.embeds[0]
        text = embed.description + " ".join(f.value for f in embed.fields)
        assert "0.1.0" in text
        assert "Coral Sea" in text


class Broken(commands.Cog):
    @app_commands.command(name="broken", description="fails on purpose")
    async def broken(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("boom: secret internals")


async def test_failure_gives_clear_ephemeral_message_and_log_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot = SortieBot(cogs=("cogs.about",))

    async def extra_setup() -> None:
        await bot.add_cog(Broken())

    original = bot.setup_hook

    async def setup_hook() -> None:
        await extra_setup()
        await original()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    caplog.set_level(logging.ERROR, logger="sortie.client")
    async with simcord.run(bot) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("campaign")
        bob = guild.add_member(env.create_user("bob"))
        result = await bob.slash(channel, "broken")
        assert result.ephemeral
        content = result.response.content
        assert "Nothing was changed" in content
        assert "boom" not in content and "Traceback" not in content
        assert channel.last_message is None or "boom" not in channel.last_message.content
        simcord.assert_error(env, RuntimeError, contains="boom")
    records = [r for r in caplog.records if "Command failed" in r.getMessage()]
    assert records
    assert str(result._interaction.id) in records[0].getMessage()

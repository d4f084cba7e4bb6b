"""``/roll``: the game's own dice, rolled by the bot for what is played at the table.

Public on purpose: the roll is posted in the campaign's channel, where the whole table
sees its faces, and kept in the log for ``verify``. A game without dice of its own
refuses it (the service says so).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.dice import MAX_DICE
from bot.logtext import describe
from bot.service_model import ServiceError
from bot.translator import _T
from cogs.common import campaigns, refuse, say


class DiceCog(commands.Cog):
    def __init__(self, client: commands.Bot) -> None:
        self.client = client

    @app_commands.command(
        name="roll", description=_T("Roll the game's dice for the table", key="cmd.roll.desc")
    )
    @app_commands.guild_only()
    @app_commands.describe(dice="how many dice")
    async def roll(
        self, interaction: discord.Interaction[Any], dice: app_commands.Range[int, 1, MAX_DICE]
    ) -> None:
        if interaction.channel_id is None:
            await say(interaction, "cogs.error.guild_only")
            return
        svc = campaigns(interaction)
        info = await svc.campaign_for_channel(interaction.channel_id)
        if info is None or info.status == "finished":
            await say(interaction, "cogs.error.no_campaign")
            return
        try:
            data = await svc.roll(info.id, interaction.user.id, dice)
        except ServiceError as error:
            await refuse(interaction, error)
            return
        # In the campaign's language: the table reads one language in its channel.
        text = describe("dice-rolled", data, info.locale)
        await interaction.response.send_message(
            text[:2000], allowed_mentions=discord.AllowedMentions.none()
        )


async def setup(client: commands.Bot) -> None:
    await client.add_cog(DiceCog(client))

"""``/sortie about``: what the bot is, its version and which rulesets it plays."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import bot
from bot.i18n import t


class About(commands.Cog):
    sortie = app_commands.Group(name="sortie", description="About Sortie and its server settings")

    def __init__(self, client: commands.Bot) -> None:
        self.client = client

    @sortie.command(name="about", description="What Sortie is, its version and its rulesets")
    async def about(self, interaction: discord.Interaction[Any]) -> None:
        loc = interaction.locale
        embed = discord.Embed(title=t("about.title", loc), description=t("about.body", loc))
        embed.add_field(name=t("about.version", loc), value=bot.__version__, inline=True)
        embed.add_field(
            name=t("about.rulesets", loc),
            value=f"{t('about.carrier', loc)}\n{t('about.not_yet', loc)}",
            inline=False,
        )
        embed.add_field(name=t("about.guide", loc), value=t("about.guide_text", loc))
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(client: commands.Bot) -> None:
    await client.add_cog(About(client))

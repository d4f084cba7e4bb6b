"""``/sortie about``: what the bot is, its version and which rulesets it plays."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import bot
from bot.i18n import t
from bot.rulesets import FACTORIES, PLANNED
from cogs.common import campaigns


async def _admin(interaction: discord.Interaction[Any]) -> discord.Member | None:
    """The member running a server setting, if he may (Administrator or Manage Server, in a
    server); else he is told he may not, and None."""
    member = interaction.user
    allowed = isinstance(member, discord.Member) and (
        member.guild_permissions.administrator or member.guild_permissions.manage_guild
    )
    if not allowed or interaction.guild_id is None:
        await interaction.response.send_message(
            t("cogs.error.not_admin", interaction.locale), ephemeral=True
        )
        return None
    assert isinstance(member, discord.Member)
    return member


class About(commands.Cog):
    sortie = app_commands.Group(name="sortie", description="About Sortie and its server settings")
    config = app_commands.Group(
        name="config", description="Server settings for Sortie", parent=sortie, guild_only=True
    )

    def __init__(self, client: commands.Bot) -> None:
        self.client = client

    @sortie.command(name="about", description="What Sortie is, its version and its rulesets")
    async def about(self, interaction: discord.Interaction[Any]) -> None:
        loc = interaction.locale
        embed = discord.Embed(title=t("about.title", loc), description=t("about.body", loc))
        embed.add_field(name=t("about.version", loc), value=bot.__version__, inline=True)
        lines = [t(f"about.ruleset.{key}", loc) for key in FACTORIES]
        planned = [key for key in PLANNED if key not in FACTORIES]
        if planned:
            lines.append(t("about.not_yet", loc, rulesets=", ".join(planned)))
        embed.add_field(name=t("about.rulesets", loc), value="\n".join(lines), inline=False)
        embed.add_field(name=t("about.guide", loc), value=t("about.guide_text", loc))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @config.command(name="gm-role", description="Members of this role may run campaigns (admins)")
    @app_commands.describe(role="the GM role; leave empty to clear it")
    async def gm_role(
        self, interaction: discord.Interaction[Any], role: discord.Role | None = None
    ) -> None:
        member = await _admin(interaction)
        if member is None or interaction.guild_id is None:
            return
        await campaigns(interaction).set_gm_role(
            interaction.guild_id, role.id if role else None, by=member.id
        )
        key = "cogs.config.gm_role_set" if role else "cogs.config.gm_role_cleared"
        await interaction.response.send_message(
            t(key, interaction.locale, role=role.mention if role else ""),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @config.command(name="creators", description="Who may create campaigns here (admins)")
    @app_commands.describe(who="gm: Manage Server or the GM role (default); everyone: any member")
    @app_commands.choices(
        who=[
            app_commands.Choice(name="gm", value="gm"),
            app_commands.Choice(name="everyone", value="everyone"),
        ]
    )
    async def creators(self, interaction: discord.Interaction[Any], who: str) -> None:
        member = await _admin(interaction)
        if member is None or interaction.guild_id is None:
            return
        await campaigns(interaction).set_creators(interaction.guild_id, who, by=member.id)
        await interaction.response.send_message(
            t(f"cogs.config.creators_{who}", interaction.locale), ephemeral=True
        )


async def setup(client: commands.Bot) -> None:
    await client.add_cog(About(client))

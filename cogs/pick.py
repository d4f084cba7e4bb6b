"""Which campaign a reading command is about: the ``campaign`` option, or this channel's.

``/status``, ``/log``, ``/campaign info`` and ``/campaign export`` read finished campaigns
as well as running ones. A number typed in the option must name a campaign of this server
whose channel the reader can see; anything else gets the same refusal, so nothing about
other servers or hidden channels is learnt. Only public things are shown through here (the
status board's public view, the log, the card); the export stays the GM's.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.i18n import t
from bot.limits import clip
from bot.service_model import CampaignInfo, ServiceError
from cogs.common import campaigns, locale, say
from rendering.text import scenario_name as localized_scenario

# The optional campaign of /status, /log, /campaign info and /campaign export: any of the
# server's, by its number (``campaign_choices`` completes it), said one way everywhere.
OTHER_CAMPAIGN = "another campaign of this server, running or finished (default: this channel's)"
CampaignNumber = app_commands.Range[int, 1, 2**53]

CHOICE_LIMIT = 25  # Discord shows at most 25 completions


def _member(interaction: discord.Interaction[Any]) -> discord.Member | None:
    user = interaction.user
    return user if isinstance(user, discord.Member) else None


def visible_channels(interaction: discord.Interaction[Any]) -> set[int] | None:
    """The channel and thread ids the reader may read; ``None`` when they may read all.

    Server managers see every campaign, also those whose channel was deleted since.
    """
    member, guild = _member(interaction), interaction.guild
    if member is None or guild is None:
        return set()
    perms = member.guild_permissions
    if perms.administrator or perms.manage_guild:
        return None
    places: list[Any] = [*guild.channels, *guild.threads]
    return {place.id for place in places if place.permissions_for(member).read_messages}


def _sees(interaction: discord.Interaction[Any], channel_id: int) -> bool:
    visible = visible_channels(interaction)
    return visible is None or channel_id in visible


async def chosen_campaign(
    interaction: discord.Interaction[Any], campaign_id: int | None
) -> CampaignInfo | None:
    """The campaign the command reads, or an ephemeral refusal and ``None``.

    Without the option: this channel's live campaign, else the last one that finished here.
    """
    if interaction.channel_id is None or interaction.guild_id is None:
        await say(interaction, "cogs.error.guild_only")
        return None
    svc = campaigns(interaction)
    if campaign_id is None:
        info = await svc.campaign_for_channel(interaction.channel_id)
        if info is None:
            await say(interaction, "cogs.error.no_campaign")
        return info
    info = await svc.campaign_in_guild(campaign_id, interaction.guild_id)
    if info.channel_id != interaction.channel_id and not _sees(interaction, info.channel_id):
        raise ServiceError("foreign-campaign", campaign=campaign_id)
    return info


async def component_campaign(
    interaction: discord.Interaction[Any], campaign_id: int
) -> CampaignInfo | None:
    """The campaign a reading button names (a log page), with the option's checks."""
    return await chosen_campaign(interaction, campaign_id)


def note(info: CampaignInfo, interaction: discord.Interaction[Any]) -> str | None:
    """A line saying which campaign this is, when it is not simply the channel's live one."""
    loc = locale(interaction)
    name = scenario_name(interaction, info)
    if info.status == "finished":
        when = int((info.ended_at or info.created_at).timestamp())
        return t("archive.note.finished", loc, id=info.id, scenario=name, when=when)
    if info.channel_id != interaction.channel_id:
        return t("archive.note.other", loc, id=info.id, scenario=name, channel=info.channel_id)
    return None


def scenario_name(interaction: discord.Interaction[Any], info: Any) -> str:
    """The campaign's scenario in the reader's language ("Mer de Corail" in French)."""
    rulesets = campaigns(interaction).rulesets
    if info.ruleset in rulesets:
        found = rulesets.get(info.ruleset).rules.scenarios().get(info.scenario)
        if found is not None:
            return localized_scenario(str(info.scenario), str(found.name), locale(interaction))
    return str(info.scenario)


async def campaign_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[int]]:
    """This server's campaigns the reader can see, newest first, matching what is typed."""
    if interaction.guild_id is None:
        return []
    loc = locale(interaction)
    typed = current.strip().lower().lstrip("#")
    guild = interaction.guild
    found = await campaigns(interaction).campaign_choices(
        interaction.guild_id, visible_channels(interaction)
    )
    out: list[app_commands.Choice[int]] = []
    for item in found:
        place = guild.get_channel_or_thread(item.channel_id) if guild else None
        channel = place.name if place is not None else t("archive.choice.unknown_channel", loc)
        name = t(
            "archive.choice.line",
            loc,
            id=item.id,
            scenario=scenario_name(interaction, item),
            status=t(f"service.status.{item.status}", loc),
            channel=channel,
        )
        if typed and typed not in name.lower() and typed != str(item.id):
            continue
        out.append(app_commands.Choice(name=clip(name, 100), value=item.id))
        if len(out) == CHOICE_LIMIT:
            break
    return out

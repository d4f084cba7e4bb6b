"""What every cog shares: reaching the services, refusing clearly, knowing who is a GM."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.client import answer_in, refusal, send_ephemeral
from bot.i18n import t
from bot.limits import clip
from bot.service_model import CampaignInfo, ServiceError

log = logging.getLogger("sortie.cogs")


if TYPE_CHECKING:
    from bot.runtime import Services
    from bot.service import CampaignService


def services(interaction: discord.Interaction[Any]) -> Services:
    found = getattr(interaction.client, "services", None)
    if found is None:
        raise RuntimeError("Sortie's services are not running")
    return found  # type: ignore[no-any-return]


def campaigns(interaction: discord.Interaction[Any]) -> CampaignService:
    return services(interaction).campaigns


def locale(interaction: discord.Interaction[Any]) -> str:
    from bot.i18n import normalize

    return normalize(interaction.locale)


async def refuse(
    interaction: discord.Interaction[Any], error: ServiceError, loc: str | None = None
) -> None:
    """A service refusal: one ephemeral sentence, nothing changed.

    For a cog that answers more than the sentence (a panel closed, redrawn); a plain refusal
    is raised instead and answered by the one handler (``bot.client``, ``guarded``). ``loc``:
    as ``answer_in``.
    """
    if loc is not None:
        answer_in(interaction, loc)
    await send_ephemeral(interaction, refusal(interaction, error))


def _quoted(params: dict[str, Any]) -> dict[str, Any]:
    """Typed values quoted back clipped: a 6,000-character option would make the answer
    longer than Discord delivers, and the user would get no answer at all."""
    return {
        name: clip(value) if isinstance(value, str) else value for name, value in params.items()
    }


async def say(interaction: discord.Interaction[Any], key: str, **params: Any) -> None:
    await send_ephemeral(interaction, t(key, interaction.locale, **_quoted(params)))


async def say_in(interaction: discord.Interaction[Any], loc: str, key: str, **params: Any) -> None:
    """Like ``say``, in the campaign's language (see ``refuse``)."""
    await send_ephemeral(interaction, t(key, loc, **_quoted(params)))


def role_ids(interaction: discord.Interaction[Any]) -> tuple[int, ...]:
    """The member's role ids, plus ``ADMIN_ROLE`` for a server administrator (a GM anywhere)."""
    from bot.service_model import ADMIN_ROLE

    member = interaction.user
    if not isinstance(member, discord.Member):
        return ()
    roles = tuple(role.id for role in member.roles)
    return (*roles, ADMIN_ROLE) if member.guild_permissions.administrator else roles


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    member = interaction.user
    return isinstance(member, discord.Member) and member.guild_permissions.administrator


async def campaign_here(interaction: discord.Interaction[Any]) -> CampaignInfo | None:
    """The live campaign of this channel, or an ephemeral "none here" and ``None``."""
    if interaction.channel_id is None or interaction.guild_id is None:
        await say(interaction, "cogs.error.guild_only")
        return None
    info = await campaigns(interaction).campaign_in_channel(interaction.channel_id)
    if info is None:
        await say(interaction, "cogs.error.no_campaign")
    return info


def thread_parent(interaction: discord.Interaction[Any], info: CampaignInfo) -> int | None:
    """The parent channel of the campaign's thread (where its card is), if it runs in one."""
    guild = interaction.guild
    thread = guild.get_thread(info.channel_id) if guild is not None else None
    return thread.parent_id if thread is not None else None


async def campaign_of_component(
    interaction: discord.Interaction[Any], campaign_id: int
) -> CampaignInfo | None:
    """The campaign a button or select names, if it belongs where it was clicked.

    A custom id can be forged: a click in a server must name a campaign of that server's
    channel, or it is answered as if no such campaign existed (DM panels are checked by the
    service, which only answers the campaign's own players).
    """
    info = await campaigns(interaction).info(campaign_id)
    if interaction.guild_id is not None and (
        info.guild_id != interaction.guild_id
        or interaction.channel_id not in (info.channel_id, thread_parent(interaction, info))
    ):
        log.warning(
            "component for campaign %s clicked elsewhere (interaction %s)",
            campaign_id,
            interaction.id,
        )
        await say(interaction, "cogs.error.no_campaign")
        return None
    answer_in(interaction, info.locale)  # the card's or panel's language from here on
    return info


async def edit_message(interaction: discord.Interaction[Any], **fields: Any) -> None:
    """Edit the clicked message: as the answer itself, or after a deferral."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**fields)
    else:
        await interaction.response.edit_message(**fields)


async def pump(interaction: discord.Interaction[Any]) -> None:
    """Deliver at once what the action just queued, instead of at the next loop tick."""
    client = interaction.client
    pump_now = getattr(client, "pump", None)
    if pump_now is not None:
        await pump_now()


async def guarded(interaction: discord.Interaction[Any], work: Any) -> None:
    """Run a component callback; an unexpected failure is logged and answered, never silent.

    Buttons and selects do not pass through the command tree's error handler, so each
    callback goes through here instead, a service refusal answered as the handler does.
    """
    try:
        await work
    except ServiceError as error:
        await refuse(interaction, error)
    except Exception:
        log.exception("Component callback failed (interaction %s)", interaction.id)
        await say(interaction, "error.unexpected", ref=str(interaction.id))

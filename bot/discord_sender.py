"""The outbox's way into Discord: post or edit a channel message, or DM a player.

``DiscordSender`` implements ``bot.outbox.Sender``. It knows Discord's limits and nothing
of the game: the text is cut to 2,000 characters, images become attachments (at most 10,
and none past 10 MiB in total, the rest dropped with a log line since the text beside every
image already summarises it). A DM order panel arrives composed (``bot.panel``); its
controls come from what the orders cog registered in ``bot.controls``, next to the
callbacks that answer them, so the bot never imports a cog.

Errors: a DM that Discord refuses because the user does not accept DMs from us (HTTP 403,
code 50007) raises ``RecipientUnavailable``, so the worker records the player as
unreachable and tells the channel instead of retrying. Every other failure propagates and
the worker retries it later. An edit whose message was deleted posts a new message (the
worker then records the new id).
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from bot import controls
from bot.announce import Announcement
from bot.outbox import RecipientUnavailable, Target

log = logging.getLogger(__name__)

TEXT_LIMIT = 2000
MAX_FILES = 10
ALT_LIMIT = 1024
MAX_UPLOAD = 10 * 1024 * 1024  # bytes, all attachments of one message together
CANNOT_DM = 50007  # "Cannot send messages to this user"
# A campaign run in a thread shows its card and its result in the thread's parent channel,
# where the server sees them; the rounds stay in the thread. The result goes to both.
PARENT_KINDS = frozenset({"campaign-card", "campaign-ended"})
UNKNOWN_MESSAGE = 10008


def clip(text: str, limit: int = TEXT_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def attachments(
    images: list[tuple[str, bytes]], alt: dict[str, str] | None = None
) -> list[discord.File]:
    """The images as files, within Discord's count and size limits (in order, first kept)."""
    files: list[discord.File] = []
    total = 0
    for name, data in images:
        if len(files) >= MAX_FILES or total + len(data) > MAX_UPLOAD:
            log.warning("image %s (%d bytes) left out: over Discord's limits", name, len(data))
            continue
        total += len(data)
        # Discord keeps at most 1024 characters of an attachment's description.
        described = (alt or {}).get(name) or None
        files.append(
            discord.File(
                io.BytesIO(data),
                filename=name,
                description=clip(described, ALT_LIMIT) if described else None,
            )
        )
    return files


def allowed(announcement: Announcement) -> discord.AllowedMentions:
    """Exactly the users the announcement means to ping; never everyone, a role or a reply."""
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        users=[discord.Object(id=user) for user in announcement.mentions],
        replied_user=False,
    )


async def _pin(message: discord.Message) -> None:
    """Pin a new campaign card so players find it; without Manage Messages it stays unpinned.

    A refused pin must not fail the delivery: the card is posted, and retrying the row would
    post it again.
    """
    try:
        await message.pin(reason="Sortie campaign card")
    except discord.HTTPException as exc:
        log.warning("campaign card %s not pinned: %s", message.id, exc)


class DiscordSender:
    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def send(
        self, target: Target, announcement: Announcement, *, edit_message_id: int | None
    ) -> int | None:
        content = clip(announcement.text) or "\u200b"
        view: discord.ui.View | None = None
        registered = controls.of(self.client)
        if announcement.panel is not None and registered.panel is not None:
            view = registered.panel(announcement.panel)
        elif announcement.kind == "dm-panel":
            view = discord.ui.View()  # a closed round's panel: its controls are removed
        elif (
            announcement.kind == "campaign-card"
            and target.campaign_id is not None
            and registered.card is not None
        ):
            view = await registered.card(target.campaign_id)
        channel = await self._channel(target)
        parent = getattr(channel, "parent", None) if isinstance(channel, discord.Thread) else None
        if parent is not None and announcement.kind in PARENT_KINDS:
            if announcement.kind == "campaign-card":
                channel = parent
            elif edit_message_id is None:
                await parent.send(
                    content,
                    files=attachments(announcement.images, announcement.alt),
                    allowed_mentions=allowed(announcement),
                )
        try:
            if edit_message_id is not None:
                edited = await self._edit(channel, edit_message_id, content, announcement, view)
                if edited is not None:
                    return edited
            kwargs: dict[str, Any] = {
                "files": attachments(announcement.images, announcement.alt),
                "allowed_mentions": allowed(announcement),
            }
            if view is not None:
                kwargs["view"] = view
            if target.outbox_id is not None:
                # A row re-sent after a crash between posting and recording it: discord.py
                # sends the nonce with enforce_nonce, so Discord answers with the message it
                # already made for it (within its dedupe window) instead of a second post.
                kwargs["nonce"] = f"sortie-{target.outbox_id}"
            message = await channel.send(content, **kwargs)
        except discord.Forbidden as exc:
            if target.kind == "dm" and exc.code == CANNOT_DM:
                raise RecipientUnavailable(f"user {target.id} does not accept DMs") from exc
            raise
        if announcement.kind == "campaign-card":
            await _pin(message)
        return message.id

    async def _channel(self, target: Target) -> discord.abc.Messageable:
        if target.kind == "dm":
            return await self.client.create_dm(discord.Object(id=target.id))
        channel = self.client.get_channel(target.id)
        if channel is None:
            channel = await self.client.fetch_channel(target.id)
        if not isinstance(channel, discord.abc.Messageable):
            raise TypeError(f"channel {target.id} cannot receive messages")
        return channel

    async def _edit(
        self,
        channel: discord.abc.Messageable,
        message_id: int,
        content: str,
        announcement: Announcement,
        view: discord.ui.View | None,
    ) -> int | None:
        """Edit in place; None if the message is gone (the caller posts a new one)."""
        get_partial = getattr(channel, "get_partial_message", None)
        if get_partial is None:
            return None
        partial: discord.PartialMessage = get_partial(message_id)
        kwargs: dict[str, Any] = {
            "content": content,
            "attachments": attachments(announcement.images, announcement.alt),
            "allowed_mentions": allowed(announcement),
        }
        if view is not None:
            kwargs["view"] = view
        try:
            await partial.edit(**kwargs)
        except discord.NotFound as exc:
            if exc.code != UNKNOWN_MESSAGE:
                raise
            log.info("message %s was deleted; posting a new one", message_id)
            return None
        return message_id

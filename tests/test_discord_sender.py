"""What the Discord sender asks of Discord: whom to ping, and a nonce that makes a re-sent
outbox row land once."""

from __future__ import annotations

from typing import Any

import discord

from bot.announce import Announcement
from bot.discord_sender import DiscordSender
from bot.outbox import Target


class _Channel(discord.abc.Messageable):
    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    async def _get_channel(self) -> Any:  # pragma: no cover - never reached
        return self

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:  # type: ignore[override]
        self.calls.append({"content": content, **kwargs})
        return discord.Object(id=4242)


class _Client:
    def __init__(self, channel: _Channel) -> None:
        self.channel = channel

    def get_channel(self, channel_id: int) -> _Channel:
        return self.channel


async def test_a_post_pings_only_its_users_and_carries_the_rows_nonce() -> None:
    channel = _Channel()
    sender = DiscordSender(_Client(channel))  # type: ignore[arg-type]
    announcement = Announcement("reminder", "@everyone <@1> <@2> lock!", mentions=(2,))
    for _ in range(2):  # the same row, sent again after a crash
        await sender.send(Target("channel", 5, 9, outbox_id=77), announcement, edit_message_id=None)
    first, second = channel.calls
    assert first["nonce"] == second["nonce"] == "sortie-77"
    allowed = first["allowed_mentions"].to_dict()
    assert allowed["parse"] == [] and allowed["users"] == [2]
    assert "replied_user" not in allowed or allowed["replied_user"] is False

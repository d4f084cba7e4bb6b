"""The campaign card is pinned where the campaign is played, so players can find it again."""

from __future__ import annotations

import discord
import simcord

from bot.service_model import Pace
from tests.e2e.conftest import World
from tests.e2e.test_orders import open_table


async def test_the_campaign_card_is_pinned_in_its_channel(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        # Joins and the start edit the card in place: still one pinned message, the card.
        pinned = table.channel.pinned_messages()
        assert len(pinned) == 1
        assert "Coral Sea" in pinned[0].content and "GM" in pinned[0].content


async def test_without_manage_messages_the_card_is_posted_unpinned(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        bot_user = world.bots[-1].user
        assert bot_user is not None
        plain = table.guild.create_text_channel(
            "no-pins",
            overwrites={bot_user: discord.PermissionOverwrite(manage_messages=False)},
        )
        info = await world.services.campaigns.create_campaign(
            table.guild.id, plain.id, table.gm.id, "midway", Pace(), seed="unpinned"
        )
        await world.pump()
        assert plain.pinned_messages() == []
        cards = [m for m in plain.history() if "Midway" in m.content]
        assert cards, "the card must still be posted"
        async with world.services.repo.read() as tx:
            outbox = await tx.outbox(info.id)
        # A refused pin does not fail the delivery (a retry would post the card twice).
        assert outbox and all(row.status == "delivered" for row in outbox)

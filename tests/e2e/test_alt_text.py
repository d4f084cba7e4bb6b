"""Pictures are described in their alt text, not in an extra line of every message."""

from __future__ import annotations

import simcord

from tests.e2e.conftest import World
from tests.e2e.test_orders import dm_panel, open_table


async def test_boards_and_panels_carry_their_description_as_alt_text(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        boards = [m for m in table.channel.history() if m.attachments]
        assert boards, "the round message shows the status board"
        for message in boards:
            assert "Image:" not in message.content
            described = [a.description or "" for a in message.attachments]
            assert all("status board" in text and "VP" in text for text in described)

        panel = dm_panel(table.alice_user)
        assert panel.attachments and "Image:" not in panel.content
        alt = panel.attachments[0].description or ""
        assert "order panel" in alt and "resources left" in alt

        status = await table.spectator.slash(table.channel, "status")
        shown = status.response.attachments[0].description or ""
        assert "status board" in shown and "Image:" not in status.response.content

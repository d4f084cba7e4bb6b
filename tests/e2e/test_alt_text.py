"""Pictures are described in their alt text, not in an extra line of every message."""

from __future__ import annotations

from tests.e2e.conftest import World
from tests.e2e.test_orders import (
    ALLIED,
    JAPANESE,
    PICKS,
    choose,
    choose_all,
    dm_panel,
    lock,
    open_table,
)


async def test_boards_and_panels_carry_their_description_as_alt_text(world: World) -> None:
    async with world.running() as env:
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


async def test_reveals_and_strike_reports_are_described_in_alt_text(world: World) -> None:
    async with world.running() as env:
        table = await open_table(world, env)
        for side in (JAPANESE, ALLIED):
            user = table.user(side)
            await choose_all(user, dm_panel(user), PICKS[side])
            await lock(user, dm_panel(user))
        for side in (JAPANESE, ALLIED):
            user = table.user(side)
            await choose(user, dm_panel(user), "resource", "15")
            await lock(user, dm_panel(user))

        pictures = {a.filename: a for m in table.channel.history() for a in m.attachments}
        reveals = [a for name, a in pictures.items() if name.startswith("reveal-")]
        strikes = [a for name, a in pictures.items() if name.startswith("strike-")]
        assert len(reveals) == 2 and strikes, sorted(pictures)
        for picture in reveals:
            alt = picture.description or ""
            # What the picture shows, in words: both sides' revealed choices.
            assert alt.startswith("Image: the orders revealed — Japanese"), alt
            assert "Allied" in alt and "**" not in alt
        orders = next(a for a in reveals if a.filename.endswith("orders.png"))
        assert "Medium Range" in (orders.description or "")
        for picture in strikes:
            alt = picture.description or ""
            assert alt.startswith("Image: report — Strike"), alt
        for message in table.channel.history():
            assert "Image:" not in message.content

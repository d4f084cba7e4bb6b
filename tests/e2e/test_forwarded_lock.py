"""A Lock clicked on the other side's panel (a forwarded copy of its DM, or a client sending
its ids) is refused in words the clicker understands, and locks nothing: not the panel's
side, which is not his, nor his own side, whose orders stand ready but were not his click."""

from __future__ import annotations

import simcord

from tests.e2e.conftest import World
from tests.e2e.test_orders import (
    ALLIED,
    JAPANESE,
    PICKS,
    choose_all,
    control,
    dm_panel,
    forge,
    open_table,
    refreshed,
    refusal,
)


async def test_lock_on_the_other_sides_panel_locks_nothing(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        svc = world.services.campaigns
        for side in (JAPANESE, ALLIED):  # both sides ready: any Lock would go through
            await choose_all(table.user(side), dm_panel(table.user(side)), PICKS[side])
        japanese_lock = control(
            refreshed(table.alice_user, dm_panel(table.alice_user)), "sortie:lock:"
        )
        before = table.public_text()

        # Bob clicks the Lock of Alice's panel: his client holds her panel's controls.
        panel = refreshed(table.bob_user, dm_panel(table.bob_user))
        own_lock = control(panel, "sortie:lock:")
        forge(env, panel, own_lock, new_custom_id=japanese_lock)
        result = await table.bob_user.click(panel, custom_id=japanese_lock)
        said = refusal(result)
        assert said == (
            "This panel belongs to the Japanese side and you play Allied. Nothing was changed:"
            " /orders in the campaign channel shows your own panel."
        )
        await world.pump()
        for user in (table.alice, table.bob):
            assert not (await svc.panel(table.campaign_id, user.id)).locked
        assert table.public_text() == before  # no receipt, no "locked" in the round message
        # His own Lock on the same panel does lock his side: the refusal was the side's.
        forge(env, panel, japanese_lock, new_custom_id=own_lock)
        result = await table.bob_user.click(panel, custom_id=own_lock)
        assert result.acknowledged
        assert (await svc.panel(table.campaign_id, table.bob.id)).locked
        assert not (await svc.panel(table.campaign_id, table.alice.id)).locked

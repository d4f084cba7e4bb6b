"""Pearl Harbor solitaire as a player lives it in Discord: the GM creates it, one player
joins, plans each wave in the DM panel (a target per strike group), locks, and reads the
wave reports and the result; a French table gets a French panel."""

from __future__ import annotations

import simcord

from bot.export import verify_export
from tests.e2e.conftest import World, campaign_over, gm_creates, table
from tests.e2e.test_orders import control, dm_panel, lock, open_table, options, refreshed


async def _plan_wave(user: simcord.UserHandle, turn: int) -> None:
    """Pick the first legal option of every select of this wave's panel, then Lock."""
    panel = dm_panel(user, f"Turn {turn}")
    fields = [
        c.custom_id.rsplit(":", 1)[1]
        for row in panel.components
        for c in getattr(row, "children", ())
        if (getattr(c, "custom_id", None) or "").startswith("sortie:o:")
    ]
    assert fields, "the wave panel offers choices"
    for field in fields:
        value = options(panel, field)[0].value
        result = await user.select(
            panel, [value], custom_id=control(panel, "sortie:o:", f":{field}")
        )
        assert result.acknowledged
        panel = refreshed(user, panel)
    assert (await lock(user, panel)).acknowledged


async def test_a_whole_pearl_harbor_game_through_discord(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        world.env = env
        seats = table(env, "pearl")
        channel, gm, spectator = seats.channel, seats.gm, seats.spectator
        genda_user, genda = seats.alice_user, seats.alice
        await gm_creates(gm, channel, ruleset="pearl-harbor", scenario="pearl-harbor")
        await world.pump()
        await genda.slash(channel, "campaign join", side="japanese")
        started = await gm.slash(channel, "campaign start")
        assert started.ephemeral
        await world.pump()
        service = world.services.campaigns
        info = await service.campaign_in_channel(channel.id)
        assert info is not None and info.ruleset == "pearl-harbor"
        for _ in range(6):
            status = await service.status(info.id)
            if status.campaign.status == "finished":
                break
            assert status.round is not None
            await _plan_wave(genda_user, status.round.turn)
            await world.pump()
        await campaign_over(world, info.id, channel, spectator)
        check = verify_export(await service.export(info.id))
        assert check.ok and check.replayed, check.problems


async def test_a_french_pearl_harbor_table_gets_a_french_panel(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        french = await open_table(
            world, env, scenario="pearl-harbor", ruleset="pearl-harbor", seed="fr", locale="fr",
            sides=("japanese",),
        )  # fmt: skip
        user = french.alice_user
        panel = dm_panel(user)
        assert "Vos ordres" in panel.content and "Tour 1" in panel.content
        assert "Your orders" not in panel.content

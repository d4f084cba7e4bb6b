"""Pearl Harbor solitaire as a player lives it in Discord: the GM creates it, one player
joins, plans each wave in the DM panel (a target per strike group), locks, and reads the
wave reports and the result; a French table gets a French panel."""

from __future__ import annotations

import simcord

from bot.export import verify_export
from bot.service_model import Pace
from tests.e2e.conftest import World, manager_role
from tests.e2e.test_orders import control, dm_panel, lock, options, refreshed


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
        guild = env.create_guild()
        channel = guild.create_text_channel("pearl")
        gm = guild.add_member(env.create_user("gm"), roles=[manager_role(guild)])
        genda_user = env.create_user("genda")
        genda = guild.add_member(genda_user)
        spectator = guild.add_member(env.create_user("spectator"))
        created = await gm.slash(
            channel, "campaign new", ruleset="pearl-harbor", scenario="pearl-harbor"
        )
        assert "created" in created.response.content.lower()
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
        status = await service.status(info.id)
        assert status.campaign.status == "finished"
        public = channel.history(viewer=spectator)
        text = "\n".join(m.content for m in public)
        files = [a.filename for m in public for a in m.attachments]
        assert "Campaign over" in text
        assert "after-action.png" in files
        check = verify_export(await service.export(info.id))
        assert check.ok and check.replayed, check.problems


async def test_a_french_pearl_harbor_table_gets_a_french_panel(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        world.env = env
        guild = env.create_guild()
        channel = guild.create_text_channel("pearl-fr")
        gm = guild.add_member(env.create_user("mj"))
        user = env.create_user("fuchida")
        member = guild.add_member(user)
        svc = world.services.campaigns
        info = await svc.create_campaign(
            guild.id,
            channel.id,
            gm.id,
            "pearl-harbor",
            Pace(),
            seed="fr",
            locale="fr",
            ruleset="pearl-harbor",
        )
        await svc.join(info.id, member.id, "japanese")
        await svc.start(info.id, gm.id)
        await world.pump()
        panel = dm_panel(user)
        assert "Vos ordres" in panel.content and "Tour 1" in panel.content
        assert "Your orders" not in panel.content

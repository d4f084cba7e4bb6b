"""The Wings channel as a spectator reads it in Discord (ux-wings4): a turn without a
pursuit ends on a round nobody decides in, which posts nothing of its own; the turn's end
says what happened and carries the receipts it opened."""

from __future__ import annotations

import simcord

from bot.service_model import Pace
from tests.e2e.conftest import World, manager_role


async def test_a_turn_without_a_pursuit_reads_as_one_round(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        world.env = env
        guild = env.create_guild()
        channel = guild.create_text_channel("front")
        gm = guild.add_member(env.create_user("gm"), roles=[manager_role(guild)])
        alice_user, bob_user = env.create_user("alice"), env.create_user("bob")
        alice, bob = guild.add_member(alice_user), guild.add_member(bob_user)
        spectator = guild.add_member(env.create_user("spectator"))
        service = world.services.campaigns
        await service.create_campaign(
            guild.id, channel.id, gm.id, "wings-1917", Pace(), ruleset="wings", seed="ux"
        )
        await alice.slash(channel, "campaign join", side="entente")
        await bob.slash(channel, "campaign join", side="central")
        await gm.slash(channel, "campaign start")
        await world.pump()
        info = await service.campaign_in_channel(channel.id)
        assert info is not None
        for member in (alice, bob):  # every field at its default
            panel = await service.panel(info.id, member.id)
            for decision in panel.decisions:
                await service.draft(
                    info.id, member.id, panel.round_id, decision.field, decision.default
                )
            await service.lock(info.id, member.id, panel.round_id)
        await world.pump()
        texts = [m.content for m in channel.history(viewer=spectator)]
        assert not [text for text in texts if "Tailing reorder" in text], texts
        end = next(text for text in texts if text.startswith("**End of turn 1**"))
        assert end.split("\n")[1] == "This turn — planes down: Entente 1"
        assert "• Entente Programs: salt" in end and "• Central Powers Programs: salt" in end
        # Turn 1's programs: one round message, one reveal, the end; then turn 2 opens.
        heads = [text.split("\n")[0] for text in texts if "Turn 1" in text or "turn 1" in text]
        assert heads == [
            "**Turn 1/27 · Programs** — revealed",
            "**Turn 1 · Programs revealed**",
            "**End of turn 1**",
        ], heads

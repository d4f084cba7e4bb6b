"""Hostile members through Discord: pings smuggled in a reason, forged join buttons from
another server, a GM demoted between the question and Confirm, campaign creation."""

from __future__ import annotations

import simcord

from tests.e2e.conftest import World, manager_role
from tests.e2e.test_orders import custom_ids, forge, gm_button, open_table, refusal


async def test_a_reason_never_pings_anyone(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        role = table.guild.create_role("Everyone-ish", mentionable=False)
        reason = f"@everyone <@&{role.id}> {table.spectator.mention} game over"
        asked = await table.gm.slash(table.channel, "campaign end", reason=reason)
        await table.gm.click(asked.response, custom_id=gm_button(asked))
        await world.pump()
        posted = [
            env.backend.get_message(table.channel.id, m.id)
            for m in table.channel.history()
            if "game over" in m.content
        ]
        assert posted, "the reason is shown in the channel"
        for message in posted:
            assert not message.mention_everyone
            assert message.ping_user_ids in ([], [table.gm.id])
            assert table.spectator.id not in message.ping_user_ids


async def test_a_join_button_forged_for_another_server_changes_nothing(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        other = env.create_guild()
        other_channel = other.create_text_channel("elsewhere")
        mallory = other.add_member(env.create_user("mallory"), roles=[manager_role(other)])
        created = await mallory.slash(other_channel, "campaign new", scenario="midway")
        assert "created" in created.response.content.lower()
        await world.pump()
        card = next(m for m in other_channel.history() if m.components)
        own = next(c for c in custom_ids(card) if c.startswith("sortie:join:"))
        # The tampered client points its own card's button at the first server's campaign.
        forged = f"sortie:join:{table.campaign_id}:japanese"
        forge(env, card, own, new_custom_id=forged)
        result = await mallory.click(card, custom_id=forged)
        assert "no campaign" in refusal(result).lower()
        players = (await world.services.campaigns.info(table.campaign_id)).players
        assert mallory.id not in {p.user_id for p in players}


async def test_a_gm_demoted_before_confirm_is_refused(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        organisers = manager_role(table.guild)
        helper = table.guild.add_member(env.create_user("helper"), roles=[organisers])
        await world.services.campaigns.set_gm_role(table.guild.id, organisers.id)
        asked = await helper.slash(table.channel, "campaign pause", reason="lunch")
        assert "Confirm" in str(asked.response.components)
        env.backend.remove_member_role(table.guild.id, helper.id, organisers.id)
        result = await helper.click(asked.response, custom_id=gm_button(asked))
        assert result.acknowledged
        info = await world.services.campaigns.info(table.campaign_id)
        assert info.status == "active"


async def test_a_plain_member_cannot_create_a_campaign_unless_the_server_allows(
    world: World,
) -> None:
    async with simcord.run(world.new_bot()) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("ops")
        member = guild.add_member(env.create_user("member"))
        refused = await member.slash(channel, "campaign new", scenario="coral-sea")
        assert "Manage Server" in refusal(refused)
        assert await world.services.campaigns.campaign_in_channel(channel.id) is None
        admin = guild.add_member(env.create_user("admin"), roles=[manager_role(guild)])
        done = await admin.slash(channel, "sortie config creators", who="everyone")
        assert done.ephemeral
        created = await member.slash(channel, "campaign new", scenario="coral-sea")
        assert "created" in created.response.content.lower()


async def test_a_log_button_with_a_huge_forged_page_still_answers(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        svc = world.services.campaigns
        for _ in range(2):  # a turn's rounds: enough events for more than one page
            for member in (table.alice, table.bob):
                panel = await svc.panel(table.campaign_id, member.id)
                for decision in panel.decisions:
                    await svc.draft(
                        table.campaign_id,
                        member.id,
                        panel.round_id,
                        decision.field,
                        decision.options[0].id,
                    )
                await svc.lock(table.campaign_id, member.id, panel.round_id)
        log = await table.spectator.slash(table.channel, "log")
        message = log.response.message
        pager = next(
            c
            for row in message.components
            for c in getattr(row, "children", ())
            if (getattr(c, "custom_id", None) or "").startswith("sortie:log:")
        )
        forged = f"sortie:log:{table.campaign_id}:{'9' * 20}:0"
        forge(env, message, pager.custom_id, new_custom_id=forged)
        result = await table.spectator.click(message, custom_id=forged)
        assert result.acknowledged
        assert "Something went wrong" not in str(result.response)


async def test_campaign_info_says_whether_the_gm_sees_secrets(world: World) -> None:
    from bot.service_model import Pace

    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env, pace=Pace(gm_sees_secrets=True))
        shown = await table.spectator.slash(table.channel, "campaign info")
        assert shown.ephemeral
        assert "GM may look at the sides' orders" in shown.response.content
        assert "Seed commitment" in shown.response.content


async def test_a_gm_confirm_survives_time_and_a_restart_then_expires(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        svc = world.services.campaigns
        asked = await table.gm.slash(table.channel, "campaign pause", reason="lunch")
        await env.advance_time(600)  # ten minutes later...
        await env.restart_bot(world.new_bot())  # ...and after a restart
        done = await table.gm.click(asked.response, custom_id=gm_button(asked))
        assert done.acknowledged
        assert (await svc.info(table.campaign_id)).status == "paused"
        # A question left for more than an hour expires with a clear answer.
        stale = await table.gm.slash(table.channel, "campaign resume", reason="back")
        for _ in range(7):  # past the hour, ten minutes at a time
            await env.advance_time(600)
        late = await table.gm.click(stale.response, custom_id=gm_button(stale))
        assert late.acknowledged
        assert (await svc.info(table.campaign_id)).status == "paused"
        assert late.response is not None and "expired" in late.response.content


async def test_only_an_admin_sets_the_gm_role(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("ops")
        referees = guild.create_role("Referees")
        member = guild.add_member(env.create_user("member"))
        refused = await member.slash(channel, "sortie config gm-role", role=referees)
        assert "Manage Server" in refusal(refused)
        async with world.services.repo.read() as tx:
            assert await tx.gm_role(guild.id) is None
        admin = guild.add_member(env.create_user("admin"), roles=[manager_role(guild)])
        done = await admin.slash(channel, "sortie config gm-role", role=referees)
        assert done.ephemeral and "GM role set" in done.response.content
        async with world.services.repo.read() as tx:
            assert await tx.gm_role(guild.id) == referees.id

"""The campaign archive through Discord: finished campaigns stay readable, listed, exported;
a new campaign in the channel does not hide the old one; other servers' campaigns stay out
of reach; missed deadlines are counted; the GM changes settings with a reason in the log."""

from __future__ import annotations

import json

import discord
import simcord

from bot.service_model import Pace
from tests.e2e.conftest import World, manager_role
from tests.e2e.conftest import table as seated
from tests.e2e.test_orders import (
    PICKS,
    Table,
    choose_all,
    custom_ids,
    dm_panel,
    forge,
    gm_button,
    lock,
    open_table,
    refusal,
)


async def end_campaign(table: Table, reason: str = "we stop here") -> None:
    asked = await table.gm.slash(table.channel, "campaign end", reason=reason)
    done = await table.gm.click(asked.response, custom_id=gm_button(asked))
    assert done.acknowledged
    await table.world.pump()


def answer(result: simcord.InteractionResult) -> discord.Message | simcord.ResponseMessage:
    """The message a command finally answered with (after a deferral, the follow-up)."""
    if result.followups:
        return result.followups[-1]
    assert result.response is not None
    return result.response


async def export_of(result: simcord.InteractionResult) -> dict[str, object]:
    message = answer(result)
    assert message.attachments, message.content
    return json.loads(await message.attachments[0].read())  # type: ignore[no-any-return]


async def test_finished_campaign_is_listed_read_and_exported(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        await choose_all(table.alice_user, dm_panel(table.alice_user), PICKS["japanese"])
        await lock(table.alice_user, dm_panel(table.alice_user))
        await end_campaign(table)
        assert "Campaign ended by the GM" in table.public_text()

        # Alice's receipt, sealed while the round was open, can now be checked.
        receipts = refusal(await table.alice.slash(table.channel, "receipt"))
        assert "Your receipts" in receipts and "salt" in receipts.lower()

        # The spectator still reads the status board and the log, told the campaign is over.
        status = answer(await table.spectator.slash(table.channel, "status"))
        assert status.attachments and status.attachments[0].filename == "status.png"
        assert f"Campaign #{table.campaign_id}" in status.content and "is over" in status.content
        log = await table.spectator.slash(table.channel, "log")
        assert log.ephemeral and "is over" in log.response.content
        assert "ended the campaign (reason: we stop here)" in log.response.content

        # The GM exports it, seed revealed so the whole record can be checked.
        exported = await export_of(await table.gm.slash(table.channel, "campaign export"))
        campaign = exported["campaign"]
        assert isinstance(campaign, dict)
        assert campaign["id"] == table.campaign_id and campaign["status"] == "finished"
        assert campaign["seed"] == "e2e-seed"

        listed = await table.spectator.slash(table.channel, "campaign list")
        assert listed.ephemeral
        text = listed.response.content
        assert f"#{table.campaign_id}" in text and "Coral Sea" in text
        assert "finished" in text and f"<#{table.channel.id}>" in text
        assert "ended by the GM" in text


async def test_new_campaign_in_the_channel_does_not_hide_the_old(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        old = table.campaign_id
        for _ in range(5):  # a log longer than one page
            await world.services.campaigns.pause(old, table.gm.id, "tea")
            await world.services.campaigns.resume(old, table.gm.id, "tea")
        await end_campaign(table)
        created = await table.gm.slash(table.channel, "campaign new", scenario="midway")
        assert "created" in created.response.content
        await world.pump()
        new = (await world.services.campaigns.campaign_in_channel(table.channel.id)).id  # type: ignore[union-attr]
        assert new != old

        # Without the option the channel's live campaign answers; with it, the old one.
        current = answer(await table.spectator.slash(table.channel, "status"))
        assert "is over" not in current.content
        old_log = await table.spectator.slash(table.channel, "log", campaign=old)
        assert "ended the campaign (reason: we stop here)" in old_log.response.content
        assert f"#{old}" in old_log.response.content
        older = next(c for c in custom_ids(old_log.response) if c.startswith(f"sortie:log:{old}:"))
        page_two = await table.spectator.click(old_log.response, custom_id=older)
        assert "page 2" in page_two.response.content.lower()
        assert "paused the campaign (reason: tea)" in page_two.response.content
        assert "is over" in page_two.response.content
        old_export = await export_of(
            await table.gm.slash(table.channel, "campaign export", campaign=old)
        )
        assert old_export["campaign"]["id"] == old  # type: ignore[index]

        # The option completes over both, newest first.
        offered = await table.spectator.autocomplete(table.channel, "log", "campaign", "")
        assert [choice["value"] for choice in offered] == [new, old]
        assert "Midway" in offered[0]["name"] and "finished" in offered[1]["name"]
        typed = await table.spectator.autocomplete(table.channel, "status", "campaign", "midw")
        assert [choice["value"] for choice in typed] == [new]
        typed = await table.spectator.autocomplete(table.channel, "status", "campaign", str(old))
        assert old in [choice["value"] for choice in typed]

        listed = (await table.gm.slash(table.channel, "campaign list")).response.content
        assert listed.index(f"#{new}") < listed.index(f"#{old}")
        assert "(2)" in listed


async def test_campaign_of_another_server_is_refused(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        other_guild = env.create_guild()
        other_channel = other_guild.create_text_channel("midway")
        other_gm = other_guild.add_member(
            env.create_user("rival"), roles=[manager_role(other_guild)]
        )
        made = await other_gm.slash(other_channel, "campaign new", scenario="midway")
        assert "created" in made.response.content
        foreign = await world.services.campaigns.campaign_in_channel(other_channel.id)
        assert foreign is not None

        for command in ("status", "log", "campaign info", "campaign export"):
            refused = await table.gm.slash(table.channel, command, campaign=foreign.id)
            assert f"no campaign #{foreign.id} on this server" in refusal(refused), command
            assert not answer(refused).attachments
        # A number no campaign has reads exactly the same: nothing tells them apart.
        unknown = await table.gm.slash(table.channel, "log", campaign=foreign.id + 1000)
        assert refusal(unknown).replace(str(foreign.id + 1000), "N") == refusal(
            await table.gm.slash(table.channel, "log", campaign=foreign.id)
        ).replace(str(foreign.id), "N")
        # A log page button rewritten to name the other server's campaign reads nothing.
        svc = world.services.campaigns
        for _ in range(5):  # a log longer than one page, so it has a page button
            await svc.pause(table.campaign_id, table.gm.id, "tea")
            await svc.resume(table.campaign_id, table.gm.id, "tea")
        own_log = await table.spectator.slash(table.channel, "log")
        message = own_log.response.message
        pager = next(c for c in custom_ids(message) if c.startswith("sortie:log:"))
        forged = f"sortie:log:{foreign.id}:1:0"
        forge(env, message, pager, new_custom_id=forged)
        clicked = await table.spectator.click(message, custom_id=forged)
        assert f"no campaign #{foreign.id}" in refusal(clicked)
        # Neither the list nor the completion shows the other server's campaign.
        listed = (await table.gm.slash(table.channel, "campaign list")).response.content
        assert f"#{foreign.id}" not in listed and "Midway" not in listed
        offered = await table.gm.autocomplete(table.channel, "log", "campaign", "")
        assert [choice["value"] for choice in offered] == [table.campaign_id]


async def test_hidden_channel_campaign_is_not_reachable_by_its_number(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        hidden = table.guild.create_text_channel(
            "gm-only",
            overwrites={
                table.guild.default_role: discord.PermissionOverwrite(read_messages=False),
            },
        )
        secret = await world.services.campaigns.create_campaign(
            table.guild.id, hidden.id, table.gm.id, "midway", Pace(), seed="hidden"
        )
        refused = await table.spectator.slash(table.channel, "status", campaign=secret.id)
        assert f"no campaign #{secret.id}" in refusal(refused)
        listed = (await table.spectator.slash(table.channel, "campaign list")).response.content
        assert f"#{secret.id}" not in listed and f"#{table.campaign_id}" in listed
        # The server's manager (the GM here) sees it.
        seen = (await table.gm.slash(table.channel, "campaign list")).response.content
        assert f"#{secret.id}" in seen


async def test_missed_deadlines_are_counted_per_player(world: World) -> None:
    pace = Pace(round_seconds=3600, reminder_offsets=())
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env, pace=pace)
        for _ in range(7):  # past the hour's deadline, in the steps the bot's loop takes
            await env.advance_time(600)
        await world.pump()
        info = await table.gm.slash(table.channel, "campaign info")
        text = info.response.content
        assert "Missed deadlines" in text
        assert f"<@{table.alice.id}> 1" in text and f"<@{table.bob.id}> 1" in text
        # Players read the card without the GM's tally.
        assert (
            "Missed deadlines"
            not in (await table.alice.slash(table.channel, "campaign info")).response.content
        )
        listed = (await table.gm.slash(table.channel, "campaign list")).response.content
        assert "missed deadlines: 2" in listed


async def test_gm_changes_settings_with_a_reason_in_the_log(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        # Bad values and no-ops are refused before anything is asked.
        bad = await table.gm.slash(
            table.channel, "campaign settings", reason="players abroad", deadline="soon"
        )
        assert "Confirm" not in str(bad.response.components)
        same = await table.gm.slash(
            table.channel, "campaign settings", reason="players abroad", deadline="1d"
        )
        assert "Nothing to change" in refusal(same)
        late = await table.gm.slash(
            table.channel, "campaign settings", reason="x", deadline="2h", reminders="3h"
        )
        assert "Confirm" not in str(late.response.components)
        blank = await table.gm.slash(table.channel, "campaign settings", reason="  ", deadline="2d")
        assert "reason" in refusal(blank).lower()
        player = await table.alice.slash(
            table.channel, "campaign settings", reason="mine", deadline="2d"
        )
        assert "Confirm" not in str(player.response.components)
        unchanged = await world.services.campaigns.info(table.campaign_id)
        assert unchanged.pace.round_seconds == 86400

        asked = await table.gm.slash(
            table.channel,
            "campaign settings",
            reason="players abroad",
            deadline="2d",
            missing="drafts",
        )
        assert "time per round 1 d → 2 d" in asked.response.content
        assert "players abroad" in asked.response.content
        done = await table.gm.click(asked.response, custom_id=gm_button(asked))
        assert done.acknowledged
        await world.pump()
        changed = await world.services.campaigns.info(table.campaign_id)
        assert changed.pace.round_seconds == 2 * 86400
        assert changed.pace.missing_policy == "drafts"

        log = (await table.spectator.slash(table.channel, "log")).response.content
        assert "changed the settings" in log and "players abroad" in log
        assert "time per round 1 d → 2 d" in log
        async with world.services.campaigns.repo.read() as tx:
            audit = await tx.audit(table.campaign_id)
        assert any(row.what == "settings" and row.why == "players abroad" for row in audit)


def _join_ids(message: discord.Message) -> list[str]:
    return [c for c in custom_ids(message) if c.startswith("sortie:join:")]


async def test_two_campaigns_side_by_side_in_threads_of_one_channel(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        world.env = env
        _, channel, gm, _, _, alice, bob, spectator = seated(env, "campaigns")
        svc = world.services.campaigns

        typo = await gm.slash(channel, "campaign new", scenario="coral-see", thread=True)
        assert "coral-see" in refusal(typo) and channel.threads == []  # no empty thread left
        first = await gm.slash(channel, "campaign new", scenario="coral-sea", thread=True)
        second = await gm.slash(channel, "campaign new", scenario="midway", thread=True)
        assert "own thread" in refusal(first) and "own thread" in refusal(second)
        await world.pump()
        threads = channel.threads
        assert sorted(t.name for t in threads) == ["Coral Sea", "Midway"]
        coral = next(t for t in threads if t.name == "Coral Sea")
        midway = next(t for t in threads if t.name == "Midway")

        # Both cards are in the parent channel; players join from there.
        cards = [m for m in channel.history(viewer=spectator) if _join_ids(m)]
        assert len(cards) == 2
        coral_info = await svc.campaign_in_channel(coral.id)
        assert coral_info is not None
        coral_card = next(m for m in cards if f":{coral_info.id}:" in _join_ids(m)[0])
        for member, side in ((alice, "japanese"), (bob, "allied")):
            button = next(c for c in _join_ids(coral_card) if c.endswith(side))
            joined = await member.click(coral_card, custom_id=button)
            assert "commander" in refusal(joined)

        # The rounds run in the thread; the other campaign is untouched.
        started = await gm.slash(coral, "campaign start")
        assert "Turn 1 is open" in started.response.content
        await world.pump()
        assert "Turn 1" in "\n".join(m.content for m in coral.history(viewer=spectator))
        assert "Turn 1" not in "\n".join(m.content for m in channel.history(viewer=spectator))
        midway_info = await svc.campaign_in_channel(midway.id)
        assert midway_info is not None and midway_info.status == "setup"

        # The result is told in the thread and in the parent channel.
        asked = await gm.slash(coral, "campaign end", reason="test over")
        await gm.click(asked.response, custom_id=gm_button(asked))
        await world.pump()
        assert "Campaign ended by the GM" in "\n".join(
            m.content for m in channel.history(viewer=spectator)
        )
        assert "Campaign ended by the GM" in "\n".join(
            m.content for m in coral.history(viewer=spectator)
        )
        listed = (await spectator.slash(channel, "campaign list")).response.content
        assert f"<#{coral.id}>" in listed and f"<#{midway.id}>" in listed

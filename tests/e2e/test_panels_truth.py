"""Panels that never lie (issue 16): what each player sees follows every GM action.

A commander picks an option, then the GM pauses, resumes, extends and resolves the round
through Discord; after each step every DM panel and the round message in the channel say
what is true now (the pick, frozen or open, the deadline, over). A player seated in two
campaigns of two servers plays both from DMs without one panel touching the other.
"""

from __future__ import annotations

import re
from datetime import timedelta

import discord
import simcord

from bot.service_model import Pace
from engine.zero.types import Side
from tests.e2e.conftest import World, is_disabled, manager_role
from tests.e2e.test_orders import (
    ALLIED,
    JAPANESE,
    PICKS,
    Table,
    choose,
    choose_all,
    control,
    custom_ids,
    dm_panel,
    gm_button,
    lock,
    open_table,
    refreshed,
)

TIMESTAMP = re.compile(r"<t:(\d+):[a-zA-Z]>")


def round_message(table: Table) -> discord.Message:
    """The channel's message for the open round (edited in place as the round goes on)."""
    found = [m for m in table.public() if "Turn 1/6 · Orders" in m.content]
    assert found, [m.content[:60] for m in table.public()]
    return found[-1]


def deadlines(text: str) -> set[int]:
    return {int(stamp) for stamp in TIMESTAMP.findall(text)}


async def gm_does(table: Table, command: str, **options: str) -> None:
    """A GM action through Discord: the command, its question, Confirm."""
    asked = await table.gm.slash(table.channel, command, **options)
    assert asked.response is not None, command
    done = await table.gm.click(asked.response, custom_id=gm_button(asked))
    assert done.acknowledged, command
    await table.world.pump()


async def test_a_pick_then_pause_extend_and_resolve_keep_every_panel_true(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env, pace=Pace(round_seconds=86_400))
        svc = world.services.campaigns
        first_deadline = (await svc.status(table.campaign_id)).round.deadline
        assert first_deadline is not None
        stamp = int(first_deadline.timestamp())
        assert stamp in deadlines(round_message(table).content)
        for side in (JAPANESE, ALLIED):
            assert stamp in deadlines(dm_panel(table.user(side)).content)

        # Alice picks Long Range: her panel says so at once, Bob's panel knows nothing of it.
        alice_panel = dm_panel(table.alice_user)
        await choose(table.alice_user, alice_panel, "fleet_tactic", "long")
        assert "**Fleet Tactic**: ✓ Long Range" in refreshed(table.alice_user, alice_panel).content
        assert "Long Range" not in round_message(table).content
        assert "✓ Long Range" not in dm_panel(table.bob_user).content

        # The GM pauses: both panels and the round message say orders are frozen, and a
        # pick on a paused campaign is refused and changes nothing.
        await gm_does(table, "campaign pause", reason="holiday")
        for side in (JAPANESE, ALLIED):
            panel = dm_panel(table.user(side))
            assert "paused" in panel.content.lower(), panel.content
        assert "paused" in round_message(table).content.lower()
        refused = await choose(
            table.alice_user, dm_panel(table.alice_user), "fleet_tactic", "close"
        )
        texts = [m.content for m in (refused.response, *refused.followups) if m is not None]
        assert any("paused" in text.lower() for text in texts), texts
        assert dict((await svc.panel(table.campaign_id, table.alice.id)).drafts) == {
            "fleet_tactic": "long"
        }

        # Two hours later the GM resumes: the deadline moved on by the pause, everywhere.
        for _ in range(12):  # ten minutes at a time, as the bot's loops see it
            await env.advance_time(600)
        await gm_does(table, "campaign resume", reason="back")
        resumed = (await svc.status(table.campaign_id)).round.deadline
        assert resumed is not None and resumed - first_deadline == timedelta(hours=2)
        stamp = int(resumed.timestamp())
        assert stamp in deadlines(round_message(table).content)
        for side in (JAPANESE, ALLIED):
            panel = dm_panel(table.user(side))
            assert "paused" not in panel.content.lower()
            assert stamp in deadlines(panel.content)
            assert not is_disabled(panel, "sortie:o:")

        # The GM extends by 12 hours: the new deadline is on every panel and in the channel.
        await gm_does(table, "campaign extend", duration="12h", reason="travel")
        extended = (await svc.status(table.campaign_id)).round.deadline
        assert extended is not None and extended - resumed == timedelta(hours=12)
        stamp = int(extended.timestamp())
        assert stamp in deadlines(round_message(table).content)
        for side in (JAPANESE, ALLIED):
            assert stamp in deadlines(dm_panel(table.user(side)).content)

        # Bob locks; the GM resolves now: Alice's unlocked draft is filled with defaults,
        # the reveal reaches the channel and the old panels turn read-only.
        await choose_all(table.bob_user, dm_panel(table.bob_user), PICKS[ALLIED])
        await lock(table.bob_user, dm_panel(table.bob_user))
        old = {
            side: dm_panel(table.user(side), turn_round="Turn 1 · Orders")
            for side in (JAPANESE, ALLIED)
        }
        assert control(refreshed(table.bob_user, old[ALLIED]), "sortie:unlock:")
        await gm_does(table, "campaign resolve", reason="Alice is away")
        public = table.public_text()
        assert "Turn 1 · Orders revealed" in public
        assert "Long Range" in public  # Alice's draft was kept, not replaced
        # Without anyone clicking, both old panels now say the round is over, still name
        # their campaign, and have no control left (Bob's Unlock is gone too).
        for side in (JAPANESE, ALLIED):
            now = refreshed(table.user(side), old[side])
            assert "This round is over" in now.content, now.content
            assert "Campaign: Coral Sea in" in now.content
            assert not custom_ids(now), custom_ids(now)
            assert "Turn 1 · Resource" in dm_panel(table.user(side)).content


async def test_a_player_in_two_servers_locks_both_campaigns_from_dms(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        svc = world.services.campaigns
        # The same Alice commands the Allies of a Midway campaign in another server.
        other = env.create_guild()
        midway = other.create_text_channel("midway")
        other_gm = other.add_member(env.create_user("other-gm"), roles=[manager_role(other)])
        other_alice = other.add_member(table.alice_user)
        rival = other.add_member(env.create_user("rival"))
        info = await svc.create_campaign(other.id, midway.id, other_gm.id, "midway", Pace())
        await svc.join(info.id, rival.id, Side.JAPANESE)
        await svc.join(info.id, other_alice.id, Side.ALLIED)
        await svc.start(info.id, other_gm.id)
        await world.pump()

        panels = [m for m in table.alice_user.dm_channel.history() if m.components]
        coral = next(m for m in panels if "Coral Sea" in m.content)
        mid = next(m for m in panels if "Midway" in m.content)
        assert coral.id != mid.id
        # Each panel offers its own campaign's options: Midway's Allied targets differ.
        await choose_all(table.alice_user, coral, PICKS[JAPANESE])
        mid_ops = [
            o.value
            for row in mid.components
            for child in getattr(row, "children", ())
            if isinstance(child, discord.SelectMenu) and child.custom_id.endswith(":flight_ops")
            for o in child.options
        ]
        assert mid_ops and not any("invasion-force" in value for value in mid_ops)
        await choose_all(
            table.alice_user,
            mid,
            {"fleet_tactic": "medium", "flight_ops": mid_ops[0], "doctrine": "balanced"},
        )
        # Picks went to the right campaign, each untouched by the other.
        coral_drafts = dict((await svc.panel(table.campaign_id, table.alice.id)).drafts)
        midway_drafts = dict((await svc.panel(info.id, other_alice.id)).drafts)
        assert coral_drafts == PICKS[JAPANESE]
        assert midway_drafts["flight_ops"] == mid_ops[0]

        # She locks both from her DMs; each server's channel gets its own receipt only.
        await lock(table.alice_user, refreshed(table.alice_user, coral))
        await lock(table.alice_user, refreshed(table.alice_user, mid))
        coral_receipt = (await svc.receipts(table.campaign_id, table.alice.id))[0].receipt
        midway_receipt = (await svc.receipts(info.id, other_alice.id))[0].receipt
        assert coral_receipt[:8] in table.public_text()
        midway_text = "\n".join(m.content for m in midway.history(viewer=rival))
        assert midway_receipt[:8] in midway_text
        assert coral_receipt[:8] not in midway_text
        for panel in (coral, mid):
            now = refreshed(table.alice_user, panel)
            assert is_disabled(now, "sortie:lock:") and "Locked" in now.content
        assert control(refreshed(table.alice_user, coral), "sortie:unlock:")


async def test_ending_the_campaign_closes_the_open_panels_and_says_so(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        panels = {side: dm_panel(table.user(side)) for side in (JAPANESE, ALLIED)}
        await choose(table.alice_user, panels[JAPANESE], "fleet_tactic", "long")
        await gm_does(table, "campaign end", reason="the group stops here")
        for side in (JAPANESE, ALLIED):
            now = refreshed(table.user(side), panels[side])
            assert "The campaign is over" in now.content, now.content
            assert "Campaign: Coral Sea in" in now.content
            assert not custom_ids(now)

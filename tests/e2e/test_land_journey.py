"""A whole land campaign as people play it in Discord: the GM creates it with the land
ruleset, two players join the Japanese team and one the Allied, resources are picked in DM
panels, the Allied commander misses a deadline, the GM rolls a mission back, and the
campaign ends with its reports and a verified export. And a French table's land panel."""

from __future__ import annotations

import random
from collections.abc import Callable

import simcord

from bot.export import verify_export
from tests.e2e.conftest import World, campaign_over, gm_creates, table
from tests.e2e.test_orders import (
    ALLIED,
    choose,
    control,
    custom_ids,
    dm_panel,
    ephemeral_panel,
    french_panel,
    gm_button,
    lock,
    options,
    refreshed,
)

FIELDS = ("resource", "doctrine")


async def _play(world: World, user: simcord.UserHandle, turn: int, rnd: random.Random) -> None:
    panel = dm_panel(user, f"Turn {turn}")
    for field in FIELDS:
        values = [o.value for o in options(panel, field)]
        await user.select(
            panel, [rnd.choice(values)], custom_id=control(panel, "sortie:o:", f":{field}")
        )
        panel = refreshed(user, panel)
    result = await lock(user, panel)
    assert result.acknowledged


def _values(panel: simcord.ResponseMessage, field: str) -> list[str]:
    for row in panel.components:
        children = row.get("components", []) if isinstance(row, dict) else row.children
        for child in children:
            custom_id = child.get("custom_id") if isinstance(child, dict) else child.custom_id
            if custom_id and custom_id.endswith(f":{field}"):
                found = child.get("options", []) if isinstance(child, dict) else child.options
                return [o["value"] if isinstance(o, dict) else o.value for o in found]
    raise AssertionError(f"no {field} select")


async def _play_in_channel(
    member: simcord.MemberActor, channel: simcord.ChannelHandle, rnd: random.Random
) -> None:
    """A commander whose DMs are closed plays the mission with /orders (private)."""
    panel = ephemeral_panel(await member.slash(channel, "orders"))
    for field in FIELDS:
        picked = await choose(member, panel, field, rnd.choice(_values(panel, field)))
        assert picked.acknowledged and not picked.followups
    result = await lock(member, panel)
    assert result.acknowledged and not result.followups


async def test_whole_land_campaign_through_discord(
    world: World, close_dms: Callable[[simcord.Env, simcord.UserHandle], None]
) -> None:
    async with simcord.run(world.new_bot()) as env:
        world.env = env
        seats = table(env, "burma")
        guild, channel, gm = seats.guild, seats.channel, seats.gm
        alice_user, bob_user, alice, bob = seats.alice_user, seats.bob_user, seats.alice, seats.bob
        spectator = seats.spectator
        carol = guild.add_member(env.create_user("carol"))
        close_dms(env, bob_user)  # the Allied commander does not accept DMs
        await gm_creates(
            gm,
            channel,
            ruleset="land",
            scenario="burma-dec41-jan42",
            deadline="1h",
            reminders="15m",
        )
        await world.pump()
        await alice.slash(channel, "campaign join", side="japanese")
        await carol.slash(channel, "campaign join", side="japanese")  # a team of two (24.43)
        await bob.slash(channel, "campaign join", side="allied")
        started = await gm.slash(channel, "campaign start")
        assert "Turn 1 is open" in started.response.content
        await world.pump()

        service = world.services.campaigns
        info = await service.campaign_in_channel(channel.id)
        assert info is not None and info.ruleset == "land"
        # The mission card is public before anyone picks: the target is drawn in the open.
        first = "\n".join(m.content for m in channel.history(viewer=spectator))
        assert "Mission" in first

        # Bob's panel could not reach him: the channel says where it is (the notice about
        # the failed DM goes out with the next delivery); he plays every mission there.
        await world.pump()
        assert not [m for m in bob_user.dm_channel.history() if m.components]
        told = [m for m in channel.history(viewer=spectator) if bob.mention in m.content]
        assert any("/orders" in m.content for m in told)
        # The second Japanese player sees the team's mission panel with /orders.
        mine = ephemeral_panel(await carol.slash(channel, "orders"))
        assert "Mission 1/6" in mine.content and ":resource" in " ".join(custom_ids(mine))

        rnd = random.Random(4)
        rolled_back = False
        for _ in range(12):
            status = await service.status(info.id)
            if status.campaign.status == "finished":
                break
            assert status.round is not None and status.round.kind == "mission"
            turn = status.round.turn
            await _play(world, alice_user, turn, rnd)
            if turn == 2 and not rolled_back:
                # Bob never locks mission 2: the deadline plays his side with no resource.
                for _ in range(7):  # past the hour, ten minutes at a time
                    await env.advance_time(600)
                await world.pump()
                status = await service.status(info.id)
                assert status.round is not None and status.round.turn == 3
                # The GM undoes mission 2 (the deadline was a mistake) and it reopens.
                asked = await gm.slash(
                    channel, "campaign rollback", turn=2, reason="bob was on a ship"
                )
                done = await gm.click(asked.response, custom_id=gm_button(asked))
                assert done.acknowledged
                await world.pump()
                rolled_back = True
                status = await service.status(info.id)
                assert status.round is not None and status.round.turn == 2
                continue
            await _play_in_channel(bob, channel, rnd)
            await world.pump()
        assert rolled_back
        _, files = await campaign_over(world, info.id, channel, spectator)
        assert sum(name.startswith("mission-") for name in files) >= 6
        assert any(name.startswith("reveal-") for name in files)
        first = await service.log(info.id, per_page=50)  # every page: strikes are told in full
        entries = [
            entry
            for page in range(1, first.pages + 1)
            for entry in (await service.log(info.id, page=page, per_page=50)).entries
        ]
        kinds = {entry.kind for entry in entries}
        assert {"land-resources", "land-mission-flown", "land-campaign-ended"} <= kinds
        assert {"strike-duel", "strike-bomb-run"} <= kinds
        assert any(entry.void for entry in entries)  # the rolled-back mission, kept
        check = verify_export(await service.export(info.id))
        assert check.ok and check.replayed, check.problems


async def test_a_french_land_table_gets_a_french_panel(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        panel = await french_panel(
            world, env, ALLIED, "resource", "A4", scenario="malaya-dec41", ruleset="land"
        )
        assert "Nuages sur l'objectif" in panel.content
        assert "Mission 1/6" in panel.content
        labels = [o.label for o in options(panel, "resource")]
        assert "Aucune ressource" in labels[0]

"""A whole land campaign as people play it in Discord: the GM creates it with the land
ruleset, two players join the Japanese team and one the Allied, resources are picked in DM
panels, the Allied commander misses a deadline, the GM rolls a mission back, and the
campaign ends with its reports and a verified export. And a French table's land panel."""

from __future__ import annotations

import random
from collections.abc import Callable

import simcord

from bot.export import verify_export
from bot.service_model import Pace
from engine.zero.types import Side
from tests.e2e.conftest import World, manager_role
from tests.e2e.test_orders import (
    choose,
    control,
    custom_ids,
    dm_panel,
    ephemeral_panel,
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
        guild = env.create_guild()
        channel = guild.create_text_channel("burma")
        gm = guild.add_member(env.create_user("gm"), roles=[manager_role(guild)])
        alice_user, carol_user, bob_user = (
            env.create_user("alice"),
            env.create_user("carol"),
            env.create_user("bob"),
        )
        alice, carol, bob = (guild.add_member(u) for u in (alice_user, carol_user, bob_user))
        close_dms(env, bob_user)  # the Allied commander does not accept DMs
        spectator = guild.add_member(env.create_user("spectator"))
        created = await gm.slash(
            channel,
            "campaign new",
            ruleset="land",
            scenario="burma-dec41-jan42",
            deadline="1h",
            reminders="15m",
        )
        assert created.ephemeral and "created" in created.response.content
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
        status = await service.status(info.id)
        assert status.campaign.status == "finished" and rolled_back

        public = channel.history(viewer=spectator)
        text = "\n".join(m.content for m in public)
        files = [a.filename for m in public for a in m.attachments]
        assert sum(name.startswith("mission-") for name in files) >= 6
        assert any(name.startswith("reveal-") for name in files)
        assert "after-action.png" in files
        assert "Campaign over" in text
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
        world.env = env
        guild = env.create_guild()
        channel = guild.create_text_channel("malaisie")
        gm = guild.add_member(env.create_user("mj"))
        users = [env.create_user("yamashita"), env.create_user("percival")]
        members = [guild.add_member(u) for u in users]
        svc = world.services.campaigns
        info = await svc.create_campaign(
            guild.id,
            channel.id,
            gm.id,
            "malaya-dec41",
            Pace(),
            seed="fr",
            locale="fr",
            ruleset="land",
        )
        await svc.join(info.id, members[0].id, Side.JAPANESE)
        await svc.join(info.id, members[1].id, Side.ALLIED)
        await svc.start(info.id, gm.id)
        await world.pump()
        panel = dm_panel(users[1])
        await choose(users[1], panel, "resource", "A4")
        panel = refreshed(users[1], panel)
        assert "Nuages sur l'objectif" in panel.content
        assert "Mission 1/6" in panel.content
        labels = [o.label for o in options(panel, "resource")]
        assert "Aucune ressource" in labels[0]

"""A whole campaign as the people in the channel play it: GM commands, join buttons, DM
panels, reveals, strike reports, the end; and what the GM tools refuse."""

from __future__ import annotations

import random
from typing import Any

import discord
import simcord

from bot.export import verify_export
from engine.zero.types import Side
from tests.e2e.conftest import World, campaign_over, manager_role
from tests.e2e.test_orders import control, custom_ids, dm_panel, gm_button, lock, options, refusal

FIELDS = {"orders": ("fleet_tactic", "flight_ops", "doctrine"), "resource": ("resource",)}


def card(channel: simcord.ChannelHandle, viewer: simcord.MemberActor) -> discord.Message:
    cards = [
        m for m in channel.history(viewer=viewer) if any("sortie:join:" in c for c in custom_ids(m))
    ]
    assert cards, "no campaign card with join buttons"
    return cards[-1]


async def _setup(world: World, env: simcord.Env) -> tuple[simcord.ChannelHandle, dict[str, object]]:
    world.env = env
    guild = env.create_guild()
    channel = guild.create_text_channel("coral-sea")
    people = {
        "gm": guild.add_member(env.create_user("gm"), roles=[manager_role(guild)]),
        "alice_user": env.create_user("alice"),
        "bob_user": env.create_user("bob"),
    }
    people["alice"] = guild.add_member(people["alice_user"])  # type: ignore[arg-type]
    people["bob"] = guild.add_member(people["bob_user"])  # type: ignore[arg-type]
    people["spectator"] = guild.add_member(env.create_user("spectator"))
    return channel, people


async def test_whole_coral_sea_campaign_through_discord(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        channel, p = await _setup(world, env)
        gm, alice, bob, spectator = p["gm"], p["alice"], p["bob"], p["spectator"]
        created = await gm.slash(channel, "campaign new", scenario="coral-sea", deadline="1d")
        assert created.ephemeral and "created" in created.response.content
        await world.pump()

        # Players join with the buttons on the pinned-style campaign card.
        joined = await alice.click(
            card(channel, spectator), custom_id=_join_id(channel, spectator, "japanese")
        )
        assert "commander" in refusal(joined)
        joined = await bob.click(
            card(channel, spectator), custom_id=_join_id(channel, spectator, "allied")
        )
        assert "commander" in refusal(joined)
        started = await gm.slash(channel, "campaign start")
        assert "Turn 1 is open" in started.response.content
        await world.pump()

        rnd = random.Random(3)
        users = {Side.JAPANESE: p["alice_user"], Side.ALLIED: p["bob_user"]}
        service = world.services.campaigns
        info = await service.campaign_in_channel(channel.id)
        assert info is not None
        for _ in range(20):
            status = await service.status(info.id)
            if status.campaign.status == "finished":
                break
            assert status.round is not None
            for user in users.values():
                panel = dm_panel(user, f"Turn {status.round.turn}")
                for field in FIELDS[status.round.kind]:
                    values = [o.value for o in options(panel, field)]
                    await user.select(
                        panel,
                        [rnd.choice(values)],
                        custom_id=control(panel, "sortie:o:", f":{field}"),
                    )
                    panel = next(m for m in user.dm_channel.history() if m.id == panel.id)
                result = await lock(user, panel)
                assert result.acknowledged
            await world.pump()
        text, files = await campaign_over(world, info.id, channel, spectator)
        assert any(name.startswith("reveal-") for name in files)
        assert any(name.startswith("strike-") for name in files)
        # Receipts appeared in the channel before the reveals; no order text leaked early.
        assert "receipt" in text.lower()

        kinds = {entry.kind for entry in await _whole_log(service, info.id)}
        assert {"orders-revealed", "resources-revealed", "strike-flown", "vp"} <= kinds
        assert {"strike-duel", "strike-flak", "strike-bomb-run"} <= kinds  # strikes in full
        export = await service.export(info.id)
        check = verify_export(export)
        assert check.ok and check.replayed, check.problems


async def _whole_log(service: Any, campaign_id: int) -> list[Any]:
    """Every log entry, page by page (a page holds 50 at most)."""
    first = await service.log(campaign_id, per_page=50)
    entries = list(first.entries)
    for page in range(2, first.pages + 1):
        entries += (await service.log(campaign_id, page=page, per_page=50)).entries
    return entries


def _join_id(channel: simcord.ChannelHandle, viewer: simcord.MemberActor, side: str) -> str:
    return next(c for c in custom_ids(card(channel, viewer)) if c.endswith(f":{side}"))


async def test_players_cannot_use_gm_tools_and_bad_input_changes_nothing(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        channel, p = await _setup(world, env)
        gm, alice, bob = p["gm"], p["alice"], p["bob"]

        # Bad input to /campaign new: each refused with a sentence, no campaign created.
        for options_, expected in (
            ({"scenario": "atlantis"}, "atlantis"),
            ({"scenario": "coral-sea", "deadline": "-2h"}, "not a duration"),
            ({"scenario": "coral-sea", "deadline": "400d"}, "too long"),
            ({"scenario": "coral-sea", "deadline": "1m"}, "too short"),
            ({"scenario": "coral-sea", "reminders": "soon"}, "not a duration"),
        ):
            result = await gm.slash(channel, "campaign new", **options_)
            assert result.ephemeral
            assert expected in result.response.content, (options_, result.response.content)
            assert await world.services.campaigns.campaign_in_channel(channel.id) is None

        await gm.slash(channel, "campaign new", scenario="coral-sea")
        again = await gm.slash(channel, "campaign new", scenario="midway")
        assert again.ephemeral and "already" in again.response.content.lower()
        await alice.slash(channel, "campaign join", side="japanese")
        await bob.slash(channel, "campaign join", side="allied")

        # A player is not a GM: every GM tool refuses and nothing changes.
        info = await world.services.campaigns.campaign_in_channel(channel.id)
        assert info is not None and info.status == "setup"
        for command, options_ in (
            ("campaign start", {}),
            ("campaign waiting", {}),
            ("campaign export", {}),
            ("campaign rollback", {"turn": 1, "reason": "oops"}),
            ("campaign resolve", {"reason": "hurry"}),
            ("campaign end", {"reason": "bored"}),
        ):
            result = await alice.slash(channel, command, **options_)
            assert result.ephemeral
            assert "GM" in refusal(result), (command, refusal(result))
        info = await world.services.campaigns.campaign_in_channel(channel.id)
        assert info is not None and info.status == "setup"

        # A bot cannot be handed a seat; an empty reason is refused.
        robot = p["gm"].guild.add_member(env.create_user("robot", bot=True))
        result = await gm.slash(
            channel, "campaign substitute", player=alice, replacement=robot, reason="afk"
        )
        assert "bot" in refusal(result).lower()
        result = await gm.slash(channel, "campaign extend", duration="12h", reason="   ")
        assert "reason" in refusal(result).lower()

        # The GM's actions ask for confirmation; Cancel changes nothing.
        await gm.slash(channel, "campaign start")
        await world.pump()
        asked = await gm.slash(channel, "campaign end", reason="testing")
        assert asked.ephemeral and "Confirm" in str(asked.response.components)
        cancelled = await gm.click(asked.response, custom_id=gm_button(asked, "no"))
        assert cancelled.acknowledged
        info = await world.services.campaigns.campaign_in_channel(channel.id)
        assert info is not None and info.status == "active"

        # Waiting shows who has not locked, never what anyone chose.
        waiting = await gm.slash(channel, "campaign waiting")
        assert "not locked yet" in waiting.response.content
        # Status and log are open to everyone; the log is a readable sentence list.
        status = await p["spectator"].slash(channel, "status")
        board = status.followups[0] if status.followups else status.response
        assert board is not None and board.attachments[0].filename == "status.png"
        assert "Victory points" in board.content
        log = await p["spectator"].slash(channel, "log")
        assert "Campaign log" in log.response.content
        assert "Campaign started" in log.response.content


async def test_restart_mid_round_then_reminder_and_deadline_still_fire(world: World) -> None:
    from bot.service_model import Pace
    from tests.e2e.test_orders import PICKS, choose_all, open_table

    pace = Pace(round_seconds=3600, reminder_offsets=(900,))
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env, pace=pace)
        panel = dm_panel(table.alice_user)
        await choose_all(table.alice_user, panel, PICKS["japanese"])
        await lock(table.alice_user, panel)
        await choose_all(table.bob_user, dm_panel(table.bob_user), {"fleet_tactic": "long"})

        await env.restart_bot(world.new_bot())
        # Bob drafted but never locked. Past the reminder time only he is reminded.
        for _ in range(5):
            await env.advance_time(600)
        bob_dms = "\n".join(m.content for m in table.bob_user.dm_channel.history())
        alice_dms = "\n".join(m.content for m in table.alice_user.dm_channel.history())
        assert "not locked yet" in bob_dms
        assert "not locked yet" not in alice_dms
        # Past the deadline: defaults for the Allies, the GM is told, the game goes on.
        for _ in range(3):
            await env.advance_time(600)
        text = table.public_text()
        assert "default orders were used for Allied" in text
        assert f"<@{table.gm.id}>" in text
        assert "Turn 1 · Orders revealed" in text
        assert "Turn 1 · Resource" in dm_panel(table.bob_user).content
        status = await world.services.campaigns.status(table.campaign_id)
        assert status.round is not None and status.round.kind == "resource"


async def test_gm_rollback_is_confirmed_audited_and_reopens_the_turn(world: World) -> None:
    from tests.e2e.test_orders import open_table, play_round

    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        await play_round(world, table)
        service = world.services.campaigns
        status = await service.status(table.campaign_id)
        assert status.round is not None and status.round.kind == "resource"

        # A turn that was never played is refused before the GM is asked to confirm it.
        refused = await table.gm.slash(
            table.channel, "campaign rollback", turn=5, reason="wrong flight ops typed"
        )
        assert "between 1 and 1" in refusal(refused)
        assert "Confirm" not in str(refused.response.components)
        asked = await table.gm.slash(
            table.channel, "campaign rollback", turn=1, reason="wrong flight ops typed"
        )
        assert "wrong flight ops typed" in asked.response.content
        done = await table.gm.click(asked.response, custom_id=gm_button(asked))
        assert done.acknowledged
        await world.pump()
        status = await service.status(table.campaign_id)
        assert status.round is not None
        assert (status.round.turn, status.round.kind) == (1, "orders")
        log = await _whole_log(service, table.campaign_id)
        assert any(entry.void for entry in log)  # undone, never deleted
        assert "Turn 1 · Orders" in dm_panel(table.alice_user).content


async def test_closed_dms_found_at_join_and_gm_peek_follows_the_setting(
    world: World, close_dms: object
) -> None:
    async with simcord.run(world.new_bot()) as env:
        channel, p = await _setup(world, env)
        gm, alice, bob = p["gm"], p["alice"], p["bob"]
        await gm.slash(channel, "campaign new", scenario="midway")
        close_dms(env, p["bob_user"])  # type: ignore[operator]
        await alice.slash(channel, "campaign join", side="japanese")
        joined = await bob.slash(channel, "campaign join", side="allied")
        assert "use /orders" in " ".join(m.content for m in joined.followups)
        await gm.slash(channel, "campaign start")
        await world.pump()
        waiting = await gm.slash(channel, "campaign waiting")
        assert "closed (use /orders)" in waiting.response.content
        # The default campaign keeps orders secret from the GM too.
        peek = await gm.slash(channel, "campaign peek")
        assert "secret from the GM" in refusal(peek)


async def test_log_pages_newest_first_with_buttons_and_a_turn_filter(world: World) -> None:
    from tests.e2e.test_orders import RESOURCE, open_table, play_round

    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        await play_round(world, table)
        await play_round(world, table, RESOURCE, "Resource")

        first = await table.spectator.slash(table.channel, "log")
        text = first.response.content
        assert first.ephemeral and "page 1 of" in text and "page 1 of 1" not in text
        assert "Victory points" in text  # the newest events come first
        assert "Campaign created" not in text  # the oldest are on a later page
        older = next(c for c in custom_ids(first.response.message) if c.startswith("sortie:log:"))
        second = await table.spectator.click(first.response, custom_id=older)
        assert second.acknowledged
        assert second.response is not None and "page 2 of" in second.response.content
        filtered = await table.spectator.slash(table.channel, "log", turn=2)
        assert "turn 2 only" in filtered.response.content

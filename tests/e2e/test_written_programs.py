"""Wings programs written in Discord (issue 27): the DM panel's Write button opens a modal
with one field per plane; a program no quick pick offers (``BL BL TR``) is drafted, locked
and flown; an illegal one is refused with the rule's reason and changes nothing; a player
whose DMs are closed writes through ``/program``; a modal submitted after Lock, after the
round moved on or after a restart is answered as it should be."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord
import simcord

from bot.service_model import Pace, choice_of
from tests.e2e.conftest import World, manager_role
from tests.e2e.test_orders import custom_ids, dm_panel, ephemeral_panel, lock, refreshed

WRITTEN = "BL BL TR"  # two banks then a turn: legal for an Albatros D.III, on no quick pick
WOLFF = "program:P3"  # Kurt Wolff's Albatros, the Central Powers' first plane


@dataclass
class Table:
    world: World
    env: simcord.Env
    channel: simcord.ChannelHandle
    alice_user: simcord.UserHandle
    bob_user: simcord.UserHandle
    alice: simcord.MemberActor
    bob: simcord.MemberActor
    campaign_id: int

    async def drafts(self, user: simcord.UserHandle) -> dict[str, str]:
        panel = await self.world.services.campaigns.panel(self.campaign_id, user.id)
        return dict(panel.drafts)


async def open_wings(
    world: World,
    env: simcord.Env,
    *,
    locale: str = "en",
    before_start: Callable[[simcord.UserHandle, simcord.UserHandle], None] | None = None,
) -> Table:
    guild = env.create_guild()
    channel = guild.create_text_channel("front")
    gm = guild.add_member(env.create_user("gm"), roles=[manager_role(guild)])
    alice_user, bob_user = env.create_user("alice"), env.create_user("bob")
    alice, bob = guild.add_member(alice_user), guild.add_member(bob_user)
    info = await world.services.campaigns.create_campaign(
        guild.id, channel.id, gm.id, "wings-1917", Pace(), ruleset="wings", seed="x",
        locale=locale,
    )  # fmt: skip
    await alice.slash(channel, "campaign join", side="entente")
    await bob.slash(channel, "campaign join", side="central")
    if before_start is not None:
        before_start(alice_user, bob_user)
    await gm.slash(channel, "campaign start")
    await world.pump()
    return Table(world, env, channel, alice_user, bob_user, alice, bob, info.id)


async def fill_and_lock(table: Table, user: simcord.UserHandle) -> simcord.InteractionResult:
    """Pick the first option of every field still to choose (a quick pick for a plane),
    then Lock."""
    service = table.world.services.campaigns
    for field in (await service.panel(table.campaign_id, user.id)).missing:
        panel = dm_panel(user)
        value = quick_picks(panel, field)[0]
        custom_id = next(c for c in custom_ids(panel) if c.endswith(f":{field}"))
        assert (await user.select(panel, [value], custom_id=custom_id)).acknowledged
    return await lock(user, dm_panel(user))


def write_button(panel: discord.Message | simcord.ResponseMessage) -> str:
    found = [c for c in custom_ids(panel) if c.startswith("sortie:write:")]
    assert len(found) == 1, custom_ids(panel)
    return found[0]


def modal_inputs(shown: simcord.InteractionResult) -> dict[str, dict[str, Any]]:
    """The text inputs of the modal a click opened, by custom id."""
    modal = shown.modal
    assert modal is not None, "no modal"
    found: dict[str, dict[str, Any]] = {}

    def walk(node: dict[str, Any]) -> None:
        if node.get("type") == 4:
            found[node["custom_id"]] = node
        for child in node.get("components") or ():
            walk(child)
        if isinstance(node.get("component"), dict):
            walk(node["component"])

    for row in modal["components"]:
        walk(row)
    return found


def answers(result: simcord.InteractionResult) -> str:
    return "\n".join(m.content for m in result.followups if m.ephemeral)


def quick_picks(panel: discord.Message | simcord.ResponseMessage, field: str) -> list[str]:
    for row in panel.components:
        children = row.get("components", []) if isinstance(row, dict) else row.children
        for child in children:
            custom_id = child.get("custom_id") if isinstance(child, dict) else child.custom_id
            if custom_id and custom_id.endswith(f":{field}") and custom_id.startswith("sortie:o:"):
                options = child.get("options") if isinstance(child, dict) else child.options
                return [o["value"] if isinstance(o, dict) else o.value for o in options]
    raise AssertionError(f"no quick picks for {field}")


async def test_a_written_program_is_locked_and_flown_and_an_illegal_one_changes_nothing(
    world: World,
) -> None:
    async with simcord.run(world.new_bot()) as env:
        world.env = env
        table = await open_wings(world, env)
        panel = dm_panel(table.bob_user)
        # The panel: a Write button, a short select of quick picks per plane, no menu of
        # programs printed as text.
        assert len(quick_picks(panel, WOLFF)) <= 8 and WRITTEN not in quick_picks(panel, WOLFF)
        assert not [line for line in panel.content.splitlines() if line.startswith("-# S S S")]
        assert "Kurt Wolff · Albatros D.III" in panel.content

        blank = await panel.attachments[0].read()
        shown = await table.bob_user.click(panel, custom_id=write_button(panel))
        inputs = modal_inputs(shown)
        assert set(inputs) == {"program:P3", "program:P4"}
        assert inputs[WOLFF]["label"] == "Kurt Wolff · Albatros D.III"
        written = await table.bob_user.submit_modal(shown, {WOLFF: "bl, bl-tr"})
        assert written.acknowledged and not answers(written), answers(written)
        panel = refreshed(table.bob_user, panel)
        assert f"✓ {WRITTEN}" in panel.content  # read back as its cards
        # The picture is redrawn with the program flown (its ghost path), as after a pick.
        assert panel.attachments and await panel.attachments[0].read() != blank
        assert (await table.drafts(table.bob_user))[WOLFF] == WRITTEN

        # The Entente writes a program its Nieuport cannot fly (one bank left in its deck):
        # the rule's reason, and nothing drafted.
        own = dm_panel(table.alice_user)
        shown = await table.alice_user.click(own, custom_id=write_button(own))
        refused = await table.alice_user.submit_modal(shown, {"program:P1": "BL BL BL"})
        said = answers(refused)
        assert "BL BL BL" in said and "not that many copies" in said and "Nothing changed" in said
        assert "Albert Ball · Nieuport 17" in said
        assert "program:P1" not in await table.drafts(table.alice_user)

        for user in (table.alice_user, table.bob_user):
            locked = await fill_and_lock(table, user)
            assert locked.acknowledged and not locked.followups, [
                f.content for f in locked.followups
            ]
        await world.pump()

        service = world.services.campaigns
        export = await service.export(table.campaign_id)
        program_round = next(r for r in export["rounds"] if r["kind"] == "program")
        central = next(lock for lock in program_round["locks"] if lock["side"] == "central")
        assert choice_of(central["canonical"])[WOLFF] == WRITTEN  # the locked choice
        log = await service.log(table.campaign_id, per_page=200)
        flown = [e.data for e in reversed(log.entries) if e.kind == "card-revealed"]  # in order
        assert [card["card"] for card in flown if card["plane"] == "P3"] == ["BL", "BL", "TR"]


async def test_a_player_whose_dms_are_closed_writes_through_program(
    world: World, close_dms: Callable[[simcord.Env, simcord.UserHandle], None]
) -> None:
    async with simcord.run(world.new_bot()) as env:
        world.env = env
        table = await open_wings(world, env, before_start=lambda _a, bob: close_dms(env, bob))
        shown = await table.bob.slash(table.channel, "program")
        assert set(modal_inputs(shown)) == {"program:P3", "program:P4"}
        result = await table.bob.submit_modal(shown, {WOLFF: WRITTEN.lower()})
        panel = ephemeral_panel(result)
        assert f"✓ {WRITTEN}" in panel.content
        refused = await table.bob.submit_modal(
            await table.bob.slash(table.channel, "program"), {"program:P4": "IM IM IM"}
        )
        assert "IM IM IM" in ephemeral_panel(refused).content  # the reason, then the panel
        assert (await table.drafts(table.bob_user)).get("program:P4") is None
        # The same panel through /orders locks it; nothing reached the channel.
        orders = ephemeral_panel(await table.bob.slash(table.channel, "orders"))
        assert f"✓ {WRITTEN}" in orders.content
        for field in ("program:P4", "winch"):
            value = quick_picks(orders, field)[0]
            custom_id = next(c for c in custom_ids(orders) if c.endswith(f":{field}"))
            assert (await table.bob.select(orders, [value], custom_id=custom_id)).acknowledged
        assert (await lock(table.bob, orders)).acknowledged
        assert (await table.drafts(table.bob_user))[WOLFF] == WRITTEN
        assert WRITTEN not in "\n".join(m.content for m in table.channel.history())


async def test_a_modal_after_a_restart_a_lock_or_the_round_s_end(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        world.env = env
        table = await open_wings(world, env)
        panel = dm_panel(table.bob_user)
        before = await table.bob_user.click(panel, custom_id=write_button(panel))
        late = await table.bob_user.click(panel, custom_id=write_button(panel))
        # A restart between opening the modal and sending it: it is still taken.
        await env.restart_bot(world.new_bot())
        taken = await table.bob_user.submit_modal(before, {WOLFF: WRITTEN})
        assert taken.acknowledged and not answers(taken)
        assert (await table.drafts(table.bob_user))[WOLFF] == WRITTEN
        # The same again (a double submit) changes nothing and says nothing.
        again = await table.bob_user.click(panel, custom_id=write_button(panel))
        assert modal_inputs(again)[WOLFF]["value"] == WRITTEN  # filled with the draft
        assert not answers(await table.bob_user.submit_modal(again, {WOLFF: WRITTEN}))
        # After Lock: refused, nothing changed.
        await fill_and_lock(table, table.bob_user)
        after = await table.bob_user.submit_modal(late, {WOLFF: "S S S"})
        assert "orders are locked" in answers(after)
        assert (await table.drafts(table.bob_user))[WOLFF] == WRITTEN
        # A modal opened in a round that is over: "this round is over", nothing changed.
        own = dm_panel(table.alice_user)
        stale = await table.alice_user.click(own, custom_id=write_button(own))
        await fill_and_lock(table, table.alice_user)
        await world.pump()
        over = await table.alice_user.submit_modal(stale, {"program:P1": "S S S"})
        assert "over" in answers(over).lower()
        assert "This round is over" in refreshed(table.alice_user, own).content


async def test_a_french_panel_writes_in_french(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        world.env = env
        table = await open_wings(world, env, locale="fr")
        panel = dm_panel(table.bob_user)
        labels = [
            child.label
            for row in panel.components
            for child in getattr(row, "children", ())
            if isinstance(child, discord.Button)
        ]
        assert "✎ Écrire les programmes" in labels
        shown = await table.bob_user.click(panel, custom_id=write_button(panel))
        assert shown.modal is not None and shown.modal["title"].startswith("Tour 1")
        assert modal_inputs(shown)[WOLFF]["placeholder"].startswith("ex. BL BL TR")
        refused = await table.bob_user.submit_modal(shown, {WOLFF: "BL BL BL"})
        said = answers(refused)
        assert "ne peut pas être joué" in said and "Rien n’a changé" in said

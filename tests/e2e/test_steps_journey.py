"""A choice built in steps, as a player makes it in Discord: the DM panel's page of the
choice shows one select per step, each later one offering only what the picks before it
allow; a changed first step clears the later ones; an older copy of a step's select or a
double click changes nothing and says so; a restart mid-choice keeps what was picked; the
whole choice is locked and the turn resolves. In the skirmish test game (Red's barrage,
salvo by salvo), in English and French, and in Wings (a program card by card)."""

from __future__ import annotations

from collections.abc import Callable

import discord
import pytest
import simcord

from bot.service_model import Pace
from tests import skirmish
from tests.e2e.conftest import World, manager_role
from tests.e2e.test_orders import custom_ids, dm_panel, ephemeral_panel, forge, refreshed, refusal
from tests.e2e.test_written_programs import WOLFF, fill_and_lock, open_wings

WORDS = {
    "en": {"step": "Step 2", "restart": "↺ Start again", "page": "step by step"},
    "fr": {"step": "Étape 2", "restart": "↺ Recommencer", "page": "étape par étape"},
}
OUTDATED = {"en": "changed since this panel was drawn", "fr": "changé depuis"}


@pytest.fixture(autouse=True)
def _skirmish(monkeypatch: pytest.MonkeyPatch) -> None:
    skirmish.register(monkeypatch)


def steps_of(panel: discord.Message | simcord.ResponseMessage) -> list[discord.SelectMenu]:
    """The panel's step selects, in step order."""
    found = []
    for row in panel.components:
        for child in getattr(row, "children", ()):
            if isinstance(child, discord.SelectMenu) and child.custom_id.startswith("sortie:st:"):
                found.append(child)
    return found


def offered(select: discord.SelectMenu) -> list[str]:
    return [o.value for o in select.options]


def button(panel: discord.Message | simcord.ResponseMessage, prefix: str) -> discord.Button:
    for row in panel.components:
        for child in getattr(row, "children", ()):
            if isinstance(child, discord.Button) and (child.custom_id or "").startswith(prefix):
                return child
    raise AssertionError(f"no {prefix} button in {custom_ids(panel)}")


async def pick(
    user: simcord.UserHandle | simcord.MemberActor,
    panel: discord.Message | simcord.ResponseMessage,
    step: int,
    value: str,
) -> simcord.InteractionResult:
    custom_id = steps_of(panel)[step].custom_id
    return await user.select(panel, [value], custom_id=custom_id)


async def steps_page(user: simcord.UserHandle) -> discord.Message:
    """Red's DM panel turned to the barrage's page (its page button)."""
    panel = dm_panel(user)
    clicked = await user.click(panel, custom_id=button(panel, "sortie:page:").custom_id)
    assert clicked.acknowledged
    return refreshed(user, panel)


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_a_barrage_built_salvo_by_salvo_is_locked_and_resolved(
    world: World, locale: str
) -> None:
    async with simcord.run(world.new_bot()) as env:
        world.env = env
        guild = env.create_guild()
        channel = guild.create_text_channel("ridge")
        gm = guild.add_member(env.create_user("gm"), roles=[manager_role(guild)])
        alice_user, bob_user = env.create_user("alice"), env.create_user("bob")
        alice, bob = guild.add_member(alice_user), guild.add_member(bob_user)
        service = world.services.campaigns
        info = await service.create_campaign(
            guild.id, channel.id, gm.id, "ridge", Pace(), ruleset=skirmish.KEY,
            seed="steps", locale=locale,
        )  # fmt: skip
        await alice.slash(channel, "campaign join", side="blue")
        await bob.slash(channel, "campaign join", side="red")
        await gm.slash(channel, "campaign start")
        await world.pump()
        words = WORDS[locale]

        first = dm_panel(bob_user)
        assert words["page"] in button(first, "sortie:page:").label
        panel = await steps_page(bob_user)
        selects = steps_of(panel)
        assert len(selects) == 3 and offered(selects[0]) == ["he", "smoke", "rest"]
        assert selects[1].disabled and selects[2].disabled
        assert words["step"] in (selects[2].placeholder or "")  # "pick step 2 first"

        # Step 1, then step 2 offers only what "he" allows (the barrels are hot).
        assert not (await pick(bob_user, panel, 0, "he")).followups
        panel = refreshed(bob_user, panel)
        assert offered(steps_of(panel)[1]) == ["smoke", "rest"]
        assert button(panel, "sortie:sx:").label == words["restart"]
        stale_second = steps_of(panel)[1].custom_id
        await pick(bob_user, panel, 1, "smoke")
        panel = refreshed(bob_user, panel)
        assert offered(steps_of(panel)[2]) == ["he", "rest"]  # one smoke a turn
        await pick(bob_user, panel, 2, "he")
        mine = await service.panel(info.id, bob_user.id)
        assert mine.drafts["barrage"] == "he smoke he"

        # Step 1 changed: the later steps are cleared, the whole choice with them.
        panel = refreshed(bob_user, panel)
        await pick(bob_user, panel, 0, "rest")
        panel = refreshed(bob_user, panel)
        second, third = steps_of(panel)[1:]
        assert offered(second) == ["he", "smoke", "rest"] and not any(
            o.default for o in second.options
        )
        assert third.disabled
        assert "barrage" not in (await service.panel(info.id, bob_user.id)).drafts

        # A double click on step 1: nothing changes, nothing said.
        before = await service.panel(info.id, bob_user.id)
        again = await pick(bob_user, panel, 0, "rest")
        assert again.acknowledged and not again.followups
        assert (await service.panel(info.id, bob_user.id)).version == before.version

        # An older copy of step 2 (drawn over "he"): refused, the panel redrawn.
        forge(env, panel, steps_of(panel)[1].custom_id, new_custom_id=stale_second)
        stale = await bob_user.select(refreshed(bob_user, panel), ["smoke"], custom_id=stale_second)
        assert OUTDATED[locale] in refusal(stale)
        assert (await service.panel(info.id, bob_user.id)).steps["barrage"].picks == ("rest",)

        # A restart mid-choice keeps the pick; the choice goes on from it.
        await env.restart_bot(world.new_bot())
        panel = refreshed(bob_user, panel)
        assert [o.value for o in steps_of(panel)[0].options if o.default] == ["rest"]
        await pick(bob_user, panel, 1, "he")
        panel = refreshed(bob_user, panel)
        await pick(bob_user, panel, 2, "rest")
        assert (await service.panel(info.id, bob_user.id)).drafts["barrage"] == "rest he rest"

        # Start again, then a quick pick instead: its salvoes show in the steps.
        panel = refreshed(bob_user, panel)
        assert await bob_user.click(panel, custom_id=button(panel, "sortie:sx:").custom_id)
        assert "barrage" not in (await service.panel(info.id, bob_user.id)).drafts
        await service.draft(info.id, bob_user.id, mine.round_id, "barrage", "smoke he rest")
        await service.write(info.id, bob_user.id, mine.round_id, {"move:R1": "E5"})
        await service.draft(info.id, bob_user.id, mine.round_id, "dig", "no")
        blue = await service.panel(info.id, alice_user.id)
        await service.write(
            info.id, alice_user.id, blue.round_id, {"move:B1": "C4", "move:B2": "C5"}
        )
        assert (await service.lock(info.id, alice_user.id, blue.round_id)).receipt
        result = await service.lock(info.id, bob_user.id, mine.round_id)
        assert result.resolved
        await world.pump()
        # The barrage stays secret in the channel until the turn ends.
        said = "\n".join(m.content for m in channel.history())
        assert "smoke he rest" not in said
        # The round over, the DM panel keeps no step to pick from.
        assert not steps_of(refreshed(bob_user, panel))


async def test_a_wings_program_picked_card_by_card_flies(
    world: World, close_dms: Callable[[simcord.Env, simcord.UserHandle], None]
) -> None:
    async with simcord.run(world.new_bot()) as env:
        world.env = env
        # Bob's DMs are closed: his panel is /orders', ephemeral, and works as well.
        table = await open_wings(world, env, before_start=lambda _a, bob: close_dms(env, bob))
        service = world.services.campaigns
        orders = ephemeral_panel(await table.bob.slash(table.channel, "orders"))
        pages = [c for c in custom_ids(orders) if c.startswith("sortie:page:")]
        assert (await table.bob.click(orders, custom_id=pages[0])).acknowledged
        panel = orders.message  # the ephemeral panel as it is now, on Kurt Wolff's page
        selects = steps_of(panel)
        assert len(selects) == 3 and selects[0].custom_id.endswith(f":{WOLFF}")
        assert all(" · " in o.label for o in selects[0].options)  # "BL · bank left"
        # Card by card: each menu holds only cards some legal program goes on from, and
        # the cards it leaves out are said with their reason.
        picks: list[str] = []
        for step in range(3):
            live = await service.panel(table.campaign_id, table.bob_user.id)
            menu = live.steps[WOLFF].menus[step]
            assert offered(steps_of(panel)[step]) == [o.id for o in menu.options]
            card = menu.options[-1 - step].id
            result = await table.bob.select(
                panel, [card], custom_id=steps_of(panel)[step].custom_id
            )
            assert result.acknowledged and not result.followups
            panel = orders.message
            picks.append(card)
        mine = await service.panel(table.campaign_id, table.bob_user.id)
        assert mine.written[WOLFF] == " ".join(picks) and WOLFF not in mine.missing
        assert f"✓ {' '.join(picks)}" in panel.content
        await fill_and_lock(table, table.alice_user)
        rest = await service.panel(table.campaign_id, table.bob_user.id)
        for field in rest.missing:
            decision = next(d for d in rest.decisions if d.field == field)
            await service.draft(table.campaign_id, table.bob_user.id, rest.round_id, field,
                                decision.options[0].id)  # fmt: skip
        assert (await service.lock(table.campaign_id, table.bob_user.id, rest.round_id)).resolved

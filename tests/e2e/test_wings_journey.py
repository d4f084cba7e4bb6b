"""A Wings of War turn played in Discord: the GM opens the campaign, each pilot's player
programs his planes from the DM panel's quick picks (fields ``program:P1``, one per plane:
names holding the field separator, which the panel's controls must route whole), locks,
and the channel shows the turn flown with the table drawn from above."""

from __future__ import annotations

import discord
import simcord

from bot.i18n import t
from bot.service_model import Pace
from tests.e2e.conftest import World, table
from tests.e2e.test_orders import (
    choose,
    control,
    custom_ids,
    dm_panel,
    lock,
    options,
    refreshed,
)


def _non_default(panel: discord.Message, field: str) -> str:
    menu = options(panel, field)
    assert len(menu) > 1, field
    return menu[1].value  # the first is the default program: pick another


async def test_programs_are_chosen_from_the_menus_and_the_turn_flies(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        world.env = env
        _, channel, gm, alice_user, bob_user, alice, bob, spectator = table(env)
        created = await gm.slash(
            channel, "campaign new", ruleset="wings", scenario="wings-1917", deadline="1h"
        )
        assert created.ephemeral and "created" in created.response.content
        await world.pump()
        await alice.slash(channel, "campaign join", side="entente")
        await bob.slash(channel, "campaign join", side="central")
        await gm.slash(channel, "campaign start")
        await world.pump()

        service = world.services.campaigns
        info = await service.campaign_in_channel(channel.id)
        assert info is not None and info.ruleset == "wings"
        picked: dict[str, str] = {}
        first = {"alice": "program:P1", "bob": "program:P3"}
        for user in (alice_user, bob_user):
            panel = dm_panel(user)
            field = first[user.name]
            assert any(c.endswith(f":{field}") for c in custom_ids(panel))
            value = _non_default(panel, field)
            result = await choose(user, panel, field, value)
            assert result.acknowledged and not result.followups, [
                f.content for f in result.followups
            ]
            panel = refreshed(user, panel)
            assert f"✓ {value}" in panel.content  # the menu's choice reached the draft
            picked[user.name] = value
        drafts = await service.panel(info.id, alice.id)
        assert drafts.drafts.get("program:P1") == picked["alice"]
        for user in (alice_user, bob_user):
            panel = refreshed(user, dm_panel(user))
            fields = [c.split(":", 5)[5] for c in custom_ids(panel) if c.startswith("sortie:o:")]
            for field in fields:  # every other menu at its first option (orders too)
                if field != first[user.name]:
                    await choose(user, panel, field, options(panel, field)[0].value)
            locked = await lock(user, refreshed(user, panel))
            assert locked.acknowledged and not locked.followups, [
                f.content for f in locked.followups
            ]
        await world.pump()
        status = await service.status(info.id)
        assert status.round is not None and (status.round.turn, status.round.kind) != (
            1,
            "program",
        )
        posted = channel.history(viewer=spectator)
        assert any(m.attachments for m in posted)  # the board, with the table drawn
        log = await service.log(info.id, per_page=50)
        flown = [e for e in log.entries if e.kind == "card-revealed"]
        assert flown, "no card flown"


async def test_a_crowded_french_panel_reads_whole_in_the_dm(world: World) -> None:
    """Turn 2 of a French campaign: the Entente's DM panel holds two planes, a Knight's
    order, the flak gunner and the balloon winch. The DM names every field, says the winch
    is behind the page button and ends on how to lock; the button shows the winch's menu."""
    async with simcord.run(world.new_bot()) as env:
        world.env = env
        guild, channel, gm, alice_user, bob_user, alice, bob, _ = table(env, gm_name="mj")
        service = world.services.campaigns
        info = await service.create_campaign(
            guild.id, channel.id, gm.id, "wings-1917", Pace(), ruleset="wings", seed="ux",
            locale="fr",
        )  # fmt: skip
        await alice.slash(channel, "campaign join", side="entente")
        await bob.slash(channel, "campaign join", side="central")
        await gm.slash(channel, "campaign start")
        await world.pump()
        # Turn 1: the Entente writes a bank left for each plane, the Central Powers take
        # their rocket attack from the quick picks; everything else at its first option.
        written = {"program:P1": "bl s s", "program:P2": "BL-S-S"}
        for user in (alice_user, bob_user):
            panel = dm_panel(user)
            if user is alice_user:
                write = control(panel, "sortie:write:")
                shown = await user.click(panel, custom_id=write)
                assert (await user.submit_modal(shown, written)).acknowledged
                panel = refreshed(user, panel)
            fields = [c.split(":", 5)[5] for c in custom_ids(panel) if c.startswith("sortie:o:")]
            for field in fields:
                if field in written:
                    continue
                index = 1 if field.startswith("program:") else 0
                await choose(user, panel, field, options(panel, field)[index].value)
                panel = refreshed(user, panel)
            assert (await lock(user, panel)).acknowledged
        await world.pump()
        panel = dm_panel(alice_user, "Tour 2")
        text = panel.content
        assert len(text) <= 2000
        ball, lewis = "Albert Ball · Nieuport 17", "Cecil Lewis · SPAD VII"
        names = (ball, lewis, f"{lewis}\u00a0: ordre permanent", "Artilleur DCA")
        for name in (*names, "Treuil des ballons"):
            assert f"**{name}**" in text, name
        assert f"Reste à choisir\u00a0: {ball}, {lewis}," in text
        assert "le bouton «\u00a0Afficher Treuil des ballons ›\u00a0»" in text
        assert text.endswith(t("inputs.how", "fr"))
        assert "✎ Écrire les programmes" in str(panel.components)
        turned = await alice_user.click(panel, custom_id=control(panel, "sortie:page:"))
        assert turned.acknowledged
        winch = options(refreshed(alice_user, panel), "winch")
        assert [o.label for o in winch][:1] == ["garder les ballons en l’air"]
    assert info.ruleset == "wings"

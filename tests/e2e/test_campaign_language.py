"""A French campaign answers in French, whatever the player's client language.

simcord clients report en-US: every player here reads Discord in English, and the campaign
was created in French. What is drawn in the campaign's language (its DM panels, its card)
answers clicks in that language too; a command about no campaign keeps the client's.
"""

from __future__ import annotations

from dataclasses import dataclass

import simcord

from bot.service_model import Pace
from engine.zero.types import Side
from tests.e2e.conftest import World, manager_role
from tests.e2e.test_archive import answer
from tests.e2e.test_orders import (
    PICKS,
    choose,
    choose_all,
    control,
    dm_panel,
    forge,
    lock,
    options,
    refusal,
    stale_copy,
)


@dataclass
class FrenchTable:
    channel: simcord.ChannelHandle
    gm: simcord.MemberActor
    akagi: simcord.UserHandle  # Japanese commander, client in English
    fletcher: simcord.UserHandle  # Allied commander, client in English
    members: list[simcord.MemberActor]
    campaign_id: int


async def _french_table(world: World, env: simcord.Env, pace: Pace | None = None) -> FrenchTable:
    world.env = env
    guild = env.create_guild()
    channel = guild.create_text_channel("mer-de-corail")
    gm = guild.add_member(env.create_user("mj"), roles=[manager_role(guild)])
    akagi, fletcher = env.create_user("akagi"), env.create_user("fletcher")
    members = [guild.add_member(akagi), guild.add_member(fletcher)]
    info = await world.services.campaigns.create_campaign(
        guild.id, channel.id, gm.id, "coral-sea", pace or Pace(), seed="fr", locale="fr"
    )
    return FrenchTable(channel, gm, akagi, fletcher, members, info.id)


async def test_a_french_panel_refuses_in_french_to_an_english_client(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await _french_table(world, env)
        channel, members = table.channel, table.members
        akagi, fletcher = table.akagi, table.fletcher
        svc = world.services.campaigns

        # Joining through the command is about this campaign: answered in French.
        joined = await members[0].slash(channel, "campaign join", side="japanese")
        assert "Vous rejoignez le camp Japonais comme commandant" in refusal(joined)
        hello = [m.content for m in akagi.dm_channel.history()]
        assert any("Ici Sortie\u00a0: vos panneaux" in text for text in hello), hello
        await svc.join(table.campaign_id, members[1].id, Side.ALLIED)
        await svc.start(table.campaign_id, table.gm.id)
        await world.pump()

        panel = dm_panel(akagi)
        # Lock before choosing: the refusal names the French fields, in French.
        text = refusal(await lock(akagi, panel))
        assert text.startswith("Non verrouillé\u00a0: choisissez d'abord"), text
        assert "Tactique de Flotte" in text and "Fleet Tactic" not in text

        # Help explains the panel in the panel's language.
        panel = dm_panel(akagi)
        text = refusal(await akagi.click(panel, custom_id=control(panel, "sortie:help:")))
        assert "Comment fonctionne le panneau d'ordres" in text, text

        # A tampered option: refused in French.
        select = control(panel, "sortie:o:", ":fleet_tactic")
        forge(env, panel, select, extra_option="warp")
        text = refusal(await akagi.select(panel, ["warp"], custom_id=select))
        assert "Tactique de Flotte" in text and "cannot be chosen" not in text, text

        # Another side's panel ids, forged into the Allied commander's DM panel.
        theirs = dm_panel(fletcher)
        forge(
            env,
            theirs,
            control(theirs, "sortie:o:", ":fleet_tactic"),
            new_custom_id=control(dm_panel(akagi), "sortie:o:", ":fleet_tactic"),
        )
        japanese_select = control(dm_panel(akagi), "sortie:o:", ":fleet_tactic")
        text = refusal(await fletcher.select(theirs, ["medium"], custom_id=japanese_select))
        assert "Ce panneau appartient au camp Japonais et vous jouez Allié" in text, text

        # A command about no campaign keeps the client's language.
        listed = await members[0].slash(channel, "campaign list")
        assert "Campaigns on this server" in refusal(listed)


async def test_a_past_round_of_a_french_panel_says_so_in_french(world: World) -> None:
    pace = Pace(round_seconds=3600, reminder_offsets=(600,))
    async with simcord.run(world.new_bot()) as env:
        table = await _french_table(world, env, pace)
        akagi, svc = table.akagi, world.services.campaigns
        await svc.join(table.campaign_id, table.members[0].id, Side.JAPANESE)
        await svc.join(table.campaign_id, table.members[1].id, Side.ALLIED)
        await svc.start(table.campaign_id, table.gm.id)
        await world.pump()
        old = dm_panel(akagi)
        await choose(akagi, old, "fleet_tactic", "close")
        restore = stale_copy(env, old)
        for _ in range(7):
            await env.advance_time(600)
        restore()
        old = next(m for m in akagi.dm_channel.history() if m.id == old.id)
        text = refusal(await choose(akagi, old, "flight_ops", "none"))
        assert text.startswith("Cette manche est terminée\u00a0: ce panneau n'est plus"), text
        # ... and the old panel itself says so in French.
        old = next(m for m in akagi.dm_channel.history() if m.id == old.id)
        assert "Cette manche est terminée" in old.content


async def test_the_export_report_of_a_french_campaign_is_french(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await _french_table(world, env)
        svc = world.services.campaigns
        await svc.join(table.campaign_id, table.members[0].id, Side.JAPANESE)
        await svc.join(table.campaign_id, table.members[1].id, Side.ALLIED)
        await svc.start(table.campaign_id, table.gm.id)
        await world.pump()
        for user, side in ((table.akagi, "japanese"), (table.fletcher, "allied")):
            await choose_all(user, dm_panel(user), PICKS[side])
            await lock(user, dm_panel(user))
        await world.pump()
        # The resource round closes the turn: its orders are public from then on.
        for user in (table.akagi, table.fletcher):
            panel = dm_panel(user, "Tour 1 · Ressource")
            await choose(user, panel, "resource", options(panel, "resource")[0].value)
            await lock(user, dm_panel(user, "Tour 1 · Ressource"))
        await world.pump()

        # The GM's client is in English: the command's own answer is, the report is not.
        result = await table.gm.slash(table.channel, "campaign export")
        message = answer(result)
        assert "in the campaign's language" in message.content
        names = [a.filename for a in message.attachments]
        assert names == [
            f"sortie-campaign-{table.campaign_id}.json",
            f"sortie-campaign-{table.campaign_id}-report.md",
            f"sortie-campaign-{table.campaign_id}.html",
        ]
        # The replay page too is the table's: French, whatever the GM's client speaks.
        page = (await message.attachments[2].read()).decode("utf-8")
        assert '<html lang="fr">' in page and ">Tour 1</h2>" in page
        assert "La campagne est en cours" in page and "Turn 1" not in page
        report = (await message.attachments[1].read()).decode("utf-8")
        assert report.startswith("# Rapport après action — Mer de Corail"), report[:80]
        assert "## Tour 1" in report and "**Ordres**" in report
        assert "Japonais\u00a0: " in report and "reçu `" in report
        assert "## Vérification" in report and "Graine\u00a0: pas encore révélée" in report
        assert "Turn" not in report and "receipt" not in report

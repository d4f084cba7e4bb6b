"""The panel's "What are my odds?" button: a Monte Carlo of the coming turn, for one side.

``sortie:odds:<campaign>:<round>:<side>``, a persistent button like the panel's others
(``cogs.orders``). The answer is ephemeral, in the campaign's language like the panel,
and only the side's own players get one: the preview starts from that side's drafts
(``bot.odds``). A panel of a past round gets "this round is over"; the simulation runs in
the preview's worker process after the click is deferred (a thread of the bot waits for
it), so Discord's 3 seconds never run out and the bot's event loop stays free.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

from bot import odds, secrecy
from bot.service_model import ServiceError
from cogs import common
from cogs.orders import BUTTONS, IDS, SIDE, _PanelButton


async def on_odds(
    interaction: discord.Interaction[Any], campaign_id: int, round_id: int, side: str
) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    info = await common.campaign_of_component(interaction, campaign_id)
    if info is None:
        return
    svc = common.campaigns(interaction)
    loc = info.locale  # the panel's language, whatever the client's
    question = await odds.ask(svc, campaign_id, interaction.user.id, round_id)
    if not secrecy.may_read_drafts(secrecy.Viewer.player(question.side), side):
        # Another side's panel (a forwarded message, a forged id): its drafts are not ours.
        raise ServiceError("wrong-side", panel_side=side, side=question.side)
    try:
        result = await odds.run(question, campaign_id, round_id)
    except odds.Busy:
        await common.say_in(interaction, loc, "odds.busy")
        return
    if result is None:
        raise ServiceError("odds-unavailable")
    await interaction.followup.send(odds.text(result, loc), ephemeral=True)


class OddsButton(_PanelButton, template=rf"sortie:odds:{IDS}:{SIDE}"):
    action = "odds"

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await common.guarded(
            interaction, on_odds(interaction, self.campaign_id, self.round_id, self.side)
        )


# The panel composer names the button by its action; ``cogs.orders`` builds it from here.
BUTTONS["odds"] = OddsButton


async def setup(client: commands.Bot) -> None:
    client.add_dynamic_items(OddsButton)


async def teardown(client: commands.Bot) -> None:
    client.remove_dynamic_items(OddsButton)

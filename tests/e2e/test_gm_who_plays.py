"""A GM who plays a side tries kick, peek, add to read the opponent (issue 30, item 1): he
is refused at each step, the peek included once another GM removed him; the other GM's
peek, in the panel's words, is listed in ``/campaign info`` for the players."""

from __future__ import annotations

import simcord

from bot.service_model import Pace
from tests.e2e.conftest import World
from tests.e2e.test_orders import Table, gm_button, open_table, refusal


async def _gm_takes_allied(table: Table) -> None:
    svc = table.world.services.campaigns
    await svc.kick(table.campaign_id, table.gm.id, table.bob.id, "the GM plays the Allies")
    await svc.add_player(table.campaign_id, table.gm.id, table.gm.id, "allied")


async def test_a_gm_who_plays_is_refused_at_the_peek_and_another_gms_peek_is_listed(
    world: World,
) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(
            world, env, pace=Pace(gm_sees_secrets=True), seat_before_start=_gm_takes_allied
        )
        svc = world.services.campaigns
        umpires = table.guild.create_role("Umpires")
        umpire = table.guild.add_member(env.create_user("umpire"), roles=[umpires])
        await svc.set_gm_role(table.guild.id, umpires.id)
        panel = await svc.panel(table.campaign_id, table.alice.id)
        await svc.draft(table.campaign_id, table.alice.id, panel.round_id, "fleet_tactic", "long")

        # 1. He cannot remove himself while the round runs.
        kick = await table.gm.slash(
            table.channel, "campaign kick", player=table.gm, reason="stepping out"
        )
        assert "cannot remove or seat himself" in refusal(kick)
        # 2. Another GM removes him (at his request, say); 3. his peek is still refused.
        asked = await umpire.slash(
            table.channel, "campaign kick", player=table.gm, reason="asked to step out"
        )
        await umpire.click(asked.response, custom_id=gm_button(asked))
        await world.pump()
        seated = {p.user_id for p in (await svc.info(table.campaign_id)).players}
        assert table.gm.id not in seated
        peek = await table.gm.slash(table.channel, "campaign peek")
        assert "have played a side" in refusal(peek)
        assert "Long Range" not in refusal(peek)
        # 4. Nor can he seat himself again.
        add = await table.gm.slash(table.channel, "campaign add", player=table.gm, side="allied")
        assert "cannot remove or seat himself" in refusal(add)
        assert table.gm.id not in {p.user_id for p in (await svc.info(table.campaign_id)).players}

        # The other GM, who never played, may look: in the panel's words, and it is recorded.
        looked = await umpire.slash(table.channel, "campaign peek")
        assert looked.ephemeral
        assert "Fleet Tactic: Long Range" in looked.response.content
        assert "fleet_tactic" not in looked.response.content
        info = await table.alice.slash(table.channel, "campaign info")
        assert info.ephemeral
        assert f"<@{umpire.id}> looked at the sides' orders of turn 1 · Orders" in (
            info.response.content
        )
        assert f"<@{table.gm.id}> looked" not in info.response.content


async def test_the_peek_names_the_picks_as_the_panel_does(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env, pace=Pace(gm_sees_secrets=True))
        svc = world.services.campaigns
        panel = await svc.panel(table.campaign_id, table.alice.id)
        await svc.draft(table.campaign_id, table.alice.id, panel.round_id, "fleet_tactic", "long")
        looked = await table.gm.slash(table.channel, "campaign peek")
        assert "Fleet Tactic: Long Range" in looked.response.content
        assert "fleet_tactic" not in looked.response.content

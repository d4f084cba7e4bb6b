"""The air war of a Memoir '44 game as a table lives it in Discord (issue 28): the GM sets
it up, the Allies deploy a fighter-bomber and attack (the flight written in a modal), the
Axis are asked by DM whether to Ambush and do, the hit is confirmed and the plane shot
down, the Axis deploy and later withdraw; anyone rolls the ground game's dice with
``/roll``; the export verifies, dice included. A French table gets French panels."""

from __future__ import annotations

import importlib.util
from typing import Any

import discord
import pytest
import simcord

from bot.export import verify_export
from bot.service_model import Pace
from tests.e2e.conftest import World, manager_role
from tests.e2e.test_orders import choose_all, custom_ids, dm_panel, lock, options, refreshed

# The flight is written in a modal: the seam's text input kind (the inputs work) brings it.
# (Looked up, not imported: importing a cog here would give the bot a second copy of it.)
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("cogs.write") is None,
    reason="the Write button comes with the seam's text inputs",
)

# A seed whose dice shoot the fighter-bomber down at the Ambush (found by replaying the
# same picks through the engine: tests/memoir44 do the rules, this is the Discord side).
SEED = "journey-3"
FLIGHT = "E6 mg inf, E7 bomb arm, E8"


def write_button(panel: discord.Message) -> str:
    found = [c for c in custom_ids(panel) if c.startswith("sortie:write:")]
    assert len(found) == 1, custom_ids(panel)
    return found[0]


def followups(result: simcord.InteractionResult) -> str:
    return "\n".join(m.content for m in result.followups)


async def _table(world: World, env: simcord.Env, locale: str = "en") -> tuple[Any, ...]:
    guild = env.create_guild()
    channel = guild.create_text_channel("air-war")
    gm = guild.add_member(env.create_user("gm"), roles=[manager_role(guild)])
    alice_user, bob_user = env.create_user("alice"), env.create_user("bob")
    alice, bob = guild.add_member(alice_user), guild.add_member(bob_user)
    spectator = guild.add_member(env.create_user("spectator"))
    info = await world.services.campaigns.create_campaign(
        guild.id, channel.id, gm.id, "western-1944", Pace(), ruleset="memoir44", seed=SEED,
        locale=locale,
    )  # fmt: skip
    await alice.slash(channel, "campaign join", side="allies")
    await bob.slash(channel, "campaign join", side="axis")
    await gm.slash(channel, "campaign start")
    await world.pump()
    return channel, gm, alice_user, bob_user, spectator, info.id


async def test_deploy_attack_ambush_shoot_down_and_withdrawal(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        world.env = env
        channel, gm, alice_user, bob_user, spectator, cid = await _table(world, env)
        service = world.services.campaigns

        # Turn 1, the Allies' Command: a Section card, an Air Combat card, deploy.
        panel = dm_panel(alice_user, "Turn 1")
        hand = [o.value for o in options(panel, "card") if o.value != "none"]
        assert hand and "Air Combat card" in panel.content
        picks = {"command": "probe-centre", "card": sorted(hand)[0]}
        picks["plane"] = "deploy-fighter_bomber"
        await choose_all(alice_user, panel, picks)
        assert (await lock(alice_user, panel)).acknowledged
        await world.pump()

        # The flight, written: a path with two tokens; a wrong one is refused with its reason.
        panel = dm_panel(alice_user, "Flight")
        shown = await alice_user.click(panel, custom_id=write_button(panel))
        refused = await alice_user.submit_modal(shown, {"flight": "E6 E8"})
        assert "E8 is not next to E6" in followups(refused)
        shown = await alice_user.click(refreshed(alice_user, panel), custom_id=write_button(panel))
        written = await alice_user.submit_modal(shown, {"flight": "e6 mg inf, e7 bomb arm, e8"})
        assert written.acknowledged and not followups(written), followups(written)
        assert (await lock(alice_user, dm_panel(alice_user, "Flight"))).acknowledged
        await world.pump()

        # The Axis are asked, by DM, whether to Ambush; they do, on token 2.
        panel = dm_panel(bob_user, "Reaction")
        ambush = [o.value for o in options(panel, "ambush")]
        assert "2-armour" in ambush
        await choose_all(bob_user, panel, {"ambush": "2-armour", "reaction": "none"})
        assert (await lock(bob_user, panel)).acknowledged
        await world.pump()

        public = "\n".join(m.content for m in channel.history(viewer=spectator))
        assert "Ambush on token 2" in public
        assert "Confirmation (Axis)" in public and "shot down" in public
        assert "The plane went down before its attack" in public
        status = await service.status(cid)
        assert status.round is not None and status.round.turn == 2

        # Turn 2, the Axis deploy a fighter; turn 3 the Allies pass; turn 4 they withdraw it.
        panel = dm_panel(bob_user, "Turn 2")
        card = sorted(o.value for o in options(panel, "card") if o.value != "none")[0]
        picks = {"command": "probe-centre", "card": card, "plane": "deploy-fighter"}
        await choose_all(bob_user, panel, picks)
        assert (await lock(bob_user, panel)).acknowledged
        await world.pump()
        panel = dm_panel(bob_user, "Flight")
        first_pick = options(panel, "flight")[0].value
        await choose_all(bob_user, panel, {"flight": first_pick})
        assert (await lock(bob_user, panel)).acknowledged
        await world.pump()
        for user, turn in ((alice_user, 3), (bob_user, 4)):
            panel = dm_panel(user, f"Turn {turn}")
            plane = "withdraw" if turn == 4 else "none"
            picks = {"command": "probe-left", "card": "none", "plane": plane}
            if turn == 3:  # the Axis fighter is up: the Allies hold their ground fire
                picks["fire"] = "none"
            await choose_all(user, panel, picks)
            locked = await lock(user, panel)
            said = locked.response.content if locked.response is not None else ""
            assert locked.acknowledged and "Not locked" not in said, said
            await world.pump()

        log = await service.log(cid, per_page=200)
        kinds = [e.kind for e in log.entries]
        assert "m44-withdrawn" in kinds and "m44-shot-down" in kinds

        # /roll: anyone at the table has the bot roll the ground game's dice.
        rolled = await spectator.slash(channel, "roll", dice=3)
        said = rolled.response.content
        assert "rolled:" in said and said.count(",") == 2, said

        # The table has its medals: the GM ends the game (the seed opens for verify).
        await service.end(cid, gm.id, "the table has its medals")
        await world.pump()
        export = await service.export(cid)
        assert any(e["kind"] == "dice-rolled" for e in export["events"])
        check = verify_export(export)
        assert check.ok and check.replayed, check.problems


async def test_a_french_table_gets_french_panels(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        world.env = env
        _channel, _gm, alice_user, bob_user, _spectator, _cid = await _table(world, env, "fr")
        panel = dm_panel(alice_user, "Tour 1")
        assert "Carte Combat aérien" in panel.content
        labels = [o.label for o in options(panel, "command")]
        assert "Accrochage · centre" in labels
        picks = {"command": "probe-centre", "plane": "deploy-fighter_bomber"}
        picks["card"] = sorted(o.value for o in options(panel, "card") if o.value != "none")[0]
        await choose_all(alice_user, panel, picks)
        assert (await lock(alice_user, panel)).acknowledged
        await world.pump()
        panel = dm_panel(alice_user, "Vol")
        shown = await alice_user.click(panel, custom_id=write_button(panel))
        await alice_user.submit_modal(shown, {"flight": FLIGHT})
        assert (await lock(alice_user, dm_panel(alice_user, "Vol"))).acknowledged
        await world.pump()
        panel = dm_panel(bob_user, "Réaction")
        assert "Embuscade" in panel.content
        labels = [o.label for o in options(panel, "ambush")]
        assert any("Embuscade sur le jeton 2" in label for label in labels)

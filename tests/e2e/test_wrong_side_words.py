"""A player who clicks another side's panel reads one refusal, whichever check caught it.

The Lock's transaction checks the clicked panel's side itself (the service's refusal); a
menu or the odds button is checked by the cog before anything is read. A forwarded panel
must read the same whichever control was clicked, and the same as the service says it.
"""

from __future__ import annotations

import pytest
import simcord

from bot.service_model import Pace, ServiceError
from engine.zero.types import Side
from tests.e2e.conftest import World, manager_role
from tests.e2e.test_orders import control, dm_panel, forge, refusal

EXPECTED = {
    "en": "This panel belongs to the Japanese side and you play Allied.",
    "fr": "Ce panneau appartient au camp Japonais et vous jouez Alliés.",
}


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_another_sides_panel_is_refused_in_the_same_words_everywhere(
    world: World, locale: str
) -> None:
    async with simcord.run(world.new_bot()) as env:
        world.env = env
        guild = env.create_guild()
        channel = guild.create_text_channel("coral-sea")
        gm = guild.add_member(env.create_user("gm"), roles=[manager_role(guild)])
        alice, bob = env.create_user("alice"), env.create_user("bob")
        svc = world.services.campaigns
        info = await svc.create_campaign(
            guild.id, channel.id, gm.id, "coral-sea", Pace(), seed="words", locale=locale
        )
        await svc.join(info.id, guild.add_member(alice).id, Side.JAPANESE)
        await svc.join(info.id, guild.add_member(bob).id, Side.ALLIED)
        await svc.start(info.id, gm.id)
        await world.pump()

        # The service's own refusal: Bob's Lock on the Japanese panel, called directly.
        round_id = (await svc.panel(info.id, bob.id)).round_id
        with pytest.raises(ServiceError) as refused:
            await svc.lock(info.id, bob.id, round_id, panel_side="japanese")
        service_words = refused.value.message(locale)
        assert service_words.startswith(EXPECTED[locale]), service_words

        # Bob's client sends the Japanese panel's ids, each forged into his own DM panel.
        theirs, panel = dm_panel(alice), dm_panel(bob)
        clicks = {}
        for prefix, end in (
            ("sortie:lock:", ""),
            ("sortie:o:", ":fleet_tactic"),
            ("sortie:odds:", ""),
        ):
            japanese = control(theirs, prefix, end)
            forge(env, panel, control(panel, prefix, end), new_custom_id=japanese)
            clicks[prefix] = japanese
        said = {
            "lock": refusal(await bob.click(panel, custom_id=clicks["sortie:lock:"])),
            "menu": refusal(await bob.select(panel, ["medium"], custom_id=clicks["sortie:o:"])),
            "odds": refusal(await bob.click(panel, custom_id=clicks["sortie:odds:"])),
        }
        assert said == dict.fromkeys(said, service_words)
        assert not (await svc.panel(info.id, bob.id)).locked
        assert not (await svc.panel(info.id, alice.id)).drafts

"""A player who clicks another side's panel reads one refusal, whichever check caught it.

The Lock's transaction checks the clicked panel's side itself (the service's refusal); a
menu or the odds button is checked by the cog before anything is read. A forwarded panel
must read the same whichever control was clicked, and the same as the service says it.
"""

from __future__ import annotations

import pytest
import simcord

from bot.service_model import ServiceError
from tests.e2e.conftest import World
from tests.e2e.test_orders import control, dm_panel, forge, open_table, refusal

EXPECTED = {
    "en": "This panel belongs to the Japanese side and you play Allied.",
    "fr": "Ce panneau appartient au camp Japonais et vous jouez Alliés.",
}


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_another_sides_panel_is_refused_in_the_same_words_everywhere(
    world: World, locale: str
) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env, seed="words", locale=locale)
        svc, campaign_id = world.services.campaigns, table.campaign_id
        alice, bob = table.alice_user, table.bob_user

        # The service's own refusal: Bob's Lock on the Japanese panel, called directly.
        round_id = (await svc.panel(campaign_id, bob.id)).round_id
        with pytest.raises(ServiceError) as refused:
            await svc.lock(campaign_id, bob.id, round_id, panel_side="japanese")
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
        assert not (await svc.panel(campaign_id, bob.id)).locked
        assert not (await svc.panel(campaign_id, alice.id)).drafts

"""A Lock the rules refuse as a whole, as a commander meets it in Discord: a Memoir '44
deployment with no Air Combat card (each pick legal in its own menu) is answered with the
reason in the panel's language, the panel stays open with its picks, and the same Lock
goes through once a card is picked (``Rules.check_choice``)."""

from __future__ import annotations

import pytest
import simcord

from tests.e2e.conftest import World, open_by_slash, table
from tests.e2e.test_orders import choose_all, dm_panel, lock, options, refreshed, refusal

SAID = {
    "en": "Not locked: deploying needs an Air Combat card. Change your orders, then lock again;"
    " nothing changed.",
    "fr": "Ordres non verrouillés\u00a0: déployer demande une carte Combat aérien.",
}


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_a_deployment_without_its_card_is_refused_at_lock(world: World, locale: str) -> None:
    async with simcord.run(world.new_bot()) as env:
        world.env = env
        seats = table(env, "air-war")
        alice_user = seats.alice_user
        service = world.services.campaigns
        campaign_id = await open_by_slash(
            world, seats, "western-1944", ("allies", "axis"), ruleset="memoir44",
            seed="lock-check", locale=locale,
        )  # fmt: skip

        panel = dm_panel(alice_user)
        picks = {"command": "probe-centre", "card": "none", "plane": "deploy-fighter"}
        await choose_all(alice_user, panel, picks)
        result = await lock(alice_user, panel)
        assert SAID[locale] in refusal(result)
        # Nothing locked: the panel still offers Lock, with the picks as they were.
        mine = await service.panel(campaign_id, alice_user.id)
        assert not mine.locked and dict(mine.drafts) == picks
        panel = refreshed(alice_user, panel)
        assert any(o.default and o.value == "deploy-fighter" for o in options(panel, "plane"))

        card = next(o.value for o in options(panel, "card") if o.value != "none")
        await choose_all(alice_user, panel, {"card": card})
        assert (await lock(alice_user, panel)).acknowledged
        assert (await service.panel(campaign_id, alice_user.id)).round_id != mine.round_id

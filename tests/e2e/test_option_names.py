"""A forged pick in Discord is refused with the option's name, as the panel names it (issue
16: the refusal showed ``large:...``). simcord's clients all speak en-US, so the French
wording is checked through the service (tests/service/test_option_names.py)."""

from __future__ import annotations

import simcord

from tests.e2e.conftest import World
from tests.e2e.test_orders import control, dm_panel, drafts, forge, open_table, refusal


async def test_a_forged_option_is_named_in_english(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        panel = dm_panel(table.alice_user)
        select = control(panel, "sortie:o:", ":flight_ops")
        forge(env, panel, select, extra_option="large:invasion-force")
        result = await table.alice_user.select(panel, ["large:invasion-force"], custom_id=select)
        text = refusal(result)
        assert text.startswith("Large Strike → "), text
        assert "large:" not in text and "invasion-force" not in text
        assert await drafts(world, table, "japanese") == {}

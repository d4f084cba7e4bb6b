"""The "What are my odds?" button on the DM order panel, through simcord with the real bot."""

from __future__ import annotations

import pytest
import simcord

from bot import odds
from bot.service_model import Pace
from tests.e2e.conftest import World
from tests.e2e.test_orders import (
    JAPANESE,
    choose,
    control,
    custom_ids,
    dm_panel,
    forge,
    open_table,
    refreshed,
    refusal,
)

SAMPLES = 10  # the figures' quality is the service tests' business; here, the journey


@pytest.fixture(autouse=True)
def _few_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(odds, "SAMPLES", SAMPLES)


async def test_a_commander_asks_for_the_odds_privately(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        panel = dm_panel(table.alice_user)
        await choose(table.alice_user, panel, "flight_ops", "large:allied-fleet")
        panel = refreshed(table.alice_user, panel)
        button = control(panel, "sortie:odds:")
        assert button.endswith(f":{JAPANESE}")

        result = await table.alice_user.click(panel, custom_id=button)
        answer = refusal(result)
        assert "Odds of the coming turn for the Japanese" in answer
        assert f"{SAMPLES} simulated plays" in answer
        assert "TF 17" in answer and "boxes" in answer
        # Unpicked fields are named as drawn at random; the drafted one is not.
        assert "Fleet Tactic" in answer.split("Not picked yet")[1]
        # Asking again on the same panel gives the same figures, and nothing went public.
        again = await table.alice_user.click(panel, custom_id=button)
        assert refusal(again) == answer
        assert "Odds of the coming turn" not in table.public_text()
        assert not any(
            "Odds of the coming turn" in m.content for m in table.bob_user.dm_channel.history()
        )


async def test_the_other_side_and_a_past_round_get_a_clear_refusal(world: World) -> None:
    pace = Pace(round_seconds=3600, reminder_offsets=(600,))
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env, pace=pace)
        old = dm_panel(table.alice_user)
        button = control(old, "sortie:odds:")

        # Bob's client sends the Japanese panel's button id (forged into his own panel).
        bobs = dm_panel(table.bob_user)
        forge(env, bobs, control(bobs, "sortie:odds:"), new_custom_id=button)
        result = await table.bob_user.click(bobs, custom_id=button)
        assert "belongs to the Japanese side and you play Allied" in refusal(result)
        assert "Odds of the coming turn" not in refusal(result)

        # The round passes its deadline: the old panel loses its controls, and a client
        # still showing the old button (a stale copy) is told the round is over.
        for _ in range(7):
            await env.advance_time(600)
        assert "Turn 1 · Resource" in dm_panel(table.alice_user).content
        assert not custom_ids(refreshed(table.alice_user, old))
        current = dm_panel(table.alice_user, "Turn 1 · Resource")
        own = control(current, "sortie:odds:")
        forge(env, current, own, new_custom_id=button)
        result = await table.alice_user.click(current, custom_id=button)
        assert "This round is over" in refusal(result)
        # The resource round's panel has its own button, and it answers.
        forge(env, current, button, new_custom_id=own)
        result = await table.alice_user.click(current, custom_id=own)
        assert "Odds of the coming turn for the Japanese" in refusal(result)

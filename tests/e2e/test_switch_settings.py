"""In Discord, a GM fixes a Wings campaign's switches with /campaign settings before its
start: a bad value is refused as on /campaign new, a good one is confirmed, reaches the
table and the log (the option completes the scenario's switches until then); once the
campaign has started the change is refused, saying why."""

from __future__ import annotations

from tests.e2e.conftest import World, join_and_start, table
from tests.e2e.test_orders import gm_button, refusal


async def test_the_gm_fixes_the_switches_before_the_start_and_not_after(world: World) -> None:
    async with world.running() as env:
        seats = table(env, "east")
        channel, gm, spectator = seats.channel, seats.gm, seats.spectator
        created = await gm.slash(
            channel, "campaign new", ruleset="wings", scenario="wings-1917",
            deadline="1h", switches="front=westren",
        )  # fmt: skip
        assert "cannot be westren" in created.response.content  # refused at creation
        await gm.slash(
            channel, "campaign new", ruleset="wings", scenario="wings-1917",
            deadline="1h", switches="sun=on",
        )  # fmt: skip
        await world.pump()
        service = world.services.campaigns
        info = await service.campaign_in_channel(channel.id)
        assert info is not None

        offered = await gm.autocomplete(channel, "campaign settings", "switches", "front=e")
        assert [choice["value"] for choice in offered] == ["front=eastern"]
        bad = await gm.slash(channel, "campaign settings", reason="typo", switches="front=east")
        assert "cannot be east: use western, eastern" in refusal(bad)
        assert "Confirm" not in str(bad.response.components)
        asked = await gm.slash(
            channel, "campaign settings", reason="meant the east", switches="front=eastern"
        )
        assert "switches sun=on → front=eastern sun=on" in asked.response.content
        done = await gm.click(asked.response, custom_id=gm_button(asked))
        assert done.acknowledged and done.response is not None
        # The GM reads what changed and what it means for the start, not the round clock's
        # note: he did not touch the time per round or the reminders.
        said = done.response.content
        assert said.startswith("Settings changed: switches sun=on → front=eastern sun=on.")
        assert "will start with these switches" in said
        assert "time per round" not in said and "reminders" not in said
        await world.pump()
        view = (await service.status(info.id)).view
        assert view.data["front"] == "eastern"  # type: ignore[attr-defined]
        shown = (await gm.slash(channel, "campaign info")).response.content
        assert "front=eastern (the scenario's: western)" in shown
        log = (await spectator.slash(channel, "log")).response.content
        assert "meant the east" in log and "front=eastern sun=on" in log

        # A change of the clock still says when the new time per round applies.
        asked = await gm.slash(channel, "campaign settings", reason="slower", deadline="2h")
        clock = await gm.click(asked.response, custom_id=gm_button(asked))
        assert clock.response is not None
        said = clock.response.content
        assert "count from the next round" in said and "switches" not in said

        await join_and_start(world, seats, ("entente", "central"))
        assert not await gm.autocomplete(channel, "campaign settings", "switches", "sun")
        late = await gm.slash(channel, "campaign settings", reason="oops", switches="sun=off")
        assert "only before the campaign starts" in refusal(late)
        assert "Confirm" not in str(late.response.components)
        view = (await service.status(info.id)).view
        assert view.data["rules"]["sun"] is True  # type: ignore[attr-defined]

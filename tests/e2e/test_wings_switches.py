"""A GM sets Wings switches on /campaign new in Discord: a bad switch is refused with what
would do, a good set is shown back and reaches the campaign, and a ruleset without switches
refuses them."""

from __future__ import annotations

from tests.e2e.conftest import World, gm_creates, join_and_start, table


async def test_the_gm_sets_the_front_and_rules_and_sees_them_back(world: World) -> None:
    async with world.running() as env:
        seats = table(env, "east")
        channel, gm, spectator = seats.channel, seats.gm, seats.spectator
        service = world.services.campaigns

        refused = await gm.slash(
            channel, "campaign new", ruleset="wings", scenario="wings-1917", switches="warp=on"
        )
        assert refused.ephemeral and "Unknown switch warp" in refused.response.content
        assert "front, sun, sun_above_clouds" in refused.response.content  # what would do
        refused = await gm.slash(
            channel, "campaign new", ruleset="wings", scenario="wings-1917", switches="front=south"
        )
        assert "cannot be south: use western, eastern" in refused.response.content
        refused = await gm.slash(
            channel, "campaign new", ruleset="wings", scenario="wings-1917", switches="front"
        )
        assert "name=value" in refused.response.content
        refused = await gm.slash(
            channel, "campaign new", scenario="coral-sea", switches="front=eastern"
        )
        assert "has no switches" in refused.response.content
        assert await service.campaign_in_channel(channel.id) is None

        created = await gm_creates(
            gm, channel, ruleset="wings", scenario="wings-1917", deadline="1h",
            switches="front=eastern, sun=on ammunition=off",
        )  # fmt: skip
        shown = " ".join(f.content for f in created.followups)
        assert "front=eastern (the scenario's: western)" in shown
        assert "ammunition=off (the scenario's: on)" in shown and "sun=on," in shown
        await world.pump()
        info = await service.campaign_in_channel(channel.id)
        assert info is not None and info.ruleset == "wings"
        view = (await service.status(info.id)).view
        data = view.data  # type: ignore[attr-defined]
        assert data["front"] == "eastern" and data["mission"]["front"] == "eastern"
        assert data["rules"]["ammunition"] is False and data["rules"]["sun"] is True

        # Public: the channel's board says which front it is fought on (its summary).
        await join_and_start(world, seats, ("entente", "central"))
        posted = channel.history(viewer=spectator)
        alts = [a.description or "" for m in posted for a in m.attachments]
        assert any("Eastern Front" in alt for alt in alts), alts

"""The Wings channel as a spectator reads it in Discord (ux-wings4, issue 27): a turn without
a pursuit ends on a round nobody decides in, which posts nothing of its own; the programs'
reveal, sealed until the turn ends, posts nothing either; at the turn's end its round
message becomes the turn as flown (the programs by pilot, the story, a picture and an
animation, the receipts in one line): one message a turn."""

from __future__ import annotations

import simcord

from tests.e2e.conftest import World, open_by_slash, table


async def test_a_turn_without_a_pursuit_reads_as_one_round(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        world.env = env
        seats = table(env)
        channel, alice, bob, spectator = seats.channel, seats.alice, seats.bob, seats.spectator
        service = world.services.campaigns
        await open_by_slash(
            world, seats, "wings-1917", ("entente", "central"), ruleset="wings", seed="ux"
        )
        info = await service.campaign_in_channel(channel.id)
        assert info is not None
        for member in (alice, bob):  # every field at its default
            panel = await service.panel(info.id, member.id)
            for decision in panel.decisions:
                await service.draft(
                    info.id, member.id, panel.round_id, decision.field, decision.default
                )
            await service.lock(info.id, member.id, panel.round_id)
        await world.pump()
        messages = list(channel.history(viewer=spectator))
        texts = [m.content for m in messages]
        assert not [text for text in texts if "Tailing reorder" in text], texts
        # Issue 27: no "revealed" message that reveals nothing, no separate end of turn:
        # turn 1 is one message, its round message turned into the turn as flown.
        heads = [text.split("\n")[0] for text in texts if "Turn 1" in text or "turn 1" in text]
        assert heads == ["**Turn 1 · Programs** — flown"], heads
        turn = next(m for m in messages if m.content.startswith("**Turn 1 · "))
        lines = turn.content.split("\n")
        assert lines[1] == "This turn — planes down: Entente 1"
        # Every pilot by name with the cards he flew; no plane ids, no coordinates.
        for pilot in ("Albert Ball", "Cecil Lewis", "Kurt Wolff", "Karl Allmenröder"):
            assert any(line.startswith(f"**{pilot}**") and "flew `" in line for line in lines)
        assert "P1" not in turn.content and "(8." not in turn.content
        # The receipts in one line, checked; the salts stay in /receipt and the export.
        assert lines[-1].startswith("Receipts: 2 locked, 2 opened ✔"), lines[-1]
        assert "salt `" not in turn.content
        # The turn's picture and its animation, each described for a screen reader.
        names = [a.filename for a in turn.attachments]
        assert names == ["turn-1.png", "turn-1.gif"], names
        assert all(a.description and "Albert Ball" in a.description for a in turn.attachments)
        # Then turn 2 opens in a message of its own: two messages for the whole first turn.
        assert texts.index(turn.content) == len(texts) - 2
        assert texts[-1].startswith("**Turn 2 · Programs** — orders are open")

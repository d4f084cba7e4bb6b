"""Wings of War as it is played at a table (issue 27), through Discord in simcord: a player
picks a program for Albert Ball, sees it flown as a ghost path on his own panel before Lock
(the other side's panel does not change), locks, and the channel then shows the turn flown:
that program by that pilot in the text, the turn's picture and its animation, one message
for the turn, the receipts in one line. The panel's Help speaks Wings, not the carrier."""

from __future__ import annotations

import io

import simcord
from PIL import Image

from tests.e2e.conftest import World, open_by_slash, table
from tests.e2e.test_orders import choose, custom_ids, dm_panel, lock, options, refreshed


async def _picture(message: object) -> bytes:
    attachments = getattr(message, "attachments", [])
    assert attachments, "the panel has no picture"
    return bytes(await attachments[0].read())


async def test_a_program_is_previewed_locked_and_shown_flown_by_its_pilot(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        world.env = env
        seats = table(env)
        channel, alice_user, bob_user = seats.channel, seats.alice_user, seats.bob_user
        await open_by_slash(
            world, seats, "wings-1917", ("entente", "central"), ruleset="wings", seed="table"
        )

        panel = dm_panel(alice_user)
        before = await _picture(panel)
        bob_before = await _picture(dm_panel(bob_user))
        menu = options(panel, "program:P1")
        default = menu[0].value
        # A program that flies other cards than the default (which the bot would fly).
        program = next(o.value for o in menu[1:] if o.value.split()[:3] != default.split()[:3])
        picked = await choose(alice_user, panel, "program:P1", program)
        assert picked.acknowledged and not picked.followups
        panel = refreshed(alice_user, panel)
        after = await _picture(panel)
        # The preview: Albert Ball's program flown as a ghost path, on Alice's panel only.
        assert after != before
        assert Image.open(io.BytesIO(after)).width == 800
        assert await _picture(refreshed(bob_user, dm_panel(bob_user))) == bob_before
        # Help speaks Wings: its card codes, not the carrier's L/W and CAP.
        helped = await alice_user.click(panel, custom_id=next(
            c for c in custom_ids(panel) if c.startswith("sortie:help:")
        ))  # fmt: skip
        said = " ".join(m.content for m in (helped.response, *helped.followups) if m is not None)
        assert "BL, TL" in said and "CAP" not in said

        for user in (alice_user, bob_user):
            panel = refreshed(user, dm_panel(user))
            fields = [c.split(":", 5)[5] for c in custom_ids(panel) if c.startswith("sortie:o:")]
            for field in fields:  # every other choice at its first option
                if not (user is alice_user and field == "program:P1"):
                    await choose(user, panel, field, options(panel, field)[0].value)
            locked = await lock(user, refreshed(user, panel))
            assert locked.acknowledged and not locked.followups
        await world.pump()

        messages = list(channel.history(viewer=seats.spectator))
        turn = next(m for m in messages if m.content.startswith("**Turn 1 · Programs** — flown"))
        cards = " ".join(program.split()[-3:])
        assert f"**Albert Ball** (Nieuport 17) flew `{cards}`" in turn.content
        assert turn.content.split("\n")[-1].startswith("Receipts: 2 locked, 2 opened ✔")
        names = [a.filename for a in turn.attachments]
        assert names == ["turn-1.png", "turn-1.gif"]
        still = Image.open(io.BytesIO(await turn.attachments[0].read()))
        assert still.format == "PNG"
        animation = Image.open(io.BytesIO(await turn.attachments[1].read()))
        assert animation.format == "GIF" and animation.n_frames > 10
        # The picture's words name the pilot and his cards too (its alt text).
        assert f"Albert Ball (Nieuport 17) flew {cards}" in (turn.attachments[0].description or "")
        # One message for turn 1 (its round message, edited), then turn 2's.
        firsts = [m.content.split("\n")[0] for m in messages]
        assert [h for h in firsts if "Turn 1" in h or "turn 1" in h] == [
            "**Turn 1 · Programs** — flown"
        ]

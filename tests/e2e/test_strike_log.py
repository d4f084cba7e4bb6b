"""/log in Discord with a strike told in full (issue 16): the pages hold every detail line,
each page fits one message (2,000 characters) with whole lines, and the pager walks them."""

from __future__ import annotations

import discord
import simcord

from tests.e2e.conftest import World
from tests.e2e.test_orders import RESOURCE, open_table, play_round


def _older(message: discord.Message, page: int) -> str | None:
    """The pager button to the page after ``page`` (its number is in the custom id)."""
    for row in message.components:
        for child in getattr(row, "children", ()):
            custom = str(getattr(child, "custom_id", None) or "")
            if custom.startswith("sortie:log:") and int(custom.split(":")[3]) == page + 1:
                return custom
    return None


async def test_log_pages_carry_every_strike_detail_line_whole(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        await play_round(world, table)
        await play_round(world, table, RESOURCE, "Resource")

        reply = await table.spectator.slash(table.channel, "log", turn=1)
        assert reply.response is not None
        pages = [reply.response.content]
        message = reply.response.message
        while (custom := _older(message, len(pages))) is not None:
            clicked = await table.spectator.click(reply.response, custom_id=custom)
            assert clicked.response is not None
            pages.append(clicked.response.content)
            message = clicked.response.message
            reply = clicked
        assert len(pages) > 2
        lines = [line for page in pages for line in page.splitlines()[1:]]
        assert all(len(page) <= 2000 for page in pages)
        assert all(line.startswith("`T1`") for line in lines)  # no line cut in two
        combat = [line for line in lines if ", air combat (" in line]
        flak = [line for line in lines if " Flak (" in line]
        assert combat and flak
        assert all(
            line.rstrip().endswith(("damage", "damage point", "damage points", "…"))
            or "spoiled" in line
            for line in combat + flak
        )


def test_a_page_of_long_lines_shortens_them_instead_of_losing_the_last() -> None:
    from datetime import UTC, datetime
    from types import SimpleNamespace

    from cogs.status import _log_text

    duel = {
        "strike": "T2-J1",
        "phases": ["target-bound", "ingress", "bomb", "egress", "home-bound"],
        "attacking": {"aircraft": "A6M2", "role": "leader", "number": "2", "pilot": "P" * 60},
        "defending": {"aircraft": "F4F", "role": "wingman", "number": "1", "pilot": "Q" * 60},
        "attacks": 3,
        "to_defender": 2,
        "to_attacker": 1,
    }
    at = datetime(2026, 1, 1, tzinfo=UTC)
    entries = [
        SimpleNamespace(kind="strike-duel", data=duel, turn=2, void=i == 0, at=at)
        for i in range(10)
    ]
    entries.append(SimpleNamespace(kind="paused", data={"by": 7}, turn=2, void=False, at=at))
    page = SimpleNamespace(page=1, pages=1, entries=entries, names={})
    text = _log_text(page, "en", None)
    lines = text.splitlines()
    assert len(text) <= 2000 and len(lines) == 12
    assert lines[-1].endswith("<@7> paused the campaign")  # the short last line is whole
    assert lines[1].startswith("`T2`") and lines[1].endswith("…~~")  # void marks kept
    assert _log_text(page, "en", None, 1500).count("\n") == 11

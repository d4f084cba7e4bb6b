"""``/campaign export`` attaches the replay page beside the export and the report: a running
campaign's shows what the channel has seen, a finished one's is verified, a page too large
for Discord stays behind with a word why, and nobody but the GM gets one."""

from __future__ import annotations

import sys

import pytest
import simcord

from tests.e2e.conftest import World
from tests.e2e.test_archive import answer, end_campaign
from tests.e2e.test_orders import Table, open_table
from tests.replay.html import read_page


async def _play_round(world: World, table: Table) -> None:
    """Both commanders lock their first legal options (through the service)."""
    svc = world.services.campaigns
    for member in (table.alice, table.bob):
        panel = await svc.panel(table.campaign_id, member.id)
        for decision in panel.decisions:
            await svc.draft(
                table.campaign_id, member.id, panel.round_id, decision.field, decision.options[0].id
            )
        await svc.lock(table.campaign_id, member.id, panel.round_id)
    await world.pump()


async def _export(table: Table) -> tuple[str, dict[str, bytes]]:
    message = answer(await table.gm.slash(table.channel, "campaign export"))
    files = {a.filename: await a.read() for a in message.attachments}
    return message.content, files


async def test_export_attaches_the_page_running_then_finished(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        await _play_round(world, table)  # turn 1's orders: revealed, doctrines sealed
        said, files = await _export(table)
        cid = table.campaign_id
        assert list(files) == [
            f"sortie-campaign-{cid}.json",
            f"sortie-campaign-{cid}-report.md",
            f"sortie-campaign-{cid}.html",
        ]
        assert "still running, so it shows only what the channel has seen" in said
        html = files[f"sortie-campaign-{cid}.html"].decode("utf-8")
        page = read_page(html)
        assert [s.id for s in page.sections] == ["campaign", "turn-1"]
        assert page.sections[1].headings[0] == (2, "Turn 1 (being played)")
        # The players as the server names them, never a bare id.
        assert "alice (commander)" in html and "bob (commander)" in html
        assert "Doctrine" not in html  # sealed until the turn ends

        await _play_round(world, table)  # the resource round ends turn 1
        await end_campaign(table, "a short war")
        said, files = await _export(table)
        assert "one file that opens in any browser" in said
        html = files[f"sortie-campaign-{cid}.html"].decode("utf-8")
        page = read_page(html)
        assert [s.id for s in page.sections] == ["campaign", "turn-1", "after-action"]
        assert "Verified: every receipt and every event replayed" in html
        assert "Doctrine" in html and "a short war" in html


async def test_a_page_too_large_stays_behind_and_the_export_goes(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with simcord.run(world.new_bot()) as env:
        # The bot loads its cogs as extensions, each a module of its own: patch that one.
        monkeypatch.setattr(sys.modules["cogs.campaign"], "ATTACHMENTS_LIMIT", 60_000)
        table = await open_table(world, env)
        await _play_round(world, table)
        said, files = await _export(table)
        assert [name.rsplit(".", 1)[-1] for name in files] == ["json", "md"]
        assert "over Discord's 0.0572 MB for attachments, so it is not attached" in said


async def test_only_the_gm_gets_a_page(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        await _play_round(world, table)
        for member in (table.alice, table.spectator):
            result = await member.slash(table.channel, "campaign export")
            assert not answer(result).attachments

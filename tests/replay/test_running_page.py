"""The page of a campaign still running holds nothing the channel has not seen.

Differential: two campaigns identical but for the Japanese choices the channel has not
seen yet (the doctrine, sealed until the turn ends, and the resource of a round still
open) give the GM byte-identical pages mid-turn; once the turn's end opens them, the pages
differ (so the test would see them). Receipts are salted hashes of the choice, different
by design: as in ``tests/service/test_secrecy_differential.py`` they are computed here
without the choice, in the service and in verify alike.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bot.clock import ManualClock
from bot.demo import SeededTokens
from engine.zero.catalog import Catalog
from engine.zero.loader import default_catalog
from tests.replay.html import read_page
from tests.service.support import ALL, JAP, Env


async def _pages(path: Path, catalog: Catalog, pick: int) -> list[str]:
    """The GM's page after each step of turn 1; Japan's secret choices differ by ``pick``."""
    clock = ManualClock(datetime(2026, 2, 1, tzinfo=UTC))
    env = await Env(path, catalog, clock, SeededTokens(5)).open()
    try:
        cid = await env.campaign()
        pages = []
        for user in (JAP, ALL):
            panel = await env.svc.panel(cid, user)
            for decision in panel.decisions:
                choose = pick if user == JAP and decision.field == "doctrine" else 0
                option = decision.options[choose % len(decision.options)]
                await env.svc.draft(cid, user, panel.round_id, decision.field, option.id)
            await env.svc.lock(cid, user, panel.round_id)
        pages.append((await env.svc.replay_page(cid)).html)  # orders revealed, doctrine not
        panel = await env.svc.panel(cid, JAP)
        (resource,) = panel.decisions
        await env.svc.draft(cid, JAP, panel.round_id, "resource", resource.options[pick].id)
        await env.svc.lock(cid, JAP, panel.round_id)
        pages.append((await env.svc.replay_page(cid)).html)  # a lock in an open round
        await env.fill(cid, ALL)
        await env.svc.lock(cid, ALL, panel.round_id)
        pages.append((await env.svc.replay_page(cid)).html)  # the turn's end opens them
        return pages
    finally:
        await env.close()


async def test_a_running_campaigns_page_shows_no_unopened_choice(
    tmp_path: Path,
    choice_free_receipts: None,
    boards_drawn: list[tuple[dict[str, bool], str | None]],
) -> None:
    boards = boards_drawn
    catalog = default_catalog()
    first = await _pages(tmp_path / "a.db", catalog, 0)
    second = await _pages(tmp_path / "b.db", catalog, 1)
    assert first[0] == second[0], "the page shows a doctrine sealed until the turn ends"
    assert first[1] == second[1], "the page shows a choice locked in a round still open"
    assert first[2] != second[2], "the turn's end opened the choices: the pages must differ"
    # What the page said while the turn ran: the public board, the locks and no choice.
    page = read_page(first[1])
    running = page.sections[-1]
    assert running.id == "turn-1" and running.headings[0] == (2, "Turn 1 (being played)")
    assert "still running" in first[1] and "Verified" not in first[1]
    assert "Doctrine" not in first[1] and "sealed until it opens" in running.text
    assert "still open: its choices are secret" in running.text
    assert "Doctrine" in first[2]
    # The turn being played shows its board as the channel does: who locked, and by when.
    assert any(any(locked.values()) and deadline for locked, deadline in boards)

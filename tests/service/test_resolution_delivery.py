"""What delivering a resolution does on the event loop, counted (issue 29).

A resolving Lock queues a dozen announcements (the old round's message and panels, the
reveal, the new round's message and panels, at a turn's end its reports and summary, at
the campaign's end the after-action and the card). Each is composed, then sent, in a turn
of the event loop of its own, so no single callback holds up every other player's click
for all of them; and a closed round's panel, which only says the round is over, is not
worked out (its orders, drafts, view) for nothing. Counted in turns of the loop and calls,
never timed.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import threading
from typing import Any

import pytest

from bot import announce
from bot import panel as panels
from bot.outbox import Target
from tests.service.support import ALL, JAP, Env


class Turns:
    """Counts the event loop's turns while running: a task that only yields."""

    def __init__(self) -> None:
        self.count = 0
        self.running = True

    async def tick(self) -> None:
        while self.running:
            self.count += 1
            await asyncio.sleep(0)


async def _resolved(env: Env) -> int:
    """A campaign whose first round has just resolved, its announcements undelivered."""
    cid = await env.campaign()
    worker = env.worker()
    await worker.deliver_due()
    rng = random.Random(2)
    round_id = await env.fill(cid, JAP, rng)
    await env.fill(cid, ALL, rng)
    await env.svc.lock(cid, JAP, round_id)
    await env.svc.lock(cid, ALL, round_id)
    await env.svc.settle()
    return cid


async def test_each_announcement_is_sent_in_a_turn_of_the_loop_of_its_own(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _resolved(env)
    turns = Turns()
    sent_at: list[int] = []
    composed_at: list[int] = []
    send = env.sender.send

    async def sending(target: Target, announcement: Any, **kwargs: Any) -> Any:
        sent_at.append(turns.count)
        return await send(target, announcement, **kwargs)  # never waits: an in-memory post

    monkeypatch.setattr(env.sender, "send", sending)
    compose = announce.AnnouncementBuilder._compose

    async def composing(self: Any, *args: Any) -> Any:
        composed_at.append(turns.count)
        return await compose(self, *args)

    monkeypatch.setattr(announce.AnnouncementBuilder, "_compose", composing)
    ticker = asyncio.get_running_loop().create_task(turns.tick())
    await asyncio.sleep(0)
    try:
        report = await env.worker().deliver_due()
    finally:
        turns.running = False
        await ticker
    assert report.delivered >= 6, report  # the round's message, panels, reveal, the next's
    assert len(sent_at) == report.delivered
    # Every send and every composition in a later turn than the one before it.
    assert all(a < b for a, b in itertools.pairwise(sent_at)), sent_at
    assert all(a < b for a, b in itertools.pairwise(composed_at)), composed_at


async def test_a_closed_rounds_panel_is_not_worked_out(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    cid = await _resolved(env)
    worked: list[tuple[str, str]] = []
    real = announce.panel_data

    async def panel_data(
        tx: Any, rules: Any, campaign: Any, player: Any, live: Any, *a: Any, **k: Any
    ) -> Any:
        worked.append((player.side, live.status))
        return await real(tx, rules, campaign, player, live, *a, **k)

    monkeypatch.setattr(announce, "panel_data", panel_data)
    env.sender.sent.clear()
    await env.worker().deliver_due()
    panels = [a for _, a, _ in env.sender.sent if a.kind == "dm-panel"]
    closed = [a for a in panels if a.panel is None]
    opened = [a for a in panels if a.panel is not None]
    # Both commanders' panels of the round just resolved say so; both get the next one's.
    assert len(closed) == 2 and len(opened) == 2, [a.text for a in panels]
    async with env.repo.read() as tx:
        campaign = await tx.campaign(cid)
    assert campaign is not None
    for announcement in closed:
        assert announcement.text.endswith(announce.t("service.panel.over", campaign.locale))
    # Worked out for the open round's two panels only.
    assert sorted(status for _, status in worked) == ["open", "open"], worked


async def test_the_new_rounds_panels_are_composed_off_the_event_loop(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The next round's order panels are composed where pictures are drawn (a drawing
    process; a thread in tests), not on the event loop as the resolving Lock settles."""
    await _resolved(env)
    loop_thread = threading.get_ident()
    where: list[bool] = []  # composed on the event loop's thread?
    compose = panels.compose

    def composing(*args: Any, **kwargs: Any) -> Any:
        where.append(threading.get_ident() == loop_thread)
        return compose(*args, **kwargs)

    monkeypatch.setattr(panels, "compose", composing)
    env.sender.sent.clear()
    await env.worker().deliver_due()
    opened = [a for _, a, _ in env.sender.sent if a.kind == "dm-panel" and a.panel is not None]
    assert len(opened) == 2
    assert where == [False, False]
    for announcement in opened:  # composed whole: its words and its controls
        assert announcement.panel is not None and announcement.panel.selects
        assert announcement.text == announcement.panel.text

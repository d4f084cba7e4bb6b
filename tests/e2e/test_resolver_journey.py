"""A whole campaign through Discord with its rounds resolved in a worker process, as the
bot runs them (``bot.resolver``; the other end-to-end tests resolve in a thread).

simcord stands the bot's clock (``time.monotonic``) still between events; the resolver
once asked multiprocessing whether its worker was alive, a wait that counts even a zero
timeout on that clock, and the first resolving Lock never settled. Every round of the
campaign now goes to the worker, none is worked out in the bot's own process.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot import resolver
from tests.e2e.conftest import World
from tests.e2e.test_campaign_flow import (
    test_whole_coral_sea_campaign_through_discord as whole_campaign,
)


async def test_a_whole_campaign_resolves_every_round_in_the_worker_process(
    world: World, resolver_pool: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[Any] = []  # the rounds sent to the worker
    here: list[Any] = []  # the rounds worked out in this process
    real_ask, real_play = resolver._Worker.ask, resolver.play

    def ask(worker: Any, job: Any, seconds: float) -> Any:
        if job is not None:
            asked.append(job)
        return real_ask(worker, job, seconds)

    def play(*args: Any) -> Any:
        here.append(args)
        return real_play(*args)

    monkeypatch.setattr(resolver._Worker, "ask", ask)
    monkeypatch.setattr(resolver, "play", play)
    await whole_campaign(world)

    async with world.services.repo.read() as tx:
        rows = await tx.raw.execute_fetchall(
            "SELECT COUNT(*) FROM rounds WHERE status = 'resolved'"
        )
    resolved = rows[0][0]
    assert resolved >= 6  # the campaign was played to its end
    assert len(asked) == resolved and here == []

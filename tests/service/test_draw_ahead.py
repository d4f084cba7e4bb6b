"""A round's pictures are drawn as soon as it opens, where pictures are drawn in worker
processes (issue 29): the round message's board in every lock state it can show before it
resolves, and each deciding side's order panel. The first Lock then finds its board drawn.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot import boards, drawing, secrecy, service_states
from bot.clock import from_epoch
from tests.service.support import Env


def _count_draws(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    drawn: list[str] = []
    real = drawing.draw

    async def draw(plugin: Any, method: str, *args: Any) -> Any:
        drawn.append(method)
        return await real(plugin, method, *args)

    monkeypatch.setattr(drawing, "draw", draw)
    monkeypatch.setattr(drawing, "in_workers", lambda: True)
    monkeypatch.setattr(drawing, "_pool_for", lambda plugin: None)  # drawn in a thread here
    return drawn


async def _drawing_ahead_from_round_two(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, list[str]]:
    """A campaign whose first round is played, then drawing ahead on, its draws counted."""
    cid = await env.campaign()
    await env.play_round(cid, random.Random(2))
    await env.svc.settle()
    drawn = _count_draws(monkeypatch)
    env.svc.draws_ahead = True
    return cid, drawn


async def test_a_rounds_boards_and_panels_are_drawn_when_it_opens(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    cid, drawn = await _drawing_ahead_from_round_two(env, monkeypatch)
    await env.play_round(cid, random.Random(3))
    await env.svc.settle()
    # Two sides decide: no lock, each side's lock alone (both: the round resolves); and
    # each side's panel.
    assert sorted(drawn) == ["panel_image"] * 2 + ["status_board"] * 3
    async with env.repo.read() as tx:
        campaign = await tx.campaign(cid)
        live = await tx.live_round(cid)
        assert campaign is not None and live is not None
        rules = env.svc.rulesets.get(campaign.ruleset).rules
        public = await service_states.view_at(
            tx, rules, live.snapshot_before_id, secrecy.Viewer.public()
        )
    plugin = env.svc.rulesets.get(campaign.ruleset)
    when = boards.deadline_words(from_epoch(live.deadline_at) if live.deadline_at else None)
    drawn.clear()
    for locked in ({}, {"japanese": True}, {"allied": True}):
        await boards.status_board(plugin, public, locked, campaign.locale, when)
    assert drawn == []  # every one was drawn ahead: taken from the cache


async def test_nothing_is_drawn_ahead_unless_the_bot_asks(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    cid = await env.campaign()
    drawn = _count_draws(monkeypatch)
    await env.play_round(cid, random.Random(2))
    await env.svc.settle()
    assert drawn == []


async def test_past_its_share_of_rounds_the_pool_leaves_a_rounds_pictures_to_its_first_click(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Many rounds resolved at once (one deadline for many campaigns): each one waiting for
    # the pool held its views, and a player's own picture queued behind them all.
    cid, drawn = await _drawing_ahead_from_round_two(env, monkeypatch)
    full = drawing.AHEAD_PER_WORKER * max(1, drawing.workers())
    monkeypatch.setattr(drawing, "_ahead", full)
    await env.play_round(cid, random.Random(3))
    await env.svc.settle()
    assert drawn == [] and drawing._ahead == full
    monkeypatch.setattr(drawing, "_ahead", full - 1)  # one round's room frees
    await env.play_round(cid, random.Random(4))
    await env.svc.settle()
    assert sorted(drawn) == ["panel_image"] * 2 + ["status_board"] * 3
    assert drawing._ahead == full - 1  # its room given back once drawn

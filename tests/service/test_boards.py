"""The status board is drawn once per state and shared (issue 13): the round message a
Lock refreshes and ``/status`` reuse it, a change of locks, locale or state draws anew."""

from __future__ import annotations

import asyncio
import gc
import random
from typing import Any

import pytest

from bot import boards
from bot.announce import AnnouncementBuilder
from bot.boards import BoardCache, status_board
from bot.rulesets import Plugin, Registry
from bot.secrecy import Viewer
from bot.service_states import state_of, view_of
from rendering.presenter import NO_DRAFTS
from tests.service.support import JAP, Env


class CountingPresenter:
    def __init__(self, inner: Any, fail: bool = False) -> None:
        self.inner = inner
        self.calls: list[tuple[Any, ...]] = []
        self.fail = fail

    def status_board(self, view: Any, locked: Any, when: Any, locale: str) -> bytes:
        self.calls.append((id(view), tuple(sorted(locked.items())), when, locale))
        if self.fail:
            raise RuntimeError("pen ran dry")
        return bytes(self.inner.status_board(view, locked, when, locale))


def counted(plugin: Any, presenter: CountingPresenter) -> Any:
    """A plugin whose presenter counts the boards it draws (drawn here, not by a worker)."""
    return Plugin(plugin.rules, presenter)


async def test_a_board_is_drawn_once_per_view_locks_and_locale(env: Env) -> None:
    cid = await env.campaign()
    plugin = env.svc.rulesets.get("carrier")
    counting = CountingPresenter(plugin.presenter)
    wrapped: Any = counted(plugin, counting)
    cache = BoardCache()
    async with env.repo.read() as tx:
        campaign = await tx.campaign(cid)
        assert campaign is not None
        state = await state_of(tx, plugin.rules, campaign.snapshot_id)
    view = view_of(plugin.rules, state, Viewer.public())
    nobody = {"japanese": False, "allied": False}
    first = await status_board(wrapped, view, nobody, "en", cache=cache)
    again = await status_board(wrapped, view, nobody, "en", cache=cache)
    assert first is not None and again == first and len(counting.calls) == 1
    # a lock changes the picture, so does the locale: each drawn once, then shared
    one = {"japanese": True, "allied": False}
    locked = await status_board(wrapped, view, one, "en", cache=cache)
    assert locked != first and len(counting.calls) == 2
    assert await status_board(wrapped, view, one, "en", cache=cache) == locked
    assert await status_board(wrapped, view, nobody, "fr", cache=cache) != first
    assert len(counting.calls) == 3
    # the next state has its own board
    await env.play_round(cid, random.Random(2))
    async with env.repo.read() as tx:
        campaign = await tx.campaign(cid)
        assert campaign is not None
        later = await state_of(tx, plugin.rules, campaign.snapshot_id)
    later_view = view_of(plugin.rules, later, Viewer.public())
    await status_board(wrapped, later_view, nobody, "en", cache=cache)
    assert len(counting.calls) == 4


async def test_status_requests_and_lock_messages_share_the_board(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    cid = await env.campaign()
    cache = BoardCache()
    monkeypatch.setattr(boards, "boards", cache)
    worker = env.worker()
    await worker.deliver_due()
    drawn = cache.misses
    # Ten /status requests for the same state: no new drawing.
    status = await env.svc.status(cid)
    plugin = env.svc.rulesets.get("carrier")
    for _ in range(10):
        png = await status_board(plugin, status.view, status.locked, "en", cache=cache)
        assert png is not None
    assert cache.misses <= drawn + 1 and cache.hits >= 9
    # Lock then unlock then lock: the round message shows two pictures, each drawn once.
    round_id = await env.fill(cid, JAP)
    misses = cache.misses
    for _ in range(3):
        await env.svc.lock(cid, JAP, round_id)
        await worker.deliver_due()
        await env.svc.unlock(cid, JAP, round_id)
        await worker.deliver_due()
    assert cache.misses - misses <= 2
    assert (await env.svc.status(cid)).locked == {"japanese": False, "allied": False}


async def test_a_failed_drawing_gives_none_and_is_tried_again(env: Env) -> None:
    cid = await env.campaign()
    plugin = Registry().get("carrier")
    failing = CountingPresenter(plugin.presenter, fail=True)
    wrapped: Any = counted(plugin, failing)
    cache = BoardCache()
    status = await env.svc.status(cid)
    assert await status_board(wrapped, status.view, status.locked, "en", cache=cache) is None
    failing.fail = False
    assert await status_board(wrapped, status.view, status.locked, "en", cache=cache)
    assert len(failing.calls) == 2


async def test_a_board_asked_for_while_it_is_drawn_is_drawn_once(env: Env) -> None:
    """A resolution draws the new round's boards ahead while its round message asks for
    the first of them: the second request waits for the drawing under way."""
    cid = await env.campaign()
    plugin = Registry().get("carrier")
    counting = CountingPresenter(plugin.presenter)
    wrapped: Any = counted(plugin, counting)
    cache = BoardCache()
    status = await env.svc.status(cid)
    both = await asyncio.gather(
        *(status_board(wrapped, status.view, status.locked, "en", cache=cache) for _ in "ab")
    )
    assert both[0] is not None and both[0] == both[1]
    assert len(counting.calls) == 1
    # A drawing that fails leaves the one who waited for it to try for itself.
    counting.fail = True
    french = [status_board(wrapped, status.view, status.locked, "fr", cache=cache) for _ in "ab"]
    assert await asyncio.gather(*french) == [None, None]
    assert len(counting.calls) == 3


def test_the_cache_is_bounded_by_bytes_not_count() -> None:
    cache = BoardCache(max_bytes=1000)
    views = [object() for _ in range(10)]
    for index, view in enumerate(views):
        cache.put((index, "k", "status", (), "en", None), view, b"x" * 300)
    assert len(cache) == 3  # 900 bytes kept, the oldest dropped
    assert cache.get((9, "k", "status", (), "en", None), views[9]) == b"x" * 300
    assert cache.get((0, "k", "status", (), "en", None), views[0]) is None
    # an entry is only returned for the very view it was drawn from
    assert cache.get((9, "k", "status", (), "en", None), object()) is None


async def test_an_order_panel_picture_is_drawn_once_per_state_and_side(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    cid = await env.campaign()
    monkeypatch.setattr(boards, "boards", BoardCache())
    presenter_class = type(env.svc.rulesets.get("carrier").presenter)
    drawn: list[str] = []
    original = presenter_class.panel_image

    def counting(self: Any, view: Any, locale: str, drafts: Any = NO_DRAFTS) -> bytes:
        drawn.append(view.side if hasattr(view, "side") else "?")
        return bytes(original(self, view, locale, drafts))

    monkeypatch.setattr(presenter_class, "panel_image", counting)
    async with env.repo.read() as tx:
        rows = [row for row in await tx.outbox(cid) if row.kind == "dm-panel"]
    assert len(rows) == 2  # one panel per commander for the opening round
    builder = AnnouncementBuilder(env.repo, env.clock)
    first = [await builder.build(row) for row in rows]
    again = [await builder.build(row) for row in rows]  # a retry, a re-send, /orders...
    assert len(drawn) == 2  # each side's picture drawn once, from its own view
    for one, two in zip(first, again, strict=True):
        assert one is not None and two is not None and one.images == two.images
    assert first[0] is not None and first[1] is not None
    assert first[0].images != first[1].images  # never one side's picture for the other


class _View:
    """A view the cache can refer to weakly, as the rulesets' views are."""


def test_a_picture_goes_with_its_view() -> None:
    # The engine results' cache lets a view go; a later request gets a new view object, so
    # the picture drawn from the old one can never be hit again: it must not keep the view
    # (and what the view holds) alive past the results' budget.
    cache = BoardCache()
    kept, gone = _View(), _View()
    cache.put((id(kept), "k", "status", (), "en", None, ()), kept, b"x" * 300)
    cache.put((id(gone), "k", "status", (), "en", None, ()), gone, b"y" * 200)
    del gone
    gc.collect()
    assert cache.get((id(kept), "k", "status", (), "en", None, ()), kept) == b"x" * 300
    assert len(cache) == 1 and cache._bytes == 300
    # an id reused by a new view after the old one died finds nothing of the old one
    stale = _View()
    key = (id(stale), "k", "status", (), "en", None, ())
    cache.put(key, stale, b"z" * 100)
    del stale
    gc.collect()
    reborn = _View()
    assert cache.get((id(reborn), "k", "status", (), "en", None, ()), reborn) is None
    assert len(cache) == 1 and cache._bytes == 300


def test_the_pictures_budget_follows_the_cache_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # One knob for what the bot's process caches: the pictures take three eighths of
    # SORTIE_CACHE_MB on top of the parsed states and engine results.
    monkeypatch.setenv("SORTIE_CACHE_MB", "16")
    assert BoardCache().max_bytes == 6 * 1024 * 1024
    monkeypatch.delenv("SORTIE_CACHE_MB")
    assert BoardCache().max_bytes == int(16.5 * 1024 * 1024)

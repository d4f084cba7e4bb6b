"""Status boards drawn once per state and shared by every request that shows one (issue 13).

Drawing the board was 80-90 % of a Lock (the round message it refreshes) and of
``/status``. A board depends on the public view, who has locked, the locale and the
deadline written on it; the view object is memoised per state (``bot.service_states``), so
its identity stands for "this state". An entry lives no longer than its view, so an id
reused by a later view never finds an old picture; the cache is bounded by the bytes of the
images it keeps, not by a count (a count small enough to be cheap was thrashed by ten
campaigns locking in turn).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from bot import drawing
from bot.clock import from_epoch
from bot.rulesets import Plugin
from bot.service_cache import budget_bytes
from rendering.presenter import NO_DRAFTS

log = logging.getLogger(__name__)

# (view id, ruleset, which picture, locks shown, locale, deadline text, drafts drawn)
_Key = tuple[
    int, str, str, tuple[tuple[str, bool], ...], str, str | None, tuple[tuple[str, str], ...]
]


# The pictures' budget, on top of the parsed states' and engine results': three eighths
# of ``SORTIE_CACHE_MB`` (16.5 MiB by default, about the 16 MiB before the charges were
# rescaled to what kept entries hold; it was once a fixed 32 MiB the knob did not reach).
# A picture goes with its view (below): 1,000 campaigns held 15.4 MiB of them
# (``bench/memory.py``).
PICTURES_SHARE = 3 / 8


class BoardCache:
    """PNG bytes by (view, ruleset, picture, locks, locale, deadline), oldest out past a budget.

    An entry holds its view weakly and goes with it: a view is memoised with its state's
    results (``bot.service_states``), and once that cache lets it go, a later request gets
    a new view object, another id, so the entry could never be hit again. Held strongly,
    such views outlived the engine results' budget (1,000 campaigns: 16.6 MiB of views
    kept by 32 MiB of pictures, ``bench/memory.py --trace``). A view that cannot be
    referred to weakly is held as before.
    """

    def __init__(self, max_bytes: int | None = None) -> None:
        if max_bytes is None:
            max_bytes = budget_bytes(PICTURES_SHARE)
        self.max_bytes = max_bytes
        self._bytes = 0
        self._items: OrderedDict[_Key, tuple[Callable[[], Any], bytes]] = OrderedDict()
        # Keys whose views died: dropped on the next call, on the event loop, since a view
        # may die in any thread.
        self._dead: list[tuple[_Key, Callable[[], Any]]] = []
        # Boards being drawn now, with their view: a second request for one waits for it
        # rather than drawing it again (a round's message asks for its first board while
        # the round's pictures are still being drawn ahead).
        self._drawing: dict[_Key, tuple[Any, asyncio.Future[bytes | None]]] = {}
        self.hits = 0
        self.misses = 0

    def get(self, key: _Key, view: Any) -> bytes | None:
        self._bury()
        hit = self._items.get(key)
        if hit is None or hit[0]() is not view:
            self.misses += 1
            return None
        self._items.move_to_end(key)
        self.hits += 1
        return hit[1]

    def put(self, key: _Key, view: Any, png: bytes) -> None:
        self._bury()
        old = self._items.pop(key, None)
        if old is not None:
            self._bytes -= len(old[1])
        self._items[key] = (self._holder(key, view), png)
        self._bytes += len(png)
        while self._bytes > self.max_bytes and len(self._items) > 1:
            _key, (_view, dropped) = self._items.popitem(last=False)
            self._bytes -= len(dropped)

    def _holder(self, key: _Key, view: Any) -> Callable[[], Any]:
        dead = self._dead
        try:
            return weakref.ref(view, lambda ref: dead.append((key, ref)))
        except TypeError:
            return lambda: view

    def _bury(self) -> None:
        while self._dead:
            key, ref = self._dead.pop()
            held = self._items.get(key)
            if held is not None and held[0] is ref:  # not a newer entry under a reused id
                del self._items[key]
                self._bytes -= len(held[1])

    def __len__(self) -> int:
        return len(self._items)


boards = BoardCache()


def deadline_words(deadline: datetime | None) -> str | None:
    """The deadline as a board writes it (images cannot show Discord timestamps: UTC).

    The round message and ``/status`` write it alike, so they share one drawn board.
    """
    return deadline.strftime("%Y-%m-%d %H:%M UTC") if deadline is not None else None


async def status_board(
    plugin: Plugin[Any, Any],
    view: Any,
    locked: Mapping[str, bool],
    locale: str,
    when: str | None = None,
    *,
    cache: BoardCache = boards,
) -> bytes | None:
    """The board for ``view``, drawn off the event loop the first time only; None (logged)
    if drawing fails, so the message goes out without it and the next request tries again."""
    flags = tuple((side, bool(locked.get(side))) for side in plugin.rules.side_ids)
    key = (id(view), plugin.key, "status", flags, locale, when, ())
    return await _drawn(
        cache, key, view, "status board", plugin, "status_board", view, dict(flags), when, locale
    )


async def panel_image(
    plugin: Plugin[Any, Any],
    view: Any,
    locale: str,
    drafts: Mapping[str, str] = NO_DRAFTS,
    *,
    cache: BoardCache = boards,
) -> bytes | None:
    """A side's order panel picture (its own view and its own drafts only), drawn once per
    state, locale and drafts: every lock and unlock re-sends the panel, the picture stays the
    same; a changed draft (a flight program) may change it, so the drafts are in the key."""
    picked = tuple(sorted(drafts.items()))
    key = (id(view), plugin.key, "panel", (), locale, None, picked)
    return await _drawn(
        cache, key, view, "order panel", plugin, "panel_image", view, locale, dict(picked)
    )


async def _drawn(
    cache: BoardCache,
    key: _Key,
    view: Any,
    what: str,
    plugin: Plugin[Any, Any],
    method: str,
    *args: Any,
) -> bytes | None:
    png = cache.get(key, view)
    if png is not None:
        return png
    pending = cache._drawing.get(key)
    if pending is not None and pending[0] is view:
        shared = await asyncio.shield(pending[1])
        if shared is not None:
            return shared
        # The first request's drawing failed or was cancelled: this one tries for itself.
    future: asyncio.Future[bytes | None] = asyncio.get_running_loop().create_future()
    cache._drawing[key] = (view, future)
    drawn: bytes | None = None
    try:
        drawn = await drawing.draw(plugin, method, *args)
    except Exception:
        log.exception("%s image failed: the message goes out without it", what)
    finally:
        if cache._drawing.get(key, (None, None))[1] is future:
            del cache._drawing[key]
        future.set_result(drawn)
    if drawn is not None:
        cache.put(key, view, drawn)
    return drawn


async def draw_ahead(
    plugin: Plugin[Any, Any], prepared: Any, locale: str, *, cache: BoardCache = boards
) -> None:
    """Draw a round's pictures before anyone asks (``bot.service_panels.Prepared``): the
    round message's board in each lock state it can show before it resolves (nobody locked
    yet, then each deciding side alone, and so on), and each deciding side's order panel.
    The first Lock of a round then finds its board drawn, as does the panel it re-sends."""
    with drawing.ahead() as room:
        if room:  # else its first click draws what it shows (``bot.drawing.ahead``)
            await _ahead(plugin, prepared, locale, cache)


async def _ahead(plugin: Plugin[Any, Any], prepared: Any, locale: str, cache: BoardCache) -> None:
    live = prepared.round
    when = deadline_words(from_epoch(live.deadline_at) if live.deadline_at else None)
    deciding = [side for side in plugin.rules.side_ids if side in prepared.views]
    for mask in range(2 ** len(deciding) - 1):  # every lock state but all locked (resolved)
        locked = set(prepared.locked)
        locked.update(side for bit, side in enumerate(deciding) if mask >> bit & 1)
        flags = {side: side in locked for side in plugin.rules.side_ids}
        await status_board(plugin, prepared.public, flags, locale, when, cache=cache)
    for side in deciding:
        await panel_image(plugin, prepared.views[side], locale, cache=cache)

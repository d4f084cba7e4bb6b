"""Images drawn in worker processes, so drawing never holds up the event loop (issue 29).

Pillow holds the GIL through most of a drawing (text, quantizing, the PNG's zlib): in a
thread of the bot's own process a board drawn for one player stalled every other player's
clicks for tens of milliseconds. Here a picture is a job for a pool of worker processes,
one per core but one (``SORTIE_DRAW_WORKERS``; 0 draws in a thread, as before): the job
names the ruleset, the presenter's method and its arguments (views and plain data, which
pickle), and each worker builds the presenters once from the packaged data. Same code,
same fonts, same data: the same bytes as drawn here (``tests/test_drawing_pool.py``).

A plugin built from other data than the packaged one (a test's) is drawn in a thread,
and so is everything once the pool has failed (a worker killed, no processes on this
host): a picture is never lost to the pool.

A worker gives its heap back once it is idle (``TRIM_AFTER``): a board is drawn through
several full-size images (layers, the quantized copy, the PNG's buffers), about 27 MiB at
once, and the C allocator keeps what they freed for the next picture, so each worker
rested at its busiest size, 25 MiB above what it needs between pictures
(``bench/memory.py``). Trimming after every picture cost 5 % of the drawing's CPU; after
a quarter second with no picture to draw it costs nothing a player waits for.

Drawing ahead (``bot.boards.draw_ahead``) is bounded too (``ahead``): when many rounds
resolve at once (a deadline shared by many campaigns), each waiting round held its views
until its turn in the pool (1,000 campaigns resolved in a burst took the bot's process from
163 to 268 MiB), and a player's own picture queued behind all of them. Past a few rounds
per worker, a round's pictures are left to its first click.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot import panel as panels
from bot import preload, secrecy
from bot.heap import heap_trimmer
from bot.processes import count_set, fork_context, hangup_blocked
from bot.rulesets import Plugin

log = logging.getLogger(__name__)

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_broken = False

AHEAD_PER_WORKER = 2  # rounds drawn ahead at once per worker: the pool kept busy, no backlog
_ahead = 0  # rounds being drawn ahead now (touched on the event loop only)

TRIM_AFTER = 0.25  # seconds a worker waits with nothing to draw before giving its heap back
_idle: threading.Timer | None = None  # in a worker: the trim waiting for it to go idle
_trims = 0  # in a worker: how many times it gave its heap back


def workers() -> int:
    """Drawing processes: ``SORTIE_DRAW_WORKERS``, else one per core but one (at least one);
    0 for none.

    One per core but one, as the resolving processes: the event loop keeps a core. On the
    2-core machine a second drawing process drew a burst of rounds 17 % sooner, but a
    player's picture asked for meanwhile came ×1.96 later (161 against 82 ms), the event
    loop's p99 lag doubled (11.4 against 5.4 ms) and each picture took 8 % more CPU, the two
    processes and the loop sharing two cores (``bench/draw_workers.py``); it also held 25
    MiB more at rest and about 50 more while drawing (``bench/memory.py``)."""
    wanted = count_set("SORTIE_DRAW_WORKERS")
    return wanted if wanted is not None and wanted >= 0 else max(1, (os.cpu_count() or 1) - 1)


def _start() -> None:
    # A worker ignores Ctrl-C: the bot stops on it and stops its workers (``shut_down``).
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _job(ruleset: str, method: str, args: tuple[Any, ...]) -> Any:
    """In a worker: one picture (or report) from the packaged data's presenter."""
    _busy()
    try:
        return getattr(preload.registry().get(ruleset).presenter, method)(*args)
    finally:
        _rest()


def _plugin_job(work: Callable[..., Any], ruleset: str, *args: Any) -> Any:
    """In a worker: ``work(plugin, *args)`` with the packaged data's plugin (the same
    function the bot runs in a thread when there are no workers)."""
    _busy()
    try:
        return work(preload.registry().get(ruleset), *args)
    finally:
        _rest()


def _after_action_of(
    plugin: Plugin[Any, Any], scenario: str, current: str, records: Sequence[str], locale: str
) -> bytes:
    # The whole history parsed here, not on the event loop: every other view of a finished
    # campaign reads its last record only (``Rules.view_records``).
    rules = plugin.rules
    view = secrecy.view_for(rules, rules.load_stored(current, records), secrecy.Viewer.public())
    png: bytes = plugin.presenter.after_action(scenario, view, locale)
    return png


def _panel_of(
    plugin: Plugin[Any, Any],
    data: Any,
    scenario: str,
    locale: str,
    commander_id: int | None,
    channel_id: int | None,
) -> panels.PanelSpec:
    return panels.compose(
        plugin,
        data,
        scenario=scenario,
        locale=locale,
        commander_id=commander_id,
        channel_id=channel_id,
    )


_trim_heap = heap_trimmer()  # glibc's malloc_trim(0), None elsewhere


def _busy() -> None:
    """A picture starts: the heap it is about to reuse is not given back under it."""
    global _idle
    if _idle is not None:
        _idle.cancel()
        _idle = None


def _rest() -> None:
    """A picture is done: give the heap back unless another one starts within TRIM_AFTER."""
    global _idle
    if _trim_heap is None:
        return
    _idle = threading.Timer(TRIM_AFTER, _trim)
    _idle.daemon = True  # a worker told to stop does not wait for it
    _idle.start()


def _trim() -> None:
    global _trims
    if _trim_heap is not None:
        _trim_heap()
        _trims += 1


def _pool_for(plugin: Plugin[Any, Any]) -> ProcessPoolExecutor | None:
    if not plugin.packaged:
        return None  # a worker would draw from the packaged data, not this plugin's
    return _ensure()


def _ensure() -> ProcessPoolExecutor | None:
    global _pool, _broken
    with _lock:
        if _pool is None and not _broken and workers() > 0:
            try:
                with hangup_blocked():
                    _pool = ProcessPoolExecutor(
                        workers(), mp_context=fork_context(), initializer=_start
                    )
            except (OSError, ValueError) as error:
                _broken = True
                log.warning("drawing: no worker processes (%s); drawing in threads", error)
        return _pool


def in_workers() -> bool:
    """Whether pictures are drawn in worker processes (drawing ahead pays only then)."""
    return workers() > 0 and not _broken


async def draw(plugin: Plugin[Any, Any], method: str, *args: Any) -> Any:
    """``plugin.presenter.<method>(*args)``, in a worker process when there are some."""
    return await _drawn(
        plugin, (_job, plugin.key, method, args), getattr(plugin.presenter, method), args
    )


async def after_action(
    plugin: Plugin[Any, Any], scenario: str, current: str, records: Sequence[str], locale: str
) -> bytes:
    """The after-action report of a campaign from its last snapshot's text and its whole
    history (``Rules.load_stored``): the state parsed, seen through the secrecy gate as
    the channel sees it and drawn, all in a worker process when there are some (else in
    a thread), never on the event loop."""
    records = tuple(records)
    png: bytes = await _drawn(
        plugin,
        (_plugin_job, _after_action_of, plugin.key, scenario, current, records, locale),
        _after_action_of,
        (plugin, scenario, current, records, locale),
    )
    return png


async def composed_panel(
    plugin: Plugin[Any, Any],
    data: Any,
    scenario: str,
    locale: str,
    commander_id: int | None,
    channel_id: int | None,
) -> panels.PanelSpec:
    """``bot.panel.compose`` of an order panel the outbox sends (``PanelData``: one side's
    view, decisions and drafts only), in a worker process when there are some, else in a
    thread: a round's new panels were composed on the event loop as its resolving Lock
    settled, a game's menus and option words up to 1 ms a panel (issue 29). The same words
    and controls either way (``tests/test_drawing_pool.py``)."""
    args = (data, scenario, locale, commander_id, channel_id)
    spec: panels.PanelSpec = await _drawn(
        plugin, (_plugin_job, _panel_of, plugin.key, *args), _panel_of, (plugin, *args)
    )
    return spec


async def _drawn(
    plugin: Plugin[Any, Any],
    job: tuple[Any, ...],
    here: Callable[..., Any],
    args: tuple[Any, ...],
) -> Any:
    """``job`` (a worker's function and its arguments) in a worker process when there
    are some, else ``here(*args)`` in a thread."""
    global _pool, _broken
    pool = _pool_for(plugin)
    if pool is not None:
        try:
            with hangup_blocked():  # a job may start a worker process
                future = pool.submit(*job)
            return await asyncio.wrap_future(future)
        except (BrokenProcessPool, OSError) as error:
            log.warning("drawing: worker processes failed (%s); drawing in threads", error)
            with _lock:
                if _pool is pool:
                    _broken, _pool = True, None
            pool.shutdown(wait=False, cancel_futures=True)
    return await asyncio.to_thread(here, *args)


@contextlib.contextmanager
def ahead() -> Iterator[bool]:
    """Whether there is room to draw a round's pictures ahead now, the room held while it
    is drawn: none when ``AHEAD_PER_WORKER`` rounds per worker are being drawn ahead."""
    global _ahead
    if _ahead >= AHEAD_PER_WORKER * max(1, workers()):
        yield False
        return
    _ahead += 1
    try:
        yield True
    finally:
        _ahead -= 1


def warm_up() -> None:
    """Start the workers and build their presenters now (the bot calls this once ready),
    so the first picture players ask for does not wait for a worker to start."""
    pool = _ensure()
    if pool is not None:
        with hangup_blocked():
            futures = [pool.submit(_ready) for _ in range(workers())]
        for future in futures:
            future.result()


def _ready() -> bool:
    preload.registry()
    _rest()  # what building them left over goes back too
    return True


def shut_down() -> None:
    """Stop the worker processes (a picture being drawn finishes first); the bot's close
    calls this, so no worker outlives it. A later picture starts them again."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True)

"""What stops a SQLite repository's connection thread when the program ends without closing it.

aiosqlite runs each connection on a thread of its own, not a daemon, which waits for work
until the connection is closed. A program that fails between opening the repository and
closing it (a start-up error, an exception in a benchmark, a ``close`` that itself failed)
leaves that thread waiting, and the interpreter, which joins every such thread before it
exits, waits forever: the bot hangs instead of exiting, so its supervisor never restarts it.
Often the traceback itself keeps the repository alive, so aiosqlite's own finaliser never
runs either.

So every open repository is noted here, and once the main thread has finished, before the
interpreter joins the other threads, each one still open is told to stop. Its thread first
finishes the statement it may be running (a migration, a backup), then closes its
connection, which rolls back a transaction left open, and ends. Nothing committed is lost:
the writer's COMMIT runs on a ``concurrent.futures`` thread, which the interpreter lets
finish at exit; a write transaction open but not committed is rolled back by SQLite (its
pages in the WAL have no commit mark), and no caller was ever told it landed.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Callable
from typing import Protocol


class Abandonable(Protocol):
    def abandon(self) -> None:
        """Stop the connection's thread at once, the repository being left unclosed."""


_open: weakref.WeakSet[Abandonable] = weakref.WeakSet()
_lock = threading.Lock()


def opened(repository: Abandonable) -> None:
    with _lock:
        _open.add(repository)


def closed(repository: Abandonable) -> None:
    with _lock:
        _open.discard(repository)


def stop_abandoned() -> int:
    """Stop the threads of the repositories still open; how many there were."""
    with _lock:
        left = list(_open)
        _open.clear()
    if left:
        # aiosqlite's stop answers on the thread's current event loop if it finds one; the
        # program's loop is gone by now, and asking for it must not make a new one.
        asyncio.set_event_loop(None)
    for repository in left:
        repository.abandon()
    return len(left)


def _watch_main_thread() -> None:
    threading.main_thread().join()
    stop_abandoned()


def _install() -> None:
    # ``threading._register_atexit`` (private, but what concurrent.futures relies on) runs
    # a function after the main thread ends and before the other threads are joined: the
    # one moment this can be done. Should a later Python drop it, a daemon thread waiting
    # for the main thread does the same, a little less promptly.
    register: Callable[[Callable[[], object]], None] | None = getattr(
        threading, "_register_atexit", None
    )
    if register is not None:
        register(stop_abandoned)
        return
    threading.Thread(target=_watch_main_thread, name="sqlite-exit", daemon=True).start()


_install()

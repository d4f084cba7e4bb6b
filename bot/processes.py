"""What the bot's worker processes (odds previews, pictures, resolutions) share."""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.context
import os
import signal
import threading
from collections.abc import Iterator
from multiprocessing import forkserver


@contextlib.contextmanager
def hangup_blocked() -> Iterator[None]:
    """SIGHUP blocked in this thread while it may start processes, which keep it blocked.

    A closed terminal sends SIGHUP to the whole process group; the bot stops cleanly on it
    and stops its workers (``shut_down``), but the workers, their fork server and
    multiprocessing's resource tracker would die of it at once, the tracker then printing a
    warning and a traceback per semaphore. The processes started here (on first use, at
    ``map``) inherit this thread's signal mask, so the signal stays pending in them, unseen.
    """
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGHUP})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def count_set(variable: str) -> int | None:
    """The process count an environment variable asks for, or None when it is unset or not
    a whole number (each pool then sizes itself to the machine its own way)."""
    try:
        return int(os.environ[variable])
    except (KeyError, ValueError):
        return None


_server_lock = threading.Lock()
_server_asked = False


def fork_context() -> multiprocessing.context.ForkServerContext:
    """The start method of every worker pool: forked from multiprocessing's fork server, so
    the bot's threads and sockets are never forked into a worker, the server started once
    with ``bot.preload`` imported (what every worker shares, built once).

    Python 3.11's fork server is handed the bot's ``sys.path`` but does not apply it: it is
    started here with this copy's folder first on ``PYTHONPATH`` and named in
    ``SORTIE_PRELOAD_FROM``, which ``bot.preload`` checks (and both are put back in the
    server), so it never preloads another copy of the code (an installed one).
    """
    global _server_asked
    context = multiprocessing.get_context("forkserver")
    with _server_lock:
        if not _server_asked:
            _server_asked = True
            from bot import preload

            context.set_forkserver_preload([preload.__name__])
            path = os.environ.get("PYTHONPATH")
            first = preload.ROOT + (os.pathsep + path if path else "")
            # (hangup_blocked: it starts the resource tracker and the server)
            with _environment(PYTHONPATH=first, **{preload.FROM: preload.ROOT}), hangup_blocked():
                forkserver.ensure_running()
            # A server multiprocessing restarts (this one killed) preloads nothing: without
            # the environment above it could find another copy of the bot first.
            context.set_forkserver_preload([])
    return context


@contextlib.contextmanager
def _environment(**values: str) -> Iterator[None]:
    """``values`` in the environment of the processes started meanwhile, then put back."""
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value

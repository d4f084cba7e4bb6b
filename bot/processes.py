"""What the bot's worker processes (odds previews, pictures, resolutions) share."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator


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

"""The bot's C heap given back to the system once the bot goes quiet (issue 29).

glibc keeps what the bot frees (a parsed state's text, a board's PNG, a database row's
strings) for its next allocations and gives back only the top of its heap: after 1,000
campaigns had locked, the bot's process held 5 to 7 MiB of free heap pages at rest
(``bench/memory.py``). ``malloc_trim(0)`` returns them, 1 to 3 ms of CPU for that heap;
the pages the next calls use are faulted in again, so it runs when the bot has gone quiet.

Quiet: no collection at all for ``QUIET`` seconds, that is fewer than 700 objects
allocated and kept in that time (the youngest generation's threshold, ``bot.collector``;
a Discord call allocates thousands). One trim per quiet spell, in a thread
(``malloc_trim`` holds the heap, not the GIL: the event loop goes on), none again until
the bot has been busy; and one per ``BUSY_CHECKS`` seconds while it stays busy. The
drawing processes trim their own heap the same way once idle (``bot.drawing``).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
from collections.abc import Callable
from typing import Any

QUIET = 1.0  # seconds without a collection: the bot is idle
# A bot never quiet for a second (tens of calls a second, each collecting) trims once per
# this many checks all the same: 1 to 3 ms of CPU in a thread (1,000 campaigns' caches),
# so that its free heap pages are not kept for as long as it stays busy.
BUSY_CHECKS = 30


def heap_trimmer() -> Callable[[], Any] | None:
    """glibc's ``malloc_trim(0)`` (free heap pages back to the system), None elsewhere."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return lambda: trim(0)


class Trimmer:
    """Counts the collections (a ``gc.callbacks`` entry) and looks at the count from the
    event loop every ``quiet`` seconds; trims once when a whole period passed without one."""

    def __init__(
        self, trim: Callable[[], Any], quiet: float = QUIET, busy_checks: int = BUSY_CHECKS
    ) -> None:
        self._trim = trim
        self.quiet = quiet
        self.busy_checks = busy_checks
        self._busy = 0  # checks that found the bot busy since the last trim
        self.collections = 0  # collections seen (the bot busy), from gc.callbacks
        self._seen = 0  # the count at the last check
        self._trimmed = True  # nothing to give back before the bot has been busy
        self.trims = 0
        self._handle: asyncio.TimerHandle | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._running: asyncio.Future[Any] | None = None

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "stop":
            self.collections += 1

    def check(self) -> bool:
        """Whether to trim now: no collection since the last check and busy since the last
        trim, or busy for ``busy_checks`` checks in a row since the last trim."""
        busy = self.collections != self._seen
        self._seen = self.collections
        if busy:
            self._trimmed = False
            self._busy += 1
            if self._busy < self.busy_checks:
                return False
        elif self._trimmed:
            return False
        self._trimmed = True
        self._busy = 0
        return True

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._handle = loop.call_later(self.quiet, self._tick, loop)

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _tick(self, loop: asyncio.AbstractEventLoop) -> None:
        if self.check() and (self._running is None or self._running.done()):
            self.trims += 1
            self._running = loop.run_in_executor(None, self._trim)
        self.start(loop)


_installed: Trimmer | None = None


def install() -> Trimmer | None:
    """Trim the heap whenever the bot goes quiet, on the running event loop (idempotent);
    None where there is no ``malloc_trim`` (not glibc)."""
    global _installed
    trim = heap_trimmer()
    if trim is None:
        return None
    loop = asyncio.get_running_loop()
    if _installed is None:
        _installed = Trimmer(trim)
        gc.callbacks.append(_installed)
    if _installed.loop is not loop:  # (a bot run again in the same process: a new loop)
        _installed.stop()
        _installed.start(loop)
    return _installed


def uninstall() -> None:
    global _installed
    if _installed is not None:
        _installed.stop()
        gc.callbacks.remove(_installed)
        _installed = None

"""The in-process queue of PostgreSQL writers: schema-wide or for one campaign.

A schema-wide writer runs alone; writers of different campaigns run side by side, and two
writers of the same campaign one after the other. The queue is first come, first served
between writers that conflict: a waiter is let in once nothing running and nothing queued
ahead of it conflicts with it, so a schema-wide writer waiting behind campaign writers
holds back the campaign writers that arrive after it (it cannot starve), while a campaign
writer is never held back by a queued writer of another campaign (only by the cap on
writers running at once).

This only keeps a process's writers from each holding a pooled connection while they wait;
across processes the advisory locks of ``db.postgres`` give the same guarantee.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

SCHEMA = None  # the scope of a schema-wide writer


def _conflict(a: int | None, b: int | None) -> bool:
    return a is SCHEMA or b is SCHEMA or a == b


@dataclass(eq=False)
class _Waiter:
    scope: int | None
    granted: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class WriterGate:
    def __init__(self, most: int) -> None:
        # ``most`` writers at once: the rest of the pool stays free for reads, which would
        # otherwise queue behind a crowd of writers for a connection.
        self._most = most
        self._running: list[int | None] = []
        self._queue: deque[_Waiter] = deque()

    @asynccontextmanager
    async def enter(self, campaign: int | None = SCHEMA) -> AsyncIterator[None]:
        waiter = _Waiter(campaign)
        self._queue.append(waiter)
        self._admit()
        try:
            await waiter.granted
        except BaseException:
            # Cancelled while queued, or just as it was let in: leave no trace either way.
            if waiter in self._queue:
                self._queue.remove(waiter)
            elif not waiter.granted.cancelled():
                self._running.remove(campaign)  # let in just as it was cancelled
            self._admit()
            raise
        try:
            yield
        finally:
            self._running.remove(campaign)
            self._admit()

    def _admit(self) -> None:
        ahead: list[int | None] = list(self._running)
        for waiter in list(self._queue):
            if len(self._running) >= self._most:
                return
            if waiter.granted.cancelled():
                self._queue.remove(waiter)  # its task was cancelled while queued
                continue
            if not any(_conflict(waiter.scope, other) for other in ahead):
                self._queue.remove(waiter)
                self._running.append(waiter.scope)
                waiter.granted.set_result(None)
            # Still waiting or not, it is ahead of those queued after it: a queued
            # schema-wide writer conflicts with everyone, so nobody may pass it.
            ahead.append(waiter.scope)

    def busy(self) -> list[int | None]:
        """The scopes running now (for tests)."""
        return list(self._running)

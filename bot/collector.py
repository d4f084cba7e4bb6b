"""The garbage collector, tuned so that no full collection holds the event loop long.

A full collection walks every object the collector tracks and holds the event loop for
as long as the walk takes. What stays alive in this bot is mostly what its caches keep
(parsed states, their strike reports, the views made from them): 45,000 objects after
six campaigns, a 90 ms pause, more with every campaign cached (issue 29). Those objects
are not garbage and rarely ever become cyclic garbage (a cache entry is freed by its
reference count when it is evicted, frozen or not), so walking them again and again finds
nothing.

So the survivors of a full collection are frozen once they are many
(``FREEZE_FROM``): the next full collection walks only what was made since. What a frozen
object refers to is still freed by reference counting; only a *cycle* of objects frozen
while alive, that later becomes garbage, is never collected. The collector counts the
freezes and the frozen objects; once the frozen count has grown by ``REVIEW_GROWTH`` since
the last review (churn that reference counting did not give back), everything is
unfrozen and collected once, so such cycles cannot pile up for weeks.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from typing import Any

log = logging.getLogger("sortie.collector")

# Survivors of a full collection worth freezing: fewer are walked in a couple of
# milliseconds. Low, so that what a full collection leaves in the oldest generation (walked
# again by the next) stays small.
FREEZE_FROM = 2_000
# A full collection after every collection of the middle generation (a threshold of 0: the
# count must pass it), which itself runs after five young collections, not ten. With the
# older survivors frozen, each full collection walks only what the young generations kept
# since the last, once: more of them cost no more in all, and each walks a few thousand
# objects. Under bench/capacity.py's open loop over 1,000 campaigns (caches churning, most
# of what a cold panel parses kept) (700, 10, 2) let 20,000 to 42,000 objects reach the
# oldest generation between full collections, a pause of 53 to 96 ms on a quiet machine;
# these thresholds, 6,000 to 10,000 (issue 29).
THRESHOLDS = (700, 5, 0)
# Objects frozen (summed over the freezes) that trigger a review (unfreeze, collect).
# bench/players.py found 144 unreachable objects among 200,000 frozen: a review every
# 20 million bounds what frozen cycles hold to a few megabytes.
REVIEW_GROWTH = 20_000_000


class Collector:
    """The ``gc.callbacks`` entry (``install``); its counts, for benchmarks and tests."""

    def __init__(self) -> None:
        self.freezes = 0
        self.frozen = 0  # survivors moved out of the collector's walks, summed
        self.reviews = 0
        self._since_review = 0
        self._due = False
        self._scheduled = False
        self.thresholds: tuple[int, ...] = gc.get_threshold()  # as they were before

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop" or info.get("generation") != 2:
            return
        if self._due:
            self._schedule_review()
            return
        # Every survivor sits in the oldest generation once a full collection ends; the
        # count walks the list that collection has just walked.
        survivors = len(gc.get_objects(generation=2))
        if survivors < FREEZE_FROM:
            return
        gc.freeze()
        self.freezes += 1
        self.frozen += survivors
        self._since_review += survivors
        if self._since_review > REVIEW_GROWTH:
            self._due = True
            self._schedule_review()

    def _schedule_review(self) -> None:
        # Not from here: the collector ignores ``gc.collect`` while it runs its callbacks.
        # On the event loop's thread (a collection may run in a database or drawing
        # thread: the next one on the loop's thread schedules it).
        if self._scheduled:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._scheduled = True
        loop.call_soon(self.review)

    def review(self) -> int:
        """Unfreeze and collect everything once (one long pause per ``REVIEW_GROWTH``
        objects frozen): what a frozen cycle left as garbage is freed. Unreachable objects
        found."""
        self._due = self._scheduled = False
        self._since_review = 0
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        self.reviews += 1
        log.info("collector review: %d unreachable objects freed", found)
        return found


_installed: Collector | None = None


def install() -> Collector:
    """Freeze what full collections find alive, from now on (idempotent)."""
    global _installed
    if _installed is None:
        _installed = Collector()
        _installed.thresholds = gc.get_threshold()
        gc.set_threshold(*THRESHOLDS)
        gc.callbacks.append(_installed)
    return _installed


def uninstall() -> None:
    global _installed
    if _installed is not None:
        gc.callbacks.remove(_installed)
        gc.set_threshold(*_installed.thresholds)
        _installed = None

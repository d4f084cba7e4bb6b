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
the last review (churn that reference counting did not give back), the frozen objects are
reviewed, so such cycles cannot pile up for weeks.

A review lists the frozen objects once, then walks them a slice at a time
(``REVIEW_SLICE``), one slice per turn of the event loop. Unfreezing everything and
collecting once walked every object the process holds in one pause: 86,000 from start-up
alone, 48 ms of CPU, and 365 ms at the end of ``bench/capacity.py`` over 1,000 campaigns
(issue 29). Python 3.11 can only unfreeze everything at once, so a slice is moved out of
the frozen objects one object at a time with the interpreter's own
``PyObject_GC_UnTrack``/``PyObject_GC_Track`` (what unfreezing does to each object), then
the youngest generation is collected and the slice's survivors frozen again. A cycle is
found when all of its objects are in the same collection: a slice takes, with its
objects, every frozen object they reach (a cycle through one of them is reached from it).

Start-up's objects, frozen before the workers are forked (``bot.processes``), are left out
of reviews: they live as long as the process, and their pages are shared with the
workers until written. Listing them (``gc.get_objects``) wrote into every one of them
and copied 23 MiB of pages into the bot (``bench/memory.py``, 1,000 campaigns). A mark is
frozen right behind them (``mark_shared``) and the review lists only what comes after it,
in place (``bot/_frozen.c``, built by scripts/build_native.py; without it, the slow way).
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import logging
import types
from collections.abc import Callable, Iterable
from typing import Any


def _helper() -> Callable[[object], list[Any] | None] | None:
    """``bot/_frozen.c``'s listing, built by scripts/build_native.py; None when not built
    (reviews then list every frozen object)."""
    try:
        from bot._frozen import frozen_after
    except ImportError:
        return None
    return frozen_after


frozen_after = _helper()

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
# Objects frozen (summed over the freezes) that make a review due.
# bench/players.py found 144 unreachable objects among 200,000 frozen: a review every
# 20 million bounds what frozen cycles hold to a few megabytes.
REVIEW_GROWTH = 20_000_000
# Frozen objects one step of a review takes out, before it adds what they reach. At the end
# of bench/capacity.py over 1,000 campaigns (241,000 frozen, load 6 on the 2-core machine),
# steps of 4,000 and 4,000 more reached took up to 40 ms of CPU; 3,000 leave room under 50.
REVIEW_SLICE = 3_000
# What a slice may add to its own objects, following what they refer to: the frozen data of
# start-up (a module's rules, every game's scenarios) is reached by everything and is not
# what becomes garbage, so a slice stops short of walking it all. A garbage cycle of more
# tracked objects than this, none of them within reach of all the others, would be missed
# (a parsed state is a tree of models: its cycles, if any, are small).
REACH_MOST = 3_000
# A review's steps, apart: the event loop serves players between two.
STEP_GAP = 0.05

# Never followed from a slice: the definitions start-up made, which live as long as the
# process and through which everything reaches everything.
_STOP = (type, types.ModuleType, types.FunctionType, types.CodeType, types.BuiltinFunctionType)


def _gc_api(name: str) -> Any:
    function = getattr(ctypes.pythonapi, name)
    function.argtypes = [ctypes.py_object]
    function.restype = None
    return function


_untrack = _gc_api("PyObject_GC_UnTrack")
_track = _gc_api("PyObject_GC_Track")


# Frozen right behind start-up's objects (``mark_shared``); what reviews list starts after it.
_mark: list[object] | None = None


def mark_shared() -> None:
    """Mark what is frozen now as start-up's, shared with the workers forked from this
    process: no review lists it again. Called once start-up froze it, before any other
    freeze (``bot.processes.share_start_up``); only the first call marks."""
    global _mark
    if _mark is None:
        _mark = []  # a list is tracked from birth: frozen, it sits behind all before it
        gc.freeze()


def _frozen_since_start_up() -> list[Any] | None:
    """The frozen objects after the mark, listed without writing into the others; None
    without a mark, without the helper, or when the mark was unfrozen since."""
    if _mark is None or frozen_after is None:
        return None
    return frozen_after(_mark)


def _thaw(objects: Iterable[object]) -> int:
    """Move tracked objects, frozen or not, into the youngest generation (what
    ``gc.unfreeze`` does, for these objects alone). Objects moved. The caller has the
    collector disabled, so no collection untracks one between the check and the move."""
    moved = 0
    for item in objects:
        if gc.is_tracked(item):
            _untrack(item)
            _track(item)
            moved += 1
    return moved


def _with_reach(front: list[object]) -> list[object]:
    """The slice's objects and the tracked objects they reach, up to ``REACH_MOST`` more."""
    seen = {id(item) for item in front}
    taken = list(front)
    edge = front
    added = 0
    while edge and added < REACH_MOST:
        nearer: list[object] = []
        for item in gc.get_referents(*edge):
            if (
                not gc.is_tracked(item)
                or id(item) in seen
                or isinstance(item, _STOP)
                or item is _mark
            ):
                continue
            seen.add(id(item))
            nearer.append(item)
            added += 1
            if added >= REACH_MOST:
                break
        taken.extend(nearer)
        edge = nearer
    return taken


class Collector:
    """The ``gc.callbacks`` entry (``install``); its counts, for benchmarks and tests."""

    def __init__(self) -> None:
        self.freezes = 0
        self.frozen = 0  # survivors moved out of the collector's walks, summed
        self.reviews = 0
        self._since_review = 0
        self._due = False
        self._scheduled = False
        self._pending: list[Any] = []  # a review's frozen objects, oldest first
        self._at = 0  # where its next step starts in them
        self._found = 0  # unreachable objects it has found so far
        self.walked = 0  # objects its last step moved out and collected
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
        loop.call_soon(self._start)

    def review(self) -> int:
        """Review every frozen object now, step after step with no gap between them (for
        benchmarks and tests; the bot's reviews take one step per turn of its event loop).
        Unreachable objects found."""
        self._begin()
        while self.step():
            pass
        return self._found

    def _begin(self) -> None:
        """List the frozen objects, oldest first: the review's order (one pause of its own,
        about 30 ms for 200,000 frozen objects on the loaded 2-core machine)."""
        self._due = False
        self._since_review = 0
        self._found = 0
        enabled = gc.isenabled()
        gc.disable()  # the frozen objects out for the length of a listing only
        try:
            listed = _frozen_since_start_up()
            if listed is None:
                older = len(gc.get_objects(generation=2))
                gc.unfreeze()  # behind the oldest generation's own objects...
                listed = gc.get_objects(generation=2)[older:]
                gc.freeze()  # ...and back, in one move each way
                # The mark stays where it is, or later lists would miss what lies before it.
                listed = [item for item in listed if item is not _mark]
            self._pending = listed
        finally:
            if enabled:
                gc.enable()
        self._at = 0

    def _start(self) -> None:
        self._begin()
        self._next_step()

    def _next_step(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._scheduled = False  # the next full collection on the loop's thread
            self._due = True  # takes it up again
            self._pending = []
            return
        loop.call_later(STEP_GAP, self._step_then_next)

    def _step_then_next(self) -> None:
        if self.step():
            self._next_step()
        else:
            self._scheduled = False

    def step(self) -> bool:
        """One slice of a review: the next ``REVIEW_SLICE`` objects of the list, with what
        they reach, moved out of the frozen ones and collected, the survivors frozen again.
        Whether there is more to review.

        The list holds every object not yet reviewed, so a cycle through objects of later
        slices is not found garbage yet (the list refers to it); it is once its last
        object's slice comes, the objects of the slices before dropped from the list."""
        pending, at = self._pending, self._at
        front = pending[at : at + REVIEW_SLICE]
        pending[at : at + REVIEW_SLICE] = [None] * len(front)
        self._at = at + len(front)
        self.walked = 0
        if front:
            enabled = gc.isenabled()
            gc.disable()  # no collection between taking the slice and moving it
            try:
                taken = _with_reach(front)
                del front
                self.walked = _thaw(taken)
                del taken
                # A full collection as any other: the oldest generation's own objects and
                # the young ones with the slice, whose survivors are frozen (``__call__``)
                # as any full collection's; the young generations' objects are not frozen
                # before they have survived one.
                self._found += gc.collect()
            finally:
                if enabled:
                    gc.enable()
        if self._at < len(pending):
            return True
        self._pending = []
        self.reviews += 1
        log.info("collector review: %d unreachable objects freed", self._found)
        return False


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

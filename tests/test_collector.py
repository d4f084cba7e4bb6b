"""The tuned garbage collector (``bot.collector``), counted in objects walked, never timed.

Run in a child process: the collector's freezes and thresholds are the whole process's,
and the test process's own collections are not this test's to change.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _child(script: str, *args: str) -> dict[str, Any]:
    """What ``script`` prints last (JSON), run in a fresh interpreter with ``args``."""
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


SCRIPT = textwrap.dedent(
    """
    import gc, json
    from bot import collector

    class Node:  # a tracked object, as a parsed state's parts are
        def __init__(self, peer=None):
            self.peer = peer

    tuned = collector.install()
    out = {"thresholds": list(gc.get_threshold())}
    kept = [Node() for _ in range(3 * collector.FREEZE_FROM)]  # what caches keep
    gc.collect()
    # The survivors were frozen: the next full collection walks what is new, not them.
    out["walked_after"] = len(gc.get_objects(generation=2))
    out["freezes"] = tuned.freezes
    # A cycle frozen while alive is not collected once dropped, until a review.
    first = Node()
    first.peer = Node(first)
    filler = [Node() for _ in range(collector.FREEZE_FROM)]
    gc.collect()
    del first, filler
    out["found_frozen"] = gc.collect()
    # An object frozen with no cycle is still freed by its reference count.
    before = gc.get_freeze_count()
    del kept
    out["freed_by_count"] = before - gc.get_freeze_count()
    out["found_review"] = tuned.review()
    collector.uninstall()
    out["thresholds_after"] = list(gc.get_threshold())
    print(json.dumps(out))
    """
)


def test_full_collections_walk_only_what_is_new_and_a_review_frees_frozen_cycles() -> None:
    out = _child(SCRIPT)
    from bot import collector

    assert out["thresholds"] == list(collector.THRESHOLDS)
    assert out["freezes"] >= 1
    assert out["walked_after"] < collector.FREEZE_FROM  # not the 15,000 kept
    assert out["found_frozen"] == 0  # the frozen cycle is out of the collector's reach
    assert out["found_review"] >= 2  # ... until a review unfreezes and collects
    assert out["freed_by_count"] >= 3 * collector.FREEZE_FROM
    assert out["thresholds_after"] == [700, 10, 10]


CHURN = textwrap.dedent(
    """
    import gc, json
    from collections import deque
    from bot import collector

    class Node:
        def __init__(self, peer=None):
            self.peer = peer

    gc.collect()
    gc.freeze()  # start-up's objects, as ``bot.runtime.freeze_start_up`` leaves them
    collector.install()
    walked = []

    def probe(phase, info):
        if phase == "start" and info["generation"] == 2:
            walked.append(sum(len(gc.get_objects(generation=g)) for g in range(3)))

    gc.callbacks.append(probe)
    cache = deque()
    for call in range(3000):
        cache.append([Node() for _ in range(600)])  # what a cold panel parses and keeps
        scratch = [Node() for _ in range(300)]  # the call's own garbage
        del scratch
        if len(cache) > 400:
            cache.popleft()  # evicted: freed by its reference count, frozen or not
    gc.callbacks.remove(probe)
    collector.uninstall()
    print(json.dumps({"full": len(walked), "most": max(walked)}))
    """
)


def test_a_churning_cache_leaves_each_full_collection_little_to_walk() -> None:
    # Caches that keep most of what each call parses (1,000 late campaigns, issue 29):
    # under (700, 10, 2) 22,000 objects reached the oldest generation between two full
    # collections, each walked in one pause (53 to 96 ms in bench/capacity.py).
    out = _child(CHURN)
    assert out["full"] >= 50
    assert out["most"] <= 10_000, out


SLICED = textwrap.dedent(
    """
    import gc, json
    from bot import collector

    collector.REVIEW_SLICE = collector.REACH_MOST = 1_000

    class Node:
        def __init__(self, peer=None):
            self.peer = peer

    tuned = collector.install()
    kept = [Node() for _ in range(30_000)]  # what caches keep, frozen
    near = []
    for _ in range(50):
        first = Node()
        first.peer = Node(first)
        near.append(first)
    gc.collect()
    # A cycle whose two halves were frozen far apart: no slice holds both by position.
    far = [Node() for _ in range(10_000)]
    for first in near:
        first.peer.far = Node(first)
    gc.collect()
    frozen = gc.get_freeze_count()
    del near, first
    walked = []

    def probe(phase, info):
        if phase == "start":
            upto = info["generation"] + 1
            walked.append(sum(len(gc.get_objects(generation=g)) for g in range(upto)))

    gc.callbacks.append(probe)
    found = tuned.review()
    gc.callbacks.remove(probe)
    gc.unfreeze()
    left = gc.collect()  # what the review missed
    print(json.dumps({"frozen": frozen, "most": max(walked), "found": found, "left": left}))
    """
)


def test_a_review_walks_the_frozen_objects_a_slice_at_a_time_and_frees_their_cycles() -> None:
    # Unfreezing everything and collecting once walked every object the process holds in
    # one pause: 365 ms at the end of bench/capacity.py over 1,000 campaigns (issue 29).
    out = _child(SLICED)
    from bot import collector

    assert out["frozen"] > 40_000
    # A slice and what it reaches (1,000 each here), with the oldest generation's own
    # objects (fewer than FREEZE_FROM, else frozen) and the young: not the 40,000 frozen.
    assert out["most"] <= 2 * 1_000 + collector.FREEZE_FROM + 1_000, out
    assert out["found"] >= 50 * 3, out  # every cycle, the far ones too
    assert out["left"] == 0, out


ON_THE_LOOP = textwrap.dedent(
    """
    import asyncio, gc, json
    from bot import collector

    collector.REVIEW_SLICE = collector.REACH_MOST = 1_000
    collector.STEP_GAP = 0
    collector.REVIEW_GROWTH = 10**9  # none due while the objects are made

    class Node:
        def __init__(self, peer=None):
            self.peer = peer

    async def main():
        tuned = collector.install()
        steps = []
        step = tuned.step

        def counted():
            more = step()
            steps.append(tuned.walked)
            return more

        tuned.step = counted
        first = Node()
        first.peer = Node(first)
        kept = [Node() for _ in range(30_000)]
        gc.collect()  # frozen, the cycle with them
        del first
        collector.REVIEW_GROWTH = 1_000
        kept.append([Node() for _ in range(collector.FREEZE_FROM)])
        gc.collect()  # more survivors frozen: past the growth, a review is due
        for _ in range(200):  # the players' turns of the loop, the review's steps between
            await asyncio.sleep(0)
            if tuned.reviews:
                break
        return {"reviews": tuned.reviews, "steps": len(steps), "most": max(steps),
                "found": tuned._found, "kept": len(kept)}

    print(json.dumps(asyncio.run(main())))
    """
)


def test_a_due_review_runs_on_the_event_loop_a_step_per_turn() -> None:
    out = _child(ON_THE_LOOP)
    assert out["reviews"] == 1, out
    assert out["steps"] >= 30, out  # 30,000 frozen objects, 1,000 a step
    assert out["most"] <= 2_000, out
    assert out["found"] >= 2, out  # the frozen cycle dropped before it


# Start-up's objects frozen and shared with a forked process (as the workers share the
# bot's: ``bot.processes.share_start_up``), then objects frozen later with a garbage cycle
# among them; a review, either way. Prints what it found and the pages it copied.
SHARED = textwrap.dedent(
    """
    import gc, json, os, sys, time
    from bot import collector

    def private_dirty():
        for row in open("/proc/self/smaps_rollup"):
            if row.startswith("Private_Dirty:"):
                return int(row.split()[1]) * 1024

    class Node:
        def __init__(self, peer=None):
            self.peer = peer

    start_up = [{"rule": i, "words": [i, str(i)]} for i in range(150_000)]
    gc.collect()
    gc.freeze()
    collector.mark_shared()
    child = os.fork()
    if child == 0:  # a worker: maps start-up's pages, writes none
        time.sleep(60)
        os._exit(0)
    if sys.argv[1] == "slow":
        collector.frozen_after = None
    first = Node()
    first.peer = Node(first)
    cached = [Node() for _ in range(5_000)]
    gc.collect()
    gc.freeze()
    del first
    listed = collector._frozen_since_start_up()
    inside = {id(item) for item in listed} if listed is not None else None
    del listed  # (it holds the cycle)
    before = private_dirty()
    found = collector.Collector().review()
    copied = private_dirty() - before
    os.kill(child, 9)
    os.waitpid(child, 0)
    print(json.dumps({
        "helper": collector.frozen_after is not None,
        "found": found,
        "copied": copied,
        "start_up_listed": None if inside is None else any(id(x) in inside for x in start_up),
        "later_listed": None if inside is None else all(id(x) in inside for x in cached),
    }))
    """
)


def _shared_review(way: str) -> dict[str, Any]:
    return _child(SHARED, way)


def test_a_review_leaves_start_ups_shared_pages_unwritten() -> None:
    """A review lists only what was frozen after start-up (``bot/_frozen.c``), so the pages
    start-up shares with the workers stay shared: listed the slow way, every one of its
    objects is written (its reference count) and its page copied into the bot."""
    fast = _shared_review("fast")
    if not fast["helper"]:
        if os.environ.get("CI"):
            pytest.fail("bot/_frozen.c is not built (scripts/build_native.py --strict)")
        pytest.skip("bot/_frozen.c not built here (python scripts/build_native.py)")
    slow = _shared_review("slow")
    # Both find the cycle frozen after start-up and dropped since.
    assert fast["found"] >= 2 and slow["found"] >= 2
    # 150,000 start-up dicts and lists: about 30 MiB of pages, copied by the slow listing.
    assert slow["copied"] > 20 * 2**20, slow
    assert fast["copied"] < 4 * 2**20, fast
    assert fast["later_listed"] and not fast["start_up_listed"]

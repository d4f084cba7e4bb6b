"""The bot's C heap given back once it goes quiet (``bot.heap``): counted in trims and bytes.

The bytes are measured in a child process: the heap is the whole process's, and the test
process's own is not this test's to trim.
"""

from __future__ import annotations

import asyncio
import gc
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot import heap

ROOT = Path(__file__).resolve().parents[1]


def test_one_trim_per_quiet_spell() -> None:
    trims: list[int] = []
    trimmer = heap.Trimmer(lambda: trims.append(1), quiet=0.05)
    gc.callbacks.append(trimmer)

    async def spells() -> list[int]:
        trimmer.start(asyncio.get_running_loop())
        counts = []
        await asyncio.sleep(0.2)  # quiet from the start: nothing to give back yet
        counts.append(len(trims))
        for _ in range(2):
            for _ in range(8):  # busy: collections in every period
                gc.collect()
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.3)  # then quiet for several periods
            counts.append(len(trims))
        trimmer.stop()
        return counts

    try:
        assert asyncio.run(spells()) == [0, 1, 2]
    finally:
        gc.callbacks.remove(trimmer)


def test_a_bot_never_quiet_trims_every_busy_checks() -> None:
    trimmer = heap.Trimmer(lambda: None, busy_checks=5)
    trims = []
    for _ in range(23):
        trimmer.collections += 1  # a collection in every period
        trims.append(trimmer.check())
    assert trims.count(True) == 4 and trims.index(True) == 4
    assert trimmer.check()  # then quiet: busy since the last trim, once
    assert not trimmer.check()


CHILD = textwrap.dedent(
    """
    import asyncio, gc, json, sys
    from bot import heap

    def private_kib():
        with open("/proc/self/smaps_rollup") as rollup:
            rows = [row.split() for row in rollup]
        return sum(int(r[1]) for r in rows if r[0] in ("Private_Dirty:", "Private_Clean:"))

    async def main(trim):
        if trim:
            heap.install()
        # 64 MiB of strings in the heap (under glibc's mmap threshold), one in eight kept:
        # the free chunks between them are pages glibc keeps, not the top of the heap.
        blocks = [bytes(60_000) + bytes([i % 256]) for i in range(1100)]
        kept = blocks[::8]
        del blocks
        gc.collect()
        before = private_kib()
        await asyncio.sleep(3 * heap.QUIET)
        return before, private_kib(), len(kept)

    before, after, _ = asyncio.run(main(sys.argv[1] == "trim"))
    print(json.dumps({"before": before, "after": after}))
    """
)


def _given_back(trim: bool) -> int:
    run = subprocess.run(
        [sys.executable, "-c", CHILD, "trim" if trim else "keep"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    out = json.loads(run.stdout)
    return int(out["before"] - out["after"])


@pytest.mark.skipif(heap.heap_trimmer() is None, reason="malloc_trim is glibc's")
def test_a_quiet_bot_gives_its_free_heap_back() -> None:
    assert _given_back(trim=True) > 32 * 1024  # KiB: most of the 56 MiB freed
    assert _given_back(trim=False) < 8 * 1024


def test_the_bot_trims_once_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -m bot run`` installs it before opening anything."""
    from bot import client, commands
    from bot.settings import load_settings

    installed: list[object] = []
    monkeypatch.setattr(heap, "install", lambda: installed.append(1))

    def stop_here(*args: object, **kwargs: object) -> None:
        raise RuntimeError("start-up stopped by the test")

    monkeypatch.setattr(client, "build_bot", stop_here)
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    with pytest.raises(RuntimeError, match="stopped by the test"):
        asyncio.run(commands.run_bot(load_settings()))
    assert installed == [1]

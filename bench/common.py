"""Shared pieces of the benchmarks: percentiles that say how many samples they rest on,
targets printed beside the figures, and the machine the figures came from.

A percentile is the nearest-rank value (the smallest sample at or above that share of the
sorted samples); ``percentile`` refuses a p99 from fewer than 100 samples, so a figure
never claims more than its samples can give.
"""

from __future__ import annotations

import gc
import math
import os
import platform
import resource
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import TypeVar

MIN_SAMPLES = {0.5: 2, 0.95: 20, 0.99: 100}
T = TypeVar("T")


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest-rank percentile; raises if there are too few samples for it to mean much."""
    need = MIN_SAMPLES.get(share, 1)
    if len(values) < need:
        raise ValueError(f"p{share * 100:g} needs at least {need} samples, got {len(values)}")
    ordered = sorted(values)
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]


def median(values: Sequence[float]) -> float:
    return percentile(values, 0.5)


def verdict(value: float, target: float, *, at_most: bool = True) -> str:
    """``meets target`` or ``MISSES target`` (the wording the README and issue 13 use)."""
    ok = value <= target if at_most else value >= target
    return "meets target" if ok else "MISSES target"


def line(label: str, figure: str, target: str | None = None, ok: str | None = None) -> str:
    """One figure line: ``label  figure  [target: ... -> verdict]``."""
    out = f"{label:<34} {figure}"
    if target is not None:
        out += f"   [target {target}: {ok}]"
    return out


def machine() -> str:
    load = os.getloadavg()
    return (
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load average {load[0]:.2f} at start"
    )


def rss_mib() -> tuple[float, float]:
    """Resident memory now and its peak (MiB), from /proc when there is one."""
    now = peak = 0.0
    try:
        with open("/proc/self/status") as status:
            for row in status:
                if row.startswith("VmRSS:"):
                    now = int(row.split()[1]) / 1024
                elif row.startswith("VmHWM:"):
                    peak = int(row.split()[1]) / 1024
    except OSError:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        now = peak
    return now, peak


def processes_cpu(pids: Iterable[int]) -> float:
    """CPU seconds (user and system) the processes ``pids`` have used, from /proc; one
    that has ended counts nothing."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def resolver_cpu() -> float:
    """CPU seconds the round-resolving worker processes have used (``bot.resolver``)."""
    try:
        from bot import resolver
    except ImportError:  # a tree from before they were: rounds resolve in the bot's thread
        return 0.0
    return processes_cpu(resolver.pids())


async def call_cost(
    call: Callable[[], Awaitable[T]], resolving: Callable[[], float] = resolver_cpu
) -> tuple[T, float, float]:
    """``call()``'s answer, this process's CPU seconds for it, and the resolving processes'
    (``resolving``: from /proc). The /proc reads fall outside this process's CPU window:
    inside it, two of them (about 0.05 ms CPU each on the 2-core machine) were counted as
    every call's own CPU until 2026-12-07 (docs/benchmarks.md, "the draft path")."""
    before = resolving()
    start = time.process_time()
    answer = await call()
    spent = time.process_time() - start
    return answer, spent, resolving() - before


class GcPauses:
    """A ``gc.callbacks`` entry: every collection's pause, wall and CPU (ms), by phase.

    The CPU time is the collecting thread's (``time.thread_time``): on a loaded machine a
    pause's wall time includes the time the thread waited for a core, which the collector
    does not cost. ``walked``: the objects in the generations collected when it started
    (counted before the clock starts). Install it after ``bot.collector``'s entry is, so a
    pause includes that entry's work (its freeze)."""

    def __init__(self) -> None:
        self.phase = "start-up"
        self.full: dict[str, list[tuple[float, float, int]]] = {}  # phase -> (wall, cpu, walked)
        self.cpu = 0.0  # every collection's CPU, seconds
        self.collections = 0
        self._start: tuple[float, float, int] | None = None

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        generation = info["generation"]
        if phase == "start":
            walked = 0
            if generation == 2:
                walked = sum(len(gc.get_objects(generation=g)) for g in range(3))
            self._start = (time.perf_counter(), time.thread_time(), walked)
            return
        if self._start is None:
            return
        wall, cpu, walked = self._start
        self._start = None
        spent = time.thread_time() - cpu
        self.cpu += spent
        self.collections += 1
        if generation == 2:
            pause = ((time.perf_counter() - wall) * 1000, spent * 1000, walked)
            self.full.setdefault(self.phase, []).append(pause)

    def worst(self, phases: Iterable[str] | None = None) -> tuple[float, float, int, int]:
        """The worst full collection's wall and CPU (ms, each its own worst), the most
        objects one walked, and how many there were, over ``phases`` (all by default)."""
        rows = [
            row
            for name, values in self.full.items()
            if phases is None or name in phases
            for row in values
        ]
        if not rows:
            return 0.0, 0.0, 0, 0
        return (
            max(r[0] for r in rows),
            max(r[1] for r in rows),
            max(r[2] for r in rows),
            len(rows),
        )

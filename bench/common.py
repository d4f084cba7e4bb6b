"""Shared pieces of the benchmarks: percentiles that say how many samples they rest on,
targets printed beside the figures, and the machine the figures came from.

A percentile is the nearest-rank value (the smallest sample at or above that share of the
sorted samples); ``percentile`` refuses a p99 from fewer than 100 samples, so a figure
never claims more than its samples can give.
"""

from __future__ import annotations

import math
import os
import platform
import resource
from collections.abc import Iterable, Sequence

MIN_SAMPLES = {0.5: 2, 0.95: 20, 0.99: 100}


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

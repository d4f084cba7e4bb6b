"""``bench/capacity.py --serial`` counts a call's own CPU only: the /proc reads of the
resolving processes' CPU (``resolver_cpu``) fall outside its CPU window.

Two of them inside it (about 0.05 ms CPU each on the 2-core machine) were counted as every
call's own CPU. Counted in reads and clock readings, never in time.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import common


def test_the_resolving_processes_cpu_is_read_outside_the_calls_cpu_window(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    order: list[str] = []
    clock = iter(range(100))

    def process_time() -> float:
        order.append("clock")
        return float(next(clock))

    proc = iter((10.0, 13.5))

    def resolving() -> float:
        order.append("/proc")
        return next(proc)

    async def call() -> str:
        order.append("call")
        return "draft"

    monkeypatch.setattr(common.time, "process_time", process_time)
    answer, spent, elsewhere = asyncio.run(common.call_cost(call, resolving))
    assert (answer, elsewhere) == ("draft", 3.5)
    window = order[order.index("clock") : len(order) - order[::-1].index("clock")]
    assert window == ["clock", "call", "clock"], order  # no /proc read inside
    assert order.count("/proc") == 2
    assert spent == 1.0

"""The benchmarks still run: each one's ``--quick`` mode, in a subprocess.

A smoke test, not a timing test: it checks that each benchmark exits 0 and prints its figure
lines with their targets, never what the figures are.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VERDICT = r"(meets target|MISSES target)"

EXPECTED = {
    "render": [
        r"^status_orders_en\s+\d+x\d+\s.*\d+\.\d+x\s+" + VERDICT,
        r"^images over 4x their blank floor: \d+ of \d+ \(" + VERDICT + r"\)",
        r"^turn_still\s+\d+x\d+\s.*\d+\.\d+x\s+" + VERDICT,
        r"^preview\s+\d+x\d+\s.*\d+\.\d+x\s+" + VERDICT,
        r"^animation\s+\d+x\d+\s.*\d+\.\d+x\s+" + VERDICT + r"; slowest [\d.]+ s, \d+ KB",
    ],
    "engine": [
        r"^floor: 1,000-step Python loop\s+[\d.]+ us",
        r"^strike alone .*median \d+ us.*\[target <= 100 us: " + VERDICT + r"\]",
        r"^campaign alone .*median [\d.]+ ms.*\[target <= 5 ms: " + VERDICT + r"\]",
        r"^winners ",
    ],
    "service": [
        r"^floor: read tx \+ SELECT 1\s+median [\d.]+ ms",
        r"^\s+\d+/s\s+\d+/s\s+\d+\s+[\d.]+\s+[\d.]+ .*p99 <= 50 ms: " + VERDICT,
        r"^capacity at p99 <= 50 ms\s+\d+ calls/s.*\[target >= 1000 calls/s: " + VERDICT,
        r"^RSS\s+peak \d+ MiB.*\[target <= 200 MB: " + VERDICT,
        r"^tick, nothing due, 1 campaign\(s\)\s+median [\d.]+ ms",
        r"^tick, nothing due, \d+ campaign\(s\).*\[target <= 1 ms: " + VERDICT,
        r"^file share of a \d+-turn campaign\s+\d+ KiB.*\[target <= 60 KiB: " + VERDICT,
    ],
    "storage": [
        r"^after: last turn / first turn\s+x[\d.]+ .*\[target flat, <= x1.5: " + VERDICT + r"\]",
        r"^before: last turn / first turn\s+x[\d.]+ ",
        r"^file share, \d+ turns, after\s+\d+ KiB.*\[target <= 60 KiB: " + VERDICT + r"\]",
        r"^turn-\d+ state parsed\s+whole \d+ KiB, snapshot alone \d+ KiB",
    ],
    "interactions": [
        r"^simcord idle poll: 1 ms",
        r"^noop\s+\d+\s+[\d.]+\s.*the floor",
        r"^select\s+\d+\s+[\d.]+\s.*x <= 3: " + VERDICT,
        r"^lock\s+\d+\s+[\d.]+\s.*x <= 3: " + VERDICT,
        r"^status\s+\d+\s+[\d.]+\s.*x <= 3: " + VERDICT,
        r"^background: \d+ calls",
        r"^lock\s+Discord requests [\d.]+, durable writes [\d.]+, lazy writes [\d.]+",
    ],
    "rounds": [
        r"^== carrier \(coral-sea\), resolving Lock, caches cold",
        r"^\s+2\s+\d+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+\d+/\d+\s+[\d.]+/[\d.]+",
    ],
    "players": [
        r"^first lock\s+[\d.]+\s+[\d.]+\s+[\d.]+\s.*acknowledged x noop answer <= 3: "
        r"(meets|MISSES)",
        r"^resolving lock\s+[\d.]+\s.*acknowledged x noop answer <= 3: (meets|MISSES)",
        r"^status\s+[\d.]+\s.*acknowledged x noop answer <= 3: (meets|MISSES)",
        r"^event loop, per callback while timed",
        r"^garbage collection: \d+ collections, longest pause",
    ],
    "memory": [
        r"^caches estimate [\d.]+ MiB: parsed states [\d.]+ MiB",
        r"^after the Locks: main RSS \d+ MiB \(PSS \d+, USS \d+\); all \d+ processes PSS",
        r"^target RSS <= 200 MB: the bot's process peak RSS \d+ MB \((meets|MISSES)\); "
        r"the whole bot, PSS at rest \d+ MB \((meets|MISSES)\), peak \d+ MB \((meets|MISSES)\)",
    ],
    "draw_workers": [
        r"^  workers \| floor \| length \| click \| lag p50 \| lag p99",
        r"^  length: 2 processes / 1: x[\d.]+",
    ],
    "capacity": [
        r"^\s+\d+/s\s+\d+/s\s+\d+\s+[\d.]+\s+[\d.]+\s+p99 x\d+ the write floor, load",
        r"^capacity at p99 <= 50 ms: \d+ interactions/s.*\(target >= 500: (meets|MISSES)\)",
        r"^RSS: after set-up \d+ MiB.*\(target <= 200 MB: (meets|MISSES)\)",
        r"^GC: .*A review now \(\d+ objects frozen\): listed in \d+ ms CPU, then \d+ steps",
    ],
    "odds": [
        r"^floor: one plain turn \(coral-sea\)\s+median [\d.]+ ms over \d+",
        r"^preview 1000 samples \(midway\)\s+x[\d.]+ .*[\d.]+ s.*\[target <= 1 s: "
        + VERDICT
        + r"\]",
        r"^event loop, worker process \(midway\)\s+a step .* worst [\d.]+ ms.*preview wall",
    ],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bench_quick_mode_runs_and_prints_its_figures(name: str) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / f"{name}.py"), "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    for pattern in EXPECTED[name]:
        assert re.search(pattern, done.stdout, re.MULTILINE), (pattern, done.stdout)

"""bench/wings.py still runs and prints every figure line with its target and sample count
(a smoke test: never what the figures are)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VERDICT = r"(meets target|MISSES target)"
KINDS = ("patrol", "recon", "photography", "bombing", "balloon")


def test_the_wings_bench_prints_speed_and_balance_for_both_players() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "wings.py"), "2"],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    lines = done.stdout.splitlines()
    expected = [
        r"^turn, 8 planes .* x floor .*\[target <= 2 ms: " + VERDICT + r"\]",
        *(
            rf"^any turn, {policy} .* p99 .*\[target <= 2 ms: {VERDICT}\]"
            for policy in ("random", "rookie")
        ),
        *(
            rf"^mission, {policy} .* p99 .*\[target <= 50 ms: {VERDICT}\]"
            for policy in ("random", "rookie")
        ),
        *(rf"^seam round, {kind}\s+[\d.]+ ms .* p99 .*rounds" for kind in ("program", "other")),
        *(
            rf"^{kind}\s+{policy} .*\(n=2\) \[neither side above 65 %: {VERDICT}\]"
            for policy in ("random", "rookie")
            for kind in KINDS
        ),
    ]
    for pattern in expected:
        assert any(re.search(pattern, line) for line in lines), (pattern, done.stdout)

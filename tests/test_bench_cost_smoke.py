"""``bench/service_cost.py`` still runs (on a small SQLite file) and prints one line per kind
of call with its figures: a smoke test, not a timing test."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_cost_benchmark_prints_a_line_per_kind_of_call(tmp_path: Path) -> None:
    command = ["bench/service_cost.py", "--db", str(tmp_path / "cost.db"), "--calls", "40"]
    out = subprocess.run(
        [sys.executable, *command, "--campaigns", "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    assert re.search(r"^floor: read tx \+ one row\s+CPU [\d.]+ ms", out, re.M)
    for kind in ("panel", "draft", "lock"):
        assert re.search(rf"^\s+{kind}\s+\d+\s+[\d.]+\s+(-|[\d.]+)(\s+[\d.]+){{10}}$", out, re.M), (
            kind
        )

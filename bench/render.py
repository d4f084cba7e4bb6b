"""Render timings: median and p99 time and the PNG size of each image from the fixtures.

Each figure is also given as a ratio to encoding a blank image of the same size through the
same PNG path, measured in the same run, so results compare across machines.
Target: every image under 150 ms.

    python bench/render.py [--runs 40] [--write docs/images]

``--write DIR`` also saves the README examples (one image of each kind) into DIR.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rendering.style import PAPER, to_png
from tests.rendering.fixtures import image_cases

BUDGET_MS = 150.0
EXAMPLES = {
    "status_orders_en": "status-board.png",
    "panel_japanese_en": "order-panel.png",
    "reveal_orders_en": "reveal.png",
    "strike_en": "strike-report.png",
    "after_action_en": "after-action.png",
    "badges_en": "card-badges.png",
    "status_resource_fr": "status-board-fr.png",
}


def timings(render: Callable[[], bytes], runs: int) -> tuple[list[float], bytes]:
    out: list[float] = []
    data = b""
    for _ in range(runs):
        start = time.perf_counter()
        data = render()
        out.append((time.perf_counter() - start) * 1000)
    return out, data


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--write", type=Path, help="save the README example images here")
    args = parser.parse_args()
    cases = image_cases()
    if args.write:
        args.write.mkdir(parents=True, exist_ok=True)
        for name, file in EXAMPLES.items():
            (args.write / file).write_bytes(cases[name]())
            print(f"wrote {args.write / file}")
    for render in cases.values():  # warm the font and pattern caches once
        render()
    columns = ("size", 11), ("KB", 7), ("median ms", 11), ("p99 ms", 9), ("blank ms", 10)
    header = f"{'image':<22}" + "".join(f"{t:>{w}}" for t, w in columns) + f"{'x blank':>9}"
    print(header)
    print("-" * len(header))
    worst = 0.0
    for name, render in cases.items():
        times, data = timings(render, args.runs)
        width, height = Image.open(io.BytesIO(data)).size
        blank = Image.new("RGB", (width, height), PAPER)
        blank_times, _ = timings(lambda image=blank: to_png(image), args.runs)
        median = statistics.median(times)
        blank_median = statistics.median(blank_times)
        worst = max(worst, p99(times))
        print(
            f"{name:<22}{f'{width}x{height}':>11}{len(data) / 1024:>7.0f}{median:>11.1f}"
            f"{p99(times):>9.1f}{blank_median:>10.2f}{median / blank_median:>9.1f}"
        )
    verdict = "OK" if worst < BUDGET_MS else "OVER BUDGET"
    print(f"\nworst p99: {worst:.1f} ms (budget {BUDGET_MS:.0f} ms): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

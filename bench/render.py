"""Render timings: each image from the fixtures against a blank PNG of the same size.

For every image the benchmark alternates one render of the image with one encoding of a
blank image of the same size through the same PNG path (``rendering.style.to_png``), so
both see the same machine load; the order flips every run. It prints the median, p95 and
p99 of each (p99 only from 100 samples up) and their ratio: the image's median over the
blank's median. Target (issue 13): every image <= 4x its blank-PNG floor.

    python bench/render.py [--runs 200] [--quick] [--write docs/images] [--only strike ...]

``--write DIR`` also saves the README examples (one image of each kind) into DIR.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import machine, median, percentile, verdict
from rendering.style import PAPER, to_png
from tests.rendering.fixtures import image_cases

TARGET_RATIO = 4.0
EXAMPLES = {
    "status_orders_en": "status-board.png",
    "panel_japanese_en": "order-panel.png",
    "reveal_orders_en": "reveal.png",
    "strike_en": "strike-report.png",
    "after_action_en": "after-action.png",
    "badges_en": "card-badges.png",
    "status_resource_fr": "status-board-fr.png",
}


def _pct(values: list[float], share: float) -> str:
    try:
        return f"{percentile(values, share):.1f}"
    except ValueError:
        return "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="samples per image (and blank)")
    parser.add_argument("--quick", action="store_true", help="smoke run: 3 images, 5 runs")
    parser.add_argument("--write", type=Path, help="save the README example images here")
    parser.add_argument(
        "--only", nargs="+", metavar="PREFIX", help="time only the images named so (strike ...)"
    )
    args = parser.parse_args(argv)
    cases = image_cases()
    if args.only:
        cases = {
            name: render for name, render in cases.items() if name.startswith(tuple(args.only))
        }
    runs = args.runs
    if args.quick:
        cases = dict(list(cases.items())[:3])
        runs = 5
    if args.write:
        args.write.mkdir(parents=True, exist_ok=True)
        for name, file in EXAMPLES.items():
            (args.write / file).write_bytes(image_cases()[name]())
            print(f"wrote {args.write / file}")
    print(f"machine: {machine()}")
    print(f"{runs} alternating samples per image and per blank; times in ms")
    for render in cases.values():  # warm the font and pattern caches once (not timed)
        render()
    head = (
        f"{'image':<20}{'size':>10}{'KB':>5}{'n':>5}{'median':>8}{'p95':>7}{'p99':>7}"
        f"{'blank':>7}{'b.p99':>7}{'x blank':>9}  target <= {TARGET_RATIO:g}x"
    )
    print(head)
    print("-" * len(head))
    misses = 0
    for name, render in cases.items():
        data = render()
        width, height = Image.open(io.BytesIO(data)).size
        blank = Image.new("RGB", (width, height), PAPER)
        image_ms: list[float] = []
        blank_ms: list[float] = []
        for index in range(runs):
            order = ((render, image_ms), (lambda image=blank: to_png(image), blank_ms))
            for call, out in order if index % 2 == 0 else order[::-1]:
                start = time.perf_counter()
                call()
                out.append((time.perf_counter() - start) * 1000)
        ratio = median(image_ms) / median(blank_ms)
        ok = verdict(ratio, TARGET_RATIO)
        misses += ok != "meets target"
        print(
            f"{name:<20}{f'{width}x{height}':>10}{len(data) / 1024:>5.0f}{runs:>5}"
            f"{median(image_ms):>8.1f}{_pct(image_ms, 0.95):>7}{_pct(image_ms, 0.99):>7}"
            f"{median(blank_ms):>7.1f}{_pct(blank_ms, 0.99):>7}{ratio:>8.2f}x  {ok}"
        )
    print(
        f"\nimages over {TARGET_RATIO:g}x their blank floor: {misses} of {len(cases)}"
        + (" (MISSES target)" if misses else " (meets target)")
    )
    if not args.only or "wings" in args.only:
        wings(5 if args.quick else max(5, runs // 10))
    return 0


def wings(runs: int) -> None:
    """Wings of War's turn pictures (issue 27), in CPU time against their floors."""
    from bench.render_wings import ANIMATION_BYTES, ANIMATION_SECONDS, cases, cpu_ms

    print(f"\nWings of War turn pictures: {runs} alternating samples each, CPU ms")
    head = f"{'image':<14}{'size':>10}{'KB':>7}{'median':>9}{'floor':>8}{'x floor':>9}"
    print(head)
    print("-" * len(head))
    for name, (render, floor) in cases().items():
        data = render()
        width, height = Image.open(io.BytesIO(data)).size
        image_ms: list[float] = []
        floor_ms: list[float] = []
        for index in range(runs):
            order = ((render, image_ms), (floor, floor_ms))
            for call, out in order if index % 2 == 0 else order[::-1]:
                out.append(cpu_ms(call))
        ratio = median(image_ms) / max(median(floor_ms), 1e-3)
        note = verdict(ratio, TARGET_RATIO)
        if name == "animation":
            seconds, size = max(image_ms) / 1000, len(data)
            fits = seconds <= ANIMATION_SECONDS and size <= ANIMATION_BYTES
            note += f"; slowest {seconds:.2f} s, {size / 1024:.0f} KB"
            note += " (meets <= 1.5 s, <= 8 MB)" if fits else " (MISSES 1.5 s / 8 MB)"
        print(
            f"{name:<14}{f'{width}x{height}':>10}{len(data) / 1024:>7.0f}"
            f"{median(image_ms):>9.1f}{median(floor_ms):>8.1f}{ratio:>8.2f}x  {note}"
        )


if __name__ == "__main__":
    raise SystemExit(main())

"""Photograph a campaign's replay page: the offline demo's Coral Sea, opened in Chromium.

    .venv/bin/python scripts/replay_screenshots.py [OUT_DIR]

Needs Debian's ``chromium`` (``bash scripts/chromium.sh``). Plays the demo (seed 1942),
makes its page as ``python -m bot replay`` does, and writes a turn of it at 1280 px and at
400 px (a phone), light, and at 1280 px dark, to OUT_DIR (default ``docs/images``).
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bot.demo import run
from bot.export import read_export
from bot.replay import make_page
from engine.zero.loader import default_catalog

# The width, the height of the shot, and the colour scheme asked of the page.
SHOTS = (
    ("replay-1280.png", 1280, 1500, "light"),
    ("replay-400.png", 400, 1700, "light"),
    ("replay-dark-1280.png", 1280, 1500, "dark"),
)
TURN = "turn-2"  # a turn with a board, both rounds' choices, two strikes and a story


def shoot(page: Path, target: Path, width: int, height: int, scheme: str) -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        raise SystemExit("chromium is not installed (bash scripts/chromium.sh)")
    with tempfile.TemporaryDirectory() as profile:
        args = [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            f"--user-data-dir={profile}",
            f"--window-size={width},{height}",
            "--virtual-time-budget=4000",
            f"--screenshot={target}",
        ]
        if scheme == "dark":
            args.append("--force-dark-mode")  # prefers-color-scheme: dark
        done = subprocess.run(
            [*args, f"{page.as_uri()}#{TURN}"], capture_output=True, timeout=120, check=False
        )
        if done.returncode != 0:
            raise SystemExit(f"chromium failed to photograph {page}")


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        played = asyncio.run(run("coral-sea", 1942, Path(folder) / "demo"))
        export = read_export(played.out / "export.json")
        page = Path(folder) / "campaign.html"
        page.write_text(make_page(export, default_catalog()).html, encoding="utf-8")
        print(f"page: {page.stat().st_size // 1024} KB")
        for name, width, height, scheme in SHOTS:
            shoot(page, out / name, width, height, scheme)
    print(f"screenshots in {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"))

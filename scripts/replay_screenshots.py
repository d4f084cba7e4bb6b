"""Photograph a campaign's replay page: the offline demo of a game, opened in Chromium.

    .venv/bin/python scripts/replay_screenshots.py [--ruleset R] [--turn N] [OUT_DIR]

Needs Debian's ``chromium`` (``bash scripts/chromium.sh``). Plays the demo (seed 1942; the
carrier's Coral Sea by default, another game's first scenario), makes its page as ``python
-m bot replay`` does, and writes turn N of it at 1280 px and at 400 px (a phone), light, and
at 1280 px dark, to OUT_DIR (default ``docs/images``): ``replay-1280.png`` for the carrier,
``replay-<ruleset>-1280.png`` for another game.
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.demo import run
from bot.export import read_export
from bot.replay import make_page
from tests.browser import QUIET, chromium

# The width, the height of the shot, and the colour scheme asked of the page.
SHOTS = (
    ("replay-1280.png", 1280, 1500, "light"),
    ("replay-400.png", 400, 1700, "light"),
    ("replay-dark-1280.png", 1280, 1500, "dark"),
)
# The carrier's turn 2 has a board, both rounds' choices, two strikes and a story.
TURN = 2


def shoot(page: Path, target: Path, width: int, height: int, scheme: str, turn: int) -> None:
    browser = chromium()
    if browser is None:
        raise SystemExit("chromium is not installed (bash scripts/chromium.sh)")
    with tempfile.TemporaryDirectory() as profile:
        args = [
            browser,
            *QUIET,  # the tests' browser: the page is shot as they check it, off the network
            "--hide-scrollbars",
            f"--user-data-dir={profile}",
            f"--window-size={width},{height}",
            "--virtual-time-budget=4000",
            f"--screenshot={target}",
        ]
        if scheme == "dark":
            args.append("--force-dark-mode")  # prefers-color-scheme: dark
        done = subprocess.run(
            [*args, f"{page.as_uri()}#turn-{turn}"], capture_output=True, timeout=120, check=False
        )
        if done.returncode != 0:
            raise SystemExit(f"chromium failed to photograph {page}")


def main(out: Path, ruleset: str, turn: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    prefix = "replay" if ruleset == "carrier" else f"replay-{ruleset}"
    with tempfile.TemporaryDirectory() as folder:
        played = asyncio.run(run(None, 1942, Path(folder) / "demo", ruleset=ruleset))
        export = read_export(played.out / "export.json")
        page = Path(folder) / "campaign.html"
        page.write_text(make_page(export).html, encoding="utf-8")
        print(f"page: {page.stat().st_size // 1024} KB")
        for name, width, height, scheme in SHOTS:
            target = out / name.replace("replay", prefix, 1)
            shoot(page, target, width, height, scheme, turn)
    print(f"screenshots in {out}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=Path("docs/images"))
    parser.add_argument("--ruleset", default="carrier", help="a registered game (carrier)")
    parser.add_argument("--turn", type=int, default=TURN, help=f"the turn shown ({TURN})")
    options = parser.parse_args()
    main(options.out, options.ruleset, options.turn)

"""Each kind of picture as a phone shows it: every ruleset's demo, scaled to 400 px wide.

    .venv/bin/python scripts/phone_views.py [OUT_DIR]

Plays the offline demo of each ruleset (carrier, land, Pearl Harbor, Wings, the Dambuster)
and writes, for the first picture of each kind it posts (status board, DM panel, reveal,
strike or mission report, after-action…), a copy scaled to the 400 px a phone gives an
image in Discord, to OUT_DIR (default ``./phone-views``). It is how we judge by eye what
``tests/rendering/test_phone_text.py`` measures; nothing here is part of the bot.
"""

from __future__ import annotations

import asyncio
import re
import sys
import tempfile
from pathlib import Path

from PIL import Image

from bot.demo import run

PHONE_WIDTH = 400
DEMOS = (
    ("carrier", "coral-sea"),
    ("land", None),
    ("pearl-harbor", None),
    ("wings", None),
    ("wings", "dambuster-eder"),
)
# "011-strike-T1-J1.png" is a picture of kind "strike".
KIND = re.compile(r"^\d+-([a-z]+(?:-action)?)")


def first_of_each_kind(folder: Path) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted(folder.glob("*.png")):
        match = KIND.match(path.name)
        if match is not None:
            found.setdefault(match.group(1), path)
    return found


def phone_copy(source: Path, target: Path) -> None:
    with Image.open(source) as image:
        height = round(image.height * PHONE_WIDTH / image.width)
        image.convert("RGB").resize((PHONE_WIDTH, height), Image.Resampling.LANCZOS).save(
            target, optimize=True
        )


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for ruleset, scenario in DEMOS:
        name = scenario or ruleset
        with tempfile.TemporaryDirectory() as work:
            asyncio.run(run(scenario, 1942, work, ruleset=ruleset))
            for kind, path in first_of_each_kind(Path(work)).items():
                phone_copy(path, out / f"{name}-{kind}.png")
    print(f"phone views in {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("phone-views"))

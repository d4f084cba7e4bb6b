"""The Coral Sea demo of issue 30 (seed 1) posted "16/15 boxes": no track is shown or
exported past its end, in the channel, the DMs or the export."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bot.demo import run
from engine.zero.catalog import Catalog


async def test_the_demo_shows_no_box_past_a_tracks_end(tmp_path: Path, catalog: Catalog) -> None:
    result = await run("coral-sea", 1, tmp_path)
    assert result.verified
    shown = [
        (int(ticked), int(length))
        for name in ("channel.md", "dm-japanese.md", "dm-allied.md", "after-action.md")
        for ticked, length in re.findall(
            r"(\d+)/(\d+) (?:damage )?boxes", (tmp_path / name).read_text()
        )
    ]
    assert shown and all(ticked <= length for ticked, length in shown), [
        s for s in shown if s[0] > s[1]
    ]
    assert (15, 15) in shown  # the Invasion Force's track is full, and says so
    export = json.loads((tmp_path / "export.json").read_text())
    scenario = catalog.scenarios["coral-sea"]
    lengths = {p.key: catalog.tracks[p.track].boxes for p in scenario.places}
    for record in export["final_state"]["history"]:
        assert all(boxes <= lengths[key] for key, boxes in record["boxes"].items())

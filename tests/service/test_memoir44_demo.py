"""``python -m bot demo --ruleset memoir44``: a scripted skirmish played offline through the
real services, whose export verify replays, dice included."""

from __future__ import annotations

import json
from pathlib import Path

from bot.demo import run
from bot.export import verify_file


async def test_the_skirmish_plays_and_verifies(tmp_path: Path) -> None:
    result = await run(None, 1942, tmp_path / "a", ruleset="memoir44")
    assert result.verified, result.problems
    export = json.loads((tmp_path / "a" / "export.json").read_text())
    kinds = [e["kind"] for e in export["events"]]
    for kind in ("m44-setup", "m44-deployed", "m44-flew", "m44-roll", "campaign-finished"):
        assert kind in kinds, kind
    rolls = [e for e in export["events"] if e["kind"] == "m44-roll"]
    assert rolls and all(e["data"]["faces"] for e in rolls)
    channel = (tmp_path / "a" / "channel.md").read_text()
    assert "Air war, turn 1" in channel and "air-turn-1.png" in channel
    check = verify_file(tmp_path / "a" / "export.json")
    assert check.ok and check.replayed and check.rounds > 10, check.problems
    # A die changed in the file is caught by the replay.
    event = rolls[0]
    faces = event["data"]["faces"]
    faces[0] = "m44-star" if faces[0] != "m44-star" else "m44-flag"
    (tmp_path / "forged.json").write_text(json.dumps(export))
    assert not verify_file(tmp_path / "forged.json").ok


async def test_same_seed_same_skirmish(tmp_path: Path) -> None:
    await run(None, 7, tmp_path / "a", ruleset="memoir44")
    await run(None, 7, tmp_path / "b", ruleset="memoir44")
    for name in ("export.json", "channel.md", "dm-allies.md", "dm-axis.md"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name

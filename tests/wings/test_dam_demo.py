"""The Dambuster demos play to the end through the service and verify, the Central Powers
never asked to lock (their guns follow a standing order)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.demo import run


@pytest.mark.parametrize("scenario", ["dambuster-eder", "dambuster-mohne"])
async def test_a_dam_raid_demo_ends_and_verifies(tmp_path: Path, scenario: str) -> None:
    result = await run(scenario, 1942, tmp_path, ruleset="wings")
    assert result.verified, result.problems
    export = json.loads((tmp_path / "export.json").read_text(encoding="utf-8"))
    assert export["campaign"]["status"] == "finished"
    central = [lock for r in export["rounds"] for lock in r["locks"] if lock["side"] == "central"]
    assert central and all(lock["by_user"] is None for lock in central)
    channel = (tmp_path / "channel.md").read_text(encoding="utf-8")
    assert "Central Powers: ✅ nothing to decide" in channel

"""The offline demo: a whole campaign through the real services, same seed same files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.demo import run
from bot.export import verify_file
from engine.zero.catalog import Catalog


def _files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


async def test_same_seed_same_files(tmp_path: Path, catalog: Catalog) -> None:
    first = await run("coral-sea", 11, tmp_path / "a")
    second = await run("coral-sea", 11, tmp_path / "b")
    assert first.verified and second.verified
    a, b = _files(tmp_path / "a"), _files(tmp_path / "b")
    assert a.keys() == b.keys()
    assert [name for name in a if a[name] != b[name]] == []
    for name in ("channel.md", "dm-japanese.md", "dm-allied.md", "export.json", "after-action.md"):
        assert name in a
    channel = a["channel.md"].decode()
    assert "Seed revealed" in channel and "reminder" in a["dm-allied.md"].decode()
    assert "default orders were used for Allied" in channel
    assert verify_file(tmp_path / "a" / "export.json").ok
    # Rerunning into the same folder rewrites the same files.
    await run("coral-sea", 11, tmp_path / "a")
    assert _files(tmp_path / "a") == a


async def test_other_seed_other_campaign(tmp_path: Path) -> None:
    await run("midway", 1, tmp_path / "a")
    await run("midway", 2, tmp_path / "b")
    one = json.loads((tmp_path / "a" / "export.json").read_text())
    two = json.loads((tmp_path / "b" / "export.json").read_text())
    assert one["campaign"]["scenario"] == "midway"
    assert one["events"] != two["events"]


def test_demo_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["demo", "--scenario", "midway", "--seed", "3", "--out", str(tmp_path / "out")]) == 0
    )
    assert "Demo written to" in capsys.readouterr().out
    assert (tmp_path / "out" / "after-action.md").exists()

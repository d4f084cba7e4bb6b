"""``verify --rules`` on whole campaigns: random ones pass, the CLI speaks as documented."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from rulecheck_sweep import sweep

from bot.__main__ import main
from bot.export import dumps
from engine.rulesets.carrier.rulecheck import check_export
from engine.rulesets.carrier.rulecheck.data import GameData


@pytest.mark.parametrize("scenario", ["coral-sea", "midway"])
def test_thirty_random_campaigns_keep_every_rule(scenario: str, game_data: GameData) -> None:
    # 200 per scenario: python scripts/rulecheck_sweep.py (see docs/export-format.md).
    results = sweep(scenario, 30, first=100, data=game_data)
    failed = {number: result.lines() for number, result in results if not result.ok}
    assert not failed
    assert all(result.passed > 250 for _, result in results)


@pytest.mark.parametrize("scenario", ["coral-sea", "midway"])
def test_a_campaign_exported_by_the_service_keeps_every_rule(
    scenario: str, service_exports: dict[str, dict[str, Any]]
) -> None:
    result = check_export(service_exports[scenario])
    assert result.ok, result.lines()
    assert result.lines() == [f"OK: {result.passed} checks passed"]


def test_cli_ok_violations_and_refusals(
    service_exports: dict[str, dict[str, Any]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    good = tmp_path / "good.json"
    good.write_text(dumps(service_exports["coral-sea"]), encoding="utf-8")
    assert main(["verify", "--rules", str(good)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("OK: ") and out[0].endswith(" checks passed")

    bad = copy.deepcopy(service_exports["coral-sea"])
    record = bad["final_state"]["history"][0]
    record["vp"]["allied"] += 3
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    assert main(["verify", "--rules", str(path)]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert out == [
        f"rule 25.83: turn 1: VP {record['vp']}, the tracks give " + out[0].split("give ")[1]
    ]

    old = copy.deepcopy(service_exports["coral-sea"])
    old["version"] = 1
    path.write_text(json.dumps(old), encoding="utf-8")
    assert main(["verify", "--rules", str(path)]) == 1
    assert capsys.readouterr().out.startswith("NOT CHECKED: export version 1")

    unfinished = copy.deepcopy(service_exports["coral-sea"])
    unfinished["final_state"] = None
    path.write_text(json.dumps(unfinished), encoding="utf-8")
    assert main(["verify", "--rules", str(path)]) == 1
    assert "not finished" in capsys.readouterr().out

    path.write_text("{not json", encoding="utf-8")
    assert main(["verify", "--rules", str(path)]) == 1
    assert capsys.readouterr().out.startswith("NOT CHECKED: cannot read")


def test_version_2_still_replays_and_version_1_files_still_verify(
    service_exports: dict[str, dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The replay check reads both versions: a version 1 file (no turn-record facts) is
    compared on the facts it has, and a wrong one is still caught."""
    export = service_exports["midway"]
    path = tmp_path / "v2.json"
    path.write_text(dumps(export), encoding="utf-8")
    assert main(["verify", str(path)]) == 0
    old = copy.deepcopy(export)
    old["version"] = 1
    for record in old["final_state"]["history"]:
        for key in ("pilots", "ticks", "repaired"):
            record.pop(key)
        for strike in record["strikes"]:
            for key in ("start_bands", "turns", "moves", "draws", "reshuffles"):
                strike.pop(key)
    path.write_text(dumps(old), encoding="utf-8")
    assert main(["verify", str(path)]) == 0
    old["final_state"]["history"][0]["boxes"]["allied-fleet"] += 1
    path.write_text(dumps(old), encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    assert "final state differs" in capsys.readouterr().out

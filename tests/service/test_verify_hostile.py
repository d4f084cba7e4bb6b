"""``verify`` on crafted files: one clear line and a non-zero exit, never a traceback or an OK
that vouches for nothing; and a check whose work grows linearly with the export."""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.export import FORMAT, VERSION, verify_export
from bot.service_model import canonical_choice, receipt_of
from engine.zero.loader import default_catalog

SIDES = ("japanese", "allied")


def _lock(round_id: int, turn: int, side: str) -> dict[str, Any]:
    canonical = canonical_choice(1, 1, turn, "orders", side, {"fleet_tactic": "long"})
    salt = f"{round_id:016x}{SIDES.index(side):016x}"
    return {
        "side": side,
        "receipt": receipt_of(canonical, salt),
        "locked_at": 100,
        "by_user": 7,
        "defaulted": False,
        "withdrawn_at": None,
        "canonical": canonical,
        "salt": salt,
    }


def synthetic(rounds: int) -> dict[str, Any]:
    """A seedless export whose receipts are all opened and right: the receipt checks run,
    the replay does not (no seed), so its cost is the verifier's own bookkeeping."""
    export: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "campaign": {
            "id": 1,
            "ruleset": "carrier",
            "scenario": "coral-sea",
            "guild_id": 10,
            "channel_id": 20,
            "gm_id": 30,
            "locale": "en",
            "status": "active",
            "branch": 1,
            "created_at": 1,
            "started_at": 2,
            "ended_at": None,
            "end_reason": None,
            "pace": {
                "round_seconds": 86400,
                "reminder_offsets": [3600],
                "missing_policy": "default",
                "gm_sees_secrets": False,
                "allow_unlock": True,
            },
            "seed_commitment": "0" * 64,
            "seed": None,
        },
        "players": [
            {"user_id": 7, "side": "japanese", "commander": True, "joined_at": 1, "left_at": None}
        ],
        "rounds": [],
        "events": [],
        "audit": [],
        "final_state": None,
    }
    for number in range(1, rounds + 1):
        locks = [_lock(number, number, side) for side in SIDES]
        export["rounds"].append(
            {
                "id": number,
                "branch": 1,
                "turn": number,
                "kind": "orders",
                "status": "open",
                "opened_at": 1,
                "deadline_at": None,
                "resolved_at": None,
                "locks": locks,
            }
        )
        for lock in locks:
            export["events"].append(
                {
                    "seq": len(export["events"]) + 1,
                    "round_id": number,
                    "branch": 1,
                    "source": "service",
                    "kind": "side-locked",
                    "turn": number,
                    "data": {"side": lock["side"], "receipt": lock["receipt"]},
                    "void": False,
                    "at": 5,
                }
            )
    return export


def _verify_text(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path = tmp_path / "crafted.json"
    path.write_text(text, encoding="utf-8")
    code = main(["verify", str(path)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _one_refusal(code: int, output: str) -> str:
    assert code != 0
    assert "Traceback" not in output
    assert "OK" not in output
    lines = output.strip().splitlines()
    assert len(lines) == 1, output
    return lines[0]


def test_the_synthetic_export_is_a_good_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The crafted files below differ from this one by one thing each."""
    code, output = _verify_text(tmp_path, json.dumps(synthetic(2)), capsys)
    assert code == 0 and output.startswith("OK (receipts only)"), output


@pytest.mark.parametrize(
    "text",
    ["[]", "[1, 2]", "null", "42", "3.5", '"sortie"', "true"],
    ids=["empty-list", "list", "null", "int", "float", "string", "true"],
)
def test_top_level_not_an_object(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = _one_refusal(*_verify_text(tmp_path, text, capsys))
    assert line.startswith("NOT CHECKED: malformed export: the file holds"), line


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(export: dict[str, Any]) -> None:
        node: Any = export
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value

    return change


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    def change(export: dict[str, Any]) -> None:
        del export[key]

    return change


CRAFTED: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "lock-is-a-string": (_set(("rounds", 0, "locks", 0), "locked"), "rounds[0].locks[0]"),
    "lock-is-null": (_set(("rounds", 0, "locks", 1), None), "rounds[0].locks[1]"),
    "version-true": (_set(("version",), True), "not a sortie-campaign-export version 1 or 2"),
    "version-4": (_set(("version",), 4), "not a sortie-campaign-export version 1 or 2 or 3"),
    "version-string": (_set(("version",), "1"), "not a sortie-campaign-export version 1 or 2"),
    "format-missing": (_drop("format"), "not a sortie-campaign-export"),
    "campaign-missing": (_drop("campaign"), "campaign is missing"),
    "campaign-list": (_set(("campaign",), []), "campaign: expected an object"),
    "rounds-object": (_set(("rounds",), {}), "rounds: expected a list"),
    "events-null": (_set(("events",), None), "events: expected a list"),
    "round-id-string": (_set(("rounds", 0, "id"), "1"), "rounds[0].id: expected an integer"),
    "turn-float": (_set(("rounds", 0, "turn"), 1.0), "rounds[0].turn: expected an integer"),
    "turn-bool": (_set(("rounds", 0, "turn"), True), "rounds[0].turn: expected an integer"),
    "receipt-number": (_set(("rounds", 0, "locks", 0, "receipt"), 5), "locks[0].receipt"),
    "seed-number": (_set(("campaign", "seed"), 1942), "campaign.seed"),
    "data-list": (_set(("events", 0, "data"), [1]), "events[0].data: expected an object"),
    "round-status": (_set(("rounds", 0, "status"), "won"), "rounds[0].status"),
    "duplicate-round": (_set(("rounds", 1, "id"), 1), "two rounds have the same id"),
}


@pytest.mark.parametrize("name", list(CRAFTED))
def test_crafted_file_gets_one_line(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    change, words = CRAFTED[name]
    export = synthetic(2)
    change(export)
    line = _one_refusal(*_verify_text(tmp_path, json.dumps(export), capsys))
    assert line.startswith("NOT CHECKED:") and words in line, line
    assert "_Lock" not in line and "_Round" not in line  # no internal class names


def test_deep_nesting_gets_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    depth = sys.getrecursionlimit() * 20
    line = _one_refusal(*_verify_text(tmp_path, "[" * depth + "]" * depth, capsys))
    assert "nested too deeply" in line
    export = synthetic(1)
    nested = "[" * depth + "]" * depth
    text = json.dumps(export).replace('"data": {', f'"data": {{"deep": {nested}, ', 1)
    line = _one_refusal(*_verify_text(tmp_path, text, capsys))
    assert "nested too deeply" in line


def test_huge_number_and_bad_text_get_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = json.dumps(synthetic(1)).replace('"turn": 1', '"turn": ' + "9" * 5000, 1)
    line = _one_refusal(*_verify_text(tmp_path, text, capsys))
    assert "cannot read" in line
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"format": "\xff"}')
    code = main(["verify", str(path)])
    captured = capsys.readouterr()
    assert "cannot read" in _one_refusal(code, captured.out + captured.err)


def test_forged_canonical_with_a_matching_receipt_is_a_mismatch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The receipt matches, but the committed text is not a choice at all."""
    export = synthetic(1)
    for canonical in ("[1]", '{"choice": 5}', "not json"):
        lock = export["rounds"][0]["locks"][0]
        lock["canonical"] = canonical
        lock["receipt"] = receipt_of(canonical, lock["salt"])
        code, output = _verify_text(tmp_path, json.dumps(export), capsys)
        assert code == 1 and "Traceback" not in output
        assert "committed for another round" in output, output


def test_lone_surrogate_is_a_mismatch_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    export = synthetic(1)
    text = json.dumps(export).replace('"salt": "', '"salt": "\\ud800', 1)
    code, output = _verify_text(tmp_path, text, capsys)
    assert code == 1 and "Traceback" not in output
    assert "receipt does not match" in output


@pytest.mark.parametrize("seed", [None, "a-seed"], ids=["no-seed", "seed-no-rounds"])
def test_nothing_to_check_is_not_ok(
    seed: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A null seed and no opened receipt: nothing was checked, so no OK."""
    from engine.rng import seed_commitment

    export = synthetic(1)
    export["rounds"][0]["locks"] = [
        dict(lock, canonical=None, salt=None) for lock in export["rounds"][0]["locks"]
    ]
    if seed is not None:
        export["campaign"]["seed"] = seed
        export["campaign"]["seed_commitment"] = seed_commitment(seed)
        export["rounds"], export["events"] = [], []
    line = _one_refusal(*_verify_text(tmp_path, json.dumps(export), capsys))
    assert line.startswith("NOT CHECKED: nothing to check"), line


def _lines_run(export: dict[str, Any]) -> int:
    """How many Python lines ``verify_export`` executes: a count, so it cannot flake."""
    default_catalog()  # loaded before the count: the data is not the export's work
    count = 0

    def local(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        return local

    sys.settrace(tracer)
    try:
        result = verify_export(export)
    finally:
        sys.settrace(None)
    assert result.ok and result.receipts == 2 * len(export["rounds"]), result.problems
    return count


def test_verify_work_is_linear_in_the_export() -> None:
    """8x the rounds and events costs about 8x the lines run (quadratic would be ~64x)."""
    small = _lines_run(synthetic(100))
    large = _lines_run(synthetic(800))
    assert large <= 12 * small, (small, large)


def test_crafted_export_through_the_api_is_refused_too() -> None:
    """Callers of ``verify_export`` (the demo, tests) get the same refusal, not an exception."""
    for value in ([], None, 5, "x"):
        check = verify_export(value)  # type: ignore[arg-type]
        assert not check.ok and check.unusable
    export = copy.deepcopy(synthetic(1))
    export["rounds"][0]["locks"][0] = "locked"
    assert "rounds[0].locks[0]" in verify_export(export).problems[0]

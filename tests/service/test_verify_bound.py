"""``verify``'s OK covers the whole file or says what it does not (issue 30, item 8): who
locked is bound into the receipt, a file of the wrong shape fails ``--rules`` naming the
field, and a file too large to be an export is refused before it is read."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.export import MAX_EXPORT_BYTES
from tests.service.support import JAP, Env
from tests.service.test_verify_hostile import synthetic


def _verify(
    tmp_path: Path, export: Any, capsys: pytest.CaptureFixture[str], *flags: str
) -> tuple[int, str]:
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    code = main(["verify", *flags, str(path)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


async def _first_turn_export(env: Env) -> dict[str, Any]:
    """A turn played: both rounds' locks are opened by the resource reveal."""
    cid = await env.campaign()
    await env.play_round(cid)
    await env.play_round(cid)
    return await env.svc.export(cid)


async def _finished_export(env: Env) -> dict[str, Any]:
    cid = await env.campaign()
    rng = random.Random(3)
    while (await env.svc.info(cid)).status != "finished":
        await env.play_round(cid, rng)
    return await env.svc.export(cid)


@pytest.mark.parametrize("forged", [-1, 2**70, 22], ids=["minus-one", "2^70", "the-other-side"])
async def test_a_forged_locker_is_a_mismatch(
    env: Env, tmp_path: Path, capsys: pytest.CaptureFixture[str], forged: int
) -> None:
    export = await _first_turn_export(env)
    code, output = _verify(tmp_path, export, capsys)
    assert code == 0, output
    lock = export["rounds"][0]["locks"][0]
    assert lock["by_user"] == JAP and lock["canonical"] is not None
    lock["by_user"] = forged
    code, output = _verify(tmp_path, export, capsys)
    assert code == 1 and "OK" not in output, output
    assert f"by_user {forged}" in output and f"{JAP}" in output


async def test_a_file_whose_lockers_are_not_bound_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Locks committed before receipts named the locker: OK, and plainly not about who."""
    code, output = _verify(tmp_path, synthetic(2), capsys)
    assert code == 0
    assert "who locked (by_user) is not covered for 4 of 4 locks" in output


def _first(export: dict[str, Any], field: str) -> str:
    """The path of the first ``field`` of the issue's forged files in ``export``."""
    if field == "round":
        return "final_state.round"
    for h, record in enumerate(export["final_state"]["history"]):
        if field == "redraw" and record["pilots"]:
            return f"final_state.history[{h}].pilots[0].redraw"
        for s, strike in enumerate(record["strikes"]):
            if field == "against" and strike["flak"]:
                return f"final_state.history[{h}].strikes[{s}].flak[0].against"
            if field == "group" and strike["aircraft"]:
                return f"final_state.history[{h}].strikes[{s}].aircraft[0].group"
    raise AssertionError(f"no {field} in the campaign")


@pytest.mark.parametrize(
    ("field", "bad"),
    [("against", {"uid": "x"}), ("round", None), ("redraw", 2**70), ("group", [["strike"]])],
)
async def test_verify_rules_checks_the_shape_first(
    env: Env, tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, bad: Any
) -> None:
    export = await _finished_export(env)
    code, output = _verify(tmp_path, export, capsys, "--rules")
    assert code == 0 and output.startswith("OK:"), output
    forged = copy.deepcopy(export)
    path = _first(forged, field)
    _set(forged, path, bad)
    code, output = _verify(tmp_path, forged, capsys, "--rules")
    assert code == 1 and "OK" not in output, output
    assert path in output and "Traceback" not in output
    assert len(output.strip().splitlines()) == 1


def _set(export: dict[str, Any], path: str, value: Any) -> None:
    where: Any = export
    parts = path.replace("[", ".").replace("]", "").split(".")
    for part in parts[:-1]:
        where = where[int(part)] if part.isdigit() else where[part]
    where[parts[-1]] = value


@pytest.mark.parametrize("flags", [(), ("--rules",)], ids=["verify", "verify-rules"])
def test_a_file_too_large_is_refused_before_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: tuple[str, ...]
) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as handle:  # sparse: 200 MB that take no room on disk
        handle.truncate(200 * 1024 * 1024)
    code = main(["verify", *flags, str(big)])
    output = capsys.readouterr().out
    assert code == 1 and "NOT CHECKED" in output and "200 MB" in output, output
    assert f"{MAX_EXPORT_BYTES // (1024 * 1024)} MB" in output
    # A stream of unknown length is read no further than the limit.
    code = main(["verify", *flags, "/dev/zero"])
    output = capsys.readouterr().out
    assert code == 1 and "NOT CHECKED" in output and "more than" in output, output

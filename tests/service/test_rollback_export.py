"""Rollback as a new branch, export, and verification by replay (tampering is caught)."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.export import after_action_markdown, dumps, verify_export
from bot.service_model import ServiceError
from tests.service.support import ALL, GM, JAP, Env


async def _finish(env: Env, cid: int, seed: int = 5) -> None:
    rng = random.Random(seed)
    while (await env.svc.status(cid)).campaign.status != "finished":
        await env.play_round(cid, rng)


async def test_rollback_creates_a_branch_voids_events_and_audits(env: Env) -> None:
    cid = await env.campaign()
    rng = random.Random(1)
    await env.play_round(cid, rng)  # turn 1 orders
    await env.play_round(cid, rng)  # turn 1 resource
    start_of_turn_2 = await env.svc.status(cid)
    await env.play_round(cid, rng)  # turn 2 orders
    await env.play_round(cid, rng)  # turn 2 resource
    async with env.repo.read() as tx:
        events_before = await tx.events(cid)

    with pytest.raises(ServiceError) as refused:
        await env.svc.rollback(cid, JAP, 2, "I want a redo")
    assert refused.value.code == "not-gm"
    with pytest.raises(ServiceError) as bad:
        await env.svc.rollback(cid, GM, 9, "typo")
    assert bad.value.code == "bad-turn"

    info = await env.svc.rollback(cid, GM, 2, "wrong resource was recorded")
    assert (info.turn, info.kind, info.status, info.branch) == (2, "orders", "open", 2)
    status = await env.svc.status(cid)
    assert status.view == start_of_turn_2.view  # the state at the start of turn 2
    async with env.repo.read() as tx:
        events_after = await tx.events(cid)
        rounds = await tx.rounds(cid)
        audit = await tx.audit(cid)
    # nothing deleted: every old event is still there; turn 2's (and turn 3's opening) void
    assert [e.seq for e in events_after][: len(events_before)] == [e.seq for e in events_before]
    voided = {e.turn for e in events_after if e.void}
    assert voided == {2, 3}
    assert any(e.void and e.kind == "vp" and e.turn == 2 for e in events_after)
    assert all(not e.void for e in events_after if e.turn == 1)
    assert [(r.turn, r.kind, r.branch, r.status) for r in rounds] == [
        (1, "orders", 1, "resolved"),
        (1, "resource", 1, "resolved"),
        (2, "orders", 1, "void"),
        (2, "resource", 1, "void"),
        (3, "orders", 1, "void"),
        (2, "orders", 2, "open"),
    ]
    entry = audit[-1]
    assert (entry.who, entry.what, entry.why) == (GM, "rollback", "wrong resource was recorded")
    assert entry.data["from_branch"] == 1 and entry.data["branch"] == 2
    page = await env.svc.log(cid, per_page=50)
    assert page.entries[0].seq > page.entries[-1].seq  # newest first
    assert any(e.kind == "rollback" and not e.void for e in page.entries)

    await _finish(env, cid)
    export = await env.svc.export(cid)
    check = verify_export(export)
    assert check.ok and check.replayed, check.problems


@pytest.fixture
async def finished_export(env: Env) -> dict[str, Any]:
    cid = await env.campaign()
    await _finish(env, cid)
    return await env.svc.export(cid)


async def test_export_verifies(finished_export: dict[str, Any], env: Env) -> None:
    check = verify_export(finished_export)
    assert check.ok and check.replayed, check.problems
    assert check.rounds == len(finished_export["rounds"]) and check.receipts == 2 * check.rounds
    assert finished_export["campaign"]["seed"] == "test-seed"
    report = after_action_markdown(finished_export)
    assert report.startswith("# After-action report — Coral Sea")
    assert "test-seed" in report and "## Turn 1" in report


def _first_lock(export: dict[str, Any]) -> dict[str, Any]:
    return export["rounds"][0]["locks"][0]


def _tamper_choice(export: dict[str, Any]) -> None:
    lock = _first_lock(export)
    lock["canonical"] = lock["canonical"].replace('"doctrine":"', '"doctrine":"x')


def _tamper_salt(export: dict[str, Any]) -> None:
    _first_lock(export)["salt"] = "0" * 32


def _tamper_event(export: dict[str, Any]) -> None:
    event = next(e for e in export["events"] if e["kind"] == "vp")
    event["data"]["japanese"] += 1


def _tamper_seed(export: dict[str, Any]) -> None:
    export["campaign"]["seed"] = "another-seed"


def _tamper_recomputed_receipt(export: dict[str, Any]) -> None:
    """A forger who recomputes the receipt still changes the replay."""
    from bot.service_model import receipt_of

    round_json = export["rounds"][0]
    lock = round_json["locks"][0]
    choice = json.loads(lock["canonical"])
    choice["choice"]["fleet_tactic"] = (
        "long" if choice["choice"]["fleet_tactic"] != "long" else "medium"
    )
    lock["canonical"] = json.dumps(choice, sort_keys=True, separators=(",", ":"))
    lock["receipt"] = receipt_of(lock["canonical"], lock["salt"])


@pytest.mark.parametrize(
    ("tamper", "words"),
    [
        (_tamper_choice, "receipt does not match"),
        (_tamper_salt, "receipt does not match"),
        (_tamper_event, "differs from the replay"),
        (_tamper_seed, "seed does not match"),
        (_tamper_recomputed_receipt, "not a receipt of round"),
    ],
    ids=["choice", "salt", "event", "seed", "forged-receipt"],
)
async def test_tampered_export_is_caught(
    finished_export: dict[str, Any], env: Env, tamper: Any, words: str
) -> None:
    forged = copy.deepcopy(finished_export)
    tamper(forged)
    check = verify_export(forged)
    assert not check.ok
    assert any(words in problem for problem in check.problems), check.problems


async def test_verify_command_exit_codes(
    finished_export: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.json"
    good.write_text(dumps(finished_export))
    assert main(["verify", str(good)]) == 0
    assert capsys.readouterr().out.startswith("OK:")
    forged = copy.deepcopy(finished_export)
    _tamper_event(forged)
    bad = tmp_path / "bad.json"
    bad.write_text(dumps(forged))
    assert main(["verify", str(bad)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("MISMATCH:") and "seq" in out
    assert main(["verify", str(tmp_path / "missing.json")]) == 1


async def test_export_mid_campaign_keeps_secrets(env: Env) -> None:
    cid = await env.campaign()
    await env.play_round(cid)  # orders resolved, doctrine still secret
    round_id = await env.fill(cid, JAP)
    await env.svc.lock(cid, JAP, round_id)  # resource locked, not revealed
    export = await env.svc.export(cid)
    assert export["campaign"]["seed"] is None
    assert export["final_state"] is None
    for round_json in export["rounds"]:
        for lock in round_json["locks"]:
            assert lock["salt"] is None and lock["canonical"] is None
    check = verify_export(export)
    assert check.ok and not check.replayed


async def test_gm_end_reveals_the_seed_and_the_export_verifies(env: Env) -> None:
    cid = await env.campaign()
    await env.play_round(cid)
    await env.play_round(cid)
    round_id = await env.fill(cid, JAP)
    await env.svc.lock(cid, JAP, round_id)  # turn 2 orders half locked
    with pytest.raises(ServiceError):
        await env.svc.end(cid, JAP, "not the gm")
    await env.svc.end(cid, GM, "players moved on")
    info = await env.svc.info(cid)
    assert info.status == "finished" and info.seed == "test-seed"
    with pytest.raises(ServiceError) as closed:
        await env.svc.lock(cid, ALL, round_id)
    assert closed.value.code in ("stale-round", "finished")
    export = await env.svc.export(cid)
    assert export["rounds"][-1]["status"] == "void"
    check = verify_export(export)
    assert check.ok and check.replayed and check.rounds == 2, check.problems
    kinds = await env.outbox_kinds(cid)
    assert kinds.count("campaign-ended") == 1

"""Linear storage (issue 13): snapshots hold the current state, history lives in rows.

Every ruleset cuts its state the same way through ``Rules.dump_stored`` / ``load_stored``;
the service appends a round's records beside its snapshot, a rollback's branch starts from
its own copy of the records, and an old database (history inside every snapshot) migrates
to the new shape, still verifies by replay and plays on.
"""

from __future__ import annotations

import json
import random
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.demo import SeededTokens
from bot.export import verify_export
from bot.rulesets import FACTORIES, Registry
from bot.service_states import load_state
from db.migrate import available
from engine.rng import Rng
from engine.zero.catalog import Catalog
from tests.service.old_shape import schema_4_rows
from tests.service.support import GM, Env


def _play_states(key: str, rounds: int = 40, scenario: str = "") -> tuple[Any, list[Any]]:
    """Every state of one campaign of ``key`` played with the first legal options."""
    rules = Registry().get(key).rules
    scenario = scenario or next(iter(rules.scenarios()))
    state = rules.new(scenario, "linear")
    states = [state]
    for index in range(rounds):
        if rules.progress(state).finished:
            break
        choices: dict[str, dict[str, str]] = {}
        for decision in rules.pending(state):
            choices.setdefault(decision.side, {})[decision.field] = decision.options[0].id
        progress = rules.progress(state)
        state, _events = rules.resolve(state, choices, Rng("linear", progress.turn, str(index)))
        states.append(state)
    return rules, states


@pytest.mark.parametrize("key", sorted(FACTORIES))
def test_every_ruleset_stores_its_history_as_records_and_rebuilds_it_byte_for_byte(
    key: str,
) -> None:
    rules, states = _play_states(key)
    stored_records: list[str] = []
    for state in states:
        # What the service does each round: only the records past what is stored.
        stored = rules.dump_stored(state, since=len(stored_records))
        stored_records.extend(stored.records)
        assert stored.length == len(stored_records)
        assert rules.dump_stored(state).records == tuple(stored_records)
        rebuilt = rules.load_stored(stored.current, stored_records)
        assert rules.dump(rebuilt) == rules.dump(state)
        assert rebuilt == state
        # The snapshot keeps none of the history: no record appears in it.
        assert not any(record in stored.current for record in stored_records)
    if key == "dambuster":
        return  # a raid keeps no history: its few runs are its state (rebuilt byte for byte)
    assert stored_records, f"{key}: the campaign never wrote a history record"
    # The snapshot does not grow with the history: the last is about the size of the first.
    first = rules.dump_stored(states[0]).current
    last = rules.dump_stored(states[-1]).current
    whole_last = rules.dump(states[-1])
    assert len(last) < len(whole_last)
    assert len(last) - len(first) < len(whole_last) - len(rules.dump(states[0]))


def _every_scenario() -> list[tuple[str, str]]:
    registry = Registry()
    return [
        (key, name) for key in sorted(FACTORIES) for name in registry.get(key).rules.scenarios()
    ]


@pytest.mark.parametrize(("key", "scenario"), _every_scenario())
def test_every_scenario_survives_storage(key: str, scenario: str) -> None:
    # Some scenarios hold their history in a part that may be absent (a Dambuster raid has
    # no squadron campaign): storing and loading must still give the same state back.
    rules, states = _play_states(key, rounds=12, scenario=scenario)
    stored_records: list[str] = []
    for state in states:
        stored = rules.dump_stored(state, since=len(stored_records))
        stored_records.extend(stored.records)
        assert rules.load_stored(stored.current, stored_records) == state


async def _snapshot_rows(env: Env, cid: int) -> list[tuple[int, int, int, str]]:
    async with env.repo.read() as tx:
        rounds = await tx.rounds(cid)
        ids = sorted(
            {r.snapshot_before_id for r in rounds}
            | {r.snapshot_after_id or 0 for r in rounds} - {0}
        )
        rows = [await tx.snapshot(i) for i in ids]
    return [(r.id, r.branch, r.history_len, r.state) for r in rows if r is not None]


async def test_a_round_appends_its_records_and_a_rollback_branch_starts_from_its_own(
    env: Env,
) -> None:
    cid = await env.campaign()
    rng = random.Random(3)
    for _ in range(6):  # three turns of orders and resource
        await env.play_round(cid, rng)
    async with env.repo.read() as tx:
        branch_one = await tx.history(cid, 1, 100)
        campaign = await tx.campaign(cid)
        assert campaign is not None and campaign.snapshot_id is not None
        latest = await tx.snapshot(campaign.snapshot_id)
    assert latest is not None and latest.history_len == len(branch_one) == 3
    assert all('"history":[{' not in text for *_, text in await _snapshot_rows(env, cid))
    assert [json.loads(r)["turn"] for r in branch_one] == [1, 2, 3]

    await env.svc.rollback(cid, GM, 2, "a redo")
    async with env.repo.read() as tx:
        # The new branch holds turn 1's record only; turn 2 and 3 stay on the old branch.
        assert await tx.history(cid, 2, 100) == branch_one[:1]
        assert await tx.history(cid, 1, 100) == branch_one
    for _ in range(2):
        await env.play_round(cid, random.Random(99))
    async with env.repo.read() as tx:
        branch_two = await tx.history(cid, 2, 100)
        campaign = await tx.campaign(cid)
        assert campaign is not None and campaign.snapshot_id is not None
        latest = await tx.snapshot(campaign.snapshot_id)
        rules = env.svc.rulesets.get("carrier").rules
        assert latest is not None
        state = await load_state(tx, rules, latest)
    assert [json.loads(r)["turn"] for r in branch_two] == [1, 2]
    assert branch_two[0] == branch_one[0]
    assert [record.turn for record in state.history] == [1, 2]
    while (await env.svc.status(cid)).campaign.status != "finished":
        await env.play_round(cid, rng)
    check = verify_export(await env.svc.export(cid))
    assert check.ok and check.replayed, check.problems


def _to_old_shape(path: Path, whole: dict[int, str]) -> None:
    """Turn a file of the latest schema back into what release 0004 wrote: every snapshot
    holding its whole state (the old ``dump``), no history table, no history_len column,
    none of 0006's indexes, one event per row (0007), no sealed events beside the rounds
    (0008), no index by the turn (0009)."""
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    try:
        schema_4_rows(conn, whole)
        conn.execute("ALTER TABLE rounds DROP COLUMN sealed")
        for index in ("timers_by_round", "outbox_by_target", "campaigns_by_status"):
            conn.execute(f"DROP INDEX {index}")
        conn.execute("DROP INDEX campaigns_by_guild")
        for index in ("rounds_by_turn", "events_by_turn"):
            conn.execute(f"DROP INDEX IF EXISTS {index}")
        conn.execute("ALTER TABLE snapshots DROP COLUMN history_len")
        conn.execute("DELETE FROM schema_migrations WHERE version >= 5")
        conn.commit()
    finally:
        conn.close()


async def test_an_old_shape_database_migrates_verifies_and_plays_on(
    tmp_path: Path, catalog: Catalog
) -> None:
    path = tmp_path / "old.db"
    clock = ManualClock(datetime(2025, 6, 1, 12, 0, tzinfo=UTC))
    env = await Env(path, catalog, clock, SeededTokens(7)).open()
    rng = random.Random(8)
    try:
        cid = await env.campaign()
        for _ in range(4):
            await env.play_round(cid, rng)
        await env.svc.rollback(cid, GM, 2, "a redo")  # the old file has two branches
        for _ in range(2):
            await env.play_round(cid, rng)
        rules = env.svc.rulesets.get("carrier").rules
        whole: dict[int, str] = {}
        snapshots = await _snapshot_rows(env, cid)
        async with env.repo.read() as tx:
            for snapshot_id, *_ in snapshots:
                row = await tx.snapshot(snapshot_id)
                assert row is not None
                whole[snapshot_id] = rules.dump(await load_state(tx, rules, row))
        expected_export = await env.svc.export(cid)
    finally:
        await env.close()
    _to_old_shape(path, whole)
    assert any('"history":[{' in text for text in whole.values())

    env = await Env(path, catalog, clock, SeededTokens(7)).open()  # migrates to the latest
    try:
        assert await env.repo.schema_version() == available()[-1].version
        rows = await _snapshot_rows(env, cid)
        assert rows and all('"history":[{' not in text for *_, text in rows)
        # The migrated store gives back exactly the states the old snapshots held.
        async with env.repo.read() as tx:
            for snapshot_id, text in whole.items():
                row = await tx.snapshot(snapshot_id)
                assert row is not None
                assert rules.dump(await load_state(tx, rules, row)) == text
        assert await env.svc.export(cid) == expected_export
        while (await env.svc.status(cid)).campaign.status != "finished":
            await env.play_round(cid, rng)
        check = verify_export(await env.svc.export(cid))
        assert check.ok and check.replayed, check.problems
    finally:
        await env.close()

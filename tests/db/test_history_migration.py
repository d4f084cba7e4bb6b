"""Migration 0005 on both backends: the history leaves every old snapshot for its own rows.

The store is taken to schema 4, given snapshots in the old shape (the whole state, history
included; the wings ruleset's nested one level down), then migrated to the latest.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg

from db import migrate, migrate_pg
from db.backend import open_repository

# Two branches of one carrier campaign (branch 2 rolled back to after turn 1) and a wings
# campaign; the history records are opaque objects to the migration.
T1 = {"turn": 1, "picks": {"japanese": "x"}, "notes": ["é"]}
T2 = {"turn": 2, "picks": {}}
T2B = {"turn": 2, "picks": {"branch": 2}}
W1 = {"mission": 1, "kills": 3}
OLD: list[tuple[int, int, dict[str, Any]]] = [
    (1, 1, {"turn": 1, "vp": {"a": 0}, "history": []}),
    (1, 1, {"turn": 2, "vp": {"a": 1}, "history": [T1]}),
    (1, 1, {"turn": 3, "vp": {"a": 2}, "history": [T1, T2]}),
    (1, 2, {"turn": 2, "vp": {"a": 1}, "history": [T1]}),
    (1, 2, {"turn": 3, "vp": {"a": 5}, "history": [T1, T2B]}),
    (2, 1, {"turn": 2, "campaign": {"history": [W1], "day": 2}}),
]


async def _old_store(db_url: str) -> Any:
    """A connection to a store at schema 4 holding the old snapshots."""
    # One text for both dialects: PostgreSQL numbers its parameters $1, SQLite ?1.
    rows = [
        (
            "INSERT INTO campaigns (id, guild_id, channel_id, gm_id, ruleset, scenario, seed,"
            " seed_commitment, round_seconds, created_at, status)"
            " VALUES ($1, 1, $1, 1, $2, 's', 's', 'c', 60, 0, 'finished')",
            (cid, ruleset),
        )
        for cid, ruleset in ((1, "carrier"), (2, "wings"))
    ] + [
        (
            "INSERT INTO snapshots (campaign_id, branch, turn, round_kind, state, created_at)"
            " VALUES ($1, $2, 1, 'orders', $3, 0)",
            (cid, branch, json.dumps(state)),
        )
        for cid, branch, state in OLD
    ]
    if db_url.startswith("postgresql"):
        conn: Any = await asyncpg.connect(db_url)
        await migrate_pg.migrate(conn, target=4)
        for sql, values in rows:
            await conn.execute(sql, *values)
        return conn
    lite = await aiosqlite.connect(Path(db_url.removeprefix("sqlite:///")), isolation_level=None)
    await migrate.migrate(lite, target=4)
    for sql, values in rows:
        await lite.execute(sql.replace("$", "?"), values)
    return lite


async def test_migration_0005_moves_every_history_into_rows(db_url: str) -> None:
    conn = await _old_store(db_url)
    await conn.close()
    repo = await open_repository(db_url)  # migrates to the latest
    try:
        async with repo.read() as tx:
            for snapshot_id, (cid, branch, old) in enumerate(OLD, start=1):
                row = await tx.snapshot(snapshot_id)
                assert row is not None
                state = json.loads(row.state)
                if cid == 2:  # the wings ruleset's history sits inside its campaign
                    history = old["campaign"]["history"]
                    assert state == {"turn": 2, "campaign": {"day": 2}}
                else:
                    history = old["history"]
                    assert state == {k: v for k, v in old.items() if k != "history"}
                assert row.history_len == len(history)
                records = await tx.history(cid, branch, row.history_len)
                assert [json.loads(r) for r in records] == history
            # Each branch keeps its own records: branch 2's turn 2 is not branch 1's.
            assert [json.loads(r) for r in await tx.history(1, 1, 99)] == [T1, T2]
            assert [json.loads(r) for r in await tx.history(1, 2, 99)] == [T1, T2B]
    finally:
        await repo.close()

"""Deflated JSON in the SQLite file (issue 13): smaller on disk, the same to the service.

A store written before packing holds every JSON column as TEXT; after the upgrade the same
store gets packed rows beside them, and both must read back exactly as written.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from bot.service_model import receipt_of
from db import packing
from db.repository import NewEvent, NewLock, NewOutbox, StorageError, Transaction
from db.sqlite import SqliteRepository

# Long enough to be packed, with the repeats real state JSON has.
STRIKE = {
    "aircraft": [
        {"uid": f"AS{i}-SBD-3-L", "side": "allied", "state": "ok", "pilot": "Dupré (é)"}
        for i in range(40)
    ]
}
# A side's locked choice as the service writes it (``canonical_choice``).
CHOICE = json.dumps(
    {
        "branch": 1,
        "campaign": 1,
        "choice": {
            "doctrine": "aggressive",
            "fleet_tactic": "medium",
            "flight_ops": "small:allied-fleet",
        },
        "round": "orders",
        "side": "japanese",
        "turn": 1,
    },
    sort_keys=True,
    separators=(",", ":"),
)
SALT = "b85de6e2b7520b337a105bd28759ed9a"


async def _round(tx: Transaction, cid: int) -> int:
    """A round from the campaign's first snapshot (the old one, id 1)."""
    return await tx.insert_round(cid, 1, 1, "orders", 0, 10, 1)


async def _campaign(repo: SqliteRepository) -> int:
    async with repo.transaction() as tx:
        rows = await tx.raw.execute_fetchall(
            "INSERT INTO campaigns (guild_id, channel_id, gm_id, ruleset, scenario, seed,"
            " seed_commitment, round_seconds, created_at) VALUES (1, 1, 1, 'carrier', 's',"
            " 's', 'c', 60, 0) RETURNING id"
        )
        return int(rows[0][0])


async def test_old_text_rows_and_packed_rows_read_alike(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    repo = await SqliteRepository.open(path)
    cid = await _campaign(repo)
    state = '{"turn":2,"units":' + "[" + ",".join(['{"id":"cv-1","hp":3}'] * 60) + "]}"
    record = json.dumps({"strikes": STRIKE})
    # The rows a store kept before packing: plain TEXT, as the old code wrote them.
    async with repo.transaction() as tx:
        await tx.raw.execute_fetchall(
            "INSERT INTO snapshots (campaign_id, branch, turn, round_kind, state, created_at)"
            " VALUES (?, 1, 1, 'orders', ?, 0)",
            (cid, state),
        )
        await tx.raw.execute_fetchall(
            "INSERT INTO history (campaign_id, branch, seq, record) VALUES (?, 1, 0, ?)",
            (cid, record),
        )
        await tx.raw.execute_fetchall(
            "INSERT INTO events (campaign_id, branch, source, kind, turn, data, created_at)"
            " VALUES (?, 1, 'service', 'old', 1, ?, 0)",
            (cid, json.dumps(STRIKE)),
        )
        round_id = await _round(tx, cid)
        await tx.raw.execute_fetchall(
            "INSERT INTO locks (round_id, side, canonical, salt, receipt, locked_at)"
            " VALUES (?, 'japanese', ?, ?, ?, 0)",
            (round_id, CHOICE, SALT, receipt_of(CHOICE, SALT)),
        )
        await tx.raw.execute_fetchall("UPDATE locks SET withdrawn_at = 1")
    # The same values written by this release.
    async with repo.transaction() as tx:
        new_snapshot = await tx.insert_snapshot(cid, 1, 2, "orders", state, 0, history_len=2)
        await tx.append_history(cid, 1, 1, [record])
        await tx.append_events(cid, None, 1, [NewEvent("new", 1, STRIKE, "service")], 0)
        await tx.enqueue(cid, NewOutbox("reveal", "channel", 5, STRIKE), 0)
        await tx.add_audit(cid, 1, 1, "rollback", "why", STRIKE, 0)
        await tx.insert_lock(
            NewLock(round_id, "japanese", CHOICE, SALT, receipt_of(CHOICE, SALT), 2, 11)
        )
    async with repo.read() as tx:
        old_row, new_row = await tx.snapshot(1), await tx.snapshot(new_snapshot)
        assert old_row is not None and new_row is not None
        assert old_row.state == new_row.state == state
        assert await tx.history(cid, 1, 2) == [record, record]
        events = await tx.events(cid)
        assert [e.data for e in events] == [STRIKE, STRIKE]
        assert [o.payload for o in await tx.outbox(cid)] == [STRIKE]
        assert [a.data for a in await tx.audit(cid)] == [STRIKE]
        # The choice comes back byte for byte: its published receipt still checks.
        locks = await tx.campaign_locks(cid)
        assert [lock.canonical for lock in locks] == [CHOICE, CHOICE]
        assert all(receipt_of(lock.canonical, lock.salt) == lock.receipt for lock in locks)
    await repo.close()

    # On disk the new rows are packed and smaller; the old ones were left as they were.
    with sqlite3.connect(path) as conn:
        kinds = conn.execute("SELECT typeof(state), length(state) FROM snapshots ORDER BY id")
        (old_kind, old_len), (new_kind, new_len) = kinds.fetchall()
        assert (old_kind, new_kind) == ("text", "blob")
        assert new_len < old_len / 3
        assert conn.execute("SELECT typeof(record) FROM history ORDER BY seq").fetchall() == [
            ("text",),
            ("blob",),
        ]
        # Each column is primed with its own dictionary; the audit deflates alone.
        for table, column, mark in (
            ("events", "data", packing.EVENTS_1),
            ("history", "record", packing.HISTORY_1),
            ("snapshots", "state", packing.STATE_1),
            ("outbox", "payload", packing.OUTBOX_1),
            ("audit", "data", packing.DEFLATE),
            ("locks", "canonical", packing.OUTBOX_1),
        ):
            first = f"SELECT substr({column}, 1, 1) FROM {table} WHERE typeof({column}) = 'blob'"
            assert conn.execute(first).fetchall() == [(bytes((mark,)),)], table
        lengths = conn.execute("SELECT length(canonical) FROM locks ORDER BY id").fetchall()
        assert lengths[1][0] < lengths[0][0] / 2, lengths
        for table, column in (("events", "data"), ("outbox", "payload"), ("audit", "data")):
            last = f"SELECT length({column}) FROM {table} ORDER BY rowid DESC LIMIT 1"
            (size,) = conn.execute(last).fetchone()
            assert size < len(json.dumps(STRIKE)) / 3, table


def test_small_values_stay_text_and_unknown_marks_are_refused() -> None:
    assert packing.pack('{"side":"allied"}') == '{"side":"allied"}'
    assert isinstance(packing.pack(str(STRIKE)), bytes)
    # A short event: the dictionary halves what deflate alone makes of it.
    flak = json.dumps({"against": {"aircraft": "A6M2", "fate": "ok", "side": "japanese"}})
    alone, primed = packing.pack(flak), packing.pack(flak, packing.EVENTS_1)
    assert isinstance(primed, bytes) and len(primed) < len(alone) / 2
    assert packing.unpack(primed) == flak
    with pytest.raises(StorageError, match="unknown mark"):
        packing.unpack(b"\x7fgarbage")
    with pytest.raises(StorageError, match="does not unpack"):
        packing.unpack(bytes((packing.DEFLATE,)) + b"not deflate")

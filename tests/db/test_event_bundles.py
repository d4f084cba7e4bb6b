"""Events written together kept as one SQLite row (``db.bundles``, migration 0007).

A reader must never tell: every event comes back with its kind, data, source, turn and the
sequence number it was given, every page of the log holds the same events as before, a
count counts events, a rollback voids and counts events; on both backends. And on SQLite a
round's burst of events really is one row, and a file written before 0007 reads on and
takes new bundles after its old rows.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import aiosqlite

from db import migrate
from db.backend import open_repository
from db.packing import EVENTS_1, pack
from db.repository import EventRow, NewEvent, Repository, Transaction
from tests.db.test_contract import campaign_with_round, new_campaign


def _burst(turn: int, n: int, tag: str) -> list[NewEvent]:
    """A resolution's events: engine ones, a strike told in full by the service."""
    out = [NewEvent("strike-flown", turn, {"strike": f"{tag}-s"}, source="engine")]
    out += [
        NewEvent("strike-flak", turn, {"strike": f"{tag}-s", "row": i, "é": "ü" * (i % 3)})
        for i in range(n)
    ]
    out.append(NewEvent("vp", turn, {"allied": turn}, source="engine"))
    return out


async def _write(tx: Transaction, cid: int, rid: int) -> list[tuple[int, NewEvent]]:
    """Bursts over three turns (one crossing a turn), single events between them."""
    written: list[tuple[int, NewEvent]] = []
    batches = [
        _burst(1, 9, "a"),
        [NewEvent("side-locked", 1, {"side": "japanese"})],
        _burst(1, 4, "b") + _burst(2, 6, "c"),
        [NewEvent("round-opened", 2, {})],
        _burst(3, 1, "d"),
    ]
    for at, batch in enumerate(batches):
        seqs = await tx.append_events(cid, rid, 1, batch, 100 + at)
        assert len(seqs) == len(batch)
        written += list(zip(seqs, batch, strict=True))
    return written


def _facts(events: Sequence[EventRow]) -> list[tuple[int, str, str, int, dict[str, object]]]:
    return [(e.seq, e.kind, e.source, e.turn, e.data) for e in events]


async def _check_pages(tx: Transaction, cid: int, everything: list[EventRow]) -> None:
    """Every page of every size, whole log and per turn, is the slice of the whole list."""
    for turn in (None, 1, 2, 3):
        wanted = [e for e in everything if turn is None or e.turn == turn]
        assert await tx.count_events(cid, turn=turn) == len(wanted)
        newest = list(reversed(wanted))
        assert _facts(await tx.events(cid, turn=turn, newest_first=True)) == _facts(newest)
        for per_page in (1, 2, 3, 5, 7, 50):
            for offset in range(0, len(wanted) + 2, per_page):
                page = await tx.events(
                    cid, turn=turn, newest_first=True, limit=per_page, offset=offset
                )
                assert _facts(page) == _facts(newest[offset : offset + per_page]), (
                    turn,
                    per_page,
                    offset,
                )
                oldest = await tx.events(cid, turn=turn, limit=per_page, offset=offset)
                assert _facts(oldest) == _facts(wanted[offset : offset + per_page])


async def test_bursts_read_back_event_by_event_on_every_page(db_url: str) -> None:
    repo: Repository = await open_repository(db_url)
    try:
        async with repo.transaction() as tx:
            cid, _, rid = await campaign_with_round(tx)
            other = await tx.insert_campaign(new_campaign(channel=501))  # interleaved numbers
            snapshot = await tx.insert_snapshot(other, 1, 1, "orders", "{}", 10)
            other_round = await tx.insert_round(other, 1, 1, "orders", 10, 1000, snapshot)
            await tx.append_events(other, other_round, 1, _burst(1, 3, "o"), 99)
            written = await _write(tx, cid, rid)
            await tx.append_events(other, other_round, 1, _burst(1, 2, "p"), 99)
        seqs = [seq for seq, _ in written]
        assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
        async with repo.read() as tx:
            everything = await tx.events(cid)
            assert _facts(everything) == [
                (seq, e.kind, e.source, e.turn, dict(e.data)) for seq, e in written
            ]
            assert [e.created_at for e in everything][:12] == [100] * 11 + [101]
            assert {e.round_id for e in everything} == {rid}
            assert [e.kind for e in await tx.events(cid, round_id=rid)] == [
                e.kind for _, e in written
            ]
            await _check_pages(tx, cid, everything)
            assert len(await tx.events(other)) == 5 + 4
        async with repo.transaction() as tx:
            assert await tx.void_events(cid, [rid]) == len(written)
            assert await tx.void_events(cid, [rid]) == 0
            assert all(e.void for e in await tx.events(cid))
            assert not any(e.void for e in await tx.events(other))
    finally:
        await repo.close()


async def test_a_burst_is_one_row_in_the_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    repo = await open_repository(f"sqlite:///{path}")
    try:
        async with repo.transaction() as tx:
            cid, _, rid = await campaign_with_round(tx)
            await _write(tx, cid, rid)
    finally:
        await repo.close()
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT kind, turn, lines FROM events ORDER BY seq").fetchall()
    finally:
        conn.close()
    # 11 events of turn 1; one alone; 6 of turn 1 then 8 of turn 2; one alone; 3 of turn 3.
    assert rows == [
        ("bundle", 1, 11),
        ("side-locked", 1, 1),
        ("bundle", 1, 6),
        ("bundle", 2, 8),
        ("round-opened", 2, 1),
        ("bundle", 3, 3),
    ]


async def test_a_file_from_before_bundles_reads_on_and_takes_new_ones(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = await aiosqlite.connect(path, isolation_level=None)
    await migrate.migrate(conn, target=6)
    await conn.execute(
        "INSERT INTO campaigns (id, guild_id, channel_id, gm_id, ruleset, scenario, seed,"
        " seed_commitment, round_seconds, created_at, status)"
        " VALUES (1, 1, 1, 1, 'carrier', 'coral-sea', 's', 'c', 60, 0, 'active')"
    )
    await conn.execute(
        "INSERT INTO snapshots (id, campaign_id, branch, turn, round_kind, state, created_at)"
        " VALUES (1, 1, 1, 1, 'orders', '{}', 0)"
    )
    await conn.execute(
        "INSERT INTO rounds (id, campaign_id, branch, turn, kind, opened_at, snapshot_before_id)"
        " VALUES (1, 1, 1, 1, 'orders', 0, 1)"
    )
    old = [
        ("campaign-created", "service", 1, json.dumps({"scenario": "coral-sea"})),
        ("strike-duel", "service", 1, pack(json.dumps({"strike": "x", "attacks": 2}), EVENTS_1)),
        ("vp", "engine", 1, json.dumps({"allied": 1, "japanese": 0, "note": "x" * 80})),
    ]
    for kind, source, turn, data in old:
        await conn.execute(
            "INSERT INTO events (campaign_id, round_id, branch, source, kind, turn, data,"
            " created_at) VALUES (1, 1, 1, ?, ?, ?, ?, 5)",
            (source, kind, turn, data),
        )
    await conn.close()

    repo = await open_repository(f"sqlite:///{path}")  # migrates to the latest
    try:
        assert await repo.schema_version() == migrate.available()[-1].version
        async with repo.transaction() as tx:
            before = await tx.events(1)
            assert [(e.seq, e.kind, e.source) for e in before] == [
                (1, "campaign-created", "service"),
                (2, "strike-duel", "service"),
                (3, "vp", "engine"),
            ]
            assert before[1].data == {"strike": "x", "attacks": 2}
            seqs = await tx.append_events(1, 1, 1, _burst(2, 5, "n"), 9)
            assert seqs == list(range(4, 11))
            seqs += await tx.append_events(1, 1, 1, [NewEvent("round-opened", 2, {})], 9)
            assert seqs[-1] == 11
        async with repo.read() as tx:
            everything = await tx.events(1)
            assert [e.seq for e in everything] == list(range(1, 12))
            assert _facts(everything[:3]) == _facts(before)
            await _check_pages(tx, 1, everything)
        async with repo.transaction() as tx:
            assert await tx.void_events(1, [1]) == 11
    finally:
        await repo.close()

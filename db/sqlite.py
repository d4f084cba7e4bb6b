"""The SQLite implementation of ``db.repository`` on the standard ``sqlite3`` module.

One writer per process, guarded by an ``asyncio.Lock``: SQLite allows one writer at a time
anyway, so a write transaction is "hold the lock, BEGIN IMMEDIATE, work, COMMIT". Its
statements run on the event loop (microseconds each from the page cache) and only the
COMMIT, which waits for the disk, goes to the writer's thread: one thread hop per write
transaction. Reads take a connection of their own and read the last commit (WAL), so they
never wait behind the write lock. ``busy_timeout`` covers a second process on the file.

All the SQL of the project lives in this module and in ``migrations/``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import aiosqlite

from db import bundles, thread_exit
from db.backup import backup_connection
from db.migrate import (
    ForeignDatabaseError,
    current_version,
    foreign_refusal,
    foreign_tables,
    migrate,
)
from db.packing import EVENTS_1, HISTORY_1, OUTBOX_1, STATE_1, pack, unpack
from db.repository import (
    AuditRow,
    CampaignRow,
    ConstraintError,
    EventRow,
    LockRow,
    NewCampaign,
    NewEvent,
    NewLock,
    NewOutbox,
    OutboxRow,
    PlayerRow,
    Repository,
    RoundRow,
    SnapshotRow,
    StorageError,
    TimerRow,
    Transaction,
)

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 10_000

_CAMPAIGN_COLUMNS = {
    "status",
    "branch",
    "snapshot_id",
    "round_message_id",
    "card_message_id",
    "paused_at",
    "started_at",
    "ended_at",
    "end_reason",
    "seed_revealed",
    "gm_id",
    "locale",
    "round_seconds",
    "reminder_offsets",
    "missing_policy",
    "gm_sees_secrets",
    "allow_unlock",
}
_PLAYER_COLUMNS = {"side", "commander", "dm_ok", "last_active", "left_at"}
_ROUND_COLUMNS = {
    "status",
    "deadline_at",
    "resolved_at",
    "message_id",
    "snapshot_after_id",
    "sealed",
}


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _campaign(row: sqlite3.Row) -> CampaignRow:
    return CampaignRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        gm_id=row["gm_id"],
        ruleset=row["ruleset"],
        scenario=row["scenario"],
        locale=row["locale"],
        seed=row["seed"],
        seed_commitment=row["seed_commitment"],
        seed_revealed=bool(row["seed_revealed"]),
        round_seconds=row["round_seconds"],
        reminder_offsets=tuple(int(x) for x in json.loads(row["reminder_offsets"])),
        missing_policy=row["missing_policy"],
        gm_sees_secrets=bool(row["gm_sees_secrets"]),
        allow_unlock=bool(row["allow_unlock"]),
        status=row["status"],
        branch=row["branch"],
        snapshot_id=row["snapshot_id"],
        round_message_id=row["round_message_id"],
        card_message_id=row["card_message_id"],
        paused_at=row["paused_at"],
        created_at=row["created_at"],
        started_at=row["started_at"],
        ended_at=row["ended_at"],
        end_reason=row["end_reason"],
    )


def _player(row: sqlite3.Row) -> PlayerRow:
    return PlayerRow(
        campaign_id=row["campaign_id"],
        user_id=row["user_id"],
        side=row["side"],
        commander=bool(row["commander"]),
        dm_ok=bool(row["dm_ok"]),
        joined_at=row["joined_at"],
        last_active=row["last_active"],
        left_at=row["left_at"],
    )


def _round(row: sqlite3.Row) -> RoundRow:
    return RoundRow(
        id=row["id"],
        campaign_id=row["campaign_id"],
        branch=row["branch"],
        turn=row["turn"],
        kind=row["kind"],
        status=row["status"],
        opened_at=row["opened_at"],
        deadline_at=row["deadline_at"],
        resolved_at=row["resolved_at"],
        message_id=row["message_id"],
        snapshot_before_id=row["snapshot_before_id"],
        snapshot_after_id=row["snapshot_after_id"],
        sealed=row["sealed"],
    )


def _lock(row: sqlite3.Row) -> LockRow:
    return LockRow(
        id=row["id"],
        round_id=row["round_id"],
        side=row["side"],
        canonical=unpack(row["canonical"]),
        salt=row["salt"],
        receipt=row["receipt"],
        locked_at=row["locked_at"],
        by_user=row["by_user"],
        defaulted=bool(row["defaulted"]),
        withdrawn_at=row["withdrawn_at"],
    )


def _event(row: sqlite3.Row, data: Any = None) -> EventRow:
    return EventRow(
        seq=row["seq"],
        campaign_id=row["campaign_id"],
        round_id=row["round_id"],
        branch=row["branch"],
        source=row["source"],
        kind=row["kind"],
        turn=row["turn"],
        data=json.loads(unpack(row["data"])) if data is None else data,
        void=bool(row["void"]),
        created_at=row["created_at"],
    )


def _events(row: sqlite3.Row) -> list[EventRow]:
    """The events a row holds: itself, or a bundle's (``db.bundles``)."""
    lines = int(row["lines"])
    if lines <= 1:
        return [_event(row)]
    return bundles.expand(_event(row, {}), lines, json.loads(unpack(row["data"])))


def _timer(row: sqlite3.Row) -> TimerRow:
    return TimerRow(
        id=row["id"],
        campaign_id=row["campaign_id"],
        round_id=row["round_id"],
        kind=row["kind"],
        due_at=row["due_at"],
        offset_s=row["offset_s"],
        done=bool(row["done"]),
    )


def _outbox(row: sqlite3.Row) -> OutboxRow:
    return OutboxRow(
        id=row["id"],
        campaign_id=row["campaign_id"],
        kind=row["kind"],
        target_kind=row["target_kind"],
        target_id=row["target_id"],
        message_key=row["message_key"],
        payload=json.loads(unpack(row["payload"])),
        status=row["status"],
        attempts=row["attempts"],
        next_attempt_at=row["next_attempt_at"],
        last_error=row["last_error"],
        delivered_id=row["delivered_id"],
        delivered_at=row["delivered_at"],
        dedupe_key=row["dedupe_key"],
        created_at=row["created_at"],
    )


def _set_clause(fields: Mapping[str, Any], allowed: set[str]) -> tuple[str, list[Any]]:
    unknown = set(fields) - allowed
    if unknown:
        raise StorageError(f"cannot update column(s) {sorted(unknown)}")
    values: list[Any] = []
    parts: list[str] = []
    for name, value in fields.items():
        parts.append(f"{name} = ?")
        if isinstance(value, bool):
            value = int(value)
        elif isinstance(value, tuple | list | dict):
            value = _dumps(value)
        values.append(value)
    return ", ".join(parts), values


class SqliteTransaction(Transaction):
    def __init__(self, conn: sqlite3.Connection, *, writable: bool) -> None:
        self._conn = conn
        self._writable = writable
        # The first constraint error of the transaction: once set, the transaction is
        # rolled back and the error raised again at the end of the block (see
        # ``ConstraintError``), even if the caller caught it.
        self.spoiled: ConstraintError | None = None

    @property
    def raw(self) -> Any:
        """The driver connection inside this transaction: for ``db.transfer`` only."""
        return _RawConnection(self._conn)

    # -- helpers
    # Statements run right here, on the event loop's thread: the transaction already holds
    # the write lock (or reads a WAL snapshot), so a statement never waits on another
    # connection and costs microseconds from the page cache, where a hop to a worker thread
    # and back cost more than the statement. The one slow step, the durable COMMIT, goes to
    # the writer's thread (``SqliteRepository.transaction``).
    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        try:
            return self._conn.execute(sql, params).fetchall()
        except sqlite3.IntegrityError as exc:
            # The same exception on every backend (see ``ConstraintError``).
            self.spoiled = ConstraintError(str(exc))
            raise self.spoiled from exc

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        if not self._writable:
            raise StorageError("write attempted in a read-only transaction")
        return await self._all(sql, params)

    async def _insert_id(self, sql: str, params: Sequence[Any]) -> int:
        new = await self._insert(sql, params)
        if new is None:
            raise StorageError("insert did not create a row")
        return new

    async def _insert_id_key(self, sql: str, params: Sequence[Any]) -> int:
        new = await self._insert(sql, params, key="seq")
        if new is None:
            raise StorageError("insert did not create a row")
        return new

    async def _insert(self, sql: str, params: Sequence[Any], key: str = "id") -> int | None:
        """Insert and return the new row's key (None if ON CONFLICT DO NOTHING skipped it)."""
        rows = await self._write(f"{sql} RETURNING {key}", params)
        return int(rows[0][0]) if rows else None

    # -- guild settings
    async def set_gm_role(self, guild_id: int, role_id: int | None, now: int) -> None:
        await self._write(
            "INSERT INTO guild_settings (guild_id, gm_role_id, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET gm_role_id = excluded.gm_role_id,"
            " updated_at = excluded.updated_at",
            (guild_id, role_id, now),
        )

    async def gm_role(self, guild_id: int) -> int | None:
        row = await self._one(
            "SELECT gm_role_id FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None else row["gm_role_id"]

    async def set_creators(self, guild_id: int, who: str, now: int) -> None:
        await self._write(
            "INSERT INTO guild_settings (guild_id, creators, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET creators = excluded.creators,"
            " updated_at = excluded.updated_at",
            (guild_id, who, now),
        )

    async def creators(self, guild_id: int) -> str:
        row = await self._one("SELECT creators FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return "gm" if row is None else str(row["creators"])

    # -- campaigns
    async def insert_campaign(self, new: NewCampaign) -> int:
        return await self._insert_id(
            "INSERT INTO campaigns (guild_id, channel_id, gm_id, ruleset, scenario, locale, seed,"
            " seed_commitment, round_seconds, reminder_offsets, missing_policy, gm_sees_secrets,"
            " allow_unlock, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                new.guild_id,
                new.channel_id,
                new.gm_id,
                new.ruleset,
                new.scenario,
                new.locale,
                new.seed,
                new.seed_commitment,
                new.round_seconds,
                _dumps(list(new.reminder_offsets)),
                new.missing_policy,
                int(new.gm_sees_secrets),
                int(new.allow_unlock),
                new.created_at,
            ),
        )

    async def campaign(self, campaign_id: int) -> CampaignRow | None:
        row = await self._one("SELECT * FROM campaigns WHERE id = ?", (campaign_id,))
        return None if row is None else _campaign(row)

    async def live_campaign_in_channel(self, channel_id: int) -> CampaignRow | None:
        row = await self._one(
            "SELECT * FROM campaigns WHERE channel_id = ?"
            " AND status IN ('setup', 'active', 'paused') ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )
        return None if row is None else _campaign(row)

    async def latest_campaign_in_channel(self, channel_id: int) -> CampaignRow | None:
        row = await self._one(
            "SELECT * FROM campaigns WHERE channel_id = ?"
            " ORDER BY CASE WHEN status = 'finished' THEN 1 ELSE 0 END, id DESC LIMIT 1",
            (channel_id,),
        )
        return None if row is None else _campaign(row)

    async def guild_campaigns(
        self, guild_id: int, *, limit: int = 25, offset: int = 0
    ) -> list[CampaignRow]:
        rows = await self._all(
            "SELECT * FROM campaigns WHERE guild_id = ? ORDER BY id DESC LIMIT ? OFFSET ?",
            (guild_id, max(0, limit), max(0, offset)),
        )
        return [_campaign(row) for row in rows]

    async def count_guild_campaigns(self, guild_id: int) -> int:
        row = await self._one("SELECT COUNT(*) AS n FROM campaigns WHERE guild_id = ?", (guild_id,))
        return int(row["n"]) if row is not None else 0

    async def campaigns(self, statuses: Sequence[str] = ()) -> list[CampaignRow]:
        if statuses:
            marks = ", ".join("?" for _ in statuses)
            rows = await self._all(
                f"SELECT * FROM campaigns WHERE status IN ({marks}) ORDER BY id", list(statuses)
            )
        else:
            rows = await self._all("SELECT * FROM campaigns ORDER BY id")
        return [_campaign(row) for row in rows]

    async def update_campaign(self, campaign_id: int, **fields: Any) -> None:
        clause, values = _set_clause(fields, _CAMPAIGN_COLUMNS)
        await self._write(f"UPDATE campaigns SET {clause} WHERE id = ?", [*values, campaign_id])

    # -- players
    async def player(self, campaign_id: int, user_id: int) -> PlayerRow | None:
        row = await self._one(
            "SELECT * FROM players WHERE campaign_id = ? AND user_id = ?", (campaign_id, user_id)
        )
        return None if row is None else _player(row)

    async def players(self, campaign_id: int, *, include_left: bool = False) -> list[PlayerRow]:
        sql = "SELECT * FROM players WHERE campaign_id = ?"
        if not include_left:
            sql += " AND left_at IS NULL"
        rows = await self._all(sql + " ORDER BY joined_at, user_id", (campaign_id,))
        return [_player(row) for row in rows]

    async def upsert_player(self, row: PlayerRow) -> None:
        await self._write(
            "INSERT INTO players (campaign_id, user_id, side, commander, dm_ok, joined_at,"
            " last_active, left_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (campaign_id, user_id) DO UPDATE SET side = excluded.side,"
            " commander = excluded.commander, dm_ok = excluded.dm_ok,"
            " joined_at = excluded.joined_at, last_active = excluded.last_active,"
            " left_at = excluded.left_at",
            (
                row.campaign_id,
                row.user_id,
                row.side,
                int(row.commander),
                int(row.dm_ok),
                row.joined_at,
                row.last_active,
                row.left_at,
            ),
        )

    async def update_player(self, campaign_id: int, user_id: int, **fields: Any) -> None:
        clause, values = _set_clause(fields, _PLAYER_COLUMNS)
        await self._write(
            f"UPDATE players SET {clause} WHERE campaign_id = ? AND user_id = ?",
            [*values, campaign_id, user_id],
        )

    # -- snapshots
    async def insert_snapshot(
        self,
        campaign_id: int,
        branch: int,
        turn: int,
        round_kind: str,
        state: str,
        now: int,
        *,
        history_len: int = 0,
    ) -> int:
        return await self._insert_id(
            "INSERT INTO snapshots (campaign_id, branch, turn, round_kind, state, created_at,"
            " history_len) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (campaign_id, branch, turn, round_kind, pack(state, STATE_1), now, history_len),
        )

    async def snapshot(self, snapshot_id: int) -> SnapshotRow | None:
        row = await self._one("SELECT * FROM snapshots WHERE id = ?", (snapshot_id,))
        if row is None:
            return None
        return SnapshotRow(
            id=row["id"],
            campaign_id=row["campaign_id"],
            branch=row["branch"],
            turn=row["turn"],
            round_kind=row["round_kind"],
            state=unpack(row["state"]),
            created_at=row["created_at"],
            history_len=row["history_len"],
        )

    # -- history
    async def append_history(
        self, campaign_id: int, branch: int, first_seq: int, records: Sequence[str]
    ) -> None:
        if not records:
            return
        # One statement for the round's records: one thread hop, not one per record.
        values = ", ".join("(?, ?, ?, ?)" for _ in records)
        params: list[Any] = []
        for index, record in enumerate(records):
            params.extend((campaign_id, branch, first_seq + index, pack(record, HISTORY_1)))
        await self._write(
            f"INSERT INTO history (campaign_id, branch, seq, record) VALUES {values}", params
        )

    async def history(
        self, campaign_id: int, branch: int, length: int, start: int = 0
    ) -> list[str]:
        if length <= start:
            return []
        rows = await self._all(
            "SELECT record FROM history WHERE campaign_id = ? AND branch = ?"
            " AND seq >= ? AND seq < ? ORDER BY seq",
            (campaign_id, branch, start, length),
        )
        return [unpack(row[0]) for row in rows]

    async def copy_history(
        self, campaign_id: int, from_branch: int, to_branch: int, length: int
    ) -> int:
        rows = await self._write(
            "INSERT INTO history (campaign_id, branch, seq, record)"
            " SELECT campaign_id, ?, seq, record FROM history"
            " WHERE campaign_id = ? AND branch = ? AND seq < ? RETURNING seq",
            (to_branch, campaign_id, from_branch, length),
        )
        return len(rows)

    # -- rounds
    async def insert_round(
        self,
        campaign_id: int,
        branch: int,
        turn: int,
        kind: str,
        opened_at: int,
        deadline_at: int | None,
        snapshot_before_id: int,
    ) -> int:
        return await self._insert_id(
            "INSERT INTO rounds (campaign_id, branch, turn, kind, opened_at, deadline_at,"
            " snapshot_before_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (campaign_id, branch, turn, kind, opened_at, deadline_at, snapshot_before_id),
        )

    async def round(self, round_id: int) -> RoundRow | None:
        row = await self._one("SELECT * FROM rounds WHERE id = ?", (round_id,))
        return None if row is None else _round(row)

    async def live_round(self, campaign_id: int) -> RoundRow | None:
        row = await self._one(
            "SELECT * FROM rounds WHERE campaign_id = ? AND status IN ('open', 'resolving')"
            " ORDER BY id DESC LIMIT 1",
            (campaign_id,),
        )
        return None if row is None else _round(row)

    async def rounds(self, campaign_id: int) -> list[RoundRow]:
        rows = await self._all(
            "SELECT * FROM rounds WHERE campaign_id = ? ORDER BY id", (campaign_id,)
        )
        return [_round(row) for row in rows]

    async def rounds_with_status(self, status: str) -> list[RoundRow]:
        rows = await self._all("SELECT * FROM rounds WHERE status = ? ORDER BY id", (status,))
        return [_round(row) for row in rows]

    async def update_round(self, round_id: int, **fields: Any) -> None:
        clause, values = _set_clause(fields, _ROUND_COLUMNS)
        await self._write(f"UPDATE rounds SET {clause} WHERE id = ?", [*values, round_id])

    # -- drafts and locks
    async def set_draft(
        self, round_id: int, side: str, field: str, value: str, by_user: int, now: int
    ) -> None:
        await self._write(
            "INSERT INTO drafts (round_id, side, field, value, by_user, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (round_id, side, field) DO UPDATE SET"
            " value = excluded.value, by_user = excluded.by_user, updated_at = excluded.updated_at",
            (round_id, side, field, value, by_user, now),
        )

    async def drafts(self, round_id: int, side: str) -> dict[str, str]:
        rows = await self._all(
            "SELECT field, value FROM drafts WHERE round_id = ? AND side = ? ORDER BY field",
            (round_id, side),
        )
        return {row["field"]: row["value"] for row in rows}

    async def insert_lock(self, lock: NewLock) -> int:
        return await self._insert_id(
            "INSERT INTO locks (round_id, side, canonical, salt, receipt, locked_at, by_user,"
            " defaulted) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                lock.round_id,
                lock.side,
                # Deflated, primed with the outbox's dictionary: the reveal payloads it was
                # built from carry these very choices. Unpacked byte for byte, so the
                # receipt (sha256 of the text and the salt) still checks.
                pack(lock.canonical, OUTBOX_1),
                lock.salt,
                lock.receipt,
                lock.locked_at,
                lock.by_user,
                int(lock.defaulted),
            ),
        )

    async def standing_locks(self, round_id: int) -> dict[str, LockRow]:
        rows = await self._all(
            "SELECT * FROM locks WHERE round_id = ? AND withdrawn_at IS NULL ORDER BY id",
            (round_id,),
        )
        return {row["side"]: _lock(row) for row in rows}

    async def withdraw_lock(self, round_id: int, side: str, now: int) -> None:
        await self._write(
            "UPDATE locks SET withdrawn_at = ? WHERE round_id = ? AND side = ?"
            " AND withdrawn_at IS NULL",
            (now, round_id, side),
        )

    async def campaign_locks(self, campaign_id: int) -> list[LockRow]:
        rows = await self._all(
            "SELECT locks.* FROM locks JOIN rounds ON rounds.id = locks.round_id"
            " WHERE rounds.campaign_id = ? ORDER BY locks.id",
            (campaign_id,),
        )
        return [_lock(row) for row in rows]

    # -- events
    async def append_events(
        self,
        campaign_id: int,
        round_id: int | None,
        branch: int,
        events: Sequence[NewEvent],
        now: int,
    ) -> list[int]:
        seqs: list[int] = []
        for run in bundles.runs(events):
            if len(run) == 1:
                event = run[0]
                seqs.append(
                    await self._insert_id_key(
                        "INSERT INTO events (campaign_id, round_id, branch, source, kind, turn,"
                        " data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            campaign_id,
                            round_id,
                            branch,
                            event.source,
                            event.kind,
                            event.turn,
                            pack(_dumps(dict(event.data)), EVENTS_1),
                            now,
                        ),
                    )
                )
                continue
            # The row takes the run's last number and leaves the ones below it free, so
            # every event keeps the number it would have had as a row of its own.
            source, data = bundles.bundle_data(run, _dumps)
            last = await self._insert_id_key(
                "INSERT INTO events (seq, campaign_id, round_id, branch, source, kind, turn,"
                " data, created_at, lines) VALUES ((SELECT COALESCE(MAX(seq), 0) FROM"
                " sqlite_sequence WHERE name = 'events') + ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    len(run),
                    campaign_id,
                    round_id,
                    branch,
                    source,
                    bundles.KIND,
                    run[0].turn,
                    pack(data, EVENTS_1),
                    now,
                    len(run),
                ),
            )
            seqs.extend(range(last - len(run) + 1, last + 1))
        return seqs

    async def events(
        self,
        campaign_id: int,
        *,
        turn: int | None = None,
        round_id: int | None = None,
        newest_first: bool = False,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[EventRow]:
        where = "campaign_id = ?"
        params: list[Any] = [campaign_id]
        if turn is not None:
            where += " AND turn = ?"
            params.append(turn)
        if round_id is not None:
            where += " AND round_id = ?"
            params.append(round_id)
        order = "seq DESC" if newest_first else "seq"
        if limit is None:
            rows = await self._all(f"SELECT * FROM events WHERE {where} ORDER BY {order}", params)
            if newest_first:
                return [event for row in rows for event in reversed(_events(row))]
            return [event for row in rows for event in _events(row)]
        # A page counts events, not rows: the running total of each row's events finds the
        # row holding the first one wanted, and at most ``limit`` rows from it hold the rest.
        rows = await self._all(
            f"SELECT * FROM (SELECT *, SUM(lines) OVER (ORDER BY {order}) AS upto"
            f" FROM events WHERE {where}) WHERE upto > ? ORDER BY {order} LIMIT ?",
            [*params, offset, limit],
        )
        return bundles.window(
            ((_events(row), int(row["upto"])) for row in rows), newest_first, limit, offset
        )

    async def count_events(self, campaign_id: int, *, turn: int | None = None) -> int:
        sql = "SELECT COALESCE(SUM(lines), 0) AS n FROM events WHERE campaign_id = ?"
        params: list[Any] = [campaign_id]
        if turn is not None:
            sql += " AND turn = ?"
            params.append(turn)
        row = await self._one(sql, params)
        return int(row["n"]) if row else 0

    async def void_events(self, campaign_id: int, round_ids: Sequence[int]) -> int:
        if not round_ids:
            return 0
        marks = ", ".join("?" for _ in round_ids)
        rows = await self._write(
            f"UPDATE events SET void = 1 WHERE campaign_id = ? AND round_id IN ({marks})"
            " AND void = 0 RETURNING lines",
            [campaign_id, *round_ids],
        )
        return sum(int(row["lines"]) for row in rows)

    # -- timers
    async def insert_timer(
        self, campaign_id: int, round_id: int, kind: str, due_at: int, offset_s: int = 0
    ) -> int:
        return await self._insert_id(
            "INSERT INTO timers (campaign_id, round_id, kind, due_at, offset_s)"
            " VALUES (?, ?, ?, ?, ?)",
            (campaign_id, round_id, kind, due_at, offset_s),
        )

    async def due_timers(self, now: int) -> list[TimerRow]:
        # Reminders before deadlines at the same instant: a reminder due with its own
        # deadline is dropped by the service (the round is no longer open) rather than sent late.
        rows = await self._all(
            "SELECT * FROM timers WHERE done = 0 AND due_at <= ?"
            " ORDER BY due_at, CASE kind WHEN 'reminder' THEN 0 ELSE 1 END, id",
            (now,),
        )
        return [_timer(row) for row in rows]

    async def round_timers(self, round_id: int, *, pending_only: bool = True) -> list[TimerRow]:
        sql = "SELECT * FROM timers WHERE round_id = ?"
        if pending_only:
            # "+done": not an index column here, so the round's own index (timers_by_round)
            # is used rather than timers_due, which holds every campaign's pending timers.
            sql += " AND +done = 0"
        return [_timer(row) for row in await self._all(sql + " ORDER BY due_at, id", (round_id,))]

    async def finish_timer(self, timer_id: int) -> None:
        await self._write("UPDATE timers SET done = 1 WHERE id = ?", (timer_id,))

    async def finish_round_timers(self, round_id: int) -> None:
        await self._write("UPDATE timers SET done = 1 WHERE round_id = ? AND done = 0", (round_id,))

    async def shift_round_timers(self, round_id: int, seconds: int) -> None:
        await self._write(
            "UPDATE timers SET due_at = due_at + ? WHERE round_id = ? AND done = 0",
            (seconds, round_id),
        )

    # -- outbox
    async def enqueue(self, campaign_id: int | None, item: NewOutbox, now: int) -> int | None:
        if item.coalesce and item.message_key is not None:
            row = await self._one(
                "SELECT id FROM outbox WHERE campaign_id IS ? AND message_key = ?"
                " AND status = 'pending' AND kind = ? ORDER BY id DESC LIMIT 1",
                (campaign_id, item.message_key, item.kind),
            )
            if row is not None:
                await self._write(
                    "UPDATE outbox SET payload = ? WHERE id = ?",
                    (pack(_dumps(dict(item.payload)), OUTBOX_1), row["id"]),
                )
                return None
        return await self._insert(
            "INSERT INTO outbox (campaign_id, kind, target_kind, target_id, message_key, payload,"
            " next_attempt_at, dedupe_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (dedupe_key) DO NOTHING",
            (
                campaign_id,
                item.kind,
                item.target_kind,
                item.target_id,
                item.message_key,
                pack(_dumps(dict(item.payload)), OUTBOX_1),
                now,
                item.dedupe_key,
                now,
            ),
        )

    async def pending_outbox(self, limit: int = 100) -> list[OutboxRow]:
        rows = await self._all(
            "SELECT * FROM outbox WHERE status = 'pending' ORDER BY id LIMIT ?", (limit,)
        )
        return [_outbox(row) for row in rows]

    async def claim_outbox(self, now: int, lease_until: int, limit: int = 100) -> list[OutboxRow]:
        # The exclusive write transaction is the claim lock: select, then move the lease.
        rows = await self._all(
            "SELECT * FROM outbox AS o WHERE o.status = 'pending' AND o.next_attempt_at <= ?"
            " AND NOT EXISTS (SELECT 1 FROM outbox AS w WHERE w.status = 'pending'"
            " AND w.next_attempt_at > ? AND w.target_kind = o.target_kind"
            " AND w.target_id = o.target_id AND w.id < o.id)"
            " ORDER BY o.id LIMIT ?",
            (now, now, limit),
        )
        if rows:
            marks = ", ".join("?" for _ in rows)
            await self._write(
                f"UPDATE outbox SET next_attempt_at = ? WHERE id IN ({marks})",
                [lease_until, *(row["id"] for row in rows)],
            )
        return [_outbox(row) for row in rows]

    async def release_outbox(self, rows: Sequence[OutboxRow], lease_until: int) -> None:
        for row in rows:
            await self._write(
                "UPDATE outbox SET next_attempt_at = ? WHERE id = ? AND status = 'pending'"
                " AND next_attempt_at = ?",
                (row.next_attempt_at, row.id, lease_until),
            )

    async def outbox(self, campaign_id: int | None = None) -> list[OutboxRow]:
        if campaign_id is None:
            rows = await self._all("SELECT * FROM outbox ORDER BY id")
        else:
            rows = await self._all(
                "SELECT * FROM outbox WHERE campaign_id = ? ORDER BY id", (campaign_id,)
            )
        return [_outbox(row) for row in rows]

    async def outbox_item(self, item_id: int) -> OutboxRow | None:
        row = await self._one("SELECT * FROM outbox WHERE id = ?", (item_id,))
        return None if row is None else _outbox(row)

    async def mark_delivered(self, item_id: int, message_id: int, now: int) -> None:
        await self._write(
            "UPDATE outbox SET status = 'delivered', delivered_id = ?, delivered_at = ?,"
            " attempts = attempts + 1, last_error = NULL WHERE id = ?",
            (message_id, now, item_id),
        )

    async def mark_retry(self, item_id: int, error: str, next_attempt_at: int) -> None:
        await self._write(
            "UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?"
            " WHERE id = ?",
            (error[:500], next_attempt_at, item_id),
        )

    async def redeliver(self, campaign_id: int, now: int) -> int:
        rows = await self._write(
            "UPDATE outbox SET status = 'pending', next_attempt_at = ?"
            " WHERE campaign_id = ? AND ((status = 'pending' AND attempts > 0)"
            " OR (status = 'failed' AND last_error NOT LIKE 'obsolete%'"
            " AND last_error NOT LIKE 'recipient%'))"
            " RETURNING id",
            (now, campaign_id),
        )
        return len(rows)

    async def mark_failed(self, item_id: int, error: str) -> None:
        await self._write(
            "UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = ?"
            " WHERE id = ?",
            (error[:500], item_id),
        )

    async def message_ref(self, campaign_id: int, key: str) -> int | None:
        row = await self._one(
            "SELECT message_id FROM message_refs WHERE campaign_id = ? AND key = ?",
            (campaign_id, key),
        )
        return None if row is None else int(row["message_id"])

    async def set_message_ref(
        self, campaign_id: int, key: str, target_id: int, message_id: int
    ) -> None:
        await self._write(
            "INSERT INTO message_refs (campaign_id, key, target_id, message_id) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (campaign_id, key) DO UPDATE SET target_id = excluded.target_id,"
            " message_id = excluded.message_id",
            (campaign_id, key, target_id, message_id),
        )

    # -- audit
    async def add_audit(
        self,
        campaign_id: int | None,
        guild_id: int | None,
        who: int,
        what: str,
        why: str,
        data: Mapping[str, Any],
        now: int,
    ) -> int:
        return await self._insert_id(
            "INSERT INTO audit (campaign_id, guild_id, who, what, why, data, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (campaign_id, guild_id, who, what, why, pack(_dumps(dict(data))), now),
        )

    async def audit(self, campaign_id: int) -> list[AuditRow]:
        rows = await self._all(
            "SELECT * FROM audit WHERE campaign_id = ? ORDER BY id", (campaign_id,)
        )
        return [
            AuditRow(
                id=row["id"],
                campaign_id=row["campaign_id"],
                guild_id=row["guild_id"],
                who=row["who"],
                what=row["what"],
                why=row["why"],
                data=json.loads(unpack(row["data"])),
                at=row["at"],
            )
            for row in rows
        ]


class _RawCursor:
    """An aiosqlite-shaped cursor over a plain one, for ``db.transfer``'s SQLite branch."""

    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = cursor

    async def __aenter__(self) -> _RawCursor:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._cursor.close()

    async def fetchmany(self, size: int) -> list[sqlite3.Row]:
        return self._cursor.fetchmany(size)

    async def fetchone(self) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self._cursor.fetchone()
        return row


class _RawStatement:
    """``raw.execute(...)``: awaited, or entered with ``async with`` for its cursor."""

    def __init__(self, conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> None:
        self._cursor = _RawCursor(conn.execute(sql, params))

    def __await__(self) -> Any:
        return self._cursor.__aenter__().__await__()

    async def __aenter__(self) -> _RawCursor:
        return self._cursor

    async def __aexit__(self, *exc: object) -> None:
        await self._cursor.__aexit__()


class _RawConnection:
    """The few aiosqlite calls ``db.transfer`` makes, on the transaction's own connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _RawStatement:
        return _RawStatement(self._conn, sql, params)

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return self._conn.execute(sql, params).fetchall()

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self._conn.executemany(sql, rows)


def _connect(path: Path, *, busy_timeout_ms: int, query_only: bool = False) -> sqlite3.Connection:
    # isolation_level=None: the sqlite3 module must not open transactions behind our back;
    # every transaction here starts with an explicit BEGIN. check_same_thread=False: the
    # writer commits on its own thread (never while the loop uses it, the write lock sees
    # to that).
    conn = sqlite3.connect(
        path, isolation_level=None, check_same_thread=False, cached_statements=256
    )
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout = {busy_timeout_ms}")
    # FULL: a commit is on disk before it returns, so a receipt announced after a lock can
    # never be lost to a power cut (NORMAL would only survive a crash of the process).
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    if query_only:
        conn.execute("PRAGMA query_only = ON")
    return conn


class SqliteRepository(Repository):
    """A campaign store in one SQLite file.

    Three kinds of connection to the file: the writer, whose statements run on the event
    loop under the write lock and whose COMMIT (the fsync) runs on its own thread, one hop
    per write transaction; a small pool of readers, each read transaction on one of them
    (WAL: a read sees the last commit and never waits for the writer); and the
    administration connection (aiosqlite) for migrations, backups and tests.
    """

    dialect = "sqlite"

    #: Idle readers kept open; more are opened while more reads are in flight.
    READERS_KEPT = 4

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        self._conn = conn
        self._path = path
        self._lock = asyncio.Lock()
        self._closed = False
        # busy_timeout 0 on the writer: BEGIN IMMEDIATE is tried on the loop and, only if
        # another process holds the file's write lock, waited for on the writer's thread.
        self._writer = _connect(path, busy_timeout_ms=0)
        self._readers: list[sqlite3.Connection] = []
        self._commits = ThreadPoolExecutor(1, thread_name_prefix="sqlite-writer")
        self._group: asyncio.Future[None] | None = None  # the open, not yet durable, group
        self._latest: asyncio.Future[None] | None = None  # the last group opened
        # A group opened by a lazy transaction commits at its end without an fsync
        # (synchronous NORMAL: in the WAL, safe from a crash of the process, not from a
        # power cut); a group opened by a durable one at ``_sync``, lazy ones joining it.
        # ``_mode``: the pragma the writer has now.
        self._sync = "FULL"
        self._mode = ("FULL", True)
        self._group_durable = True
        self._flusher: asyncio.Task[None] | None = None
        thread_exit.opened(self)  # its thread stopped at exit should it never be closed

    @classmethod
    async def open(
        cls, path: str | Path, *, migrate_to_latest: bool = True, now: datetime | None = None
    ) -> SqliteRepository:
        """Open (creating if needed) the file, set the pragmas, apply pending migrations."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            # Before anything writes (WAL mode alone rewrites the file's header): another
            # application's database is refused as it was found.
            foreign = await foreign_tables(conn)
            if foreign:
                raise ForeignDatabaseError(
                    foreign_refusal(foreign), key="foreign", tables=", ".join(foreign[:5])
                )
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute("PRAGMA synchronous = FULL")
            await conn.execute("PRAGMA foreign_keys = ON")
            if migrate_to_latest:
                await migrate(conn, now=now)
            return cls(conn, path)
        except BaseException:
            await conn.close()
            raise

    @property
    def path(self) -> Path:
        return self._path

    @property
    def connection(self) -> aiosqlite.Connection:
        """The administration connection, for migrations and tests; services never touch it."""
        return self._conn

    def set_synchronous(self, mode: str) -> None:
        """The writer's ``synchronous`` pragma (FULL by default): for benchmarks only."""
        if mode not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
            raise ValueError(mode)
        self._writer.execute(f"PRAGMA synchronous = {mode}")
        self._sync = mode
        self._mode = (mode, True)

    def _set_mode(self, durable: bool) -> None:
        # Outside a transaction only (SQLite refuses it inside): before a group's BEGIN.
        mode = self._sync if durable or self._sync == "OFF" else "NORMAL"
        if (mode, durable) != self._mode:
            self._writer.execute(f"PRAGMA synchronous = {mode}")
            # A lazy group commits on the event loop (below): the checkpoints, which wait
            # for the disk, are left to the durable commits, made on the writer's thread.
            self._writer.execute(f"PRAGMA wal_autocheckpoint = {1000 if durable else 0}")
            self._mode = (mode, durable)

    async def _run_on_writer(self, work: Callable[[], None]) -> None:
        """Run ``work`` on the writer's thread and wait for it, even through a cancellation:
        the write lock must not pass on while the connection is still busy."""
        job = asyncio.get_running_loop().run_in_executor(self._commits, work)
        cancelled = False
        while True:
            try:
                await asyncio.shield(job)
                break
            except asyncio.CancelledError:
                if job.done():
                    break
                cancelled = True
        error = job.exception()
        if error is not None:
            raise error
        if cancelled:
            raise asyncio.CancelledError

    def _begin_waiting(self) -> None:
        self._writer.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        try:
            self._writer.execute("BEGIN IMMEDIATE")
        finally:
            self._writer.execute("PRAGMA busy_timeout = 0")

    def _commit(self) -> None:
        try:
            self._writer.execute("COMMIT")
        except BaseException:
            if self._writer.in_transaction:
                self._writer.execute("ROLLBACK")
            raise

    async def _begin(self) -> None:
        try:
            self._writer.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            # Another process (a backup, a second bot) writes: wait for it off the loop.
            await self._run_on_writer(self._begin_waiting)

    def transaction(self, campaign: int | None = None) -> AbstractAsyncContextManager[Transaction]:
        # ``campaign`` is ignored: one SQLite file has one writer at a time anyway.
        return self._writing(durable=True)

    def lazy_transaction(
        self, campaign: int | None = None
    ) -> AbstractAsyncContextManager[Transaction]:
        return self._writing(durable=False)

    async def flushed(self) -> None:
        # Groups commit in the order they opened (one writer lock): the latest is the last.
        if self._latest is not None:
            await asyncio.shield(self._latest)

    @asynccontextmanager
    async def _writing(self, *, durable: bool) -> AsyncIterator[Transaction]:
        # Group commit: transactions that queue for the writer while a COMMIT waits for the
        # disk run one after the other inside one SQLite transaction, each in its own
        # savepoint, and one COMMIT makes them all durable. Each caller is answered only
        # once its group is on disk (a lazy one at once: see ``lazy_transaction``); if the
        # COMMIT fails, every waiting caller of the group gets the error, so nobody is told
        # of a write that did not land.
        async with self._lock:
            if self._closed:
                raise StorageError("the repository is closed")
            if self._group is None:
                self._set_mode(durable)
                await self._begin()
                self._group = self._latest = asyncio.get_running_loop().create_future()
                self._group_durable = durable
            group = self._group
            self._writer.execute("SAVEPOINT tx")
            tx = SqliteTransaction(self._writer, writable=True)
            try:
                yield tx
                if tx.spoiled is not None:
                    raise tx.spoiled
            except BaseException:
                # BaseException: a cancelled task must not leave its half in the group.
                self._undo_savepoint(group)
                raise
            else:
                self._writer.execute("RELEASE tx")
                if not self._group_durable:
                    # Nobody waits on a lazy group and its COMMIT waits for no disk: made
                    # at once, here, it costs no thread hop and holds the file no longer.
                    self._group = None
                    try:
                        self._commit()
                    except BaseException as exc:
                        group.set_exception(exc)
                        raise
                    group.set_result(None)
            finally:
                self._schedule_flush()
        if durable:
            await asyncio.shield(group)

    def _undo_savepoint(self, group: asyncio.Future[None]) -> None:
        if self._writer.in_transaction:
            self._writer.execute("ROLLBACK TO tx")
            self._writer.execute("RELEASE tx")
            return
        # SQLite gave up the whole transaction (a full disk, say): the group is lost.
        self._group = None
        if not group.done():
            group.set_exception(StorageError("the write transaction was rolled back"))

    def _schedule_flush(self) -> None:
        if self._group is not None and (self._flusher is None or self._flusher.done()):
            self._flusher = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        # Queued behind the transactions already waiting for the writer (the lock is
        # fair), so they join this group before it commits.
        async with self._lock:
            try:
                await self._commit_group()
            except Exception:
                # Every caller of the group has the error; the log keeps a trace of it.
                log.exception("group commit failed")

    async def _commit_group(self) -> None:
        """COMMIT the open group, if any (the caller holds the write lock)."""
        group, self._group = self._group, None
        if group is None:
            return
        try:
            await self._run_on_writer(self._commit)
        except asyncio.CancelledError:
            # Waited for: the COMMIT itself went through.
            if not group.done():
                group.set_result(None)
            raise
        except Exception as exc:
            if not group.done():
                group.set_exception(exc)
            raise
        if not group.done():
            group.set_result(None)

    def _reader(self) -> sqlite3.Connection:
        if self._readers:
            return self._readers.pop()
        return _connect(self._path, busy_timeout_ms=BUSY_TIMEOUT_MS, query_only=True)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Transaction]:
        if self._closed:
            raise StorageError("the repository is closed")
        conn = self._reader()
        conn.execute("BEGIN")
        try:
            yield SqliteTransaction(conn, writable=False)
        finally:
            conn.execute("ROLLBACK")
            if self._closed or len(self._readers) >= self.READERS_KEPT:
                conn.close()
            else:
                self._readers.append(conn)

    async def close(self) -> None:
        async with self._lock:
            try:
                await self._commit_group()
            finally:
                # Even when that last COMMIT failed (its callers have the error, and
                # ``_commit`` rolled it back): a connection left open keeps its thread, and
                # the program that closes on its way out on an error would never exit.
                if not self._closed:
                    self._closed = True
                    thread_exit.closed(self)
                    for reader in self._readers:
                        reader.close()
                    self._readers.clear()
                    self._writer.close()
                    self._commits.shutdown(wait=True)
                    await self._conn.close()

    def abandon(self) -> None:
        # Called at exit on a repository never closed (``db.thread_exit``), with no event
        # loop left: the administration connection's thread finishes what it runs, closes
        # the connection and ends. The writer's connection holds no thread of its own.
        self._closed = True
        self._conn.stop()

    async def migrate(self) -> int:
        """Apply pending migrations; the number applied."""
        async with self._lock:
            await self._commit_group()
            return len(await migrate(self._conn))

    async def schema_version(self) -> int:
        async with self._lock:
            await self._commit_group()
            return await current_version(self._conn)

    async def backup(self, destination: Path) -> None:
        async with self._lock:
            await self._commit_group()
            await backup_connection(self._conn, Path(destination))

    async def size_bytes(self) -> int:
        async with self._lock:
            await self._commit_group()
            async with self._conn.execute("PRAGMA page_count") as cur:
                pages = await cur.fetchone()
            async with self._conn.execute("PRAGMA page_size") as cur:
                size = await cur.fetchone()
        return int(pages[0]) * int(size[0]) if pages and size else 0

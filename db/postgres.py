"""The PostgreSQL implementation of ``db.repository`` on asyncpg (``DATABASE_URL=postgresql://…``).

The contract is SQLite's, kept across processes:

- a write transaction takes transaction-level advisory locks right after BEGIN (in the
  same round trip), so writers keep out of each other's way across *every* process sharing
  the database. A schema-wide writer takes the schema's lock exclusively and runs alone,
  exactly like SQLite's ``BEGIN IMMEDIATE``; a writer that touches one campaign's rows only
  (``transaction(campaign=…)``: drafting, locking, resolving) takes it shared plus that
  campaign's lock, so campaigns are written side by side. Under those locks READ COMMITTED
  sees every earlier writer's rows of the campaign, so "read, check, write" cannot race.
  Within a process a ``WriterGate`` queues the writers the same way first (first come,
  first served between writers that conflict) so they do not each hold a pooled
  connection while they wait;
- a read is a REPEATABLE READ, READ ONLY transaction on its own pooled connection: one
  consistent snapshot, and it never waits for a writer.

Row mapping is shared with ``db.sqlite`` (both drivers' rows are indexed by column name);
flags are BOOLEAN here and JSON stays TEXT, as the migrations in ``migrations_pg`` say.
A constraint violation is raised as ``ConstraintError``, as on SQLite.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import asyncpg

from db.migrate_pg import current_version, lock_key, migrate
from db.pg_problems import CONNECT_SECONDS, connection_problem
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
    PanelRows,
    PlayerRow,
    Repository,
    RoundRow,
    SnapshotRow,
    StorageError,
    TimerRow,
    Transaction,
)
from db.sqlite import (
    _CAMPAIGN_COLUMNS,
    _PLAYER_COLUMNS,
    _ROUND_COLUMNS,
    _campaign,
    _dumps,
    _event,
    _lock,
    _outbox,
    _player,
    _round,
    _timer,
)
from db.writer_gate import WriterGate

_BOOLEAN_COLUMNS = {"seed_revealed", "gm_sees_secrets", "allow_unlock", "commander", "dm_ok"}
POOL_SIZE = 10


def is_postgres_url(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def _set_clause(fields: Mapping[str, Any], allowed: set[str], first: int) -> tuple[str, list[Any]]:
    """``a = $first, b = $first+1`` and the values, typed for asyncpg (which does not coerce)."""
    unknown = set(fields) - allowed
    if unknown:
        raise StorageError(f"cannot update column(s) {sorted(unknown)}")
    values: list[Any] = []
    parts: list[str] = []
    for index, (name, value) in enumerate(fields.items(), start=first):
        parts.append(f"{name} = ${index}")
        if name in _BOOLEAN_COLUMNS and value is not None:
            value = bool(value)
        elif isinstance(value, tuple | list | dict):
            value = _dumps(value)
        values.append(value)
    return ", ".join(parts), values


# The campaign, the player, the live round (as ``live_round``), the snapshot it opened on,
# its standing locks and the player's side's drafts (byte order, as SQLite sorts).
_PANEL_ROWS = (
    "SELECT c AS campaign,"
    " (SELECT p FROM players p WHERE p.campaign_id = c.id AND p.user_id = $2) AS player,"
    " r AS live,"
    " (SELECT s FROM snapshots s WHERE s.id = r.snapshot_before_id) AS snapshot,"
    " ARRAY(SELECT l FROM locks l WHERE l.round_id = r.id AND l.withdrawn_at IS NULL"
    " ORDER BY l.id) AS locks,"
    " ARRAY(SELECT d FROM drafts d WHERE d.round_id = r.id AND d.side = (SELECT p.side"
    " FROM players p WHERE p.campaign_id = c.id AND p.user_id = $2)"
    ' ORDER BY d.field COLLATE "C") AS drafts'
    " FROM campaigns c LEFT JOIN rounds r ON r.id = (SELECT x.id FROM rounds x"
    " WHERE x.campaign_id = c.id AND x.status IN ('open', 'resolving')"
    " ORDER BY x.id DESC LIMIT 1)"
    " WHERE c.id = $1"
)


def _snapshot(row: Any) -> SnapshotRow:
    return SnapshotRow(
        id=row["id"],
        campaign_id=row["campaign_id"],
        branch=row["branch"],
        turn=row["turn"],
        round_kind=row["round_kind"],
        state=row["state"],
        created_at=row["created_at"],
        history_len=row["history_len"],
    )


class PostgresTransaction(Transaction):
    def __init__(self, conn: Any, *, writable: bool) -> None:
        self._conn = conn
        self._writable = writable
        # The first constraint error of the transaction: once set, the transaction is
        # rolled back and the error raised again at the end of the block (see
        # ``ConstraintError``), even if the caller caught it.
        self.spoiled: StorageError | None = None

    @property
    def raw(self) -> Any:
        """The driver connection inside this transaction: for ``db.transfer`` only."""
        return self._conn

    # -- helpers: every statement goes through these, so constraint errors are translated
    # in one place.
    async def _all(self, sql: str, *params: Any) -> list[Any]:
        try:
            return list(await self._conn.fetch(sql, *params))
        except asyncpg.IntegrityConstraintViolationError as exc:
            self.spoiled = ConstraintError(str(exc))
            raise self.spoiled from exc
        except asyncpg.PostgresError as exc:
            # Any error aborts a PostgreSQL transaction; a caller that caught it must not
            # reach a COMMIT that would quietly roll back.
            self.spoiled = StorageError(f"transaction aborted by an earlier error: {exc}")
            raise

    async def _one(self, sql: str, *params: Any) -> Any | None:
        rows = await self._all(sql, *params)
        return rows[0] if rows else None

    async def _write(self, sql: str, *params: Any) -> list[Any]:
        if not self._writable:
            raise StorageError("write attempted in a read-only transaction")
        return await self._all(sql, *params)

    async def _insert(self, sql: str, *params: Any, key: str = "id") -> int | None:
        rows = await self._write(f"{sql} RETURNING {key}", *params)
        return int(rows[0][0]) if rows else None

    async def _insert_id(self, sql: str, *params: Any, key: str = "id") -> int:
        new = await self._insert(sql, *params, key=key)
        if new is None:
            raise StorageError("insert did not create a row")
        return new

    # -- guild settings
    async def set_gm_role(self, guild_id: int, role_id: int | None, now: int) -> None:
        await self._write(
            "INSERT INTO guild_settings (guild_id, gm_role_id, updated_at) VALUES ($1, $2, $3)"
            " ON CONFLICT (guild_id) DO UPDATE SET gm_role_id = excluded.gm_role_id,"
            " updated_at = excluded.updated_at",
            guild_id,
            role_id,
            now,
        )

    async def gm_role(self, guild_id: int) -> int | None:
        row = await self._one("SELECT gm_role_id FROM guild_settings WHERE guild_id = $1", guild_id)
        return None if row is None else row["gm_role_id"]

    async def set_creators(self, guild_id: int, who: str, now: int) -> None:
        await self._write(
            "INSERT INTO guild_settings (guild_id, creators, updated_at) VALUES ($1, $2, $3)"
            " ON CONFLICT (guild_id) DO UPDATE SET creators = excluded.creators,"
            " updated_at = excluded.updated_at",
            guild_id,
            who,
            now,
        )

    async def creators(self, guild_id: int) -> str:
        row = await self._one("SELECT creators FROM guild_settings WHERE guild_id = $1", guild_id)
        return "gm" if row is None else str(row["creators"])

    # -- campaigns
    async def insert_campaign(self, new: NewCampaign) -> int:
        return await self._insert_id(
            "INSERT INTO campaigns (guild_id, channel_id, gm_id, ruleset, scenario, locale, seed,"
            " seed_commitment, round_seconds, reminder_offsets, missing_policy, gm_sees_secrets,"
            " allow_unlock, created_at)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
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
            bool(new.gm_sees_secrets),
            bool(new.allow_unlock),
            new.created_at,
        )

    async def campaign(self, campaign_id: int) -> CampaignRow | None:
        row = await self._one("SELECT * FROM campaigns WHERE id = $1", campaign_id)
        return None if row is None else _campaign(row)

    async def live_campaign_in_channel(self, channel_id: int) -> CampaignRow | None:
        row = await self._one(
            "SELECT * FROM campaigns WHERE channel_id = $1"
            " AND status IN ('setup', 'active', 'paused') ORDER BY id DESC LIMIT 1",
            channel_id,
        )
        return None if row is None else _campaign(row)

    async def latest_campaign_in_channel(self, channel_id: int) -> CampaignRow | None:
        row = await self._one(
            "SELECT * FROM campaigns WHERE channel_id = $1"
            " ORDER BY CASE WHEN status = 'finished' THEN 1 ELSE 0 END, id DESC LIMIT 1",
            channel_id,
        )
        return None if row is None else _campaign(row)

    async def guild_campaigns(
        self, guild_id: int, *, limit: int = 25, offset: int = 0
    ) -> list[CampaignRow]:
        rows = await self._all(
            "SELECT * FROM campaigns WHERE guild_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3",
            guild_id,
            max(0, limit),
            max(0, offset),
        )
        return [_campaign(row) for row in rows]

    async def count_guild_campaigns(self, guild_id: int) -> int:
        row = await self._one("SELECT COUNT(*) AS n FROM campaigns WHERE guild_id = $1", guild_id)
        return int(row["n"]) if row is not None else 0

    async def campaigns(self, statuses: Sequence[str] = ()) -> list[CampaignRow]:
        if statuses:
            rows = await self._all(
                "SELECT * FROM campaigns WHERE status = ANY($1::text[]) ORDER BY id",
                list(statuses),
            )
        else:
            rows = await self._all("SELECT * FROM campaigns ORDER BY id")
        return [_campaign(row) for row in rows]

    async def update_campaign(self, campaign_id: int, **fields: Any) -> None:
        clause, values = _set_clause(fields, _CAMPAIGN_COLUMNS, 2)
        await self._write(f"UPDATE campaigns SET {clause} WHERE id = $1", campaign_id, *values)

    # -- players
    async def player(self, campaign_id: int, user_id: int) -> PlayerRow | None:
        row = await self._one(
            "SELECT * FROM players WHERE campaign_id = $1 AND user_id = $2", campaign_id, user_id
        )
        return None if row is None else _player(row)

    async def players(self, campaign_id: int, *, include_left: bool = False) -> list[PlayerRow]:
        sql = "SELECT * FROM players WHERE campaign_id = $1"
        if not include_left:
            sql += " AND left_at IS NULL"
        rows = await self._all(sql + " ORDER BY joined_at, user_id", campaign_id)
        return [_player(row) for row in rows]

    async def upsert_player(self, row: PlayerRow) -> None:
        await self._write(
            "INSERT INTO players (campaign_id, user_id, side, commander, dm_ok, joined_at,"
            " last_active, left_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
            " ON CONFLICT (campaign_id, user_id) DO UPDATE SET side = excluded.side,"
            " commander = excluded.commander, dm_ok = excluded.dm_ok,"
            " joined_at = excluded.joined_at, last_active = excluded.last_active,"
            " left_at = excluded.left_at",
            row.campaign_id,
            row.user_id,
            row.side,
            bool(row.commander),
            bool(row.dm_ok),
            row.joined_at,
            row.last_active,
            row.left_at,
        )

    async def update_player(self, campaign_id: int, user_id: int, **fields: Any) -> None:
        clause, values = _set_clause(fields, _PLAYER_COLUMNS, 3)
        await self._write(
            f"UPDATE players SET {clause} WHERE campaign_id = $1 AND user_id = $2",
            campaign_id,
            user_id,
            *values,
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
            " history_len) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            campaign_id,
            branch,
            turn,
            round_kind,
            state,
            now,
            history_len,
        )

    async def snapshot(self, snapshot_id: int) -> SnapshotRow | None:
        row = await self._one("SELECT * FROM snapshots WHERE id = $1", snapshot_id)
        return None if row is None else _snapshot(row)

    # -- history
    async def append_history(
        self, campaign_id: int, branch: int, first_seq: int, records: Sequence[str]
    ) -> None:
        if not records:
            return
        await self._write(
            "INSERT INTO history (campaign_id, branch, seq, record)"
            " SELECT $1, $2, $3 + r.ord - 1, r.record"
            " FROM unnest($4::text[]) WITH ORDINALITY AS r (record, ord)",
            campaign_id,
            branch,
            first_seq,
            list(records),
        )

    async def history(
        self, campaign_id: int, branch: int, length: int, start: int = 0
    ) -> list[str]:
        if length <= start:
            return []
        rows = await self._all(
            "SELECT record FROM history WHERE campaign_id = $1 AND branch = $2"
            " AND seq >= $3 AND seq < $4 ORDER BY seq",
            campaign_id,
            branch,
            start,
            length,
        )
        return [str(row["record"]) for row in rows]

    async def copy_history(
        self, campaign_id: int, from_branch: int, to_branch: int, length: int
    ) -> int:
        rows = await self._write(
            "INSERT INTO history (campaign_id, branch, seq, record)"
            " SELECT campaign_id, $1, seq, record FROM history"
            " WHERE campaign_id = $2 AND branch = $3 AND seq < $4 RETURNING seq",
            to_branch,
            campaign_id,
            from_branch,
            length,
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
            " snapshot_before_id) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            campaign_id,
            branch,
            turn,
            kind,
            opened_at,
            deadline_at,
            snapshot_before_id,
        )

    async def round(self, round_id: int) -> RoundRow | None:
        row = await self._one("SELECT * FROM rounds WHERE id = $1", round_id)
        return None if row is None else _round(row)

    async def live_round(self, campaign_id: int) -> RoundRow | None:
        row = await self._one(
            "SELECT * FROM rounds WHERE campaign_id = $1 AND status IN ('open', 'resolving')"
            " ORDER BY id DESC LIMIT 1",
            campaign_id,
        )
        return None if row is None else _round(row)

    async def rounds(self, campaign_id: int) -> list[RoundRow]:
        rows = await self._all(
            "SELECT * FROM rounds WHERE campaign_id = $1 ORDER BY id", campaign_id
        )
        return [_round(row) for row in rows]

    async def rounds_with_status(self, status: str) -> list[RoundRow]:
        rows = await self._all("SELECT * FROM rounds WHERE status = $1 ORDER BY id", status)
        return [_round(row) for row in rows]

    async def update_round(self, round_id: int, **fields: Any) -> None:
        clause, values = _set_clause(fields, _ROUND_COLUMNS, 2)
        await self._write(f"UPDATE rounds SET {clause} WHERE id = $1", round_id, *values)

    # -- drafts and locks
    async def set_draft(
        self, round_id: int, side: str, field: str, value: str, by_user: int, now: int
    ) -> None:
        await self._write(
            "INSERT INTO drafts (round_id, side, field, value, by_user, updated_at)"
            " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (round_id, side, field) DO UPDATE SET"
            " value = excluded.value, by_user = excluded.by_user, updated_at = excluded.updated_at",
            round_id,
            side,
            field,
            value,
            by_user,
            now,
        )

    async def record_draft(
        self,
        campaign_id: int,
        round_id: int,
        side: str,
        field: str,
        value: str,
        by_user: int,
        now: int,
    ) -> None:
        # The draft and the player's activity in one statement (one round trip).
        await self._write(
            "WITH drafted AS (INSERT INTO drafts (round_id, side, field, value, by_user,"
            " updated_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (round_id, side, field)"
            " DO UPDATE SET value = excluded.value, by_user = excluded.by_user,"
            " updated_at = excluded.updated_at RETURNING 1)"
            " UPDATE players SET last_active = $6 WHERE campaign_id = $7 AND user_id = $5"
            " AND EXISTS (SELECT 1 FROM drafted)",
            round_id,
            side,
            field,
            value,
            by_user,
            now,
            campaign_id,
        )

    async def drafts(self, round_id: int, side: str) -> dict[str, str]:
        # COLLATE "C": byte order, as SQLite sorts text, whatever the server's locale.
        rows = await self._all(
            "SELECT field, value FROM drafts WHERE round_id = $1 AND side = $2"
            ' ORDER BY field COLLATE "C"',
            round_id,
            side,
        )
        return {row["field"]: row["value"] for row in rows}

    async def insert_lock(self, lock: NewLock) -> int:
        return await self._insert_id(
            "INSERT INTO locks (round_id, side, canonical, salt, receipt, locked_at, by_user,"
            " defaulted) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            lock.round_id,
            lock.side,
            lock.canonical,
            lock.salt,
            lock.receipt,
            lock.locked_at,
            lock.by_user,
            bool(lock.defaulted),
        )

    async def standing_locks(self, round_id: int) -> dict[str, LockRow]:
        rows = await self._all(
            "SELECT * FROM locks WHERE round_id = $1 AND withdrawn_at IS NULL ORDER BY id",
            round_id,
        )
        return {row["side"]: _lock(row) for row in rows}

    async def withdraw_lock(self, round_id: int, side: str, now: int) -> None:
        await self._write(
            "UPDATE locks SET withdrawn_at = $1 WHERE round_id = $2 AND side = $3"
            " AND withdrawn_at IS NULL",
            now,
            round_id,
            side,
        )

    async def panel_rows(self, campaign_id: int, user_id: int) -> PanelRows:
        # One statement, so one round trip and one moment (a statement sees one snapshot
        # even outside a transaction). Whole rows come back as the tables' row types,
        # which asyncpg decodes into records by column name, as the other queries' rows.
        row = await self._one(_PANEL_ROWS, campaign_id, user_id)
        if row is None:
            return PanelRows(None)
        player = row["player"]
        live = row["live"]
        snapshot = row["snapshot"]
        return PanelRows(
            _campaign(row["campaign"]),
            None if player is None else _player(player),
            None if live is None else _round(live),
            None if snapshot is None else _snapshot(snapshot),
            {lock["side"]: _lock(lock) for lock in row["locks"] or ()},
            {draft["field"]: draft["value"] for draft in row["drafts"] or ()},
        )

    async def campaign_locks(self, campaign_id: int) -> list[LockRow]:
        rows = await self._all(
            "SELECT locks.* FROM locks JOIN rounds ON rounds.id = locks.round_id"
            " WHERE rounds.campaign_id = $1 ORDER BY locks.id",
            campaign_id,
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
        if not events:
            return []
        # One statement for the whole batch (a resolution writes dozens of events): draw
        # as many sequence numbers as there are events and give them out in ascending order,
        # the first event the lowest. A campaign's writers are serialised, so its events'
        # seq grows in commit order, as on SQLite.
        rows = await self._write(
            "INSERT INTO events (seq, campaign_id, round_id, branch, source, kind, turn, data,"
            " created_at) SELECT d.seq, $1, $2, $3, e.source, e.kind, e.turn, e.data, $4"
            " FROM (SELECT seq, row_number() OVER (ORDER BY seq) AS ord FROM"
            " (SELECT nextval(pg_get_serial_sequence('events', 'seq')) AS seq"
            " FROM generate_series(1, $5)) AS n) AS d"
            " JOIN unnest($6::text[], $7::text[], $8::bigint[], $9::text[])"
            " WITH ORDINALITY AS e(source, kind, turn, data, ord) ON e.ord = d.ord"
            " RETURNING seq",
            campaign_id,
            round_id,
            branch,
            now,
            len(events),
            [event.source for event in events],
            [event.kind for event in events],
            [event.turn for event in events],
            [_dumps(dict(event.data)) for event in events],
        )
        seqs = sorted(int(row[0]) for row in rows)
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
        sql = "SELECT * FROM events WHERE campaign_id = $1"
        params: list[Any] = [campaign_id]
        if turn is not None:
            params.append(turn)
            sql += f" AND turn = ${len(params)}"
        if round_id is not None:
            params.append(round_id)
            sql += f" AND round_id = ${len(params)}"
        sql += " ORDER BY seq DESC" if newest_first else " ORDER BY seq"
        if limit is not None:
            params += [limit, offset]
            sql += f" LIMIT ${len(params) - 1} OFFSET ${len(params)}"
        return [_event(row) for row in await self._all(sql, *params)]

    async def count_events(self, campaign_id: int, *, turn: int | None = None) -> int:
        if turn is None:
            row = await self._one(
                "SELECT COUNT(*) AS n FROM events WHERE campaign_id = $1", campaign_id
            )
        else:
            row = await self._one(
                "SELECT COUNT(*) AS n FROM events WHERE campaign_id = $1 AND turn = $2",
                campaign_id,
                turn,
            )
        return int(row["n"]) if row else 0

    async def void_events(self, campaign_id: int, round_ids: Sequence[int]) -> int:
        if not round_ids:
            return 0
        rows = await self._write(
            "UPDATE events SET void = TRUE WHERE campaign_id = $1"
            " AND round_id = ANY($2::bigint[]) AND NOT void RETURNING seq",
            campaign_id,
            list(round_ids),
        )
        return len(rows)

    # -- timers
    async def insert_timer(
        self, campaign_id: int, round_id: int, kind: str, due_at: int, offset_s: int = 0
    ) -> int:
        return await self._insert_id(
            "INSERT INTO timers (campaign_id, round_id, kind, due_at, offset_s)"
            " VALUES ($1, $2, $3, $4, $5)",
            campaign_id,
            round_id,
            kind,
            due_at,
            offset_s,
        )

    async def due_timers(self, now: int) -> list[TimerRow]:
        # Same order as SQLite: reminders before deadlines due at the same instant.
        rows = await self._all(
            "SELECT * FROM timers WHERE NOT done AND due_at <= $1"
            " ORDER BY due_at, CASE kind WHEN 'reminder' THEN 0 ELSE 1 END, id",
            now,
        )
        return [_timer(row) for row in rows]

    async def round_timers(self, round_id: int, *, pending_only: bool = True) -> list[TimerRow]:
        sql = "SELECT * FROM timers WHERE round_id = $1"
        if pending_only:
            sql += " AND NOT done"
        return [_timer(row) for row in await self._all(sql + " ORDER BY due_at, id", round_id)]

    async def finish_timer(self, timer_id: int) -> None:
        await self._write("UPDATE timers SET done = TRUE WHERE id = $1", timer_id)

    async def finish_round_timers(self, round_id: int) -> None:
        await self._write(
            "UPDATE timers SET done = TRUE WHERE round_id = $1 AND NOT done", round_id
        )

    async def shift_round_timers(self, round_id: int, seconds: int) -> None:
        await self._write(
            "UPDATE timers SET due_at = due_at + $1 WHERE round_id = $2 AND NOT done",
            seconds,
            round_id,
        )

    # -- outbox
    async def enqueue(self, campaign_id: int | None, item: NewOutbox, now: int) -> int | None:
        # One statement: the newest pending item it coalesces with (same campaign, message
        # and kind) takes the new payload; failing that, the item is inserted unless its
        # dedupe key is taken. The id of an inserted item, else None.
        rows = await self._write(
            "WITH target AS (SELECT id FROM outbox WHERE campaign_id IS NOT DISTINCT FROM"
            " $1::bigint AND message_key = $10::text AND status = 'pending' AND kind = $2::text"
            " ORDER BY id DESC LIMIT 1),"
            " coalesced AS (UPDATE outbox SET payload = $6::text FROM target"
            " WHERE outbox.id = target.id RETURNING outbox.id)"
            " INSERT INTO outbox (campaign_id, kind, target_kind, target_id, message_key,"
            " payload, next_attempt_at, dedupe_key, created_at)"
            " SELECT $1::bigint, $2::text, $3::text, $4::bigint, $5::text, $6::text,"
            " $7::bigint, $8::text, $9::bigint WHERE NOT EXISTS (SELECT 1 FROM coalesced)"
            " ON CONFLICT (dedupe_key) DO NOTHING RETURNING id",
            campaign_id,
            item.kind,
            item.target_kind,
            item.target_id,
            item.message_key,
            _dumps(dict(item.payload)),
            now,
            item.dedupe_key,
            now,
            item.message_key if item.coalesce else None,  # NULL matches nothing
        )
        return int(rows[0]["id"]) if rows else None

    async def pending_outbox(self, limit: int = 100) -> list[OutboxRow]:
        rows = await self._all(
            "SELECT * FROM outbox WHERE status = 'pending' ORDER BY id LIMIT $1", limit
        )
        return [_outbox(row) for row in rows]

    async def claim_outbox(self, now: int, lease_until: int, limit: int = 100) -> list[OutboxRow]:
        # The claim runs under the cross-process writer lock like every write, so claims
        # never race. Not SKIP LOCKED: skipping a row locked by a concurrent claim would
        # let a later row of the same destination overtake it.
        rows = await self._write(
            "WITH picked AS (SELECT o.* FROM outbox o WHERE o.status = 'pending'"
            " AND o.next_attempt_at <= $1 AND NOT EXISTS (SELECT 1 FROM outbox w"
            " WHERE w.status = 'pending' AND w.next_attempt_at > $1"
            " AND w.target_kind = o.target_kind AND w.target_id = o.target_id AND w.id < o.id)"
            " ORDER BY o.id LIMIT $3),"
            " claimed AS (UPDATE outbox SET next_attempt_at = $2 FROM picked"
            " WHERE outbox.id = picked.id RETURNING outbox.id)"
            " SELECT picked.* FROM picked JOIN claimed USING (id) ORDER BY id",
            now,
            lease_until,
            limit,
        )
        return [_outbox(row) for row in rows]

    async def release_outbox(self, rows: Sequence[OutboxRow], lease_until: int) -> None:
        if rows:
            await self._write(
                "UPDATE outbox SET next_attempt_at = r.next_attempt_at"
                " FROM unnest($1::bigint[], $2::bigint[]) AS r(id, next_attempt_at)"
                " WHERE outbox.id = r.id AND outbox.status = 'pending'"
                " AND outbox.next_attempt_at = $3",
                [row.id for row in rows],
                [row.next_attempt_at for row in rows],
                lease_until,
            )

    async def outbox(self, campaign_id: int | None = None) -> list[OutboxRow]:
        if campaign_id is None:
            rows = await self._all("SELECT * FROM outbox ORDER BY id")
        else:
            rows = await self._all(
                "SELECT * FROM outbox WHERE campaign_id = $1 ORDER BY id", campaign_id
            )
        return [_outbox(row) for row in rows]

    async def outbox_item(self, item_id: int) -> OutboxRow | None:
        row = await self._one("SELECT * FROM outbox WHERE id = $1", item_id)
        return None if row is None else _outbox(row)

    async def mark_delivered(self, item_id: int, message_id: int, now: int) -> None:
        await self._write(
            "UPDATE outbox SET status = 'delivered', delivered_id = $1, delivered_at = $2,"
            " attempts = attempts + 1, last_error = NULL WHERE id = $3",
            message_id,
            now,
            item_id,
        )

    async def mark_retry(self, item_id: int, error: str, next_attempt_at: int) -> None:
        await self._write(
            "UPDATE outbox SET attempts = attempts + 1, last_error = $1, next_attempt_at = $2"
            " WHERE id = $3",
            error[:500],
            next_attempt_at,
            item_id,
        )

    async def redeliver(self, campaign_id: int, now: int) -> int:
        rows = await self._write(
            "UPDATE outbox SET status = 'pending', next_attempt_at = $1"
            " WHERE campaign_id = $2 AND ((status = 'pending' AND attempts > 0)"
            " OR (status = 'failed' AND last_error NOT LIKE 'obsolete%'"
            " AND last_error NOT LIKE 'recipient%')) RETURNING id",
            now,
            campaign_id,
        )
        return len(rows)

    async def mark_failed(self, item_id: int, error: str) -> None:
        await self._write(
            "UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = $1"
            " WHERE id = $2",
            error[:500],
            item_id,
        )

    async def message_ref(self, campaign_id: int, key: str) -> int | None:
        row = await self._one(
            "SELECT message_id FROM message_refs WHERE campaign_id = $1 AND key = $2",
            campaign_id,
            key,
        )
        return None if row is None else int(row["message_id"])

    async def set_message_ref(
        self, campaign_id: int, key: str, target_id: int, message_id: int
    ) -> None:
        await self._write(
            "INSERT INTO message_refs (campaign_id, key, target_id, message_id)"
            " VALUES ($1, $2, $3, $4) ON CONFLICT (campaign_id, key) DO UPDATE SET"
            " target_id = excluded.target_id, message_id = excluded.message_id",
            campaign_id,
            key,
            target_id,
            message_id,
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
            " VALUES ($1, $2, $3, $4, $5, $6, $7)",
            campaign_id,
            guild_id,
            who,
            what,
            why,
            _dumps(dict(data)),
            now,
        )

    async def audit(self, campaign_id: int) -> list[AuditRow]:
        rows = await self._all(
            "SELECT * FROM audit WHERE campaign_id = $1 ORDER BY id", campaign_id
        )
        return [
            AuditRow(
                id=row["id"],
                campaign_id=row["campaign_id"],
                guild_id=row["guild_id"],
                who=row["who"],
                what=row["what"],
                why=row["why"],
                data=json.loads(row["data"]),
                at=row["at"],
            )
            for row in rows
        ]


async def _keep_session(conn: Any) -> None:
    """What the pool does to a connection handed back, beyond asyncpg's own ROLLBACK of a
    transaction left open (which it always does first): nothing. Its default, a RESET ALL
    and the rest, is one more round trip per call, and the repository's own transactions
    change no session state (their advisory locks are the transaction's); raw connections
    (``_raw``) reset themselves."""


@asynccontextmanager
async def _raw(pool: Any) -> AsyncIterator[Any]:
    """A pooled connection for code that may change the session (migrations' session
    locks, tests' settings): reset as asyncpg would before it goes back."""
    async with pool.acquire() as conn:
        try:
            yield conn
        finally:
            try:
                if conn.is_in_transaction():
                    await conn.execute("ROLLBACK")
                await conn.execute(conn.get_reset_query())
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
                conn.terminate()  # as the pool does with a connection it cannot reset


async def _warm(pool: Any, size: int) -> None:
    """Prepare the panel's statement on every connection, now rather than on a call.

    Its rows are whole table rows, which asyncpg decodes only after asking the server
    about those types, once per connection: 10 to 20 ms on a quiet server, over 100 ms on
    a busy one, which the first panels on each connection would otherwise wait for.
    """
    held = [await pool.acquire() for _ in range(size)]  # all at once: each connection
    try:
        for conn in held:
            await conn.fetch(_PANEL_ROWS, 0, 0)  # no campaign 0: prepared, nothing read
    except asyncpg.UndefinedTableError:
        pass  # not migrated (``migrate_to_latest=False``): the first panel will pay
    finally:
        for conn in held:
            await pool.release(conn)


class PostgresRepository(Repository):
    """A campaign store in one PostgreSQL schema (the first on the connection's search_path)."""

    dialect = "postgresql"

    def __init__(self, pool: Any, url: str, schema: str, pool_size: int = POOL_SIZE) -> None:
        self._pool = pool
        self._url = url
        self.schema = schema
        self._write_key = lock_key(schema, "write")
        self._local_writer = WriterGate(max(1, pool_size // 2))
        self._closed = False

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        migrate_to_latest: bool = True,
        now: datetime | None = None,
        pool_size: int = POOL_SIZE,
    ) -> PostgresRepository:
        """Connect (a pool of ``pool_size``), apply pending migrations.

        Query parameters of the URL that asyncpg does not know are server settings, so
        ``postgresql://host/db?search_path=sortie`` keeps Sortie's tables in schema ``sortie``
        (the tests give each test its own schema that way).
        """
        # Every connection opened now and kept, not opened on a burst of calls (nor again
        # after 5 idle minutes, asyncpg's default): opening one costs the server a process
        # and its caches, several ms of a small box's cores, which calls would otherwise
        # wait for just when they are many. One the server closed is opened again on use.
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=pool_size,
                max_size=pool_size,
                max_inactive_connection_lifetime=0,
                reset=_keep_session,
                timeout=CONNECT_SECONDS,
            )
        except Exception as exc:
            raise connection_problem(exc, url) from None
        try:
            async with _raw(pool) as conn:
                schema = await conn.fetchval("SELECT current_schema()")
                if schema is None:
                    raise StorageError(
                        "the database has no schema on the search_path to create tables in"
                    )
                if migrate_to_latest:
                    await migrate(conn, now=now)
            await _warm(pool, pool_size)
        except StorageError:
            await pool.close()
            raise
        except (asyncpg.PostgresError, OSError, TimeoutError) as exc:
            await pool.close()
            raise connection_problem(exc, url) from None
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url, str(schema), pool_size)

    @property
    def url(self) -> str:
        return self._url

    @asynccontextmanager
    async def transaction(self, campaign: int | None = None) -> AsyncIterator[Transaction]:
        """A write transaction; with ``campaign``, one that writes that campaign's rows only.

        A schema-wide writer holds the schema's advisory lock exclusively and so runs
        alone. A campaign's writer holds it shared plus the campaign's own lock: writers of
        different campaigns run side by side, two of one campaign one after the other, and
        none of them while a schema-wide writer runs. The schema lock comes first, in every
        writer, so no two writers can each hold what the other waits for.
        """
        if campaign is None:
            locks = f"SELECT pg_advisory_xact_lock({self._write_key:d})"
        else:
            locks = (
                f"SELECT pg_advisory_xact_lock_shared({self._write_key:d});"
                f" SELECT pg_advisory_xact_lock({self._campaign_key(campaign):d})"
            )
        async with self._local_writer.enter(campaign), self._pool.acquire() as conn:
            try:
                # BEGIN and the writer locks in one round trip (a simple query of several
                # statements runs them in order); the locks go with COMMIT or ROLLBACK.
                await conn.execute(f"BEGIN; {locks}")
                tx = PostgresTransaction(conn, writable=True)
                yield tx
                if tx.spoiled is not None:
                    # PostgreSQL has aborted the transaction: COMMIT would quietly roll back.
                    raise tx.spoiled
            except BaseException:
                # BaseException: a cancelled task must not leave a pooled connection inside
                # a half-written transaction.
                if conn.is_in_transaction():
                    await conn.execute("ROLLBACK")
                raise
            else:
                await conn.execute("COMMIT")

    def _campaign_key(self, campaign: int) -> int:
        """The advisory lock key of one campaign's writers: the schema's key mixed with the
        campaign id, so two schemas' campaign 1 do not wait on each other."""
        return lock_key(self.schema, f"campaign:{campaign:d}")

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Transaction]:
        async with (
            self._pool.acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield PostgresTransaction(conn, writable=False)

    @asynccontextmanager
    async def glance(self) -> AsyncIterator[Transaction]:
        """No transaction: each statement is its own (a panel is one statement, plus
        write-once rows when a state is not cached), so no BEGIN and no COMMIT."""
        async with self._pool.acquire() as conn:
            yield PostgresTransaction(conn, writable=False)

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self._pool.close()

    async def migrate(self) -> int:
        """Apply pending migrations; the number applied."""
        async with _raw(self._pool) as conn:
            try:
                return len(await migrate(conn))
            except asyncpg.InsufficientPrivilegeError as exc:
                raise connection_problem(exc, self._url) from None

    async def schema_version(self) -> int:
        async with _raw(self._pool) as conn:
            return await current_version(conn)

    async def backup(self, destination: Path) -> None:
        """A consistent copy of every row into a SQLite file (see ``db.transfer``)."""
        from db.transfer import copy_store

        if await self.schema_version() == 0:
            # Nothing of Sortie's here (a wrong search_path, a database never migrated):
            # say so, rather than fail on the first table missing.
            raise StorageError(
                f"schema {self.schema} holds no Sortie tables: nothing to back up",
                key="nothing-to-back-up",
                schema=self.schema,
            )
        await copy_store(self, Path(destination))

    async def size_bytes(self) -> int:
        # The schema's tables with their indexes and TOAST, not the whole server.
        async with _raw(self._pool) as conn:
            value = await conn.fetchval(
                "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c"
                " JOIN pg_namespace n ON n.oid = c.relnamespace"
                " WHERE n.nspname = current_schema() AND c.relkind = 'r'"
            )
        return int(value)

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[Any]:
        """A raw pooled connection, for migrations, transfers and tests; services never use it."""
        async with _raw(self._pool) as conn:
            yield conn

"""The repository's transactions, written once for both SQL backends.

Every statement here is spelt in the SQL that SQLite and PostgreSQL share: ``?`` for a
parameter and ``TRUE`` / ``FALSE`` for a flag. A backend's ``SqlTransaction`` subclass says
what its dialect and driver do differently, and nothing else:

- ``_spell``: the statement in its own dialect (PostgreSQL numbers its parameters; SQLite
  keeps flags as 0 and 1, and its partial indexes are found only by ``done = 0``);
- ``_run``: one statement through its driver, constraint errors raised as ``ConstraintError``;
- ``_flag`` and ``_pack``: how a flag and a large JSON text are stored (SQLite: 0/1 and
  deflated, ``db.packing``; PostgreSQL: BOOLEAN and TEXT);
- the statements whose best form differs (appending events, history, the outbox's
  coalescing and claims): overridden by the backend, each in its own dialect.

Rows come back indexed by column name from both drivers, so one set of mappers reads them.
"""

from __future__ import annotations

import abc
import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import fields
from typing import Any, NamedTuple, TypeVar, cast

from db import bundles
from db.outbox_queue import OutboxQueue
from db.packing import DEFLATE, OUTBOX_1, STATE_1, unpack
from db.repository import (
    AuditRow,
    CampaignRow,
    EventRow,
    LockRow,
    NewCampaign,
    NewEvent,
    NewLock,
    NewOutbox,
    OutboxRow,
    PanelRows,
    PlayerRow,
    RoundRow,
    SnapshotRow,
    StorageError,
    TimerRow,
    Transaction,
)

T = TypeVar("T")

# Outbox rows a multi-row INSERT writes at most (9 parameters each, far below either
# backend's limit on a statement's parameters).
QUEUED_PER_INSERT = 100

CAMPAIGN_COLUMNS = {
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
    "gm_sees_secrets",
    "allow_unlock",
    "gm_id",
    "locale",
    "round_seconds",
    "reminder_offsets",
    "missing_policy",
}
PLAYER_COLUMNS = {"side", "commander", "dm_ok", "last_active", "left_at"}
ROUND_COLUMNS = {
    "status",
    "deadline_at",
    "resolved_at",
    "message_id",
    "snapshot_after_id",
    "sealed",
}
# The columns PostgreSQL types BOOLEAN (and SQLite keeps as 0/1) that an update may set.
FLAG_COLUMNS = {"seed_revealed", "gm_sees_secrets", "allow_unlock", "commander", "dm_ok"}


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# ------------------------------------------------------------------------------ rows


R = TypeVar("R")


_COLUMNS: dict[type[Any], tuple[str, ...]] = {}


def _columns(cls: type[Any]) -> tuple[str, ...]:
    names = _COLUMNS.get(cls)
    if names is None:
        names = _COLUMNS[cls] = tuple(f.name for f in fields(cls))
    return names


def from_row(cls: type[R], row: Any, **worked: Any) -> R:
    """A row type from a database row: each field the column of its name, but those
    ``worked`` out here (a flag made a bool, text unpacked or parsed)."""
    return cls(**{name: worked[name] if name in worked else row[name] for name in _columns(cls)})


def campaign_row(row: Any) -> CampaignRow:
    return from_row(
        CampaignRow,
        row,
        seed_revealed=bool(row["seed_revealed"]),
        reminder_offsets=tuple(int(x) for x in json.loads(row["reminder_offsets"])),
        gm_sees_secrets=bool(row["gm_sees_secrets"]),
        allow_unlock=bool(row["allow_unlock"]),
    )


def player_row(row: Any) -> PlayerRow:
    return from_row(PlayerRow, row, commander=bool(row["commander"]), dm_ok=bool(row["dm_ok"]))


def snapshot_row(row: Any) -> SnapshotRow:
    return from_row(SnapshotRow, row, state=unpack(row["state"]))


def round_row(row: Any) -> RoundRow:
    return from_row(RoundRow, row)


def lock_row(row: Any) -> LockRow:
    return from_row(
        LockRow, row, canonical=unpack(row["canonical"]), defaulted=bool(row["defaulted"])
    )


def event_row(row: Any, data: Any = None) -> EventRow:
    return from_row(
        EventRow,
        row,
        data=json.loads(unpack(row["data"])) if data is None else data,
        void=bool(row["void"]),
    )


def event_rows(row: Any) -> list[EventRow]:
    """The events a row holds: itself, or a bundle's (``db.bundles``)."""
    lines = int(row["lines"])
    if lines <= 1:
        return [event_row(row)]
    return bundles.expand(event_row(row, {}), lines, json.loads(unpack(row["data"])))


def timer_row(row: Any) -> TimerRow:
    return from_row(TimerRow, row, done=bool(row["done"]))


def outbox_row(row: Any) -> OutboxRow:
    return from_row(OutboxRow, row, payload=json.loads(unpack(row["payload"])))


def audit_row(row: Any) -> AuditRow:
    return from_row(AuditRow, row, data=json.loads(unpack(row["data"])))


class EventPlace(NamedTuple):
    """Where and when a batch of events is written (the columns its rows share)."""

    campaign_id: int
    round_id: int | None
    branch: int
    now: int


def marks(values: Sequence[Any]) -> str:
    """``?, ?, ?``: one parameter a value, for ``IN (…)``."""
    return ", ".join("?" for _ in values)


# ------------------------------------------------------------------------------ transaction


class SqlTransaction(Transaction):
    """The ``Transaction`` of a SQL backend, its dialect left to the subclass."""

    #: Put before a column to keep it out of the index choice (SQLite's ``+``): the
    #: round's own index then serves a round's pending timers.
    NOT_INDEXED = ""
    #: How ``ORDER BY`` sorts text in byte order, as SQLite does by default.
    BYTE_ORDER = ""
    #: A draft and its drafter's activity in one statement, where the dialect has one
    #: (parameters: round, side, field, value, user, time, campaign).
    DRAFT_AND_ACTIVITY: str | None = None
    #: A page of events (parameters: the filter's, then offset and limit), each row with
    #: ``upto``, the number of events up to and including it in reading order.
    EVENT_PAGE: str = ""

    def __init__(self, *, writable: bool) -> None:
        self._writable = writable
        # The first error that spoils the transaction: once set, it is rolled back and the
        # error raised again at the end of the block (see ``ConstraintError``), even if
        # the caller caught it.
        self.spoiled: StorageError | None = None
        # Rows read once and kept until a statement writes their table (the key's first
        # item): a resolution reads its campaign, round, snapshot, roster and locks from a
        # dozen places, and the transaction's moment makes a second read the first's.
        self._kept: dict[tuple[Any, ...], Any] = {}
        self._queued = OutboxQueue()

    # -- what the dialect and driver say
    @abc.abstractmethod
    def _spell(self, sql: str) -> str:
        """The shared spelling of a statement in this backend's dialect."""

    @abc.abstractmethod
    async def _run(self, sql: str, params: Sequence[Any]) -> list[Any]:
        """One statement in this dialect, its rows; a constraint error as ``ConstraintError``."""

    @abc.abstractmethod
    async def _insert_events(self, place: EventPlace, events: Sequence[NewEvent]) -> list[int]:
        """Write a batch of events (at least one) in the backend's rows; their numbers."""

    @abc.abstractmethod
    def _flag(self, value: Any) -> Any:
        """A flag as the backend's column stores it."""

    @abc.abstractmethod
    def _pack(self, text: str, mark: int = DEFLATE) -> str | bytes:
        """A large JSON text as the backend stores it (``mark``: see ``db.packing``)."""

    # -- helpers: every statement goes through these
    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        if self._queued and "outbox" in sql:
            await self.send_queued()  # a statement on the outbox sees what was queued
        if self._kept and not sql.startswith("SELECT"):
            # A write: what was kept of the tables it names is read again. By name in the
            # text, so a statement that merely mentions a table forgets it too: too often,
            # never too seldom.
            self._kept = {key: row for key, row in self._kept.items() if key[0] not in sql}
        return await self._run(self._spell(sql), params)

    def _keep_panel(self, campaign_id: int, user_id: int, rows: PanelRows) -> PanelRows:
        """Keep what a backend's one-statement ``panel_rows`` read, as the reads it stands
        for would have kept it."""
        if rows.campaign is None:
            return rows
        self._kept[("campaigns", campaign_id)] = rows.campaign
        self._kept[("players", campaign_id, user_id)] = rows.player
        self._kept[("rounds", "live", campaign_id)] = rows.live
        if rows.live is not None:
            self._kept[("rounds", rows.live.id)] = rows.live
            self._kept[("snapshots", rows.live.snapshot_before_id)] = rows.snapshot
            self._kept[("locks", rows.live.id)] = dict(rows.locks)
        return rows

    async def _kept_row(self, key: tuple[Any, ...], read: Callable[[], Awaitable[T]]) -> T:
        """``read()``'s answer, read once per transaction until ``key[0]``'s table is
        written; the rows are frozen, so the same object serves every caller."""
        if key in self._kept:
            return cast(T, self._kept[key])
        row = await read()
        self._kept[key] = row
        return row

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Any | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _first(self, read: Callable[[Any], T], sql: str, params: Sequence[Any]) -> T | None:
        rows = await self._all(sql, params)
        return read(rows[0]) if rows else None

    async def _each(
        self, read: Callable[[Any], T], sql: str, params: Sequence[Any] = ()
    ) -> list[T]:
        return [read(row) for row in await self._all(sql, params)]

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        if not self._writable:
            raise StorageError("write attempted in a read-only transaction")
        return await self._all(sql, params)

    async def _insert(self, sql: str, params: Sequence[Any], key: str = "id") -> int | None:
        """Insert and return the new row's key (None if ON CONFLICT DO NOTHING skipped it)."""
        rows = await self._write(f"{sql} RETURNING {key}", params)
        return int(rows[0][0]) if rows else None

    async def _insert_id(self, sql: str, params: Sequence[Any], key: str = "id") -> int:
        new = await self._insert(sql, params, key)
        if new is None:
            raise StorageError("insert did not create a row")
        return new

    def _set_clause(self, fields: Mapping[str, Any], allowed: set[str]) -> tuple[str, list[Any]]:
        unknown = set(fields) - allowed
        if unknown:
            raise StorageError(f"cannot update column(s) {sorted(unknown)}")
        values: list[Any] = []
        for name, value in fields.items():
            if isinstance(value, bool) or (name in FLAG_COLUMNS and value is not None):
                value = self._flag(value)
            elif isinstance(value, tuple | list | dict):
                value = dumps(value)
            values.append(value)
        return ", ".join(f"{name} = ?" for name in fields), values

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
                dumps(list(new.reminder_offsets)),
                new.missing_policy,
                self._flag(new.gm_sees_secrets),
                self._flag(new.allow_unlock),
                new.created_at,
            ),
        )

    async def campaign(self, campaign_id: int) -> CampaignRow | None:
        return await self._kept_row(
            ("campaigns", campaign_id),
            lambda: self._first(
                campaign_row, "SELECT * FROM campaigns WHERE id = ?", (campaign_id,)
            ),
        )

    async def live_campaign_in_channel(self, channel_id: int) -> CampaignRow | None:
        return await self._first(
            campaign_row,
            "SELECT * FROM campaigns WHERE channel_id = ?"
            " AND status IN ('setup', 'active', 'paused') ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )

    async def latest_campaign_in_channel(self, channel_id: int) -> CampaignRow | None:
        return await self._first(
            campaign_row,
            "SELECT * FROM campaigns WHERE channel_id = ?"
            " ORDER BY CASE WHEN status = 'finished' THEN 1 ELSE 0 END, id DESC LIMIT 1",
            (channel_id,),
        )

    async def guild_campaigns(
        self, guild_id: int, *, limit: int = 25, offset: int = 0
    ) -> list[CampaignRow]:
        return await self._each(
            campaign_row,
            "SELECT * FROM campaigns WHERE guild_id = ? ORDER BY id DESC LIMIT ? OFFSET ?",
            (guild_id, max(0, limit), max(0, offset)),
        )

    async def count_guild_campaigns(self, guild_id: int) -> int:
        row = await self._one("SELECT COUNT(*) AS n FROM campaigns WHERE guild_id = ?", (guild_id,))
        return int(row["n"]) if row is not None else 0

    async def campaigns(self, statuses: Sequence[str] = ()) -> list[CampaignRow]:
        if not statuses:
            return await self._each(campaign_row, "SELECT * FROM campaigns ORDER BY id")
        return await self._each(
            campaign_row,
            f"SELECT * FROM campaigns WHERE status IN ({marks(statuses)}) ORDER BY id",
            list(statuses),
        )

    async def update_campaign(self, campaign_id: int, **fields: Any) -> None:
        clause, values = self._set_clause(fields, CAMPAIGN_COLUMNS)
        await self._write(f"UPDATE campaigns SET {clause} WHERE id = ?", [*values, campaign_id])

    # -- players
    async def player(self, campaign_id: int, user_id: int) -> PlayerRow | None:
        return await self._kept_row(
            ("players", campaign_id, user_id),
            lambda: self._first(
                player_row,
                "SELECT * FROM players WHERE campaign_id = ? AND user_id = ?",
                (campaign_id, user_id),
            ),
        )

    async def players(self, campaign_id: int, *, include_left: bool = False) -> list[PlayerRow]:
        sql = "SELECT * FROM players WHERE campaign_id = ?"
        if not include_left:
            sql += " AND left_at IS NULL"
        roster = await self._kept_row(
            ("players", campaign_id, "all" if include_left else "seated"),
            lambda: self._each(player_row, sql + " ORDER BY joined_at, user_id", (campaign_id,)),
        )
        for row in roster:  # each one's row, as ``player`` would read it
            self._kept.setdefault(("players", campaign_id, row.user_id), row)
        return list(roster)  # the caller's own list: the kept one stays as read

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
                self._flag(row.commander),
                self._flag(row.dm_ok),
                row.joined_at,
                row.last_active,
                row.left_at,
            ),
        )

    async def update_player(self, campaign_id: int, user_id: int, **fields: Any) -> None:
        clause, values = self._set_clause(fields, PLAYER_COLUMNS)
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
            (campaign_id, branch, turn, round_kind, self._pack(state, STATE_1), now, history_len),
        )

    async def snapshot(self, snapshot_id: int) -> SnapshotRow | None:
        return await self._kept_row(
            ("snapshots", snapshot_id),
            lambda: self._first(
                snapshot_row, "SELECT * FROM snapshots WHERE id = ?", (snapshot_id,)
            ),
        )

    # -- history (appending is the backend's: one statement for many rows is dialect)
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
        return [unpack(row["record"]) for row in rows]

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
        return await self._kept_row(
            ("rounds", round_id),
            lambda: self._first(round_row, "SELECT * FROM rounds WHERE id = ?", (round_id,)),
        )

    async def live_round(self, campaign_id: int) -> RoundRow | None:
        return await self._kept_row(
            ("rounds", "live", campaign_id), lambda: self._live(campaign_id)
        )

    async def _live(self, campaign_id: int) -> RoundRow | None:
        return await self._first(
            round_row,
            "SELECT * FROM rounds WHERE campaign_id = ? AND status IN ('open', 'resolving')"
            " ORDER BY id DESC LIMIT 1",
            (campaign_id,),
        )

    async def rounds(self, campaign_id: int) -> list[RoundRow]:
        return await self._each(
            round_row, "SELECT * FROM rounds WHERE campaign_id = ? ORDER BY id", (campaign_id,)
        )

    async def turn_rounds(self, campaign_id: int, branch: int, turn: int) -> list[RoundRow]:
        return await self._each(
            round_row,
            "SELECT * FROM rounds WHERE campaign_id = ? AND branch = ? AND turn = ? ORDER BY id",
            (campaign_id, branch, turn),
        )

    async def rounds_with_status(self, status: str) -> list[RoundRow]:
        return await self._each(
            round_row, "SELECT * FROM rounds WHERE status = ? ORDER BY id", (status,)
        )

    async def update_round(self, round_id: int, **fields: Any) -> None:
        clause, values = self._set_clause(fields, ROUND_COLUMNS)
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
        if self.DRAFT_AND_ACTIVITY is None:
            await self.set_draft(round_id, side, field, value, by_user, now)
            await self.update_player(campaign_id, by_user, last_active=now)
        else:
            await self._write(
                self.DRAFT_AND_ACTIVITY, (round_id, side, field, value, by_user, now, campaign_id)
            )

    async def drafts(self, round_id: int, side: str) -> dict[str, str]:
        rows = await self._all(
            "SELECT field, value FROM drafts WHERE round_id = ? AND side = ?"
            f" ORDER BY field{self.BYTE_ORDER}",
            (round_id, side),
        )
        return {row["field"]: row["value"] for row in rows}

    async def clear_draft(self, round_id: int, side: str, field: str) -> None:
        await self._write(
            "DELETE FROM drafts WHERE round_id = ? AND side = ? AND field = ?",
            (round_id, side, field),
        )

    async def insert_lock(self, lock: NewLock) -> int:
        standing = self._kept.get(("locks", lock.round_id))
        lock_id = await self._insert_id(
            "INSERT INTO locks (round_id, side, canonical, salt, receipt, locked_at, by_user,"
            " defaulted) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                lock.round_id,
                lock.side,
                # Where packed, with the outbox's dictionary: the reveal payloads it was
                # built from carry these very choices. Unpacked byte for byte, so the
                # receipt (sha256 of the text and the salt) still checks.
                self._pack(lock.canonical, OUTBOX_1),
                lock.salt,
                lock.receipt,
                lock.locked_at,
                lock.by_user,
                self._flag(lock.defaulted),
            ),
        )
        if standing is not None and lock.side not in standing:
            # The round's locks as they now stand, kept without reading them again: the
            # new row has the highest id, so it comes last, as the read orders them.
            self._kept[("locks", lock.round_id)] = {
                **standing,
                lock.side: LockRow(
                    lock_id,
                    lock.round_id,
                    lock.side,
                    lock.canonical,
                    lock.salt,
                    lock.receipt,
                    lock.locked_at,
                    lock.by_user,
                    lock.defaulted,
                    None,
                ),
            }
        return lock_id

    async def standing_locks(self, round_id: int) -> dict[str, LockRow]:
        locks = await self._kept_row(("locks", round_id), lambda: self._standing(round_id))
        return dict(locks)  # the caller's own dict: the kept one stays as read

    async def _standing(self, round_id: int) -> dict[str, LockRow]:
        rows = await self._all(
            "SELECT * FROM locks WHERE round_id = ? AND withdrawn_at IS NULL ORDER BY id",
            (round_id,),
        )
        return {row["side"]: lock_row(row) for row in rows}

    async def withdraw_lock(self, round_id: int, side: str, now: int) -> None:
        await self._write(
            "UPDATE locks SET withdrawn_at = ? WHERE round_id = ? AND side = ?"
            " AND withdrawn_at IS NULL",
            (now, round_id, side),
        )

    async def campaign_locks(self, campaign_id: int) -> list[LockRow]:
        return await self._each(
            lock_row,
            "SELECT locks.* FROM locks JOIN rounds ON rounds.id = locks.round_id"
            " WHERE rounds.campaign_id = ? ORDER BY locks.id",
            (campaign_id,),
        )

    # -- events (how a batch is written is the backend's: SQLite bundles it, ``db.bundles``)
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
        return await self._insert_events(EventPlace(campaign_id, round_id, branch, now), events)

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
                return [event for row in rows for event in reversed(event_rows(row))]
            return [event for row in rows for event in event_rows(row)]
        rows = await self._all(
            self.EVENT_PAGE.format(where=where, order=order), [*params, offset, limit]
        )
        return bundles.window(
            ((event_rows(row), int(row["upto"])) for row in rows), newest_first, limit, offset
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
        rows = await self._write(
            f"UPDATE events SET void = TRUE WHERE campaign_id = ? AND round_id IN"
            f" ({marks(round_ids)}) AND void = FALSE RETURNING lines",
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
        return await self._each(
            timer_row,
            "SELECT * FROM timers WHERE done = FALSE AND due_at <= ?"
            " ORDER BY due_at, CASE kind WHEN 'reminder' THEN 0 ELSE 1 END, id",
            (now,),
        )

    async def round_timers(self, round_id: int, *, pending_only: bool = True) -> list[TimerRow]:
        sql = "SELECT * FROM timers WHERE round_id = ?"
        if pending_only:
            sql += f" AND {self.NOT_INDEXED}done = FALSE"
        return await self._each(timer_row, sql + " ORDER BY due_at, id", (round_id,))

    async def finish_timer(self, timer_id: int) -> None:
        await self._write("UPDATE timers SET done = TRUE WHERE id = ?", (timer_id,))

    async def finish_round_timers(self, round_id: int) -> None:
        await self._write(
            "UPDATE timers SET done = TRUE WHERE round_id = ? AND done = FALSE", (round_id,)
        )

    async def shift_round_timers(self, round_id: int, seconds: int) -> None:
        await self._write(
            "UPDATE timers SET due_at = due_at + ? WHERE round_id = ? AND done = FALSE",
            (seconds, round_id),
        )

    # -- outbox (queueing, claiming and releasing are the backend's: see each)
    async def queue(self, campaign_id: int | None, item: NewOutbox, now: int) -> None:
        if not self._writable:
            raise StorageError("write attempted in a read-only transaction")
        if not self._queued.add(campaign_id, item, now):
            await self.send_queued()
            self._queued.add(campaign_id, item, now)

    async def send_queued(self) -> None:
        """Write the queued outbox items (``db.outbox_queue``): the pending rows they
        coalesce with looked up in one statement a campaign, the rest inserted in one."""
        queued = self._queued.take()
        if not queued:
            return
        # The newest pending row of each message: its id and payload as stored.
        found: dict[tuple[int | None, str, str], tuple[int, Any]] = {}
        for campaign_id in dict.fromkeys(q.campaign_id for q in queued):
            keys = sorted(
                {
                    q.item.message_key
                    for q in queued
                    if q.campaign_id == campaign_id and q.item.coalesce and q.item.message_key
                }
            )
            if not keys:
                continue
            whose = "campaign_id IS NULL" if campaign_id is None else "campaign_id = ?"
            rows = await self._all(
                f"SELECT id, message_key, kind, payload FROM outbox WHERE {whose}"
                f" AND message_key IN ({marks(keys)}) AND status = 'pending' ORDER BY id",
                [*([] if campaign_id is None else [campaign_id]), *keys],
            )
            for row in rows:
                found[(campaign_id, row["message_key"], row["kind"])] = (
                    int(row["id"]),
                    row["payload"],
                )
        fresh: list[Any] = []
        for q in queued:
            payload = self._pack(dumps(dict(q.item.payload)), OUTBOX_1)
            pending = (
                found.get((q.campaign_id, q.item.message_key, q.item.kind))
                if q.item.coalesce and q.item.message_key is not None
                else None
            )
            if pending is not None:
                # Packing is deterministic: the same bytes are the same payload, and a row
                # that already says it (a round message asked again) is left as it is.
                if pending[1] != payload:
                    await self._write(
                        "UPDATE outbox SET payload = ? WHERE id = ?", (payload, pending[0])
                    )
                continue
            item = q.item
            fresh.append(
                (
                    q.campaign_id,
                    item.kind,
                    item.target_kind,
                    item.target_id,
                    item.message_key,
                    payload,
                    q.now,
                    item.dedupe_key,
                    q.now,
                )
            )
        for start in range(0, len(fresh), QUEUED_PER_INSERT):
            rows = fresh[start : start + QUEUED_PER_INSERT]
            await self._write(
                "INSERT INTO outbox (campaign_id, kind, target_kind, target_id, message_key,"
                " payload, next_attempt_at, dedupe_key, created_at) VALUES "
                + ", ".join("(?, ?, ?, ?, ?, ?, ?, ?, ?)" for _ in rows)
                + " ON CONFLICT (dedupe_key) DO NOTHING",
                [value for row in rows for value in row],
            )

    async def pending_outbox(self, limit: int = 100) -> list[OutboxRow]:
        return await self._each(
            outbox_row,
            "SELECT * FROM outbox WHERE status = 'pending' ORDER BY id LIMIT ?",
            (limit,),
        )

    async def outbox(self, campaign_id: int | None = None) -> list[OutboxRow]:
        if campaign_id is None:
            return await self._each(outbox_row, "SELECT * FROM outbox ORDER BY id")
        return await self._each(
            outbox_row, "SELECT * FROM outbox WHERE campaign_id = ? ORDER BY id", (campaign_id,)
        )

    async def outbox_item(self, item_id: int) -> OutboxRow | None:
        return await self._first(outbox_row, "SELECT * FROM outbox WHERE id = ?", (item_id,))

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

    async def message_refs(self, campaign_id: int, keys: Sequence[str]) -> dict[str, int]:
        wanted = sorted(set(keys))
        if not wanted:
            return {}
        rows = await self._all(
            "SELECT key, message_id FROM message_refs WHERE campaign_id = ?"
            f" AND key IN ({marks(wanted)})",
            (campaign_id, *wanted),
        )
        return {str(row["key"]): int(row["message_id"]) for row in rows}

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
            (campaign_id, guild_id, who, what, why, self._pack(dumps(dict(data))), now),
        )

    async def audit(self, campaign_id: int) -> list[AuditRow]:
        return await self._each(
            audit_row, "SELECT * FROM audit WHERE campaign_id = ? ORDER BY id", (campaign_id,)
        )

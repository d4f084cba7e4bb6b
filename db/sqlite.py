"""The SQLite implementation of ``db.repository`` on the standard ``sqlite3`` module.

One writer per process, guarded by an ``asyncio.Lock``: SQLite allows one writer at a time
anyway, so a write transaction is "hold the lock, BEGIN IMMEDIATE, work, COMMIT". Its
statements run on the event loop (microseconds each from the page cache) and only the
COMMIT, which waits for the disk, goes to the writer's thread: one thread hop per write
transaction. Reads take a connection of their own and read the last commit (WAL), so they
never wait behind the write lock. ``busy_timeout`` covers a second process on the file.

The statements both backends share are ``db.sql``'s; this module holds SQLite's own (the
event bundles, the outbox's claims) and its connections, ``migrations/`` its schema.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

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
from db.packing import DEFLATE, EVENTS_1, HISTORY_1, OUTBOX_1, pack
from db.repository import (
    ConstraintError,
    NewEvent,
    NewOutbox,
    OutboxRow,
    Repository,
    StorageError,
    Transaction,
)
from db.sql import EventPlace, SqlTransaction, dumps, marks, outbox_row

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 10_000


class _HeldLock(asyncio.Lock):
    """The write lock, adding up how long it is held: with one writer for every campaign,
    the share of the time it is held is what a write may queue behind
    (``SqliteRepository.lock_held``, read by ``bench/apart.py``)."""

    def __init__(self) -> None:
        super().__init__()
        self.held = 0.0
        self._since = 0.0

    async def acquire(self) -> Literal[True]:
        await super().acquire()
        self._since = time.perf_counter()
        return True

    def release(self) -> None:
        self.held += time.perf_counter() - self._since
        super().release()


class SqliteTransaction(SqlTransaction):
    packs = True
    NOT_INDEXED = "+"  # a round's pending timers: by the round's index, not timers_due
    # A page counts events, not rows: the running total of each row's events finds the row
    # holding the first one wanted, and at most ``limit`` rows from it hold the rest.
    EVENT_PAGE = (
        "SELECT * FROM (SELECT *, SUM(lines) OVER (ORDER BY {order}) AS upto"
        " FROM events WHERE {where}) WHERE upto > ? ORDER BY {order} LIMIT ?"
    )

    def __init__(self, conn: sqlite3.Connection, *, writable: bool) -> None:
        super().__init__(writable=writable)
        self._conn = conn

    @property
    def raw(self) -> Any:
        """The driver connection inside this transaction: for ``db.transfer`` only."""
        self._kept.clear()  # what it writes is not seen here
        return _RawConnection(self._conn)

    # -- the dialect and the driver
    def _spell(self, sql: str) -> str:
        return _spelt(sql)

    # Statements run right here, on the event loop's thread: the transaction already holds
    # the write lock (or reads a WAL snapshot), so a statement never waits on another
    # connection and costs microseconds from the page cache, where a hop to a worker thread
    # and back cost more than the statement. The one slow step, the durable COMMIT, goes to
    # the writer's thread (``SqliteRepository.transaction``).
    async def _run(self, sql: str, params: Sequence[Any]) -> list[Any]:
        try:
            return self._conn.execute(sql, params).fetchall()
        except sqlite3.IntegrityError as exc:
            # The same exception on every backend (see ``ConstraintError``).
            self.spoiled = ConstraintError(str(exc))
            raise self.spoiled from exc

    def _flag(self, value: Any) -> int:
        return int(value)

    def _pack(self, text: str, mark: int = DEFLATE) -> str | bytes:
        return pack(text, mark)

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

    # -- events: a run of events is one row (``db.bundles``)
    async def _insert_events(self, place: EventPlace, events: Sequence[NewEvent]) -> list[int]:
        campaign_id, round_id, branch, now = place
        seqs: list[int] = []
        for run in bundles.runs(events):
            if len(run) == 1:
                event = run[0]
                seqs.append(
                    await self._insert_id(
                        "INSERT INTO events (campaign_id, round_id, branch, source, kind, turn,"
                        " data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            campaign_id,
                            round_id,
                            branch,
                            event.source,
                            event.kind,
                            event.turn,
                            pack(dumps(dict(event.data)), EVENTS_1),
                            now,
                        ),
                        key="seq",
                    )
                )
                continue
            # The row takes the run's last number and leaves the ones below it free, so
            # every event keeps the number it would have had as a row of its own.
            source, data = bundles.bundle_data(run, dumps)
            last = await self._insert_id(
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
                key="seq",
            )
            seqs.extend(range(last - len(run) + 1, last + 1))
        return seqs

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
                    (pack(dumps(dict(item.payload)), OUTBOX_1), row["id"]),
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
                pack(dumps(dict(item.payload)), OUTBOX_1),
                now,
                item.dedupe_key,
                now,
            ),
        )

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
            await self._write(
                f"UPDATE outbox SET next_attempt_at = ? WHERE id IN ({marks(rows)})",
                [lease_until, *(row["id"] for row in rows)],
            )
        return [outbox_row(row) for row in rows]

    async def release_outbox(self, rows: Sequence[OutboxRow], lease_until: int) -> None:
        for row in rows:
            await self._write(
                "UPDATE outbox SET next_attempt_at = ? WHERE id = ? AND status = 'pending'"
                " AND next_attempt_at = ?",
                (row.next_attempt_at, row.id, lease_until),
            )


@lru_cache(maxsize=1024)
def _spelt(sql: str) -> str:
    # SQLite's flags are 0 and 1 in the statement's text, not TRUE and FALSE: a partial
    # index (``timers_due ... WHERE done = 0``) is chosen only for a query that says so.
    return _FLAG_WORDS.sub(lambda word: "1" if word.group() == "TRUE" else "0", sql)


_FLAG_WORDS = re.compile(r"\b(?:TRUE|FALSE)\b")


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
        self._lock = _HeldLock()
        self._commits_held = 0.0  # of ``_lock.held``: the group commits' (``_flush``)
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

    def working_transaction(
        self, campaign: int | None = None
    ) -> AbstractAsyncContextManager[Transaction]:
        # A draft's COMMIT with an fsync of its own cost a third of the draft's CPU (the
        # thread hop, the writer's COMMIT): it waits only in a group that waits anyway.
        return self._writing(durable=None)

    async def flushed(self) -> None:
        # Groups commit in the order they opened (one writer lock): the latest is the last.
        if self._latest is not None:
            await asyncio.shield(self._latest)

    @asynccontextmanager
    async def _writing(self, *, durable: bool | None) -> AsyncIterator[Transaction]:
        # Group commit: transactions that queue for the writer while a COMMIT waits for the
        # disk run one after the other inside one SQLite transaction, each in its own
        # savepoint, and one COMMIT makes them all durable. Each caller is answered only
        # once its group is on disk (a lazy one at once: see ``lazy_transaction``); if the
        # COMMIT fails, every waiting caller of the group gets the error, so nobody is told
        # of a write that was not stored.
        async with self._lock:
            if self._closed:
                raise StorageError("the repository is closed")
            if self._group is None:
                # (``durable`` None, a working note: a lazy group of its own.)
                self._set_mode(bool(durable))
                await self._begin()
                self._group = self._latest = asyncio.get_running_loop().create_future()
                self._group_durable = bool(durable)
            group = self._group
            # A working note in a durable group is answered with the group, not before:
            # a read right after its answer must find it.
            waits = bool(durable) or (durable is None and self._group_durable)
            self._writer.execute("SAVEPOINT tx")
            tx = SqliteTransaction(self._writer, writable=True)
            try:
                yield tx
                if tx.spoiled is None:
                    await tx.send_queued()  # the outbox rows go with what they announce
                if tx.spoiled is not None:
                    raise tx.spoiled
            except BaseException:
                # BaseException: a cancelled task must not leave its half in the group.
                self._undo_savepoint(group)
                if not self._group_durable and self._group is group:
                    # A lazy group ends with its one transaction, taken back or not: left
                    # open, a write that must wait for the disk would join it and be
                    # committed here, at NORMAL, without waiting.
                    self._group = None
                    try:
                        self._commit()
                        group.set_result(None)
                    except BaseException as exc:
                        group.set_exception(exc)
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
        if waits:
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
            began = time.perf_counter()
            try:
                await self._commit_group()
            except Exception:
                # Every caller of the group has the error; the log keeps a trace of it.
                log.exception("group commit failed")
            finally:
                self._commits_held += time.perf_counter() - began

    def lock_held(self) -> tuple[float, float]:
        """Seconds the write lock has been held since the repository opened, in all and by
        the group commits (a COMMIT's hop to the writer's thread and back): for benchmarks."""
        return self._lock.held, self._commits_held

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

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

The statements both backends share, and the row mapping, are ``db.sql``'s (both drivers'
rows are indexed by column name); this module holds PostgreSQL's own statements and its
connections. Flags are BOOLEAN here and JSON stays TEXT, as the migrations in
``migrations_pg`` say. A constraint violation is raised as ``ConstraintError``, as on SQLite.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

import asyncpg

from db.migrate_pg import current_version, lock_key, migrate
from db.packing import DEFLATE
from db.pg_problems import CONNECT_SECONDS, connection_problem
from db.repository import (
    ConstraintError,
    NewEvent,
    NewOutbox,
    OutboxRow,
    PanelRows,
    Repository,
    StorageError,
    Transaction,
)
from db.sql import (
    EventPlace,
    SqlTransaction,
    campaign_row,
    dumps,
    lock_row,
    outbox_row,
    player_row,
    round_row,
    snapshot_row,
)
from db.writer_gate import WriterGate

POOL_SIZE = 10


def is_postgres_url(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


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


class PostgresTransaction(SqlTransaction):
    BYTE_ORDER = ' COLLATE "C"'  # as SQLite sorts text, whatever the server's locale
    # One event a row: the row's number is its running total, and the index, read in
    # order, stops at the page's end.
    EVENT_PAGE = (
        "SELECT *, row_number() OVER (ORDER BY {order}) AS upto FROM events WHERE {where}"
        " ORDER BY {order} OFFSET ? LIMIT ?"
    )
    DRAFT_AND_ACTIVITY = (
        "WITH drafted AS (INSERT INTO drafts (round_id, side, field, value, by_user,"
        " updated_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (round_id, side, field)"
        " DO UPDATE SET value = excluded.value, by_user = excluded.by_user,"
        " updated_at = excluded.updated_at RETURNING 1)"
        " UPDATE players SET last_active = $6 WHERE campaign_id = $7 AND user_id = $5"
        " AND EXISTS (SELECT 1 FROM drafted)"
    )

    def __init__(self, conn: Any, *, writable: bool) -> None:
        super().__init__(writable=writable)
        self._conn = conn

    @property
    def raw(self) -> Any:
        """The driver connection inside this transaction: for ``db.transfer`` only."""
        self._kept.clear()  # what it writes is not seen here
        return self._conn

    # -- the dialect and the driver
    def _spell(self, sql: str) -> str:
        return _numbered(sql)

    async def _run(self, sql: str, params: Sequence[Any]) -> list[Any]:
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

    def _flag(self, value: Any) -> bool:
        return bool(value)

    def _pack(self, text: str, mark: int = DEFLATE) -> str:
        return text  # TEXT: TOAST compresses the long values already

    # -- the statements PostgreSQL makes in one round trip where SQLite makes several:
    # written with numbered parameters (some used twice), which ``_spell`` leaves as they are
    async def append_history(
        self, campaign_id: int, branch: int, first_seq: int, records: Sequence[str]
    ) -> None:
        if not records:
            return
        await self._write(
            "INSERT INTO history (campaign_id, branch, seq, record)"
            " SELECT $1, $2, $3 + r.ord - 1, r.record"
            " FROM unnest($4::text[]) WITH ORDINALITY AS r (record, ord)",
            (
                campaign_id,
                branch,
                first_seq,
                list(records),
            ),
        )

    async def panel_rows(self, campaign_id: int, user_id: int) -> PanelRows:
        # One statement, so one round trip and one moment (a statement sees one snapshot
        # even outside a transaction). Whole rows come back as the tables' row types,
        # which asyncpg decodes into records by column name, as the other queries' rows.
        row = await self._one(_PANEL_ROWS, (campaign_id, user_id))
        if row is None:
            return PanelRows(None)
        player = row["player"]
        live = row["live"]
        snapshot = row["snapshot"]
        return self._keep_panel(
            campaign_id,
            user_id,
            PanelRows(
                campaign_row(row["campaign"]),
                None if player is None else player_row(player),
                None if live is None else round_row(live),
                None if snapshot is None else snapshot_row(snapshot),
                {lock["side"]: lock_row(lock) for lock in row["locks"] or ()},
                {draft["field"]: draft["value"] for draft in row["drafts"] or ()},
            ),
        )

    async def _insert_events(self, place: EventPlace, events: Sequence[NewEvent]) -> list[int]:
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
            (
                *place,
                len(events),
                [event.source for event in events],
                [event.kind for event in events],
                [event.turn for event in events],
                [dumps(dict(event.data)) for event in events],
            ),
        )
        return sorted(int(row[0]) for row in rows)

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
            (
                campaign_id,
                item.kind,
                item.target_kind,
                item.target_id,
                item.message_key,
                dumps(dict(item.payload)),
                now,
                item.dedupe_key,
                now,
                item.message_key if item.coalesce else None,  # NULL matches nothing
            ),
        )
        return int(rows[0]["id"]) if rows else None

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
            (
                now,
                lease_until,
                limit,
            ),
        )
        return [outbox_row(row) for row in rows]

    async def release_outbox(self, rows: Sequence[OutboxRow], lease_until: int) -> None:
        if rows:
            await self._write(
                "UPDATE outbox SET next_attempt_at = r.next_attempt_at"
                " FROM unnest($1::bigint[], $2::bigint[]) AS r(id, next_attempt_at)"
                " WHERE outbox.id = r.id AND outbox.status = 'pending'"
                " AND outbox.next_attempt_at = $3",
                (
                    [row.id for row in rows],
                    [row.next_attempt_at for row in rows],
                    lease_until,
                ),
            )


@lru_cache(maxsize=1024)
def _numbered(sql: str) -> str:
    """``?`` to ``$1``, ``$2``… in order (no statement of ``db.sql`` has a ``?`` in a string)."""
    parts = sql.split("?")
    return "".join(f"{part}${index}" for index, part in enumerate(parts[:-1], 1)) + parts[-1]


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
                if tx.spoiled is None:
                    await tx.send_queued()  # the outbox rows go with what they announce
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

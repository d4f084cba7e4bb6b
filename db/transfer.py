"""Copying a whole campaign store between backends, row for row, ids included.

Used by ``python -m bot migrate-data SRC DST`` (SQLite to PostgreSQL, or back) and by
``PostgresRepository.backup`` (PostgreSQL to a SQLite file). The source is read inside one
read transaction, so the copy is a consistent snapshot even while a bot keeps writing
(``marks`` tells the caller that it did: what it wrote later is not in the copy); the
destination is written in one write transaction, so a failed copy leaves it as it was.
Both stores must have the same tables and columns, and the destination must hold no rows.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from db.bundles import unbundled
from db.packing import unpack
from db.repository import Repository, StorageError, Transaction

# Parents before children (foreign keys); the key column of tables with a generated key.
TABLES: tuple[tuple[str, str | None], ...] = (
    ("guild_settings", None),
    ("campaigns", "id"),
    ("players", None),
    ("snapshots", "id"),
    ("history", None),
    ("rounds", "id"),
    ("drafts", None),
    ("locks", "id"),
    ("events", "seq"),
    ("timers", "id"),
    ("outbox", "id"),
    ("message_refs", None),
    ("audit", "id"),
)
BATCH = 1000


@dataclass(frozen=True)
class TransferReport:
    rows: dict[str, int]
    schema_version: int
    removed: int = 0  # rows the destination held before, emptied by ``replace``

    @property
    def total(self) -> int:
        return sum(self.rows.values())


class DestinationNotEmpty(StorageError):
    """The destination holds rows already: a copy there would mix two stores."""


class SourceChanged(StorageError):
    """The source was written to while it was copied (a bot still running on it)."""


# Called with the source's snapshot and the destination's transaction once every row is
# copied, before anything is committed: raising rolls the destination back untouched.
BeforeCommit = Callable[[Transaction, Transaction], Awaitable[None]]


def _is_postgres(repo: Repository) -> bool:
    return repo.dialect == "postgresql"


async def _batches(repo: Repository, raw: Any, table: str) -> AsyncIterator[list[tuple[Any, ...]]]:
    """The table's rows, in key order, a batch at a time (never the whole table in memory)."""
    if _is_postgres(repo):
        cursor = raw.cursor(f"SELECT * FROM {table} ORDER BY 1")
        batch: list[tuple[Any, ...]] = []
        async for record in cursor:
            batch.append(tuple(record.values()))
            if len(batch) >= BATCH:
                yield batch
                batch = []
        if batch:
            yield batch
        return
    async with raw.execute(f"SELECT * FROM {table} ORDER BY 1") as cur:
        while rows := await cur.fetchmany(BATCH):
            yield [tuple(row) for row in rows]


async def _columns(repo: Repository, raw: Any, table: str) -> list[str]:
    if _is_postgres(repo):
        rows = await raw.fetch(
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
            table,
        )
        return [row["column_name"] for row in rows]
    rows = await raw.execute_fetchall(f"PRAGMA table_info({table})")
    return [row[1] for row in rows]


async def _boolean_columns(raw: Any, table: str) -> set[str]:
    rows = await raw.fetch(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
        " AND table_name = $1 AND data_type = 'boolean'",
        table,
    )
    return {row["column_name"] for row in rows}


async def _write(
    repo: Repository, raw: Any, table: str, columns: Sequence[str], rows: list[tuple[Any, ...]]
) -> None:
    if _is_postgres(repo):
        # SQLite keeps its long JSON deflated (db.packing); PostgreSQL keeps it as text.
        rows = [tuple(unpack(v) if isinstance(v, bytes) else v for v in row) for row in rows]
        if table == "events":
            # SQLite keeps a run of events in one row (db.bundles); PostgreSQL one per row,
            # each with the number it has in SQLite's reading.
            rows = [
                tuple(event[name] for name in columns)
                for row in rows
                for event in unbundled(dict(zip(columns, row, strict=True)))
            ]
        flags = [i for i, name in enumerate(columns) if name in await _boolean_columns(raw, table)]
        if flags:
            # SQLite keeps flags as 0/1; PostgreSQL's COPY wants booleans.
            rows = [
                tuple(bool(v) if i in flags and v is not None else v for i, v in enumerate(row))
                for row in rows
            ]
        await raw.copy_records_to_table(table, records=rows, columns=list(columns))
        return
    marks = ", ".join("?" for _ in columns)
    await raw.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)


async def transfer(
    source: Repository,
    destination: Repository,
    *,
    replace: bool = False,
    before_commit: BeforeCommit | None = None,
) -> TransferReport:
    """Copy every row of ``source`` into the empty ``destination`` (emptied first with
    ``replace``: the caller has made sure it is a Sortie store); ``before_commit`` checks
    the copy against the snapshot it was made from, in the same transactions."""
    # Not compared by version number: the two dialects number their migrations in step,
    # but the tables and columns are what must match, and they are checked table by table.
    version = await source.schema_version()
    counts: dict[str, int] = {}
    removed = 0
    async with source.read() as src, destination.transaction() as dst:
        if replace:
            # Children before parents (foreign keys); in this transaction, so a copy that
            # fails leaves the old rows where they were.
            for table, _ in reversed(TABLES):
                removed += await _count(destination, dst.raw, table)
                await dst.raw.execute(f"DELETE FROM {table}")
        for table, _ in TABLES:
            existing = await _count(destination, dst.raw, table)
            if existing:
                raise DestinationNotEmpty(
                    f"the destination is not empty ({existing} rows in {table})",
                    key="not-empty",
                    rows=existing,
                    table=table,
                )
        for table, _ in TABLES:
            columns = await _columns(source, src.raw, table)
            wanted = await _columns(destination, dst.raw, table)
            if sorted(columns) != sorted(wanted):
                raise StorageError(f"table {table} differs: {columns} != {wanted}")
            counts[table] = 0
            async for batch in _batches(source, src.raw, table):
                await _write(destination, dst.raw, table, columns, batch)
                counts[table] += len(batch)
        if _is_postgres(destination):
            # Copied ids were given explicitly; the identities must continue after them.
            for table, key in TABLES:
                if key is not None:
                    await dst.raw.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', '{key}'),"
                        f" COALESCE((SELECT MAX({key}) FROM {table}), 0) + 1, false)"
                    )
        if before_commit is not None:
            await before_commit(src, dst)
    return TransferReport(counts, version, removed)


async def marks(repo: Repository, raw: Any) -> dict[str, tuple[int, int | None]]:
    """Per table, its row count and newest key: what a writer changes when it adds rows.

    Compared before and after a copy to tell that a bot was still writing to the source
    (an update in place, a draft changed, moves neither; every turn played adds events)."""
    found: dict[str, tuple[int, int | None]] = {}
    for table, key in TABLES:
        newest: int | None = None
        if key is not None:
            sql = f"SELECT MAX({key}) FROM {table}"
            if _is_postgres(repo):
                value = await raw.fetchval(sql)
            else:
                value = (await raw.execute_fetchall(sql))[0][0]
            newest = None if value is None else int(value)
        found[table] = (await _count(repo, raw, table), newest)
    return found


async def _count(repo: Repository, raw: Any, table: str) -> int:
    if _is_postgres(repo):
        return int(await raw.fetchval(f"SELECT COUNT(*) FROM {table}"))
    rows = await raw.execute_fetchall(f"SELECT COUNT(*) FROM {table}")
    return int(rows[0][0])


async def copy_store(source: Repository, destination: Path) -> TransferReport:
    """Write ``source`` to a new SQLite file at ``destination`` (checked, then renamed)."""
    from db.backup import _check_and_describe, _temporary
    from db.sqlite import SqliteRepository

    temporary = _temporary(destination)
    target = await SqliteRepository.open(temporary)
    try:
        report = await transfer(source, target)
    except BaseException:
        await target.close()
        temporary.unlink(missing_ok=True)
        raise
    await target.close()
    for suffix in ("-wal", "-shm"):
        Path(str(temporary) + suffix).unlink(missing_ok=True)
    _check_and_describe(temporary)
    os.replace(temporary, destination)
    return report

"""The migration runner for PostgreSQL: ``migrations_pg/NNNN_name.sql``, one per SQLite one.

Same numbering, same ``schema_migrations`` bookkeeping and same guarantee as ``db.migrate``:
each file runs in one transaction with the row that records it, so a failing migration
leaves the previous version. Several bot processes may start at once against one
database: a session advisory lock makes them migrate one after the other, and each
re-reads the version once it holds the lock, so every file is applied exactly once.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from db.migrate import ForeignDatabaseError, Migration, foreign_refusal
from db.migrate import available as _available

MIGRATIONS_DIR = Path(__file__).parent / "migrations_pg"

_BOOKKEEPING = (
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"
)


def available(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The shipped PostgreSQL migrations, by version (same rules as SQLite's)."""
    return _available(directory)


def lock_key(schema: str, purpose: str) -> int:
    """A 64-bit advisory lock key for one purpose in one schema.

    Keyed by schema so that test databases (one schema per test) or two Sortie installs
    sharing a server never wait on each other.
    """
    digest = hashlib.sha256(f"sortie:{purpose}:{schema}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


async def foreign_tables(conn: Any) -> list[str]:
    """The tables of the current schema when it is not Sortie's (no ``schema_migrations``)."""
    rows = await conn.fetch(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        " ORDER BY table_name"
    )
    names = [str(row["table_name"]) for row in rows]
    return [] if "schema_migrations" in names else names


async def current_version(conn: Any) -> int:
    """The highest applied version; 0 on an empty schema (``conn``: an asyncpg connection)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))


async def migrate(
    conn: Any,
    *,
    target: int | None = None,
    now: datetime | None = None,
    directory: Path = MIGRATIONS_DIR,
) -> list[Migration]:
    """Apply every migration above the current version (up to ``target``); return those applied."""
    stamp = int((now or datetime.now(UTC)).timestamp())
    key = lock_key(await conn.fetchval("SELECT current_schema()"), "migrate")
    applied: list[Migration] = []
    await conn.execute("SELECT pg_advisory_lock($1)", key)
    try:
        # Checked before the bookkeeping table is made: that would be the first write.
        foreign = await foreign_tables(conn)
        if foreign:
            raise ForeignDatabaseError(
                foreign_refusal(foreign, "schema"), key="foreign", tables=", ".join(foreign[:5])
            )
        await conn.execute(_BOOKKEEPING)
        version = await current_version(conn)
        for migration in available(directory):
            if migration.version <= version or (target is not None and migration.version > target):
                continue
            async with conn.transaction():
                await conn.execute(migration.sql)  # no arguments: a multi-statement script
                await conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                    migration.version,
                    migration.name,
                    stamp,
                )
            applied.append(migration)
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", key)
    return applied

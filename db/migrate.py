"""The migration runner: numbered ``migrations/NNNN_name.sql`` files applied in order.

Each file runs in its own transaction together with the row that records it in
``schema_migrations``, so a failing migration leaves the database at the previous version.
The runner takes a plain ``aiosqlite.Connection`` opened in autocommit mode (the repository
controls transactions itself).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import aiosqlite

from db.repository import StorageError

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    path: Path

    @property
    def sql(self) -> str:
        return self.path.read_text(encoding="utf-8")


def available(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The shipped migrations, by version; a gap or a duplicate number is a packaging bug."""
    found: list[Migration] = []
    for path in sorted(directory.glob("*.sql")):
        match = _NAME.match(path.name)
        if match is None:
            raise RuntimeError(f"migration file {path.name!r} is not named NNNN_name.sql")
        found.append(Migration(int(match.group(1)), match.group(2), path))
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise RuntimeError(f"migration {expected:04d} is missing (found {migration.path.name})")
    return found


class SchemaTooNewError(StorageError):
    """The database was written by a newer release: this one must not touch it."""


class ForeignDatabaseError(StorageError):
    """The database holds another application's tables: Sortie must not write into it."""


def foreign_refusal(tables: list[str], where: str = "database") -> str:
    shown = ", ".join(tables[:5]) + (f" and {len(tables) - 5} more" if len(tables) > 5 else "")
    return (
        f"the {where} holds tables that are not Sortie's ({shown}) and no schema_migrations:"
        " it belongs to another application, so Sortie will not write into it; name an empty"
        " database or one of Sortie's"
    )


async def foreign_tables(conn: aiosqlite.Connection) -> list[str]:
    """The tables of a database that is not Sortie's (no ``schema_migrations``); empty for a
    Sortie database or an empty one."""
    async with conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        " ORDER BY name"
    ) as cur:
        names = [str(row[0]) for row in await cur.fetchall()]
    return [] if "schema_migrations" in names else names


async def current_version(conn: aiosqlite.Connection) -> int:
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)"
    )
    async with conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def migrate(
    conn: aiosqlite.Connection,
    *,
    target: int | None = None,
    now: datetime | None = None,
    directory: Path = MIGRATIONS_DIR,
) -> list[Migration]:
    """Apply every migration above the current version (up to ``target``); return those applied."""
    applied: list[Migration] = []
    # Checked before the bookkeeping table is made: that would be the first write into it.
    foreign = await foreign_tables(conn)
    if foreign:
        raise ForeignDatabaseError(
            foreign_refusal(foreign), key="foreign", tables=", ".join(foreign[:5])
        )
    version = await current_version(conn)
    shipped = available(directory)
    if shipped and version > shipped[-1].version:
        # Its tables may mean something this code does not know: refuse rather than guess.
        raise SchemaTooNewError(
            f"the database is at schema version {version}, newer than this release"
            f" ({shipped[-1].version}): run the newer Sortie, or restore a backup made with"
            " this one"
        )
    stamp = int((now or datetime.now(UTC)).timestamp())
    for migration in shipped:
        if migration.version <= version or (target is not None and migration.version > target):
            continue
        # executescript would commit any open transaction first, so the BEGIN and the
        # bookkeeping row travel inside the script. Foreign keys are off while it runs so a
        # migration may rebuild a referenced table (SQLite cannot alter a constraint in
        # place); they are checked before the commit, so all of it lands or none of it.
        script = (
            "BEGIN IMMEDIATE;\n"
            f"{migration.sql}\n;\n"
            "INSERT INTO schema_migrations (version, name, applied_at) "
            f"VALUES ({migration.version}, '{migration.name}', {stamp});\n"
        )
        async with conn.execute("PRAGMA foreign_keys") as cursor:
            row = await cursor.fetchone()
        foreign_keys = bool(row and row[0])
        await conn.execute("PRAGMA foreign_keys = OFF")
        try:
            await conn.executescript(script)
            async with conn.execute("PRAGMA foreign_key_check") as cursor:
                broken = list(await cursor.fetchall())
            if broken:
                raise RuntimeError(
                    f"migration {migration.version} would break {len(broken)} references"
                )
            await conn.execute("COMMIT")
        except Exception:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise
        finally:
            await conn.execute(f"PRAGMA foreign_keys = {'ON' if foreign_keys else 'OFF'}")
        applied.append(migration)
    return applied

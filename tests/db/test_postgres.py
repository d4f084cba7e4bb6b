"""What only the PostgreSQL backend has to get right: concurrent starts, failed migrations,
aborted transactions. (The shared behaviour is in test_contract.py.)"""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
import pytest

from db import migrate_pg
from db.postgres import PostgresRepository
from db.repository import StorageError


async def test_processes_starting_together_migrate_once(pg_url: str) -> None:
    # Three bot processes started at the same moment on an empty database: each runs the
    # migrations on open; the advisory lock makes them take turns, so each file is
    # applied once and nobody trips over a half-created table.
    repos = await asyncio.gather(*(PostgresRepository.open(pg_url) for _ in range(3)))
    try:
        for repo in repos:
            assert await repo.schema_version() == len(migrate_pg.available())
        async with repos[0].connection() as conn:
            versions = await conn.fetch("SELECT version FROM schema_migrations ORDER BY version")
        expected = [m.version for m in migrate_pg.available()]
        assert [row["version"] for row in versions] == expected
    finally:
        for repo in repos:
            await repo.close()


async def test_a_failing_migration_leaves_the_previous_version(pg_url: str, tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_one.sql").write_text("CREATE TABLE one (x BIGINT);")
    (folder / "0002_broken.sql").write_text("CREATE TABLE two (x BIGINT); SELECT * FROM nowhere;")
    conn = await asyncpg.connect(pg_url)
    try:
        with pytest.raises(asyncpg.UndefinedTableError):
            await migrate_pg.migrate(conn, directory=folder)
        assert await migrate_pg.current_version(conn) == 1
        assert await conn.fetchval("SELECT to_regclass('two')") is None
        # and the migration lock was given back: the next attempt does not hang
        (folder / "0002_broken.sql").write_text("CREATE TABLE two (x BIGINT);")
        assert [m.version for m in await migrate_pg.migrate(conn, directory=folder)] == [2]
    finally:
        await conn.close()


async def test_an_error_caught_inside_a_transaction_still_rolls_it_back(pg_url: str) -> None:
    # PostgreSQL aborts the transaction at the first error; a COMMIT after that would
    # silently roll back. The repository says so instead of pretending to commit.
    repo = await PostgresRepository.open(pg_url)
    try:
        with pytest.raises(StorageError, match="aborted by an earlier error"):
            async with repo.transaction() as tx:
                await tx.set_gm_role(1, 2, 3)
                with pytest.raises(asyncpg.PostgresError):
                    await tx.events(1, limit=-1)  # LIMIT must not be negative
        async with repo.read() as tx:
            assert await tx.gm_role(1) is None
    finally:
        await repo.close()


async def test_a_url_without_a_usable_schema_is_refused(pg_url: str) -> None:
    url = pg_url.split("?")[0] + "?search_path=no_such_schema"
    with pytest.raises(StorageError, match="no schema"):
        await PostgresRepository.open(url)

"""The two migration sets, ``db/migrations`` (SQLite) and ``db/migrations_pg``, stay in step.

After each version both dialects must have built the same tables, with the same columns
(same names, same nullability, compatible types) and the same named indexes. A migration
added to one set only fails here, as does a column spelt differently.
"""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from db import migrate as sqlite_migrations
from db import migrate_pg as pg_migrations

SQLITE = sqlite_migrations.available()
POSTGRES = pg_migrations.available(pg_migrations.MIGRATIONS_DIR)
COMMON = sorted({m.version for m in SQLITE} & {m.version for m in POSTGRES})

# SQLite keeps flags as INTEGER 0/1 where PostgreSQL has BOOLEAN; every integer is BIGINT.
_TYPE_CLASS = {"integer": "integer", "bigint": "integer", "boolean": "integer", "text": "text"}

Schema = dict[str, dict[str, tuple[str, bool]]]  # table -> column -> (type class, nullable)


async def sqlite_schema(path: Path, version: int) -> tuple[Schema, set[str]]:
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        await sqlite_migrations.migrate(conn, target=version)
        tables = [
            row[0]
            for row in await conn.execute_fetchall(
                "SELECT name FROM sqlite_master WHERE type = 'table'"
                " AND name NOT IN ('sqlite_sequence', 'schema_migrations')"
            )
        ]
        schema: Schema = {}
        for table in tables:
            schema[table] = {
                # (cid, name, type, notnull, default, pk); a primary key is never NULL
                row[1]: (_TYPE_CLASS[row[2].lower()], not (row[3] or row[5]))
                for row in await conn.execute_fetchall(f"PRAGMA table_info({table})")
            }
        indexes = {
            row[0]
            for row in await conn.execute_fetchall(
                "SELECT name FROM sqlite_master WHERE type = 'index'"
                " AND name NOT LIKE 'sqlite_autoindex%'"
            )
        }
    finally:
        await conn.close()
    return schema, indexes


async def pg_schema(url: str, version: int) -> tuple[Schema, set[str]]:
    conn = await asyncpg.connect(url)
    try:
        await pg_migrations.migrate(conn, target=version)
        schema: Schema = {}
        for row in await conn.fetch(
            "SELECT table_name, column_name, data_type, is_nullable"
            " FROM information_schema.columns WHERE table_schema = current_schema()"
            " AND table_name <> 'schema_migrations'"
        ):
            schema.setdefault(row["table_name"], {})[row["column_name"]] = (
                _TYPE_CLASS[row["data_type"]],
                row["is_nullable"] == "YES",
            )
        # Indexes named in the migrations; those PostgreSQL makes for PRIMARY KEY and
        # UNIQUE constraints (SQLite's autoindexes) are left out on both sides.
        indexes = {
            row["indexname"]
            for row in await conn.fetch(
                "SELECT i.indexname FROM pg_indexes i WHERE i.schemaname = current_schema()"
                " AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)"
            )
        }
    finally:
        await conn.close()
    return schema, indexes


def test_both_sets_name_their_migrations_alike() -> None:
    names = {m.version: m.name for m in SQLITE}
    assert COMMON, "no migration in common"
    for migration in POSTGRES:
        if migration.version in names:
            assert migration.name == names[migration.version], migration.path.name


def test_both_sets_have_the_same_versions() -> None:
    assert [m.version for m in SQLITE] == [m.version for m in POSTGRES]


@pytest.mark.parametrize("version", COMMON)
async def test_same_tables_columns_and_indexes(version: int, tmp_path: Path, pg_url: str) -> None:
    lite, lite_indexes = await sqlite_schema(tmp_path / "parity.db", version)
    pg, pg_indexes = await pg_schema(pg_url, version)
    assert sorted(lite) == sorted(pg)
    for table in lite:
        assert lite[table] == pg[table], table
    assert lite_indexes == pg_indexes


async def test_postgres_rounds_accept_any_kind_and_have_a_status_index(pg_url: str) -> None:
    # The ruleset-agnostic schema: no CHECK on rounds.kind (nor on any side column).
    conn = await asyncpg.connect(pg_url)
    try:
        await pg_migrations.migrate(conn)
        checks = await conn.fetch(
            "SELECT pg_get_constraintdef(c.oid) AS def, r.relname AS tbl FROM pg_constraint c"
            " JOIN pg_class r ON r.oid = c.conrelid JOIN pg_namespace n ON n.oid = r.relnamespace"
            " WHERE n.nspname = current_schema() AND c.contype = 'c'"
        )
        assert checks, "the other CHECK constraints are kept"
        for check in checks:
            assert "kind" not in check["def"] or check["tbl"] != "rounds", check["def"]
            assert "side" not in check["def"], check["def"]
        definition = await conn.fetchval(
            "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema()"
            " AND indexname = 'rounds_by_status'"
        )
        assert definition is not None and definition.endswith("rounds USING btree (status)")
    finally:
        await conn.close()

"""A real PostgreSQL server for the tests (never a mock): found, or started for the session.

``SORTIE_TEST_PG_URL`` names a server to use as it is (``scripts/test.sh`` starts one and
sets it); without it the session starts one with ``scripts/pg.sh`` (which installs Debian's
postgresql package if needed) and stops it at the end. Each test gets its own schema on
that server, dropped afterwards, so tests never see each other's rows.

When no server can be had the PostgreSQL tests are skipped on a developer's machine, but
fail in CI (``CI`` set): a CI run that silently skipped them would claim a green it has
not earned.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import asyncpg
import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "pg.sh"


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def unavailable(reason: str) -> None:
    if in_ci():
        pytest.fail(f"PostgreSQL is required in CI: {reason}", pytrace=False)
    pytest.skip(f"no PostgreSQL: {reason}")


def run_sql(url: str, sql: str) -> None:
    """One statement on its own connection, from sync code (a thread owns the event loop)."""

    async def go() -> None:
        conn = await asyncpg.connect(url, timeout=10)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, go()).result()


def with_schema(url: str, schema: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


def start_server() -> tuple[str, str]:
    """Start a server with scripts/pg.sh; its URL and data directory."""
    try:
        done = subprocess.run(
            ["bash", str(SCRIPT), "start"], capture_output=True, text=True, timeout=900
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        unavailable(f"scripts/pg.sh start: {exc}")
        raise  # unreachable: unavailable() raises
    if done.returncode != 0:
        unavailable(f"scripts/pg.sh start failed: {done.stderr.strip()[-2000:]}")
    values = dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
    return values["SORTIE_TEST_PG_URL"], values["SORTIE_PG_DIR"]


def stop_server(directory: str) -> None:
    subprocess.run(["bash", str(SCRIPT), "stop", directory], capture_output=True, timeout=120)


class Server:
    """The session's server; started on first use only, so SQLite-only runs never pay."""

    def __init__(self) -> None:
        self.url: str | None = os.environ.get("SORTIE_TEST_PG_URL") or None
        self.directory: str | None = None
        self.failed: str | None = None

    def get(self) -> str:
        if self.failed is not None:
            unavailable(self.failed)
        if self.url is None:
            try:
                self.url, self.directory = start_server()
            except (pytest.skip.Exception, pytest.fail.Exception) as exc:
                # Remembered: the script (maybe an apt-get) is not run again for every test.
                self.failed = (
                    str(exc)
                    .removeprefix("no PostgreSQL: ")
                    .removeprefix("PostgreSQL is required in CI: ")
                )
                raise
        return self.url

    def stop(self) -> None:
        if self.directory is not None:
            stop_server(self.directory)
            self.directory = None


def fresh_schema(server_url: str) -> Iterator[str]:
    """A URL whose tables land in a new, empty schema; the schema is dropped afterwards."""
    schema = f"t_{uuid.uuid4().hex[:16]}"
    try:
        run_sql(server_url, f"CREATE SCHEMA {schema}")
    except (OSError, asyncpg.PostgresError) as exc:
        unavailable(f"cannot reach {server_url}: {exc}")
    try:
        yield with_schema(server_url, schema)
    finally:
        run_sql(server_url, f"DROP SCHEMA {schema} CASCADE")

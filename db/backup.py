"""Online backups with SQLite's backup API: a consistent copy while the bot keeps running.

``backup_file`` opens its own connection to the live database (the WAL lets it read while
the bot writes) and is what ``python -m bot backup PATH`` runs; ``backup_connection`` copies
through an already open aiosqlite connection (the repository's own ``backup``). Both write
to a temporary file beside the destination, check it, then rename it into place, so a
half-written backup never carries the destination's name.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import aiosqlite


class BackupError(Exception):
    """The backup could not be made or did not pass its integrity check."""


@dataclass(frozen=True)
class BackupResult:
    path: Path
    size_bytes: int
    schema_version: int


def _check_and_describe(path: Path) -> BackupResult:
    conn = sqlite3.connect(path)
    try:
        status = conn.execute("PRAGMA integrity_check").fetchone()
        if not status or status[0] != "ok":
            raise BackupError(f"integrity check of {path} failed: {status}")
        try:
            row = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()
            version = int(row[0]) if row else 0
        except sqlite3.OperationalError:
            version = 0
        # A backup is a single self-contained file: no -wal beside it.
        conn.execute("PRAGMA journal_mode = DELETE")
    finally:
        conn.close()
    return BackupResult(path=path, size_bytes=path.stat().st_size, schema_version=version)


def _temporary(destination: Path) -> Path:
    destination.parent.mkdir(parents=True, exist_ok=True)
    temporary = destination.with_name(destination.name + ".part")
    temporary.unlink(missing_ok=True)
    return temporary


def backup_file(source: Path, destination: Path) -> BackupResult:
    """Copy the live database at ``source`` to ``destination`` (blocking; run in a thread)."""
    if not source.exists():
        raise BackupError(f"no database at {source}")
    if source.resolve() == destination.resolve():
        raise BackupError("the backup path is the database itself")
    temporary = _temporary(destination)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(temporary)
        try:
            src.backup(dst)
        finally:
            dst.close()
    except sqlite3.Error as exc:
        temporary.unlink(missing_ok=True)
        raise BackupError(f"backup of {source} failed: {exc}") from exc
    finally:
        src.close()
    result = _check_and_describe(temporary)
    os.replace(temporary, destination)
    return BackupResult(destination, result.size_bytes, result.schema_version)


async def backup_connection(conn: aiosqlite.Connection, destination: Path) -> BackupResult:
    """Copy through an open connection (the caller holds the repository's lock)."""
    temporary = _temporary(destination)
    # The target is used from aiosqlite's worker thread, hence check_same_thread=False.
    target = sqlite3.connect(temporary, check_same_thread=False)
    try:
        await conn.backup(target)
    finally:
        target.close()
    result = _check_and_describe(temporary)
    os.replace(temporary, destination)
    return BackupResult(destination, result.size_bytes, result.schema_version)

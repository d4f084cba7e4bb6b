"""Online backups with SQLite's backup API: a consistent copy while the bot keeps running.

``backup_file`` opens its own connection to the live database (the WAL lets it read while
the bot writes) and is what ``python -m bot backup PATH`` runs; ``backup_connection`` copies
through an already open aiosqlite connection (the repository's own ``backup``). Both write
to a uniquely named temporary file beside the destination, check it, sync it, then rename
it into place, so a half-written backup never carries the destination's name; on any
failure the temporary file is removed.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
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
            raise BackupError(f"the copy fails its integrity check: {status[0] if status else '?'}")
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
    """A new, uniquely named file beside ``destination`` (same folder, so the rename is atomic)."""
    if destination.is_dir():
        raise BackupError(f"{destination} is a folder: give the backup a file name")
    try:
        destination.parent.mkdir(parents=True, exist_ok=True)
        # A unique name: two backups at once never write into, or delete, each other's file.
        handle, name = tempfile.mkstemp(
            dir=destination.parent, prefix=destination.name + ".", suffix=".part"
        )
    except OSError as exc:
        raise BackupError(f"cannot write the backup beside {destination}: {exc}") from exc
    os.close(handle)
    return Path(name)


def _install(temporary: Path, destination: Path) -> BackupResult:
    """Check the finished copy, make it durable, then give it the destination's name."""
    result = _check_and_describe(temporary)
    with temporary.open("rb") as handle:
        os.fsync(handle.fileno())
    os.replace(temporary, destination)
    if hasattr(os, "O_DIRECTORY"):  # the rename itself survives a power cut once synced
        folder = os.open(destination.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
    return BackupResult(destination, result.size_bytes, result.schema_version)


@contextmanager
def _copy_beside(destination: Path, source: str) -> Iterator[Path]:
    """A temporary file beside ``destination`` to copy into; any failure (``source`` names
    the side read from) becomes a ``BackupError``."""
    temporary = _temporary(destination)
    try:
        yield temporary
    except sqlite3.Error as exc:
        raise BackupError(f"backup {source} failed: {exc}") from exc
    except OSError as exc:
        raise BackupError(f"backup to {destination} failed: {exc}") from exc
    finally:
        # Whatever happened, no half-written or unchecked copy is left behind.
        temporary.unlink(missing_ok=True)


def backup_file(source: Path, destination: Path) -> BackupResult:
    """Copy the live database at ``source`` to ``destination`` (blocking; run in a thread)."""
    if not source.exists():
        raise BackupError(f"no database at {source}")
    if source.resolve() == destination.resolve():
        raise BackupError("the backup path is the database itself")
    with _copy_beside(destination, f"of {source}") as temporary:
        src = sqlite3.connect(source.resolve().as_uri() + "?mode=ro", uri=True)
        try:
            dst = sqlite3.connect(temporary)
            try:
                src.backup(dst)
            finally:
                dst.close()
        finally:
            src.close()
        return _install(temporary, destination)


async def backup_connection(conn: aiosqlite.Connection, destination: Path) -> BackupResult:
    """Copy through an open connection (the caller holds the repository's lock)."""
    with _copy_beside(destination, f"to {destination}") as temporary:
        # The target is used from aiosqlite's worker thread, hence check_same_thread=False.
        target = sqlite3.connect(temporary, check_same_thread=False)
        try:
            await conn.backup(target)
        finally:
            target.close()
        return _install(temporary, destination)

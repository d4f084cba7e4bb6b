"""Integrity checks of a SQLite campaign file, read-only, before trusting it.

``python -m bot check`` runs ``PRAGMA integrity_check`` (every page, index and constraint)
and the foreign keys; start-up and ``migrate`` run the faster ``quick_check``, so a damaged
file is refused with one line at once instead of failing later, mid-turn, as "malformed".
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from db.migrate import available

MAX_PROBLEMS = 100


def _connect_read_only(path: Path) -> sqlite3.Connection:
    # A URI so that nothing here can create or change the file; as_uri quotes odd names.
    return sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)


def integrity_problems(path: Path, *, quick: bool = False) -> list[str]:
    """What SQLite finds wrong with the file at ``path`` (empty when it is sound)."""
    pragma = "quick_check" if quick else "integrity_check"
    try:
        conn = _connect_read_only(path)
    except sqlite3.Error as exc:
        return [f"cannot open the database: {exc}"]
    try:
        rows = conn.execute(f"PRAGMA {pragma}({MAX_PROBLEMS})").fetchall()
        problems = [str(row[0]) for row in rows if row[0] != "ok"]
        if not quick and not problems:
            for table, rowid, parent, _ in conn.execute("PRAGMA foreign_key_check"):
                problems.append(f"{table} row {rowid} refers to a missing {parent} row")
    except sqlite3.DatabaseError as exc:  # the header or the schema itself is unreadable
        problems = [str(exc)]
    finally:
        conn.close()
    return problems[:MAX_PROBLEMS]


def stored_schema_version(path: Path) -> int:
    """The schema version recorded in the file (0 when it has none yet)."""
    conn = _connect_read_only(path)
    try:
        row = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()
    except sqlite3.OperationalError:  # no such table: a new, empty database
        return 0
    finally:
        conn.close()
    return int(row[0]) if row else 0


def startup_problem(path: Path) -> str | None:
    """One line saying why the bot must not open ``path``, or None (a missing file is new)."""
    if not path.exists():
        return None
    problems = integrity_problems(path, quick=True)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        return (
            f"the database {path} is damaged: {problems[0]}{more}."
            " `python -m bot check` lists the problems; restore a backup"
        )
    version, latest = stored_schema_version(path), len(available())
    if version > latest:
        return (
            f"the database {path} is at schema version {version}, newer than this release"
            f" ({latest}): run the newer Sortie, or restore a backup made with this one"
        )
    return None

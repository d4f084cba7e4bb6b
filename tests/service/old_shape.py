"""A latest-schema SQLite file turned back into the rows schema 4 kept, for the migration
test (tests/service/test_linear_storage.py) and the storage benchmark (bench/storage.py)."""

from __future__ import annotations

import sqlite3

from db.bundles import unbundled
from db.packing import unpack


def schema_4_rows(conn: sqlite3.Connection, whole: dict[int, str]) -> None:
    """Each event in a row of its own (no ``lines`` column), the events', outbox's and
    timers' indexes as 0006 found them, every snapshot holding its whole state (``whole``,
    by snapshot id) and no history table. ``conn`` reads rows as ``sqlite3.Row``."""
    for row in conn.execute("SELECT * FROM events WHERE lines > 1").fetchall():
        conn.execute("DELETE FROM events WHERE seq = ?", (row["seq"],))
        for event in unbundled({**dict(row), "data": unpack(row["data"])}):
            del event["lines"]
            names = ", ".join(event)
            marks = ", ".join("?" for _ in event)
            conn.execute(f"INSERT INTO events ({names}) VALUES ({marks})", list(event.values()))
    conn.execute("ALTER TABLE events DROP COLUMN lines")
    conn.execute("CREATE INDEX events_by_round ON events (round_id)")
    conn.execute("DROP INDEX outbox_due")
    conn.execute("CREATE INDEX outbox_due ON outbox (status, next_attempt_at)")
    conn.execute("DROP INDEX timers_due")
    conn.execute("CREATE INDEX timers_due ON timers (done, due_at)")
    for snapshot_id, text in whole.items():
        conn.execute("UPDATE snapshots SET state = ? WHERE id = ?", (text, snapshot_id))
    conn.execute("DROP TABLE history")

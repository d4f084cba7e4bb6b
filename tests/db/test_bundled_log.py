"""The log a player reads is the same whether SQLite kept a round's events bundled or one per
row (``db.bundles``): a played campaign's every /log page (whole and per turn, several page
sizes, English and French) and its export, read from the file as written, equal what the
same file gives once every bundle is opened back into rows of their own, as releases
before 0007 wrote them. And the file as written holds far fewer event rows than events.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from bot.clock import ManualClock
from bot.demo import SeededTokens
from bot.export import dumps
from bot.logtext import describe
from db.bundles import unbundled
from db.packing import unpack
from engine.zero.loader import default_catalog
from tests.service.support import Env


async def _everything_read(env: Env, cid: int) -> list[str]:
    out: list[str] = []
    for per_page in (10, 7):
        for turn in (None, 1, 2):
            for lang in ("en", "fr"):
                page = 1
                while True:
                    result = await env.svc.log(cid, page=page, per_page=per_page, turn=turn)
                    out.append(f"page {page}/{result.pages} of {result.total}")
                    out += [
                        f"{e.seq} {e.turn} {e.kind} {e.void} {e.at} "
                        + describe(e.kind, e.data, lang, turn=e.turn)
                        for e in result.entries
                    ]
                    if page >= result.pages:
                        break
                    page += 1
    out.append(dumps(await env.svc.export(cid)))
    return out


def _open_bundles(path: Path) -> tuple[int, int]:
    """Every bundle of the file written back as one row per event; (rows, events) before."""
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    try:
        rows, events = conn.execute("SELECT COUNT(*), SUM(lines) FROM events").fetchone()
        for row in conn.execute("SELECT * FROM events WHERE lines > 1").fetchall():
            conn.execute("DELETE FROM events WHERE seq = ?", (row["seq"],))
            for event in unbundled({**dict(row), "data": unpack(row["data"])}):
                conn.execute(
                    f"INSERT INTO events ({', '.join(event)})"
                    f" VALUES ({', '.join('?' for _ in event)})",
                    list(event.values()),
                )
        conn.commit()
    finally:
        conn.close()
    return int(rows), int(events)


async def test_the_log_reads_the_same_from_bundles_and_from_single_rows(tmp_path: Path) -> None:
    catalog = default_catalog()
    path = tmp_path / "store.db"
    clock = ManualClock(datetime(2025, 6, 1, 12, 0, tzinfo=UTC))
    env = await Env(path, catalog, clock, SeededTokens(5)).open()
    rng = random.Random(6)
    try:
        cid = await env.campaign("midway")
        for _ in range(4):  # two turns: strikes flown, their duels, flak and bombing told
            await env.play_round(cid, rng)
        bundled = await _everything_read(env, cid)
    finally:
        await env.close()
    rows, events = _open_bundles(path)
    assert events > 3 * rows, (rows, events)
    assert sum(" strike-flak " in line for line in bundled) > 10

    env = await Env(path, catalog, clock, SeededTokens(5)).open()
    try:
        assert await _everything_read(env, cid) == bundled
    finally:
        await env.close()

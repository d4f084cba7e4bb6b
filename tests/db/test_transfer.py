"""Moving a server's campaigns between backends: ``python -m bot migrate-data SRC DST``.

Real campaigns (one finished, so its seed is revealed and ``verify`` replays it; one in
the middle of a turn) are played on SQLite through the services, moved to PostgreSQL and
back, and must arrive row for row: the command itself compares each campaign's export on
both sides and verifies the copy, and these tests check the rest (outbox, audit, drafts,
ids continuing after the copied ones).
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.clock import ManualClock
from bot.commands import run_migrate_data
from bot.demo import SeededTokens
from db.backend import open_repository, redact
from db.repository import NewEvent, Repository
from engine.zero.loader import default_catalog
from tests.service.support import ALL, JAP, Env


async def played(url: str) -> tuple[int, int]:
    """A store with a finished campaign and one mid-turn; their ids."""
    clock = ManualClock(datetime(2025, 6, 1, 12, 0, tzinfo=UTC))
    env = await Env(url, default_catalog(), clock, SeededTokens(3)).open()
    try:
        finished = await env.campaign()
        rng = random.Random(4)
        while (await env.svc.status(finished)).campaign.status != "finished":
            await env.play_round(finished, rng)
        live = await env.campaign()
        await env.play_round(live, rng)
        await env.svc.lock(live, JAP, await env.fill(live, JAP, rng))  # one side locked
        await env.fill(live, ALL, rng)  # the other only drafted
        await env.worker().deliver_due()
        async with env.repo.transaction() as tx:
            await tx.set_gm_role(1, 77, 5)
    finally:
        await env.close()
    return finished, live


async def everything(repo: Repository, ids: tuple[int, ...]) -> dict[str, object]:
    """What the services can read of the store, campaign by campaign."""
    out: dict[str, object] = {}
    async with repo.read() as tx:
        out["campaigns"] = await tx.campaigns()
        out["gm_role"] = await tx.gm_role(1)
        out["outbox"] = await tx.outbox()
        for cid in ids:
            out[f"audit{cid}"] = await tx.audit(cid)
            out[f"events{cid}"] = await tx.events(cid)
            out[f"locks{cid}"] = await tx.campaign_locks(cid)
            out[f"players{cid}"] = await tx.players(cid, include_left=True)
            rounds = await tx.rounds(cid)
            out[f"rounds{cid}"] = rounds
            for row in rounds:
                out[f"timers{row.id}"] = await tx.round_timers(row.id, pending_only=False)
                for side in ("japanese", "allied"):
                    out[f"drafts{row.id}{side}"] = await tx.drafts(row.id, side)
    return out


async def test_sqlite_to_postgres_and_back(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = f"sqlite:///{tmp_path / 'old.db'}"
    ids = await played(source)

    assert await run_migrate_data(source, pg_url) == 0
    out = capsys.readouterr()
    assert "2 campaigns checked, 0 problems" in out.out, out
    back = f"sqlite:///{tmp_path / 'back.db'}"
    assert await run_migrate_data(pg_url, back) == 0
    assert "0 problems" in capsys.readouterr().out

    stores = [await open_repository(url) for url in (source, pg_url, back)]
    try:
        first, moved, returned = [await everything(repo, ids) for repo in stores]
        assert moved == first
        assert returned == first
        # Copied ids were explicit: PostgreSQL's identities must carry on after them.
        async with stores[1].transaction() as tx:
            audit = await tx.add_audit(ids[1], 1, 1, "test", "", {}, 0)
            (seq,) = await tx.append_events(ids[1], None, 1, [NewEvent("test", 1)], 0)
        async with stores[0].read() as tx:
            assert audit == max(a.id for a in await tx.audit(ids[1])) + 1
            assert seq == max(e.seq for e in await tx.events(ids[1])) + 1
    finally:
        for repo in stores:
            await repo.close()

    # A destination that already holds campaigns is refused, and left as it was.
    assert await run_migrate_data(source, pg_url) == 1
    assert "not empty" in capsys.readouterr().err


def test_migrate_data_and_postgres_backup_commands(
    tmp_path: Path,
    pg_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = tmp_path / "data" / "sortie.db"
    asyncio.run(played(f"sqlite:///{source}"))
    assert main(["migrate-data", f"sqlite:///{source}", pg_url]) == 0
    assert "2 campaigns checked, 0 problems" in capsys.readouterr().out
    # With DATABASE_URL on PostgreSQL, migrate and backup work as on SQLite; the backup
    # is a SQLite file anyone can open.
    monkeypatch.setenv("DATABASE_URL", pg_url)
    assert main(["migrate"]) == 0
    assert "(0 migrations applied)" in capsys.readouterr().out
    target = tmp_path / "b" / "backup.db"
    assert main(["backup", str(target)]) == 0
    assert "Backup written" in capsys.readouterr().out
    with sqlite3.connect(target) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT COUNT(*) FROM campaigns").fetchone()[0] == 2


def test_passwords_stay_out_of_messages() -> None:
    assert redact("postgresql://bot:hunter2@db.example:5433/sortie?sslmode=require") == (
        "postgresql://bot:***@db.example:5433/sortie?sslmode=require"
    )
    assert redact("postgresql://bot@db/sortie") == "postgresql://bot@db/sortie"
    assert redact("sqlite:///data/x.db") == "sqlite:///data/x.db"

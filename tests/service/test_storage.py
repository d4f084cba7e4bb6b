"""The database itself: migrations, upgrade with data in it, backups, the CLI commands."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from bot.__main__ import main
from bot.clock import ManualClock
from bot.demo import SeededTokens
from db.migrate import available, current_version, migrate
from db.sqlite import SqliteRepository
from engine.zero.catalog import Catalog
from tests.service.support import GM, JAP, Env


async def test_fresh_database_is_at_the_latest_version(tmp_path: Path) -> None:
    repo = await SqliteRepository.open(tmp_path / "new.db")
    try:
        assert await repo.schema_version() == len(available())
        async with repo.read() as tx:
            assert await tx.campaigns() == []
        conn = repo.connection
        async with conn.execute("PRAGMA journal_mode") as cur:
            assert (await cur.fetchone())[0] == "wal"
        async with conn.execute("PRAGMA foreign_keys") as cur:
            assert (await cur.fetchone())[0] == 1
    finally:
        await repo.close()


async def test_upgrade_from_0001_keeps_the_data(
    tmp_path: Path, catalog: Catalog, clock: ManualClock
) -> None:
    path = tmp_path / "old.db"
    # A database as release 0001 left it, with a campaign in progress.
    conn = await aiosqlite.connect(path, isolation_level=None)
    await migrate(conn, target=1)
    assert await current_version(conn) == 1
    await conn.close()
    repo = await SqliteRepository.open(path, migrate_to_latest=False)
    env = Env(path, catalog, clock, SeededTokens(1))
    env.repo = repo
    from bot.service import CampaignService

    env.svc = CampaignService(repo, clock, rng_seed_source=env.tokens)
    # Service calls that write audit rows need 0002; write the rows 0001 knows directly.
    async with repo.transaction() as tx:
        from db.repository import NewCampaign, NewEvent

        cid = await tx.insert_campaign(
            NewCampaign(
                1,
                2,
                GM,
                "carrier",
                "coral-sea",
                "en",
                "s",
                "c",
                3600,
                (),
                "default",
                False,
                True,
                0,
            )
        )
        await tx.append_events(cid, None, 1, [NewEvent("campaign-created", 1, {"x": 1})], 0)
    with pytest.raises(sqlite3.OperationalError):
        async with repo.transaction() as tx:
            await tx.add_audit(cid, 1, GM, "test", "", {}, 0)  # no audit table in 0001
    await repo.close()

    upgraded = await SqliteRepository.open(path)
    try:
        assert await upgraded.schema_version() == len(available())  # the latest
        async with upgraded.transaction() as tx:
            campaign = await tx.campaign(cid)
            assert campaign is not None and campaign.scenario == "coral-sea"
            assert [e.data for e in await tx.events(cid)] == [{"x": 1}]
            await tx.add_audit(cid, 1, GM, "test", "after upgrade", {}, 0)
            assert [a.why for a in await tx.audit(cid)] == ["after upgrade"]
        async with upgraded.connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'outbox_due'"
        ) as cur:
            assert await cur.fetchone() is not None
    finally:
        await upgraded.close()


async def test_a_failing_migration_leaves_the_previous_version(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_one.sql").write_text("CREATE TABLE one (x INTEGER);")
    (folder / "0002_broken.sql").write_text("CREATE TABLE two (x INTEGER); SELECT * FROM nowhere;")
    conn = await aiosqlite.connect(tmp_path / "m.db", isolation_level=None)
    try:
        with pytest.raises(sqlite3.OperationalError):
            await migrate(conn, directory=folder)
        assert await current_version(conn) == 1
        async with conn.execute("SELECT name FROM sqlite_master WHERE name = 'two'") as cur:
            assert await cur.fetchone() is None
    finally:
        await conn.close()


async def test_repository_backup_is_a_consistent_copy(env: Env, tmp_path: Path) -> None:
    cid = await env.campaign()
    await env.svc.lock(cid, JAP, await env.fill(cid, JAP))
    target = tmp_path / "copy" / "backup.db"
    await env.repo.backup(target)
    copy = await SqliteRepository.open(target)
    try:
        async with copy.read() as tx:
            assert len(await tx.campaign_locks(cid)) == 1
    finally:
        await copy.close()


def test_migrate_and_backup_commands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "data" / "sortie.db"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{database}")
    latest = len(available())
    assert main(["migrate"]) == 0
    assert f"schema version {latest} ({latest} migrations applied)" in capsys.readouterr().out
    assert main(["migrate"]) == 0
    assert "(0 migrations applied)" in capsys.readouterr().out
    assert main(["backup", str(tmp_path / "b" / "backup.db")]) == 0
    out = capsys.readouterr().out
    assert "Backup written" in out and f"schema version {latest}" in out
    with sqlite3.connect(tmp_path / "b" / "backup.db") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert main(["backup", str(database)]) == 1  # refuses to overwrite the database itself
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'none.db'}")
    assert main(["backup", str(tmp_path / "x.db")]) == 1

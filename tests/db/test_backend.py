"""Choosing the backend from DATABASE_URL: one function, and one readable line when wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import load_settings
from db.backend import open_repository, sqlite_path
from db.postgres import PostgresRepository
from db.sqlite import SqliteRepository
from tests.test_cli import refused_setting


def test_settings_accept_sqlite_and_postgresql(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not load_settings().uses_postgres  # the default stays SQLite
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:secret@db:5432/sortie")
    assert load_settings().uses_postgres
    monkeypatch.setenv("DATABASE_URL", "postgres://bot@db/sortie")
    assert load_settings().uses_postgres


def test_an_unknown_backend_stops_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    err = refused_setting(monkeypatch, capsys, "migrate", "DATABASE_URL", "mysql://bot@db/sortie")
    assert "postgresql://" in err


def test_sqlite_locations() -> None:
    assert sqlite_path("sqlite:///data/sortie.db") == Path("data/sortie.db")
    assert sqlite_path("sqlite:////var/lib/sortie.db") == Path("/var/lib/sortie.db")
    assert sqlite_path(Path("x.db")) == Path("x.db")


async def test_open_repository_dispatches(tmp_path: Path, pg_url: str) -> None:
    for location in (tmp_path / "a.db", str(tmp_path / "b.db"), f"sqlite:///{tmp_path / 'c.db'}"):
        repo = await open_repository(location)
        try:
            assert isinstance(repo, SqliteRepository)
        finally:
            await repo.close()
    repo = await open_repository(pg_url)
    try:
        assert isinstance(repo, PostgresRepository)
    finally:
        await repo.close()

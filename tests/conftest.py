"""Shared fixtures. No test touches the network."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tests.pg import Server, fresh_schema

# Pictures are drawn in this process's threads in tests (``bot.drawing``): a pool of
# worker processes per test run buys nothing there; tests/test_drawing_pool.py starts one.
os.environ.setdefault("SORTIE_DRAW_WORKERS", "0")
# Rounds resolve in a thread of this process too (``bot.resolver``), so a test may patch a
# ruleset's methods; tests/test_resolver_pool.py starts the worker processes.
os.environ.setdefault("SORTIE_RESOLVE_WORKERS", "0")

settings.register_profile("ci", max_examples=60, deadline=None)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _no_dotenv(monkeypatch: pytest.MonkeyPatch, tmp_path: os.PathLike[str]) -> None:
    """Tests never read a developer's .env: run from an empty folder, token unset."""
    monkeypatch.chdir(tmp_path)
    for name in ("DISCORD_TOKEN", "DATABASE_URL", "DEV_GUILD_ID", "LOG_LEVEL", "DEFAULT_LOCALE"):
        monkeypatch.delenv(name, raising=False)


# ------------------------------------------------------------------ database backends


@pytest.fixture
def drawing_pool(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Pictures drawn by one worker process (``bot.drawing``), stopped after the test."""
    from bot import drawing

    monkeypatch.setenv("SORTIE_DRAW_WORKERS", "1")
    monkeypatch.setattr(drawing, "_broken", False)
    try:
        yield
    finally:
        drawing.shut_down()


@pytest.fixture
def resolver_pool(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """Rounds resolved by one worker process (``bot.resolver``), stopped after the test."""
    from bot import resolver

    request.addfinalizer(resolver.shut_down)
    monkeypatch.setattr(resolver, "_broken", False)
    monkeypatch.setenv("SORTIE_RESOLVE_WORKERS", "1")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Server]:
    """The session's PostgreSQL server (see tests/pg.py); started on first use."""
    server = Server()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_server: Server) -> Iterator[str]:
    """A PostgreSQL URL whose search_path is a fresh schema of its own."""
    yield from fresh_schema(pg_server.get())


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A campaign store URL, once per backend: a SQLite file in tmp, a PostgreSQL schema."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    return str(request.getfixturevalue("pg_url"))

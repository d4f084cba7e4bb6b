"""Fixtures for the service tests: a real store per test (SQLite and PostgreSQL), a manual clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from bot.clock import ManualClock
from bot.demo import SeededTokens
from engine.zero.catalog import Catalog
from engine.zero.loader import default_catalog
from tests.service.support import Env


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return default_catalog()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(datetime(2025, 6, 1, 12, 0, tzinfo=UTC))


@pytest.fixture
async def env(db_url: str, catalog: Catalog, clock: ManualClock) -> AsyncIterator[Env]:
    # db_url (tests/conftest.py): every service test runs on both backends.
    environment = await Env(db_url, catalog, clock, SeededTokens(7)).open()
    try:
        yield environment
    finally:
        await environment.repo.close()


@pytest.fixture
async def pg_env(pg_url: str, catalog: Catalog, clock: ManualClock) -> AsyncIterator[Env]:
    """A store on PostgreSQL only, for the tests of its writer locks and one-statement reads."""
    environment = await Env(pg_url, catalog, clock, SeededTokens(7)).open()
    try:
        yield environment
    finally:
        await environment.repo.close()

"""Fixtures for the service tests: a real store per test (SQLite and PostgreSQL), a manual clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime

import pytest

from bot.clock import ManualClock
from bot.demo import SeededTokens
from engine.zero.catalog import Catalog
from engine.zero.loader import default_catalog
from tests.service.support import Env, receipt_without_choice


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return default_catalog()


@pytest.fixture
def choice_free_receipts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Locks post receipts without their choice (support.receipt_without_choice), for the
    tests that compare two runs differing only by a secret choice."""
    monkeypatch.setattr("bot.service_rounds.receipt_of", receipt_without_choice)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(datetime(2025, 6, 1, 12, 0, tzinfo=UTC))


@asynccontextmanager
async def _store(url: str, catalog: Catalog, clock: ManualClock) -> AsyncIterator[Env]:
    """A service over the store at ``url``, closed whatever the test did."""
    environment = await Env(url, catalog, clock, SeededTokens(7)).open()
    try:
        yield environment
    finally:
        await environment.repo.close()


@pytest.fixture
async def env(db_url: str, catalog: Catalog, clock: ManualClock) -> AsyncIterator[Env]:
    # db_url (tests/conftest.py): every service test runs on both backends.
    async with _store(db_url, catalog, clock) as environment:
        yield environment


@pytest.fixture
async def pg_env(pg_url: str, catalog: Catalog, clock: ManualClock) -> AsyncIterator[Env]:
    """A store on PostgreSQL only, for the tests of its writer locks and one-statement reads."""
    async with _store(pg_url, catalog, clock) as environment:
        yield environment

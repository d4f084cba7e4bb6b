"""Fixtures for the storage tests: a repository on each backend (``db_url``)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from db.backend import open_repository
from db.repository import Repository


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Repository]:
    repo = await open_repository(db_url)
    try:
        yield repo
    finally:
        await repo.close()

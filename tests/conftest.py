"""Shared fixtures. No test touches the network."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("ci", max_examples=60, deadline=None)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _no_dotenv(monkeypatch: pytest.MonkeyPatch, tmp_path: os.PathLike[str]) -> None:
    """Tests never read a developer's .env: run from an empty folder, token unset."""
    monkeypatch.chdir(tmp_path)
    for name in ("DISCORD_TOKEN", "DATABASE_URL", "DEV_GUILD_ID", "LOG_LEVEL", "DEFAULT_LOCALE"):
        monkeypatch.delenv(name, raising=False)

"""Campaign exports for the rules-check tests: random engine campaigns in the export's
shape (``rulecheck_sweep``), and real exports made by the service from a database."""

from __future__ import annotations

import asyncio
import random
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.demo import SeededTokens
from engine.rulesets.carrier.rulecheck.data import GameData, load
from engine.zero.loader import default_catalog
from tests.service.support import Env

# The sweep is a script (scripts/rulecheck_sweep.py); the tests of this folder import it.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from rulecheck_sweep import random_export

SCENARIOS = ("coral-sea", "midway")


@pytest.fixture(scope="session")
def game_data() -> GameData:
    return load()


@pytest.fixture(scope="session")
def pool() -> dict[str, list[dict[str, Any]]]:
    """Eight random campaigns per scenario, made once: tampering tests copy what they need."""
    catalog = default_catalog()
    return {
        scenario: [random_export(catalog, scenario, f"sweep-{n}", n) for n in range(8)]
        for scenario in SCENARIOS
    }


async def _service_export(path: Path, scenario: str, seed: int) -> dict[str, Any]:
    clock = ManualClock(datetime(2025, 6, 1, 12, 0, tzinfo=UTC))
    env = await Env(f"sqlite:///{path}", default_catalog(), clock, SeededTokens(7)).open()
    try:
        cid = await env.campaign(scenario)
        rng = random.Random(seed)
        while (await env.svc.status(cid)).campaign.status != "finished":
            await env.play_round(cid, rng)
        return await env.svc.export(cid)
    finally:
        await env.close()


@pytest.fixture(scope="session")
def service_exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """One whole campaign per scenario played through the service on SQLite, exported."""
    folder = tmp_path_factory.mktemp("rulecheck")
    return {
        scenario: asyncio.run(_service_export(folder / f"{scenario}.db", scenario, 3))
        for scenario in SCENARIOS
    }

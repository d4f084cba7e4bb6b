"""On PostgreSQL, Unlock writes its campaign only, as Lock does: it goes on while another
bot process writes a different campaign, and waits while it writes this one or writes
schema-wide (the per-campaign writer lock, tested on the real server)."""

from __future__ import annotations

import asyncio

import pytest

from db.postgres import PostgresRepository
from tests.service.support import Env
from tests.service.test_pg_campaign_writers_service import SETTLE, _campaign, _held


async def _locked(env: Env, cid: int, user: int) -> int:
    round_id = await env.fill(cid, user)
    result = await env.svc.lock(cid, user, round_id)
    assert not result.resolved
    return round_id


@pytest.mark.parametrize("held", ["other campaign", "same campaign", "schema-wide"])
async def test_unlock_waits_only_for_writers_of_its_campaign_or_of_everything(
    pg_env: Env, pg_url: str, held: str
) -> None:
    other, *_ = await _campaign(pg_env, 1)
    cid, japanese, _ = await _campaign(pg_env, 2)
    round_id = await _locked(pg_env, cid, japanese)
    scope = {"other campaign": other, "same campaign": cid, "schema-wide": None}[held]
    other_process = await PostgresRepository.open(pg_url)
    leave = asyncio.Event()
    holder = asyncio.create_task(_held(other_process, scope, leave))
    try:
        await asyncio.sleep(SETTLE)
        unlock = asyncio.create_task(pg_env.svc.unlock(cid, japanese, round_id))
        await asyncio.sleep(SETTLE)
        assert unlock.done() == (held == "other campaign")
        leave.set()
        panel = await asyncio.wait_for(unlock, 10)
        assert not panel.locked
    finally:
        leave.set()
        await holder
        await other_process.close()


async def test_two_unlocks_of_one_campaign_one_after_the_other(pg_env: Env) -> None:
    """Two commanders' clicks at once: each one's read-check-write sees the other's."""
    cid, japanese, _ = await _campaign(pg_env, 1)
    round_id = await _locked(pg_env, cid, japanese)
    first, second = await asyncio.gather(
        pg_env.svc.unlock(cid, japanese, round_id),
        pg_env.svc.unlock(cid, japanese, round_id),
        return_exceptions=True,
    )
    outcomes = sorted(type(x).__name__ for x in (first, second))
    assert outcomes == ["PanelData", "ServiceError"]  # the second finds no lock to withdraw

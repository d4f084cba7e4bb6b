"""On PostgreSQL, the hot calls (draft, lock, the resolution) write one campaign only: they
go on while another bot process is in the middle of writing a different campaign, and wait
while it writes theirs or while anything is written schema-wide."""

from __future__ import annotations

import asyncio

import pytest

from bot.service_model import Pace
from db.postgres import PostgresRepository
from engine.zero.types import Side
from tests.service.support import GM, GUILD, Env

SETTLE = 0.3


async def _campaign(env: Env, n: int) -> tuple[int, int, int]:
    japanese, allied = 100 + 2 * n, 101 + 2 * n
    info = await env.svc.create_campaign(GUILD, 500 + n, GM, "coral-sea", Pace(), seed=f"s{n}")
    await env.svc.join(info.id, japanese, Side.JAPANESE)
    await env.svc.join(info.id, allied, Side.ALLIED)
    await env.svc.start(info.id, GM)
    return info.id, japanese, allied


async def _held(repo: PostgresRepository, campaign: int | None, leave: asyncio.Event) -> None:
    async with repo.transaction(campaign):
        await leave.wait()


async def _round(env: Env, cid: int, users: tuple[int, int]) -> bool:
    resolved = False
    for user in users:
        round_id = await env.fill(cid, user)
        resolved = (await env.svc.lock(cid, user, round_id)).resolved
    return resolved


async def test_a_campaign_plays_while_another_process_writes_another(
    pg_env: Env, pg_url: str
) -> None:
    busy, *_ = await _campaign(pg_env, 1)
    free, japanese, allied = await _campaign(pg_env, 2)
    other_process = await PostgresRepository.open(pg_url)
    leave = asyncio.Event()
    holder = asyncio.create_task(_held(other_process, busy, leave))
    try:
        await asyncio.sleep(SETTLE)
        # Drafts, both locks and the resolution of campaign 2 while campaign 1 is held.
        assert await asyncio.wait_for(_round(pg_env, free, (japanese, allied)), 10)
    finally:
        leave.set()
        await holder
        await other_process.close()


@pytest.mark.parametrize("held", ["same campaign", "schema-wide"])
async def test_a_draft_waits_for_a_writer_of_its_campaign_or_of_everything(
    pg_env: Env, pg_url: str, held: str
) -> None:
    cid, japanese, _ = await _campaign(pg_env, 1)
    panel = await pg_env.svc.panel(cid, japanese)
    decision = panel.decisions[0]
    other_process = await PostgresRepository.open(pg_url)
    leave = asyncio.Event()
    holder = asyncio.create_task(
        _held(other_process, cid if held == "same campaign" else None, leave)
    )
    try:
        await asyncio.sleep(SETTLE)
        draft = asyncio.create_task(
            pg_env.svc.draft(cid, japanese, panel.round_id, decision.field, decision.options[0].id)
        )
        await asyncio.sleep(SETTLE)
        assert not draft.done(), "the draft ran beside a writer it must wait for"
        leave.set()
        assert (await asyncio.wait_for(draft, 10)).drafts[decision.field] == decision.options[0].id
    finally:
        leave.set()
        await holder
        await other_process.close()

"""The order panel's reads: the panel a draft answers with (its drafts not read back) is the
panel a fresh read gives, field order included; and on PostgreSQL a panel (one statement,
no transaction) answers while a writer holds its campaign, showing what was committed."""

from __future__ import annotations

import asyncio

import pytest

from db.postgres import PostgresRepository
from engine.zero.types import Side
from tests.service.support import ALL, JAP, Env


async def test_a_drafts_panel_is_the_panel_read_after_it(env: Env) -> None:
    cid = await env.campaign()
    for user in (JAP, ALL):
        panel = await env.svc.panel(cid, user)
        assert len(panel.decisions) >= 1
        # Drafted backwards, then one field again: the answer keeps the stores' order.
        decisions = sorted(panel.decisions, key=lambda d: d.field, reverse=True)
        for decision in [*decisions, decisions[0]]:
            option = decision.options[-1]
            drafted = await env.svc.draft(cid, user, panel.round_id, decision.field, option.id)
            read = await env.svc.panel(cid, user)
            assert drafted == read
            assert list(drafted.drafts.items()) == list(read.drafts.items())
            assert drafted.drafts[decision.field] == option.id
        assert drafted.missing == ()


@pytest.mark.parametrize("held", ["campaign", "schema-wide"])
async def test_a_panel_answers_while_a_writer_holds_its_campaign(
    pg_env: Env, pg_url: str, held: str
) -> None:
    cid = await pg_env.campaign()
    before = await pg_env.svc.panel(cid, JAP)
    decision = before.decisions[0]
    other_process = await PostgresRepository.open(pg_url)
    inside, leave = asyncio.Event(), asyncio.Event()

    async def writer() -> None:
        async with other_process.transaction(cid if held == "campaign" else None) as tx:
            await tx.set_draft(before.round_id, Side.JAPANESE, decision.field, "half-done", JAP, 1)
            inside.set()
            await leave.wait()

    holder = asyncio.create_task(writer())
    try:
        await asyncio.wait_for(inside.wait(), 10)
        # In this process too: its own writer of the campaign is queued, not the panel.
        queued = asyncio.create_task(
            pg_env.svc.draft(cid, JAP, before.round_id, decision.field, decision.options[0].id)
        )
        await asyncio.sleep(0.2)
        assert not queued.done()
        panel = await asyncio.wait_for(pg_env.svc.panel(cid, JAP), 5)
        assert decision.field not in panel.drafts  # the writer's draft is not committed
        assert panel == before
    finally:
        leave.set()
        await holder
        await other_process.close()
    drafted = await asyncio.wait_for(queued, 10)
    assert drafted.drafts[decision.field] == decision.options[0].id
    assert await pg_env.svc.panel(cid, JAP) == drafted

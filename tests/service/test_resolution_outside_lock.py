"""The engine resolves a round from a read, outside the write lock (issue 13): the short
write that follows re-checks the round, so a plan made stale by another resolver, or by
locks that changed under it, writes nothing, and a round still resolves exactly once."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service_plan import Resolution, plan_resolution
from bot.service_resolve import apply_resolution
from db.repository import NewLock
from db.sqlite import SqliteRepository
from tests.service.support import ALL, JAP, Env


async def _resolving_round(env: Env, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """A campaign whose first round has both locks and waits, resolving, for a resolver."""
    cid = await env.campaign()
    round_id = await env.fill(cid, JAP)
    await env.svc.lock(cid, JAP, round_id)
    await env.fill(cid, ALL)

    async def later(round_id: int, started: Any = None) -> bool:
        return False

    with monkeypatch.context() as patch:
        patch.setattr(env.svc, "_resolve", later)
        result = await env.svc.lock(cid, ALL, round_id)
    assert not result.resolved
    return cid, round_id


async def _plan(env: Env, round_id: int) -> Resolution:
    async with env.repo.read() as tx:
        plan = await plan_resolution(tx, env.svc._ctx(), round_id)
    assert plan is not None
    return plan


async def _revealed(env: Env, cid: int, round_id: int) -> list[str]:
    return [e.kind for e in await env.engine_events(cid, round_id)]


async def test_a_stale_plan_writes_nothing_once_another_resolver_got_there(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    cid, round_id = await _resolving_round(env, monkeypatch)
    stale = await _plan(env, round_id)
    assert await env.svc._resolve(round_id)  # another resolver, first to write
    async with env.repo.transaction() as tx:
        assert await apply_resolution(tx, env.svc._ctx(), stale) is False
    assert await _revealed(env, cid, round_id) == ["orders-revealed"]
    assert (await env.outbox_kinds(cid)).count("reveal") == 1
    assert (await env.svc.panel(cid, JAP)).kind == "resource"


async def test_a_plan_from_locks_since_replaced_is_computed_again(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    cid, round_id = await _resolving_round(env, monkeypatch)
    stale = await _plan(env, round_id)
    async with env.repo.transaction() as tx:
        old = (await tx.standing_locks(round_id))["allied"]
        await tx.withdraw_lock(round_id, "allied", env.svc._now())
        await tx.insert_lock(
            NewLock(round_id, "allied", old.canonical, old.salt, old.receipt, 1, old.by_user)
        )
    async with env.repo.transaction() as tx:
        assert await apply_resolution(tx, env.svc._ctx(), stale) is None
    assert await _revealed(env, cid, round_id) == []
    assert await env.svc._resolve(round_id)  # plans again, from the locks standing now
    assert await _revealed(env, cid, round_id) == ["orders-revealed"]


async def test_the_engine_runs_while_the_write_lock_is_free(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not isinstance(env.repo, SqliteRepository):
        pytest.skip("looks at the SQLite writer's lock")
    repo = env.repo
    cid, round_id = await _resolving_round(env, monkeypatch)
    async with repo.read() as tx:
        campaign = await tx.campaign(cid)
    assert campaign is not None
    rules = env.svc._ctx().plugin(campaign).rules
    resolve = rules.resolve
    held: list[bool] = []

    def watched(*args: Any, **kwargs: Any) -> Any:
        held.append(repo._lock.locked())
        return resolve(*args, **kwargs)

    monkeypatch.setattr(rules, "resolve", watched)
    assert await env.svc._resolve(round_id)
    assert held == [False]
    assert await _revealed(env, cid, round_id) == ["orders-revealed"]

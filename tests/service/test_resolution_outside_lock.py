"""The engine resolves a round from a read, outside the write lock (issue 13): the short
write that follows re-checks the round, so a plan made stale by another resolver, or by
locks that changed under it, writes nothing, and a round still resolves exactly once."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot import service_core
from bot.service_model import LockResult, idle_lock
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
    cid, round_id = await _resolving_round(env, monkeypatch)
    held = await _lock_held_by_engine(env, cid, monkeypatch)
    assert await env.svc._resolve(round_id)
    assert held == [False]
    assert await _revealed(env, cid, round_id) == ["orders-revealed"]


async def test_a_round_nobody_decides_in_resolves_with_the_write_lock_free(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Wings' rounds that ask nobody anything (a reorder, a debrief) resolve as soon as the
    round before them does, after that resolution is stored: their engine runs while other
    campaigns' writes go on, as the round before's did, and the Lock still answers with
    the whole chain resolved."""
    if not isinstance(env.repo, SqliteRepository):
        pytest.skip("looks at the SQLite writer's lock")
    cid = await _wings(env)
    held = await _lock_held_by_engine(env, cid, monkeypatch)
    picks = random.Random(3)
    for _ in range(12):
        result = await _both_lock(env, cid, picks)
        if result is None or not result.resolved:
            break  # the campaign ended
        # The Lock that resolved answers once every round it set off is resolved: the
        # campaign waits on players again.
        async with env.repo.read() as tx:
            live = await tx.live_round(cid)
            assert live is None or live.status == "open"
    quiet = await _quiet_rounds(env, cid)
    assert quiet >= 2  # the campaign went through rounds nobody decided in
    assert len(held) > quiet and not any(held)


async def test_a_quiet_round_that_fails_is_its_own_failure_and_is_retried(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The round nobody decides in after a resolved one fails to resolve (a worker lost,
    say): the Lock that resolved the round before is answered resolved, the failure is
    recorded against the quiet round, which waits resolving for the retry, and the retry
    resolves it and opens the next."""
    cid = await _wings(env)
    failed: list[int] = []
    plan = service_core.plan_resolution

    async def failing(tx: Any, ctx: Any, round_id: int) -> Any:
        locks = await tx.standing_locks(round_id)
        if not failed and locks and all(idle_lock(x) for x in locks.values()):
            failed.append(round_id)
            raise RuntimeError("worker lost")
        return await plan(tx, ctx, round_id)

    monkeypatch.setattr(service_core, "plan_resolution", failing)
    picks = random.Random(3)
    while not failed:
        result = await _both_lock(env, cid, picks)
        assert result is not None  # the campaign is not over before a quiet round
    assert result.resolved  # the round the Lock completed
    (quiet,) = failed
    async with env.repo.read() as tx:
        row = await tx.round(quiet)
        assert row is not None and row.status == "resolving"
        kinds = [e.kind for e in await tx.events(cid, round_id=quiet)]
        before = [e.kind for e in await tx.events(cid, round_id=result.round_id)]
    assert kinds.count("resolution-failed") == 1
    assert "resolution-failed" not in before
    assert await env.svc._resolve(quiet)  # the retry (the tick, /campaign resolve)
    async with env.repo.read() as tx:
        resolved = await tx.round(quiet)
        live = await tx.live_round(cid)
    assert resolved is not None and resolved.status == "resolved"
    assert live is None or live.status == "open"


ENTENTE, CENTRAL = 11, 22


async def _wings(env: Env) -> int:
    """A started Wings of War campaign (1917), one commander a side."""
    return await env.campaign(
        "wings-1917",
        ruleset="wings",
        seed="quiet",
        seats=((ENTENTE, "entente"), (CENTRAL, "central")),
    )


async def _both_lock(env: Env, cid: int, picks: random.Random) -> LockResult | None:
    """Each commander drafts a random legal option per field and locks; the last Lock's
    result, None when the campaign was over before it."""
    result = None
    for user in (ENTENTE, CENTRAL):
        if (await env.svc.status(cid)).campaign.status == "finished":
            return None
        panel = await env.svc.panel(cid, user)
        for decision in panel.decisions:
            option = picks.choice(decision.options)
            await env.svc.draft(cid, user, panel.round_id, decision.field, option.id)
        result = await env.svc.lock(cid, user, panel.round_id)
    return result


async def _lock_held_by_engine(env: Env, cid: int, monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether SQLite's write lock was held each time the campaign's engine resolved."""
    repo = env.repo
    assert isinstance(repo, SqliteRepository)
    rules = env.svc._ctx().plugin(await _campaign(env, cid)).rules
    resolve = rules.resolve
    held: list[bool] = []

    def watched(*args: Any, **kwargs: Any) -> Any:
        held.append(repo._lock.locked())
        return resolve(*args, **kwargs)

    monkeypatch.setattr(rules, "resolve", watched)
    return held


async def _campaign(env: Env, cid: int) -> Any:
    async with env.repo.read() as tx:
        return await tx.campaign(cid)


async def _quiet_rounds(env: Env, cid: int) -> int:
    """The campaign's resolved rounds whose every lock the round made itself."""
    async with env.repo.read() as tx:
        quiet = 0
        for row in await tx.rounds(cid):
            locks = await tx.standing_locks(row.id)
            if row.status == "resolved" and locks and all(idle_lock(x) for x in locks.values()):
                quiet += 1
    return quiet


async def test_a_restart_between_a_resolution_and_its_quiet_round_resolves_that_round(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot stops after a resolution is stored and before the round nobody decides in
    after it is resolved: the restart's recovery resolves it, once, and the campaign waits
    on its players again."""
    cid = await _wings(env)
    stopped: list[int] = []

    async def crash(self: Any, campaign_id: int) -> int | None:
        live = await quiet_round(self, campaign_id)
        if live is not None:
            stopped.append(live)
            raise asyncio.CancelledError  # the process stops here
        return live

    quiet_round = service_core.ServiceCore._quiet_round
    monkeypatch.setattr(service_core.ServiceCore, "_quiet_round", crash)
    picks = random.Random(3)
    while not stopped:
        try:
            assert await _both_lock(env, cid, picks) is not None
        except asyncio.CancelledError:
            break
    monkeypatch.setattr(service_core.ServiceCore, "_quiet_round", quiet_round)
    (quiet,) = stopped
    await env.restart()
    async with env.repo.read() as tx:
        row = await tx.round(quiet)
        live = await tx.live_round(cid)
        kinds = [e.kind for e in await tx.events(cid, round_id=quiet)]
    assert row is not None and row.status == "resolved"
    assert live is not None and live.status == "open"
    assert kinds.count("resolution-failed") == 0

"""The engine resolves a round from a read, outside the write lock (issue 13): the short
write that follows re-checks the round, so a plan made stale by another resolver, or by
locks that changed under it, writes nothing, and a round still resolves exactly once."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot import service_core
from bot.service_model import idle_lock
from bot.service_plan import Resolution, plan_resolution
from bot.service_resolve import apply_resolution
from db.repository import NewLock
from db.sqlite import SqliteRepository
from tests.service.support import ALL, CHANNEL, GM, GUILD, JAP, Env, pace


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


async def test_a_round_nobody_decides_in_resolves_with_the_write_lock_free(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Wings' rounds that ask nobody anything (a reorder, a debrief) resolve as soon as the
    round before them does, after that resolution is stored: their engine runs while other
    campaigns' writes go on, as the round before's did, and the Lock still answers with
    the whole chain resolved."""
    if not isinstance(env.repo, SqliteRepository):
        pytest.skip("looks at the SQLite writer's lock")
    repo = env.repo
    entente, central = 11, 22
    info = await env.svc.create_campaign(
        GUILD, CHANNEL, GM, "wings-1917", pace(), seed="quiet", ruleset="wings"
    )
    await env.svc.join(info.id, entente, "entente")
    await env.svc.join(info.id, central, "central")
    await env.svc.start(info.id, GM)
    rules = env.svc._ctx().plugin(await _campaign(env, info.id)).rules
    resolve = rules.resolve
    held: list[bool] = []

    def watched(*args: Any, **kwargs: Any) -> Any:
        held.append(repo._lock.locked())
        return resolve(*args, **kwargs)

    monkeypatch.setattr(rules, "resolve", watched)
    picks = random.Random(3)
    for _ in range(12):
        resolved = False
        for user in (entente, central):
            if (await env.svc.status(info.id)).campaign.status == "finished":
                break
            panel = await env.svc.panel(info.id, user)
            for decision in panel.decisions:
                option = picks.choice(decision.options)
                await env.svc.draft(info.id, user, panel.round_id, decision.field, option.id)
            resolved = (await env.svc.lock(info.id, user, panel.round_id)).resolved
        if not resolved:
            break  # the campaign ended
        # The Lock that resolved answers once every round it set off is resolved: the
        # campaign waits on players again.
        async with repo.read() as tx:
            live = await tx.live_round(info.id)
            assert live is None or live.status == "open"
    quiet = await _quiet_rounds(env, info.id)
    assert quiet >= 2  # the campaign went through rounds nobody decided in
    assert len(held) > quiet and not any(held)


async def test_a_quiet_round_that_fails_is_its_own_failure_and_is_retried(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The round nobody decides in after a resolved one fails to resolve (a worker lost,
    say): the Lock that resolved the round before is answered resolved, the failure is
    recorded against the quiet round, which waits resolving for the retry, and the retry
    resolves it and opens the next."""
    entente, central = 11, 22
    info = await env.svc.create_campaign(
        GUILD, CHANNEL, GM, "wings-1917", pace(), seed="quiet", ruleset="wings"
    )
    await env.svc.join(info.id, entente, "entente")
    await env.svc.join(info.id, central, "central")
    await env.svc.start(info.id, GM)
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
        assert (await env.svc.status(info.id)).campaign.status != "finished"
        for user in (entente, central):
            panel = await env.svc.panel(info.id, user)
            for decision in panel.decisions:
                option = picks.choice(decision.options)
                await env.svc.draft(info.id, user, panel.round_id, decision.field, option.id)
            result = await env.svc.lock(info.id, user, panel.round_id)
    assert result.resolved  # the round the Lock completed
    (quiet,) = failed
    async with env.repo.read() as tx:
        row = await tx.round(quiet)
        assert row is not None and row.status == "resolving"
        kinds = [e.kind for e in await tx.events(info.id, round_id=quiet)]
        before = [e.kind for e in await tx.events(info.id, round_id=result.round_id)]
    assert kinds.count("resolution-failed") == 1
    assert "resolution-failed" not in before
    assert await env.svc._resolve(quiet)  # the retry (the tick, /campaign resolve)
    async with env.repo.read() as tx:
        resolved = await tx.round(quiet)
        live = await tx.live_round(info.id)
    assert resolved is not None and resolved.status == "resolved"
    assert live is None or live.status == "open"


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

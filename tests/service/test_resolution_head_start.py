"""The Lock that completes a round sends the engine its job before that Lock's COMMIT, so
the round resolves in a worker while the Lock waits for the disk (issue 29: a resolving
Lock's answer waited for the COMMIT, then for the engine). The job is the one a plan
would send; a Lock that is not stored resolves nothing, and the round still resolves
exactly once when it is locked again. Ordered by what ran, never timed."""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot import resolver
from bot.clock import ManualClock
from bot.demo import SeededTokens
from db.repository import StorageError
from db.sqlite import SqliteRepository
from engine.zero.catalog import Catalog
from tests.service.support import ALL, JAP, Env


@pytest.fixture
async def env(tmp_path: Path, catalog: Catalog, clock: ManualClock, resolver_pool: None) -> Any:
    env = await Env(tmp_path / "head-start.db", catalog, clock, SeededTokens(3)).open()
    try:
        yield env
    finally:
        await env.close()


async def _one_lock_to_go(env: Env, seed: int) -> tuple[int, int]:
    """A new campaign's first round, both sides drafted, the Japanese locked: the Allied
    Lock completes it. (campaign, round)."""
    cid = await env.campaign()
    rng = random.Random(seed)
    round_id = await env.fill(cid, JAP, rng)
    await env.svc.lock(cid, JAP, round_id)
    await env.fill(cid, ALL, rng)
    return cid, round_id


def _watch(env: Env, monkeypatch: pytest.MonkeyPatch, seen: list[str]) -> None:
    """Log, in order, each job the Lock hands the workers, each plan made afterwards and
    each COMMIT that reaches the disk (the writer's, on its thread)."""
    repo = env.repo
    assert isinstance(repo, SqliteRepository)
    commit = repo._commit
    start = resolver.start
    resolve = resolver.resolve

    def committed() -> None:
        commit()
        seen.append("commit")

    def started(plugin: Any, job: resolver.Job) -> Any:
        seen.append("job handed")
        return start(plugin, job)

    async def planned(*args: Any, **kwargs: Any) -> Any:
        seen.append("job planned")
        return await resolve(*args, **kwargs)

    monkeypatch.setattr(repo, "_commit", committed)
    monkeypatch.setattr(resolver, "start", started)
    monkeypatch.setattr(resolver, "resolve", planned)


async def test_the_completing_lock_hands_the_job_over_before_its_commit(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    cid, round_id = await _one_lock_to_go(env, 11)
    seen: list[str] = []
    _watch(env, monkeypatch, seen)
    result = await env.svc.lock(cid, ALL, round_id)
    assert result.resolved
    # The job went out before the Lock's own COMMIT, and no plan sent it a second time;
    # the resolution's writes commit after.
    assert seen[:2] == ["job handed", "commit"]
    assert "job planned" not in seen
    assert seen.count("commit") >= 2
    assert [e.kind for e in await env.engine_events(cid, round_id)] == ["orders-revealed"]


async def test_the_head_start_resolves_as_a_plan_would(
    tmp_path: Path, catalog: Catalog, clock: ManualClock, resolver_pool: None
) -> None:
    """Two campaigns with the same seed and orders, one resolved by its completing Lock's
    head start, the other by the scheduler's plan after a Lock that left it resolving:
    the same events and the same stored state, round after round."""

    async def played(name: str, head_start: bool) -> tuple[list[Any], list[str]]:
        env = await Env(tmp_path / name, catalog, clock, SeededTokens(3)).open()
        try:
            cid = await env.campaign()
            rng = random.Random(5)
            events: list[Any] = []
            states: list[str] = []
            for _ in range(4):
                round_id = await env.fill(cid, JAP, rng)
                await env.svc.lock(cid, JAP, round_id)
                await env.fill(cid, ALL, rng)
                if head_start:
                    assert (await env.svc.lock(cid, ALL, round_id)).resolved
                else:
                    # The Lock leaves the round resolving (its head start let go), and the
                    # round is planned afterwards, as the scheduler's retry plans it.
                    resolve = env.svc._resolve

                    async def later(round_id: int, started: Any = None) -> bool:
                        return False

                    env.svc._resolve = later  # type: ignore[method-assign]
                    assert not (await env.svc.lock(cid, ALL, round_id)).resolved
                    env.svc._resolve = resolve  # type: ignore[method-assign]
                    assert await env.svc._resolve(round_id)
                await env.svc.settle()
                events.extend(
                    (e.kind, e.turn, e.data) for e in await env.engine_events(cid, round_id)
                )
                async with env.repo.read() as tx:
                    campaign = await tx.campaign(cid)
                    assert campaign is not None and campaign.snapshot_id is not None
                    row = await tx.snapshot(campaign.snapshot_id)
                    assert row is not None
                    states.append(row.state)
            return events, states
        finally:
            await env.close()

    assert await played("early.db", True) == await played("late.db", False)


async def test_a_lock_that_is_not_stored_resolves_nothing(
    env: Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    cid, round_id = await _one_lock_to_go(env, 12)
    repo = env.repo
    assert isinstance(repo, SqliteRepository)
    commit = repo._commit
    handed: list[asyncio.Future[Any]] = []
    start = resolver.start

    def started(plugin: Any, job: resolver.Job) -> Any:
        answer = start(plugin, job)
        handed.append(answer)
        return answer

    def broken_disk() -> None:
        repo._writer.execute("ROLLBACK")
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(resolver, "start", started)
    monkeypatch.setattr(repo, "_commit", broken_disk)
    with pytest.raises((sqlite3.OperationalError, StorageError)):
        await env.svc.lock(cid, ALL, round_id)
    assert len(handed) == 1
    await asyncio.wait(handed)  # the worker finished the job; nobody takes its answer
    monkeypatch.setattr(repo, "_commit", commit)
    assert await env.engine_events(cid, round_id) == []
    async with repo.read() as tx:
        live = await tx.live_round(cid)
        assert live is not None and (live.id, live.status) == (round_id, "open")
        assert set(await tx.standing_locks(round_id)) == {"japanese"}
    # The Allied commander locks again: the round resolves, once.
    with caplog.at_level(logging.ERROR):
        assert (await env.svc.lock(cid, ALL, round_id)).resolved
        await env.svc.settle()
    assert [e.kind for e in await env.engine_events(cid, round_id)] == ["orders-revealed"]
    assert (await env.outbox_kinds(cid)).count("reveal") == 1
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]


async def test_a_head_start_that_fails_to_go_out_costs_the_lock_nothing(
    env: Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The workers refuse the job (shutting down, say): the Lock is stored all the same and
    the round resolves from a plan made after it."""
    cid, round_id = await _one_lock_to_go(env, 13)

    def refused(plugin: Any, job: resolver.Job) -> Any:
        raise RuntimeError("cannot schedule new futures after shutdown")

    monkeypatch.setattr(resolver, "start", refused)
    with caplog.at_level(logging.ERROR):
        result = await env.svc.lock(cid, ALL, round_id)
    assert result.resolved and result.receipt
    assert [e.kind for e in await env.engine_events(cid, round_id)] == ["orders-revealed"]
    assert any("no head start" in r.getMessage() for r in caplog.records)

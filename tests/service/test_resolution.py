"""Exactly-once resolution: restarts, crashes and races never lose or double a round."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.demo import SeededTokens
from bot.export import dumps
from bot.service_model import LockResult, ServiceError
from db.postgres import PostgresRepository, PostgresTransaction
from db.repository import Transaction
from db.sqlite import SqliteTransaction
from engine.zero.catalog import Catalog
from tests.service.support import ALL, GM, JAP, Env

Step = Callable[[Env, dict[str, Any]], Awaitable[None]]


async def _create(env: Env, box: dict[str, Any]) -> None:
    box["cid"] = await env.campaign(start=False)


async def _start(env: Env, box: dict[str, Any]) -> None:
    from tests.service.support import GM

    await env.svc.start(box["cid"], GM)


async def _draft(user: int, field_index: int, env: Env, box: dict[str, Any]) -> None:
    panel = await env.svc.panel(box["cid"], user)
    decision = panel.decisions[field_index]
    await env.svc.draft(box["cid"], user, panel.round_id, decision.field, decision.options[-1].id)


async def _lock(user: int, env: Env, box: dict[str, Any]) -> None:
    panel = await env.svc.panel(box["cid"], user)
    await env.svc.lock(box["cid"], user, panel.round_id)


async def _deliver(env: Env, box: dict[str, Any]) -> None:
    await env.worker().deliver_due()


def _steps() -> list[tuple[str, Step]]:
    steps: list[tuple[str, Step]] = [("create", _create), ("start", _start)]
    for user, name in ((JAP, "jap"), (ALL, "all")):
        for index in range(3):
            steps.append(
                (f"draft-{name}-{index}", lambda e, b, u=user, i=index: _draft(u, i, e, b))
            )
        steps.append((f"lock-{name}", lambda e, b, u=user: _lock(u, e, b)))
    steps.append(("deliver", _deliver))
    # the resource round, too
    for user, name in ((JAP, "jap"), (ALL, "all")):
        steps.append((f"draft-res-{name}", lambda e, b, u=user: _draft(u, 0, e, b)))
        steps.append((f"lock-res-{name}", lambda e, b, u=user: _lock(u, e, b)))
    steps.append(("deliver-2", _deliver))
    return steps


STEPS = _steps()


async def _play(path: Path, catalog: Catalog, restart_after: int | None) -> str:
    clock = ManualClock()
    env = await Env(path, catalog, clock, SeededTokens(3)).open()
    box: dict[str, Any] = {}
    try:
        for index, (_, step) in enumerate(STEPS):
            await step(env, box)
            clock.advance(60)
            if index == restart_after:
                await env.restart()
        export = await env.svc.export(box["cid"])
        async with env.repo.read() as tx:
            outbox = [(r.kind, r.status, r.payload) for r in await tx.outbox(box["cid"])]
    finally:
        await env.close()
    return dumps(export) + repr(outbox)


@pytest.mark.parametrize("restart_after", range(len(STEPS)), ids=[name for name, _ in STEPS])
async def test_restart_between_any_two_steps_loses_nothing(
    tmp_path: Path, catalog: Catalog, restart_after: int
) -> None:
    reference = await _play(tmp_path / "straight.db", catalog, None)
    restarted = await _play(tmp_path / "restarted.db", catalog, restart_after)
    assert restarted == reference


async def test_crash_mid_resolution_keeps_the_round_and_a_retry_resolves_once(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    cid = await env.campaign()
    before = await env.svc.status(cid)
    round_id = await env.fill(cid, JAP)
    await env.svc.lock(cid, JAP, round_id)
    await env.fill(cid, ALL)

    # The transaction class of the backend under test (the test runs on both).
    backend: type[Transaction] = (
        PostgresTransaction if isinstance(env.repo, PostgresRepository) else SqliteTransaction
    )
    original = backend.insert_snapshot

    async def crash(self: Transaction, *args: Any, **kwargs: Any) -> int:
        # The events of the round are already written in this transaction: a crash here
        # must take them back with it.
        raise RuntimeError("power cut")

    monkeypatch.setattr(backend, "insert_snapshot", crash)
    result = await env.svc.lock(cid, ALL, round_id)
    assert result.resolved is False  # the lock itself is safe
    assert await env.engine_events(cid, round_id) == []
    status = await env.svc.status(cid)
    assert status.round is not None and status.round.status == "resolving"
    assert status.view == before.view
    assert "reveal" not in await env.outbox_kinds(cid)
    env.clock.advance(seconds=61)  # retries back off after a failure
    tick = await env.svc.tick()  # still broken: still resolving, reported
    assert tick.resolved == 0 and tick.failures

    monkeypatch.setattr(backend, "insert_snapshot", original)
    await env.restart()  # recover() retries the resolution
    events = await env.engine_events(cid, round_id)
    assert [e.kind for e in events] == ["orders-revealed"]
    assert (await env.svc.tick()).resolved == 0
    assert [e.kind for e in await env.engine_events(cid, round_id)] == ["orders-revealed"]
    assert (await env.outbox_kinds(cid)).count("reveal") == 1
    panel = await env.svc.panel(cid, JAP)
    assert panel.kind == "resource"


async def test_fifty_concurrent_lock_ins_give_one_resolution(env: Env) -> None:
    cid = await env.campaign()
    round_id = await env.fill(cid, JAP)
    await env.fill(cid, ALL)
    calls = [env.svc.lock(cid, JAP if i % 2 else ALL, round_id) for i in range(50)]
    results = await asyncio.gather(*calls, return_exceptions=True)
    locks = [r for r in results if isinstance(r, LockResult)]
    errors = [r for r in results if not isinstance(r, LockResult)]
    assert all(isinstance(e, ServiceError) and e.code == "stale-round" for e in errors), errors
    assert sum(1 for r in locks if r.resolved) == 1
    assert len({r.receipt for r in locks if r.side == "japanese"}) == 1
    assert [e.kind for e in await env.engine_events(cid, round_id)] == ["orders-revealed"]
    async with env.repo.read() as tx:
        rounds = await tx.rounds(cid)
        assert [(r.kind, r.status) for r in rounds] == [
            ("orders", "resolved"),
            ("resource", "open"),
        ]
        assert len(await tx.standing_locks(round_id)) == 2


async def test_lock_racing_the_deadline_resolves_once(env: Env, clock: ManualClock) -> None:
    cid = await env.campaign()
    round_id = await env.fill(cid, JAP)
    await env.fill(cid, ALL)
    await env.svc.lock(cid, JAP, round_id)
    status = await env.svc.status(cid)
    assert status.round is not None and status.round.deadline is not None
    clock.set(status.round.deadline)
    results = await asyncio.gather(
        env.svc.lock(cid, ALL, round_id),
        env.svc.tick(),
        env.svc.lock(cid, ALL, round_id),
        env.svc.tick(),
        return_exceptions=True,
    )
    assert not [r for r in results if isinstance(r, Exception) and not isinstance(r, ServiceError)]
    assert [e.kind for e in await env.engine_events(cid, round_id)] == ["orders-revealed"]
    async with env.repo.read() as tx:
        assert [r.status for r in await tx.rounds(cid)] == ["resolved", "open"]


async def test_a_resolution_that_keeps_failing_tells_the_gm_backs_off_and_can_be_retried(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.rulesets.carrier import CarrierRules

    cid = await env.campaign()
    calls: list[int] = []
    real = CarrierRules.resolve

    def broken(self: CarrierRules, state: object, choices: object, rng: object) -> object:
        calls.append(1)
        raise ZeroDivisionError("a rules bug")

    monkeypatch.setattr(CarrierRules, "resolve", broken)
    await env.play_round(cid)  # the second lock resolves, and fails
    status = await env.svc.status(cid)
    assert status.round is not None and status.round.status == "resolving"
    assert len(calls) == 1
    kinds = await env.outbox_kinds(cid)
    assert kinds.count("gm-notice") == 1  # the GM is told once, with a reference
    # Within the back-off, ticks do not hammer the failing rules; after it, one retry.
    await env.svc.tick()
    assert len(calls) == 1
    env.clock.advance(seconds=61)
    await env.svc.tick()
    assert len(calls) == 2
    env.clock.advance(seconds=61)  # the second wait is two minutes
    await env.svc.tick()
    assert len(calls) == 2
    assert (await env.outbox_kinds(cid)).count("gm-notice") == 1
    # The GM's /campaign resolve retries at once: still broken, a clear refusal...
    with pytest.raises(ServiceError) as refused:
        await env.svc.resolve_now(cid, GM, "retry")
    assert refused.value.code == "resolution-failed"
    # ...and once the bug is fixed, the same command resolves the stuck round.
    monkeypatch.setattr(CarrierRules, "resolve", real)
    assert await env.svc.resolve_now(cid, GM, "retry after the fix") == []
    status = await env.svc.status(cid)
    assert status.round is not None and status.round.kind == "resource"
    assert status.round.status == "open"

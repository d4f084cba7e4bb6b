"""Rounds resolved in the worker processes (``bot.resolver``), through the service.

A campaign played with its rounds resolved in a worker stores what one resolved in a thread
stores, snapshot text, history records and events byte for byte. A worker that dies while
it holds a round is replaced and the round resolved once; one that hangs is killed, the
round stays ``resolving`` with its locks, nothing of it written, and the retry resolves it
once.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import threading
from typing import Any

import pytest

from bot import resolver
from bot.service_model import Pace
from engine.sight import Eyes
from tests.service.support import ALL, GM, GUILD, JAP, Env


async def _start(env: Env, channel: int, ruleset: str, scenario: str) -> int:
    info = await env.svc.create_campaign(
        GUILD, channel, GM, scenario, Pace(), seed="workers", ruleset=ruleset
    )
    first, second = env.svc.rulesets.get(ruleset).rules.side_ids
    await env.svc.join(info.id, JAP, first)
    await env.svc.join(info.id, ALL, second)
    await env.svc.start(info.id, GM)
    return info.id


async def _play(env: Env, cid: int, rounds: int) -> None:
    rng = random.Random(3)
    for _ in range(rounds):
        async with env.repo.read() as tx:
            if await tx.live_round(cid) is None:
                return
        for user in (JAP, ALL):
            round_id = await env.fill(cid, user, rng)
            await env.svc.lock(cid, user, round_id)
        await env.svc.settle()


async def _stored(env: Env, cid: int) -> tuple[list[str], list[str], list[Any]]:
    """The campaign's snapshot texts, history records and engine events, in order."""
    async with env.repo.read() as tx:
        campaign = await tx.campaign(cid)
        assert campaign is not None and campaign.snapshot_id is not None
        texts: list[str] = []
        snapshot_id: int | None = campaign.snapshot_id
        last = await tx.snapshot(snapshot_id)
        assert last is not None
        for round_row in await tx.rounds(cid):
            before = await tx.snapshot(round_row.snapshot_before_id)
            assert before is not None
            texts.append(before.state)
        texts.append(last.state)
        records = await tx.history(cid, campaign.branch, last.history_len)
        events = [(e.kind, e.turn, e.data) for e in await tx.events(cid) if e.source == "engine"]
    return texts, records, events


@pytest.mark.parametrize(
    ("ruleset", "scenario"),
    [("carrier", "coral-sea"), ("land", "malaya-all"), ("wings", "wings-1917")],
)
async def test_a_campaign_resolved_in_a_worker_stores_what_a_thread_stores(
    env: Env, monkeypatch: pytest.MonkeyPatch, resolver_pool: None, ruleset: str, scenario: str
) -> None:
    monkeypatch.setenv("SORTIE_RESOLVE_WORKERS", "0")
    here = await _start(env, 601, ruleset, scenario)
    await _play(env, here, 8)
    monkeypatch.setenv("SORTIE_RESOLVE_WORKERS", "1")
    there = await _start(env, 602, ruleset, scenario)
    await _play(env, there, 8)
    assert resolver.pids()  # the second campaign's rounds went to a worker
    ours, theirs = await _stored(env, here), await _stored(env, there)
    assert len(ours[0]) >= 6
    assert ours == theirs


async def _resolving(env: Env) -> tuple[int, int]:
    """A campaign whose first round waits for its last Lock; (campaign, round)."""
    cid = await env.campaign()
    round_id = await env.fill(cid, JAP)
    await env.svc.lock(cid, JAP, round_id)
    await env.fill(cid, ALL)
    return cid, round_id


async def _outcome(env: Env, cid: int, round_id: int) -> tuple[str, int, list[str]]:
    async with env.repo.read() as tx:
        row = await tx.round(round_id)
        assert row is not None
        snapshots = {r.snapshot_after_id for r in await tx.rounds(cid)} - {None}
        engine = [e.kind for e in await tx.events(cid, round_id=round_id) if e.source == "engine"]
    return row.status, len(snapshots), engine


def _stopped_worker() -> int:
    """Start the worker and stop it (SIGSTOP): it takes a job and never answers."""
    resolver.warm_up()
    (pid,) = resolver.pids()
    os.kill(pid, signal.SIGSTOP)
    return pid


async def test_a_worker_killed_holding_a_round_is_replaced_and_the_round_resolves_once(
    env: Env, monkeypatch: pytest.MonkeyPatch, resolver_pool: None
) -> None:
    cid, round_id = await _resolving(env)
    pid = _stopped_worker()
    handed = threading.Event()
    real_ask = resolver._Worker.ask

    def ask(worker: Any, job: Any, seconds: float) -> Any:
        if job is not None and worker.process.pid == pid:
            handed.set()  # the job goes to the stopped worker, which dies with it
        return real_ask(worker, job, seconds)

    monkeypatch.setattr(resolver._Worker, "ask", ask)
    lock = asyncio.create_task(env.svc.lock(cid, ALL, round_id))
    assert await asyncio.to_thread(handed.wait, 30)
    await asyncio.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    result = await lock
    assert result.resolved
    assert pid not in resolver.pids()
    assert await _outcome(env, cid, round_id) == ("resolved", 1, ["orders-revealed"])
    assert not await env.svc._resolve(round_id)  # nothing left to do: resolved once


async def test_a_hung_worker_leaves_the_round_resolving_and_the_retry_resolves_it_once(
    env: Env, monkeypatch: pytest.MonkeyPatch, resolver_pool: None
) -> None:
    monkeypatch.setenv("SORTIE_RESOLVE_TIMEOUT", "1")
    cid, round_id = await _resolving(env)
    pid = _stopped_worker()
    result = await env.svc.lock(cid, ALL, round_id)
    assert not result.resolved
    assert pid not in resolver.pids()  # killed, not left hanging
    assert await _outcome(env, cid, round_id) == ("resolving", 0, [])
    async with env.repo.read() as tx:
        failed = [e.kind for e in await tx.events(cid, round_id=round_id)]
    assert failed.count("resolution-failed") == 1
    assert await env.svc._resolve(round_id)  # the retry (tick, /campaign resolve)
    assert await _outcome(env, cid, round_id) == ("resolved", 1, ["orders-revealed"])
    assert not await env.svc._resolve(round_id)


async def test_the_next_rounds_decisions_and_views_are_worked_out_once(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A resolution works out the next round's decisions once (with the resolution, from
    the state as parsed back from storage), not again when the round opens and again when
    its views are prepared; the event loop makes each viewer's view of the new state once
    (a turn's public view for its report count is the resolution's, off the loop)."""
    cid = await env.campaign()
    rules = env.svc.rulesets.get("carrier").rules
    pending, view = rules.pending, rules.view
    asked: list[str] = []
    viewed: list[Any] = []

    def counted_pending(state: Any) -> Any:
        asked.append(rules.dump_stored(state).current)
        return pending(state)

    def counted_view(state: Any, viewer: Any) -> Any:
        if threading.current_thread() is threading.main_thread():
            eyes = viewer if isinstance(viewer, Eyes) else Eyes(side=viewer)
            viewed.append((rules.dump_stored(state).current, eyes))
        return view(state, viewer)

    monkeypatch.setattr(rules, "pending", counted_pending)
    monkeypatch.setattr(rules, "view", counted_view)
    rng = random.Random(4)
    turns_ended = 0
    for _ in range(6):
        for user in (JAP, ALL):
            round_id = await env.fill(cid, user, rng)
            if user == ALL:
                asked.clear()
                viewed.clear()
            result = await env.svc.lock(cid, user, round_id)
        assert result.resolved
        await env.svc.settle()
        async with env.repo.read() as tx:
            campaign = await tx.campaign(cid)
            assert campaign is not None and campaign.snapshot_id is not None
            after = await tx.snapshot(campaign.snapshot_id)
            resolved, live = await tx.round(round_id), await tx.live_round(cid)
        assert after is not None and resolved is not None and live is not None
        turns_ended += live.turn > resolved.turn
        assert asked.count(after.state) == 1, asked.count(after.state)
        made = [v for text, v in viewed if text == after.state]
        assert len(made) == len(set(map(repr, made))), made
    assert turns_ended

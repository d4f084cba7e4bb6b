"""Rounds resolved in the worker processes come out as resolved here (``bot.resolver``).

The bot resolves rounds in worker processes so the engine never holds up its event loop
(issue 29); each worker builds its rules from the packaged data and is handed the round's
stored text. Every recorded game (``tests/golden_rulesets.py``) is replayed round by round
from its stored form, each round resolved both ways: the new state's stored text and
records, the events (with who may see them), the progress, the turn's log detail and
reports, and the decisions before and after must be the same. A game's first rounds whose
rules read the history are sent it (the worker asks for it); a failure of the engine is
raised here as it would be in a thread.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from bot import resolver
from bot.rulesets import Plugin, Registry
from engine.rng import Rng
from engine.rulesets.carrier import CarrierRules
from engine.zero.loader import load_catalog
from rendering.rulesets.carrier import CarrierPresenter
from tests.golden_rulesets import load


def _rounds(registry: Registry) -> Iterator[tuple[Any, resolver.Job, tuple[str, ...]]]:
    """(plugin, job, the branch's records) for every recorded round, from its stored form."""
    for game in load():
        plugin = registry.get(game["ruleset"])
        rules = plugin.rules
        seed = f"golden-{game['seed']}"
        state = rules.new(game["scenario"], seed)
        for recorded in game["rounds"]:
            progress = rules.progress(state)
            stored = rules.dump_stored(state)
            job = resolver.Job(
                ruleset=plugin.key,
                scenario=game["scenario"],
                current=stored.current,
                records=None,
                stored_len=stored.length,
                choices=recorded["choices"],
                seed=seed,
                turn=progress.turn,
                kind=progress.round,
            )
            yield plugin, job, stored.records
            state, _ = rules.resolve(
                state, recorded["choices"], Rng(seed, progress.turn, progress.round)
            )


def _same(worker: resolver.Outcome, here: resolver.Outcome, where: str) -> None:
    assert worker.stored == here.stored, where  # text and records, byte for byte
    assert worker.base == here.base, where
    assert worker.events == here.events, where  # sight and owner included
    assert [e.model_dump_json() for e in worker.events] == [
        e.model_dump_json() for e in here.events
    ], where
    assert (worker.progress, worker.ends_turn) == (here.progress, here.ends_turn), where
    assert worker.details == here.details, where
    assert (worker.reports, worker.shows_length) == (here.reports, here.shows_length), where
    assert worker.decisions == here.decisions, where
    assert worker.next_decisions == here.next_decisions, where
    assert worker.bare is None and (here.bare is None) == (here.next_decisions is None), where


def test_rounds_resolved_by_the_workers_are_resolved_alike(resolver_pool: None) -> None:
    registry = Registry()

    async def both() -> int:
        compared = 0
        for index, (plugin, job, records) in enumerate(_rounds(registry)):
            # From the snapshot alone, as the bot resolves; every third round also from the
            # whole history, as a state whose rules read it is.
            for sent in (job, replace(job, records=records)) if index % 3 == 0 else (job,):
                worker = await resolver.resolve(plugin, sent)
                here = resolver.play(plugin, sent)
                assert worker is not None and here is not None
                _same(worker, here, f"{plugin.key} {job.scenario} turn {job.turn}")
                compared += 1
        return compared

    compared = asyncio.run(both())
    assert compared > 1500  # 1,198 recorded rounds, a third twice
    assert resolver.pids()  # the outcomes came from a worker process


def test_a_state_that_needs_its_history_is_sent_it(resolver_pool: None) -> None:
    """A land state stored before ``flown`` was kept cannot resolve from its snapshot: the
    worker says so (None), and resolves it once sent the history, as here."""
    registry = Registry()
    plugin = registry.get("land")
    rules = plugin.rules
    game = next(g for g in load() if g["ruleset"] == "land")
    seed = f"golden-{game['seed']}"
    state = rules.new(game["scenario"], seed)
    for recorded in game["rounds"][:3]:
        progress = rules.progress(state)
        state, _ = rules.resolve(
            state, recorded["choices"], Rng(seed, progress.turn, progress.round)
        )
    stored = rules.dump_stored(state.model_copy(update={"flown": None}))
    assert stored.length > 0
    progress = rules.progress(state)
    job = resolver.Job(
        ruleset="land",
        scenario=game["scenario"],
        current=stored.current,
        records=None,
        stored_len=stored.length,
        choices=game["rounds"][3]["choices"],
        seed=seed,
        turn=progress.turn,
        kind=progress.round,
    )
    assert asyncio.run(resolver.resolve(plugin, job)) is None
    assert resolver.play(plugin, job) is None
    whole = replace(job, records=stored.records)
    worker = asyncio.run(resolver.resolve(plugin, whole))
    here = resolver.play(plugin, whole)
    assert worker is not None and here is not None
    _same(worker, here, "land, history sent")
    assert worker.base == 0


def test_the_engine_failing_in_a_worker_is_raised_here(resolver_pool: None) -> None:
    registry = Registry()
    plugin, job, _ = next(_rounds(registry))
    broken = resolver.Job(**{**job.__dict__, "choices": {"nobody": {"x": "y"}}})
    with pytest.raises(Exception) as here:
        resolver.play(plugin, broken)
    with pytest.raises(Exception) as there:
        asyncio.run(resolver.resolve(plugin, broken))
    assert type(there.value) is type(here.value)
    assert str(there.value) == str(here.value)
    assert any("resolution worker" in note for note in getattr(there.value, "__notes__", ()))


def test_a_plugin_of_other_data_resolves_here(resolver_pool: None) -> None:
    catalog = load_catalog()
    plugin = Plugin(CarrierRules(catalog), CarrierPresenter(catalog))
    assert not resolver.in_workers(plugin)
    assert resolver.in_workers(Registry().get("carrier"))


def test_no_workers_when_set_to_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SORTIE_RESOLVE_WORKERS", "0")
    assert not resolver.in_workers(Registry().get("carrier"))
    monkeypatch.delenv("SORTIE_RESOLVE_WORKERS")
    assert resolver.workers() >= 1  # sized to the machine: one per core but one


def test_rounds_resolve_in_threads_when_no_worker_can_start(
    resolver_pool: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_process(self: Any) -> None:
        raise OSError("no processes on this host")

    monkeypatch.setattr(resolver._Worker, "__init__", no_process)
    registry = Registry()
    plugin, job, _ = next(_rounds(registry))
    outcome = asyncio.run(resolver.resolve(plugin, job))
    assert outcome is not None and outcome == resolver.play(plugin, job)
    assert not resolver.in_workers(plugin)  # from now on, in threads


def test_a_job_is_waited_for_without_a_thread_of_its_own(
    resolver_pool: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A round's job is sent and its answer waited for by the exchange's thread alone (the
    wait's timeout counted by the kernel): no watchdog thread is started for each job."""
    registry = Registry()
    rounds = _rounds(registry)
    jobs = [next(rounds)[:2] for _ in range(5)]
    resolver.warm_up()  # the exchange's thread and the worker, started before counting
    started: list[str] = []
    start = threading.Thread.start

    def counted(thread: threading.Thread) -> None:
        started.append(thread.name)
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", counted)
    for plugin, job in jobs:
        outcome = asyncio.run(resolver.resolve(plugin, job))
        assert outcome is not None
        _same(outcome, resolver.play(plugin, job), job.kind)
    assert started == []

"""The odds preview spread over worker processes answers exactly what one thread answers.

Every draw a sample makes is drawn before the samples are shared out, so the split (over
processes, or over chunks in one thread) must not move a single figure; and when the
processes cannot run, the preview still answers, in the caller's thread.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict
from typing import Any

import pytest

from bot import odds, processes
from engine.rng import Rng
from engine.rulesets.carrier import CarrierRules
from engine.rulesets.carrier.state import State
from engine.zero.loader import default_catalog


def _later_state(rules: CarrierRules) -> State:
    """A Coral Sea state in turn 2's resource round, a turn of history behind it."""
    draw = random.Random("spread")
    state = rules.new("coral-sea", "spread")
    while not (state.turn == 2 and state.round.value == "resource"):
        choices = rules.drawn(rules.pending(state), draw)
        state, _ = rules.resolve(state, choices, Rng("spread", state.turn, state.round.value))
    assert state.history
    return state


def _questions(rules: CarrierRules) -> list[odds.Ask]:
    first = rules.new("coral-sea", "spread")
    return [
        odds.Ask(
            rules=rules,
            state=state,
            side="japanese",
            picks=picks,
            hidden=("doctrine",),
            seed=f"spread|{index}",
            locale="en",
        )
        for index, (state, picks) in enumerate(
            [(first, {"flight_ops": "large:allied-fleet"}), (_later_state(rules), {})]
        )
    ]


@pytest.fixture
def rules() -> CarrierRules:
    return CarrierRules(default_catalog())


@pytest.fixture
def fresh_pool(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(odds, "RECENT", 0)
    monkeypatch.setattr(odds, "SPREAD_FROM", 1)
    monkeypatch.setenv("SORTIE_ODDS_WORKERS", "2")
    monkeypatch.setattr(odds, "_workers", None)
    monkeypatch.setattr(odds, "_broken", False)
    odds._recent.clear()
    yield
    if odds._workers is not None:
        odds._workers.shutdown(wait=True)


def _serial(question: odds.Ask, samples: int) -> dict[str, Any]:
    result = question.play(samples)
    assert result is not None
    return asdict(result)


def test_chunks_played_in_any_order_tally_to_the_same_figures(rules: CarrierRules) -> None:
    def backwards(play: Any, items: Any) -> list[Any]:
        return [play(item) for item in reversed(items)][::-1]

    for question in _questions(rules):
        split = rules.odds(
            question.state,
            question.side,
            question.picks,
            question.hidden,
            samples=30,
            seed=question.seed,
            spread=backwards,
            parts=4,
        )
        assert split is not None
        assert asdict(split) == _serial(question, 30)


@pytest.mark.usefixtures("fresh_pool")
def test_worker_processes_answer_byte_for_byte_what_one_thread_does(rules: CarrierRules) -> None:
    for question in _questions(rules):
        spread = odds.simulate(question, 40)
        assert odds._workers is not None and not odds._broken  # the processes did the plays
        assert spread is not None
        assert asdict(spread) == _serial(question, 40)


class _DeadPool:
    """A pool whose processes died (the OOM killer, say): every map fails."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def map(self, *args: object) -> list[Any]:
        raise BrokenProcessPool("killed")

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        pass


@pytest.mark.usefixtures("fresh_pool")
def test_a_dead_pool_falls_back_to_one_thread_with_the_same_answer(
    rules: CarrierRules, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(odds, "ProcessPoolExecutor", _DeadPool)
    question = _questions(rules)[0]
    answer = odds.simulate(question, 24)
    assert answer is not None and asdict(answer) == _serial(question, 24)
    assert odds._broken and odds._workers is None  # later previews skip the dead pool
    again = odds.simulate(question, 24)
    assert again is not None and asdict(again) == asdict(answer)


@pytest.mark.usefixtures("fresh_pool")
def test_a_machine_that_cannot_start_processes_still_gets_its_answer(
    rules: CarrierRules, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_processes(method: str) -> object:
        raise ValueError(f"cannot find context for {method!r}")

    monkeypatch.setattr(processes.multiprocessing, "get_context", no_processes)
    question = _questions(rules)[0]
    answer = odds.simulate(question, 24)
    assert answer is not None and asdict(answer) == _serial(question, 24)
    assert odds._broken and odds._workers is None


@pytest.mark.usefixtures("fresh_pool")
def test_idle_worker_processes_are_given_back_and_come_again_when_asked(
    rules: CarrierRules, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    monkeypatch.setattr(odds, "IDLE_SECONDS", 0.3)
    question = _questions(rules)[0]
    first = odds.simulate(question, 24)
    started = odds._workers
    assert started is not None
    processes = list(started._processes.values())  # type: ignore[attr-defined]
    assert processes and all(p.is_alive() for p in processes)
    deadline = time.monotonic() + 10
    while odds._workers is not None and time.monotonic() < deadline:
        time.sleep(0.05)  # the timer armed by the preview fires
    assert odds._workers is None  # their memory is back
    for process in processes:
        process.join(timeout=10)
        assert not process.is_alive()
    again = odds.simulate(question, 24)  # the next preview starts them again
    assert odds._workers is not None and not odds._broken
    assert again is not None and first is not None and asdict(again) == asdict(first)


@pytest.mark.usefixtures("fresh_pool")
def test_a_pool_in_use_or_recently_used_is_kept(
    rules: CarrierRules, monkeypatch: pytest.MonkeyPatch
) -> None:
    odds.simulate(_questions(rules)[0], 24)
    assert odds._workers is not None
    assert not odds.release_idle()  # used a moment ago (IDLE_SECONDS is minutes)
    monkeypatch.setattr(odds, "IDLE_SECONDS", 0.0)
    monkeypatch.setattr(odds, "_in_use", 1)
    assert not odds.release_idle() and odds._workers is not None  # a preview is running
    monkeypatch.setattr(odds, "_in_use", 0)
    assert odds.release_idle() and odds._workers is None


@pytest.mark.usefixtures("fresh_pool")
def test_with_one_worker_process_the_whole_preview_plays_there(
    rules: CarrierRules, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 2-core bot has one preview process: the preview goes there whole, draws and plays,
    and nothing of it runs in a thread of the bot, beside its event loop."""
    from engine.rulesets.carrier import odds as carrier_odds

    expected = [_serial(question, 40) for question in _questions(rules)]
    monkeypatch.setenv("SORTIE_ODDS_WORKERS", "1")

    def not_here(*args: object) -> None:
        raise AssertionError("a preview was played in the bot's own process")

    # Only this process's module is patched: the worker process imports its own.
    monkeypatch.setattr(carrier_odds, "plan", not_here)
    monkeypatch.setattr(carrier_odds, "play", not_here)
    for question, serial in zip(_questions(rules), expected, strict=True):
        answer = odds.simulate(question, 40)
        assert odds._workers is not None and not odds._broken
        assert answer is not None and asdict(answer) == serial

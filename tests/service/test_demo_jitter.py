"""Same seed, same files, however the machine's timing falls.

The demo once wrote different files for the same seed on a loaded machine, and reruns on
an idle one could not show it again. Here the timing is shaken on purpose: every hop to a
thread (image drawing, the SQLite writer's COMMIT), the start of each group commit and
every ``asyncio.sleep`` gets a small random extra delay, drawn from a seed of its own, and
threads swap every few microseconds, so two runs under different jitter meet their thread
hops in different orders. Whatever the
order, the files must be the same byte for byte, and the database the same row for row.
"""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import pytest

from bot.clock import ManualClock
from bot.demo import START, SeededTokens, run
from db.repository import NewEvent
from db.sqlite import SqliteRepository
from engine.zero.catalog import Catalog
from tests.service.support import Env

P = ParamSpec("P")
R = TypeVar("R")

# Extra delays, seconds: mostly none (the usual case), sometimes a scheduler's slice.
DELAYS = (0.0, 0.0, 0.0002, 0.001, 0.003, 0.01)


class Jitter:
    """Random extra delays at every point where the demo's timing could show."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self._rng = random.Random(0)
        self.delays: list[float] = []
        real_to_thread = asyncio.to_thread
        real_sleep = asyncio.sleep
        real_on_writer = SqliteRepository._run_on_writer
        real_flush = SqliteRepository._flush
        pause = self._pause

        def slowed(func: Callable[[], R], delay: float) -> Callable[[], R]:
            def slow() -> R:
                time.sleep(delay)
                return func()

            return slow

        async def to_thread(func: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
            await real_sleep(pause())
            return await real_to_thread(slowed(lambda: func(*args, **kwargs), pause()))

        async def sleep(delay: float, result: Any = None) -> Any:
            return await real_sleep(delay + pause(), result)

        async def run_on_writer(repo: SqliteRepository, work: Callable[[], None]) -> None:
            await real_sleep(pause())
            await real_on_writer(repo, slowed(work, pause()))

        async def flush(repo: SqliteRepository) -> None:
            await real_sleep(pause())
            await real_flush(repo)

        monkeypatch.setattr(asyncio, "to_thread", to_thread)
        monkeypatch.setattr(asyncio, "sleep", sleep)
        monkeypatch.setattr(SqliteRepository, "_run_on_writer", run_on_writer)
        monkeypatch.setattr(SqliteRepository, "_flush", flush)

    def _pause(self) -> float:
        delay = self._rng.choice(DELAYS)
        self.delays.append(delay)
        return delay

    @contextmanager
    def seeded(self, seed: int) -> Iterator[list[float]]:
        """Jitter drawn from ``seed`` for the block; the delays it drew."""
        self._rng.seed(seed)
        self.delays = []
        yield self.delays


@pytest.fixture
def jitter(monkeypatch: pytest.MonkeyPatch) -> Iterator[Jitter]:
    # Threads also swap far more often than the default 5 ms, as on a loaded machine, so
    # the drawing threads and the loop interleave (and allocate) in ever different orders.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        yield Jitter(monkeypatch)
    finally:
        sys.setswitchinterval(interval)


def _files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


def _dump(path: Path) -> list[str]:
    with closing(sqlite3.connect(path)) as conn:
        return list(conn.iterdump())


async def test_same_files_under_different_jitter(tmp_path: Path, jitter: Jitter) -> None:
    # The land demo: two sides, reminders, a deadline with defaults, images, in six rounds.
    with jitter.seeded(1) as first_delays:
        first = await run("malaya-dec41", 11, tmp_path / "a", ruleset="land")
    with jitter.seeded(2) as second_delays:
        second = await run("malaya-dec41", 11, tmp_path / "b", ruleset="land")
    assert first.verified and second.verified
    # The jitter did shake both runs, and not the same way.
    assert sum(first_delays) > 0 and sum(second_delays) > 0
    assert first_delays != second_delays
    a, b = _files(tmp_path / "a"), _files(tmp_path / "b")
    assert sorted(a) == sorted(b)
    assert not [name for name in a if name.startswith("demo.db") and name != "demo.db"]
    assert _dump(tmp_path / "a" / "demo.db") == _dump(tmp_path / "b" / "demo.db")
    assert [name for name in a if a[name] != b[name]] == []


def test_same_files_whatever_the_hash_seed(tmp_path: Path) -> None:
    # A set of strings iterates in an order drawn from the process's hash seed: two
    # processes must still write the same files. Seeds 0 and 4 put both rulesets' pairs of
    # sides ({"japanese", "allied"}, {"entente", "central"}) in opposite orders.
    demo = ["demo", "--ruleset", "land", "--scenario", "malaya-dec41", "--seed", "11"]
    for name, hash_seed in (("a", "0"), ("b", "4")):
        subprocess.run(
            [sys.executable, "-m", "bot", *demo, "--out", str(tmp_path / name)],
            check=True,
            capture_output=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            cwd=Path(__file__).resolve().parents[2],
        )
    a, b = _files(tmp_path / "a"), _files(tmp_path / "b")
    assert sorted(a) == sorted(b) and len(a) > 10
    assert [name for name in a if a[name] != b[name]] == []


async def _bundles_written(
    tmp_path: Path, catalog: Catalog, name: str, *, together: bool
) -> tuple[list[tuple[Any, ...]], list[tuple[int, str, int]], int]:
    """Five writes of three events each, queued for the writer at once (``together``: they
    share group commits) or one after the other; the events rows they left, the events as
    /log reads them, and how many COMMITs the writer ran."""
    env = await Env(tmp_path / name, catalog, ManualClock(START), SeededTokens(1)).open()
    repo = env.repo
    assert isinstance(repo, SqliteRepository)
    try:
        cid = await env.campaign()
        commits = 0
        real_commit = repo._commit

        def slow_commit() -> None:
            nonlocal commits
            commits += 1
            time.sleep(0.005)  # a disk under load: writes queue up behind the COMMIT
            real_commit()

        repo._commit = slow_commit  # type: ignore[method-assign]

        async def write(index: int) -> None:
            events = [NewEvent(f"test-{index}-{n}", 1, {"n": n}) for n in range(3)]
            async with repo.transaction() as tx:
                await tx.append_events(cid, None, 0, events, 0)

        if together:
            await asyncio.gather(*(write(index) for index in range(5)))
        else:
            for index in range(5):
                await write(index)
        async with repo.read() as tx:
            raw = await tx.raw.execute_fetchall(
                "SELECT seq, lines, kind, turn FROM events WHERE kind = 'bundle' ORDER BY seq"
            )
            logged = await tx.events(cid)
        rows = [tuple(row) for row in raw]
        return rows, [(e.seq, e.kind, e.turn) for e in logged], commits
    finally:
        await env.close()


async def test_event_bundles_do_not_follow_group_commits(tmp_path: Path, catalog: Catalog) -> None:
    # "A run of events written together" is one append_events call, not one COMMIT: writes
    # that happen to share a group commit keep their own rows and the same numbers.
    grouped, grouped_log, grouped_commits = await _bundles_written(
        tmp_path, catalog, "grouped.db", together=True
    )
    alone, alone_log, alone_commits = await _bundles_written(
        tmp_path, catalog, "alone.db", together=False
    )
    assert grouped_commits < alone_commits  # the writes did share COMMITs
    assert len(grouped) == 5 and all(row[1] == 3 for row in grouped)
    assert grouped == alone
    assert grouped_log == alone_log

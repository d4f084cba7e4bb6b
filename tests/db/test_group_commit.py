"""SQLite's writer (issue 13): group commit, durability before the answer, reads beside it.

Write transactions that queue while a COMMIT waits for the disk share the next COMMIT,
each in its own savepoint: one that fails takes only its own writes back; a COMMIT that
fails fails every caller of its group; no caller is answered before its group is on disk.
Reads use connections of their own and never wait behind the write lock.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from db.sqlite import SqliteRepository


@pytest.fixture
async def repo(tmp_path: Path) -> AsyncIterator[SqliteRepository]:
    opened = await SqliteRepository.open(tmp_path / "group.db")
    try:
        yield opened
    finally:
        await opened.close()


async def _write(repo: SqliteRepository, why: str, *, fail: bool = False) -> None:
    async with repo.transaction() as tx:
        await tx.add_audit(None, 1, 1, "test", why, {}, 0)
        if fail:
            raise ValueError(why)


async def _held_open(
    repo: SqliteRepository, why: str, inside: asyncio.Event, release: asyncio.Event
) -> None:
    """A durable write that holds its transaction open from ``inside`` until ``release``."""
    async with repo.transaction() as tx:
        await tx.add_audit(None, 1, 1, "test", why, {}, 0)
        inside.set()
        await release.wait()


async def _whys(repo: SqliteRepository) -> set[str]:
    async with repo.read() as tx:
        rows = await tx.raw.execute_fetchall("SELECT why FROM audit")
    return {row[0] for row in rows}


async def test_transactions_queued_behind_a_commit_share_it(
    repo: SqliteRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    commits = 0
    commit = repo._commit

    def counted() -> None:
        nonlocal commits
        commits += 1
        commit()

    monkeypatch.setattr(repo, "_commit", counted)
    await asyncio.gather(*(_write(repo, f"w{i}") for i in range(20)))
    assert await _whys(repo) == {f"w{i}" for i in range(20)}
    assert commits <= 3  # the first alone, the 19 queued behind it together (or nearly)


async def test_a_failing_transaction_takes_back_only_its_own_writes(
    repo: SqliteRepository,
) -> None:
    results = await asyncio.gather(
        _write(repo, "a"), _write(repo, "b", fail=True), _write(repo, "c"), return_exceptions=True
    )
    assert results[0] is None and isinstance(results[1], ValueError) and results[2] is None
    assert await _whys(repo) == {"a", "c"}


async def test_no_caller_is_answered_before_its_group_is_on_disk(
    repo: SqliteRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    disk = threading.Event()
    commit = repo._commit

    def slow_disk() -> None:
        disk.wait(5)
        commit()

    monkeypatch.setattr(repo, "_commit", slow_disk)
    task = asyncio.create_task(_write(repo, "slow"))
    await asyncio.sleep(0.2)
    assert not task.done()  # its COMMIT has not returned
    assert await _whys(repo) == set()  # and nobody else can see it yet
    disk.set()
    await asyncio.wait_for(task, 5)
    assert await _whys(repo) == {"slow"}


async def test_a_failed_commit_fails_every_caller_of_its_group(
    repo: SqliteRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _write(repo, "before")
    gate = threading.Event()
    commit = repo._commit
    calls = 0

    def broken_disk() -> None:
        nonlocal calls
        calls += 1
        if calls == 1:
            gate.wait(5)  # the first commit, alone, holds the others in one queue
            commit()
            return
        repo._writer.execute("ROLLBACK")
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(repo, "_commit", broken_disk)
    first = asyncio.create_task(_write(repo, "first"))
    await asyncio.sleep(0.1)
    group = [asyncio.create_task(_write(repo, f"g{i}")) for i in range(3)]
    await asyncio.sleep(0.1)
    gate.set()
    await first
    results = await asyncio.gather(*group, return_exceptions=True)
    assert all(isinstance(r, sqlite3.OperationalError) for r in results), results
    assert await _whys(repo) == {"before", "first"}


async def test_reads_do_not_wait_behind_the_write_lock(repo: SqliteRepository) -> None:
    await _write(repo, "committed")
    inside, release = asyncio.Event(), asyncio.Event()

    writer = asyncio.create_task(_held_open(repo, "uncommitted", inside, release))
    await inside.wait()
    assert await asyncio.wait_for(_whys(repo), 1) == {"committed"}
    release.set()
    await writer
    assert await _whys(repo) == {"committed", "uncommitted"}


async def test_lazy_writes_commit_at_once_without_the_disk_and_durable_ones_still_wait(
    repo: SqliteRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The outbox's bookkeeping (a lease, a delivery mark) commits as its transaction ends,
    on the event loop, without an fsync (synchronous NORMAL) and without a checkpoint; a
    durable write after it still commits at FULL, on the writer's thread."""
    commit = repo._commit
    commits: list[tuple[int, int, bool]] = []

    def watched() -> None:
        sync = repo._writer.execute("PRAGMA synchronous").fetchone()[0]
        checkpoint = repo._writer.execute("PRAGMA wal_autocheckpoint").fetchone()[0]
        commits.append((sync, checkpoint, threading.current_thread() is threading.main_thread()))
        commit()

    monkeypatch.setattr(repo, "_commit", watched)
    async with repo.lazy_transaction() as tx:
        await tx.add_audit(None, 1, 1, "test", "lease", {}, 0)
    assert await _whys(repo) == {"lease"}  # readable as soon as it ended
    await repo.flushed()  # nothing left to wait for
    await _write(repo, "lock")
    assert await _whys(repo) == {"lease", "lock"}
    # NORMAL with no checkpoint on the loop, then FULL with checkpoints on the thread.
    assert commits == [(1, 0, True), (2, 1000, False)]


async def test_a_working_note_commits_at_once_unless_it_joins_a_group_that_waits(
    repo: SqliteRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A draft (``working_transaction``) with nobody else writing commits as its transaction
    ends, on the event loop, without an fsync: readable at once. Queued behind a durable
    write, it joins that write's group and is answered with it, once on disk, never before:
    a read right after its answer must find it."""
    commit = repo._commit
    commits: list[tuple[int, bool]] = []
    disk = threading.Event()
    disk.set()

    def watched() -> None:
        sync = repo._writer.execute("PRAGMA synchronous").fetchone()[0]
        commits.append((sync, threading.current_thread() is threading.main_thread()))
        disk.wait(5)
        commit()

    monkeypatch.setattr(repo, "_commit", watched)

    async def note(why: str) -> None:
        async with repo.working_transaction() as tx:
            await tx.add_audit(None, 1, 1, "test", why, {}, 0)

    await note("draft alone")
    assert await _whys(repo) == {"draft alone"}
    assert commits == [(1, True)]  # NORMAL, on the loop: no disk, no thread

    # A durable write holds the writer; a draft queues behind it and joins its group.
    inside, release = asyncio.Event(), asyncio.Event()

    locking = asyncio.create_task(_held_open(repo, "lock", inside, release))
    await inside.wait()
    drafting = asyncio.create_task(note("draft in a group"))
    await asyncio.sleep(0.05)  # queued on the write lock
    disk.clear()
    release.set()
    await asyncio.sleep(0.2)
    assert not drafting.done()  # its group's COMMIT has not returned
    assert await _whys(repo) == {"draft alone"}
    disk.set()
    await asyncio.wait_for(asyncio.gather(locking, drafting), 5)
    assert await _whys(repo) == {"draft alone", "lock", "draft in a group"}
    assert commits[1:] == [(2, False)]  # one COMMIT for both, FULL, on the writer's thread


async def test_a_write_that_waits_for_the_disk_never_joins_a_refused_note(
    repo: SqliteRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refused draft (its transaction raises) leaves no lazy group open behind it: a Lock
    queued meanwhile commits at FULL on the writer's thread, on disk before it is
    answered, never at NORMAL in the refused draft's group."""
    commit = repo._commit
    commits: list[tuple[str, int, bool]] = []

    def watched() -> None:
        sync = repo._writer.execute("PRAGMA synchronous").fetchone()[0]
        rows = repo._writer.execute("SELECT why FROM audit").fetchall()
        whys = ",".join(sorted(row[0] for row in rows))
        commits.append((whys, sync, threading.current_thread() is threading.main_thread()))
        commit()

    monkeypatch.setattr(repo, "_commit", watched)
    inside, refuse = asyncio.Event(), asyncio.Event()

    async def refused_draft() -> None:
        async with repo.working_transaction() as tx:
            await tx.add_audit(None, 1, 1, "test", "refused", {}, 0)
            inside.set()
            await refuse.wait()
            raise ValueError("not a legal option")

    drafting = asyncio.create_task(refused_draft())
    await inside.wait()
    locking = asyncio.create_task(_write(repo, "lock"))  # queued on the write lock
    await asyncio.sleep(0.05)
    refuse.set()
    with pytest.raises(ValueError):
        await drafting
    await asyncio.wait_for(locking, 5)
    assert await _whys(repo) == {"lock"}
    assert ("lock", 2, False) in commits  # FULL, on the writer's thread


async def test_the_time_the_write_lock_is_held_is_counted_and_the_commits_share_apart(
    repo: SqliteRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``lock_held`` (what ``bench/apart.py`` reports): a transaction that keeps the write
    lock is counted for as long as it keeps it, and a group's COMMIT on the writer's thread
    under the group commits' share."""
    before, commits_before = repo.lock_held()
    inside, release = asyncio.Event(), asyncio.Event()
    writer = asyncio.create_task(_held_open(repo, "held", inside, release))
    await inside.wait()
    await asyncio.sleep(0.2)
    release.set()
    commit = repo._commit

    def slow_disk() -> None:
        threading.Event().wait(0.1)  # a disk that takes its time over the fsync
        commit()

    monkeypatch.setattr(repo, "_commit", slow_disk)
    await writer
    held, commits = repo.lock_held()
    assert held - before >= 0.3  # the transaction's 0.2 s, then its COMMIT's 0.1 s
    assert 0.1 <= commits - commits_before <= held - before - 0.2

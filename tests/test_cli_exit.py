"""A bot that fails once its database is open still exits, at once, non-zero, saying why.

systemd and compose restart a process that ends; one that hangs on its way out stays down.
aiosqlite's connection thread is not a daemon, so a repository left open (a start-up that
failed half-way, a program raising before its close) used to keep Python from exiting.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from db.repository import StorageError
from db.sqlite import SqliteRepository
from tests.bot_process import PROMPTLY, child_environment

# ``python -m bot run`` with Discord's login answered without the network, and a fault in
# start-up once the database is open and migrated.
FAILING_START_UP = """
    import sys

    import discord

    from tests.offline_discord import answer_login

    import bot.runtime
    from bot.__main__ import main_or_stop


    def broken_service(*args, **kwargs):
        raise RuntimeError("injected start-up fault")


    answer_login()
    bot.runtime.CampaignService = broken_service
    sys.exit(main_or_stop(["run"]))
"""

# A program that writes (durably, then lazily) and raises without closing its repository.
RAISING_BEFORE_CLOSE = """
    import asyncio
    import sys

    from db.sqlite import SqliteRepository


    async def main():
        repo = await SqliteRepository.open(sys.argv[1])
        async with repo.transaction() as tx:
            await tx.add_audit(None, 1, 1, "test", "durable", {}, 0)
        async with repo.lazy_transaction() as tx:
            await tx.add_audit(None, 1, 1, "test", "lazy", {}, 0)
        if "odds" in sys.argv:  # the odds preview's worker processes started, then the fault
            from bot import odds

            assert await asyncio.to_thread(odds._spread, abs, [-1, -2, -3]) == [1, 2, 3]
            assert not odds._broken  # the processes did the work, not this thread
        raise RuntimeError("injected fault before close")


    if __name__ == "__main__":  # each worker process imports this file as well
        asyncio.run(main())
"""


def _run(script: str, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "program.py"
    path.write_text(textwrap.dedent(script), encoding="utf-8")
    try:
        return subprocess.run(
            [sys.executable, str(path), *args],
            cwd=tmp_path,
            env=child_environment(tmp_path),
            capture_output=True,
            text=True,
            timeout=PROMPTLY,
        )
    except subprocess.TimeoutExpired as hung:
        said = hung.stderr.decode() if isinstance(hung.stderr, bytes) else hung.stderr
        pytest.fail(f"still running after {PROMPTLY}s; it had said: {said}")


def test_a_start_up_failing_after_the_database_opened_exits_non_zero_saying_why(
    tmp_path: Path,
) -> None:
    done = _run(FAILING_START_UP, tmp_path)
    assert done.returncode == 1, done.stderr
    assert "Sortie stopped on an unexpected error (RuntimeError: injected start-up fault)" in (
        done.stderr
    )
    assert (tmp_path / "data" / "sortie.db").is_file()  # it did get that far


@pytest.mark.parametrize("odds_workers", [False, True])
def test_a_program_raising_before_close_exits_and_keeps_what_was_committed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, odds_workers: bool
) -> None:
    monkeypatch.setenv("SORTIE_ODDS_WORKERS", "2")
    database = tmp_path / "left-open.db"
    done = _run(RAISING_BEFORE_CLOSE, tmp_path, str(database), *(["odds"] if odds_workers else []))
    assert done.returncode == 1
    assert "RuntimeError: injected fault before close" in done.stderr
    assert "leaked semaphore" not in done.stderr  # nor anything of the workers left behind
    with sqlite3.connect(database) as conn:
        whys = {row[0] for row in conn.execute("SELECT why FROM audit")}
    assert whys == {"durable", "lazy"}


async def test_close_releases_the_connection_even_when_the_last_commit_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = await SqliteRepository.open(tmp_path / "full-disk.db")
    thread = repo.connection._thread

    async def full_disk() -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(repo, "_commit_group", full_disk)  # close's COMMIT of the last group
    with pytest.raises(sqlite3.OperationalError):
        await repo.close()
    thread.join(timeout=PROMPTLY)
    assert not thread.is_alive()  # nothing left to keep the interpreter from exiting
    with pytest.raises(StorageError):
        async with repo.read():
            pass

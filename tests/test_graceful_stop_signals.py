"""Stopping ``python -m bot`` as an operator does: Ctrl-C, systemd or docker, a terminal closed.

SIGINT (Ctrl-C), SIGTERM (systemd, docker) and SIGHUP (the terminal or the ssh session gone)
each end the bot through its clean close, saying so in one line rather than a traceback,
with exit 0; nothing is lost: a commander's lock still being written when the signal comes
is there at the next start, and so are the announcements it queued. An interrupted demo
ends the same way, leaves what it wrote as it is, says so, and exits 128 + the signal's
number.

Each program runs in a process group of its own and the signal goes to the whole group, as
a terminal and systemd send it. Discord's login and gateway are answered without the
network, as in tests/test_odds_exit.py.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bot.clock import SystemClock
from bot.runtime import open_services
from tests.bot_process import PROMPTLY, child_environment, operator_signals
from tests.service.support import JAP

STOPS = ["SIGINT", "SIGTERM", "SIGHUP"]

# The gateway session stands for a campaign played on Discord: it starts, one commander
# locks, and the operator stops the bot as the lock is being written (told by "locking").
BOT = """
    import asyncio
    import os
    import runpy
    import sys

    import discord

    from tests.offline_discord import answer_login

    import bot.runtime
    import bot.service
    from tests.service.support import ALL, CHANNEL, GM, GUILD, JAP, pace


    async def sync(self, *args, **kwargs):
        if os.environ.get("PHASE") == "sync":  # held up, as a rate-limited sync can be
            print("syncing", flush=True)
            await asyncio.sleep(3600)
        return []


    async def connect(self, *args, **kwargs):
        svc = self.services.campaigns
        info = await svc.create_campaign(GUILD, CHANNEL, GM, "coral-sea", pace(), seed="stop")
        await svc.join(info.id, JAP, "japanese")
        await svc.join(info.id, ALL, "allied")
        await svc.start(info.id, GM)
        panel = await svc.panel(info.id, JAP)
        for decision in panel.decisions:
            await svc.draft(info.id, JAP, panel.round_id, decision.field, decision.default)
        if os.environ.get("ODDS") == "1":  # a preview first: the worker processes run
            from bot import odds

            assert await asyncio.to_thread(odds._spread, abs, [-1, -2, -3]) == [1, 2, 3]
        print(f"campaign {info.id}", flush=True)
        # The commander's click, handled in a task of its own as Discord's events are.
        clicks.append(asyncio.create_task(svc.lock(info.id, JAP, panel.round_id)))
        while not self.is_closed():
            await asyncio.sleep(0.05)


    clicks = []
    original_lock_side = bot.service.lock_side


    async def slow_lock_side(*args, **kwargs):
        # The operator stops the bot while the lock is being written: it goes on once the
        # test has sent its signals (the "release" file; a bound, should the test fail).
        print("locking", flush=True)
        for _ in range(1000):
            if os.path.exists("release"):
                break
            await asyncio.sleep(0.02)
        return await original_lock_side(*args, **kwargs)


    original_close = bot.runtime.Services.close


    async def close(self):
        await original_close(self)
        print("database closed", file=sys.stderr, flush=True)


    if __name__ == "__main__":  # a worker process imports this file too
        answer_login()
        discord.app_commands.CommandTree.sync = sync
        discord.Client.connect = connect
        bot.runtime.Services.close = close
        bot.service.lock_side = slow_lock_side
        sys.argv = ["python -m bot", "run"]
        runpy.run_module("bot", run_name="__main__", alter_sys=True)
"""


def _start(command: list[str], cwd: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        command,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a process group of its own, as a service or a terminal
        preexec_fn=operator_signals,
    )


def _stop(
    process: subprocess.Popen[str], stop: str, *, times: int = 1, then: Path | None = None
) -> tuple[str, str]:
    """Send ``stop`` to the process group (``times`` over, a moment apart), then create
    ``then``; what the process then wrote on stdout and stderr."""
    try:
        for _ in range(times):
            os.killpg(process.pid, getattr(signal, stop))
            time.sleep(0.3)  # each signal seen apart, as an impatient operator sends them
        if then is not None:
            then.touch()
        try:
            return process.communicate(timeout=PROMPTLY)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running {PROMPTLY}s after {stop}")
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _said_only(stderr: str, *lines: str) -> None:
    """The stop is told in these lines, in this order, once each, and no traceback."""
    assert "Traceback" not in stderr, stderr
    assert "KeyboardInterrupt" not in stderr, stderr
    at = -1
    for line in lines:
        assert stderr.count(line) == 1, stderr
        assert stderr.index(line) > at, stderr
        at = stderr.index(line)


@pytest.mark.parametrize("odds_workers", [False, True], ids=["plain", "odds-workers"])
@pytest.mark.parametrize("stop", STOPS)
async def test_a_signal_stops_the_bot_cleanly_keeping_the_lock_being_written(
    tmp_path: Path, stop: str, odds_workers: bool
) -> None:
    program = tmp_path / "program.py"
    program.write_text(textwrap.dedent(BOT), encoding="utf-8")
    env = child_environment(tmp_path, ODDS="1" if odds_workers else "0", SORTIE_ODDS_WORKERS="2")
    bot = _start([sys.executable, str(program)], tmp_path, env)
    assert bot.stdout is not None
    started, locking = bot.stdout.readline(), bot.stdout.readline()
    if not started.startswith("campaign ") or locking != "locking\n":
        os.killpg(bot.pid, signal.SIGKILL)
        pytest.fail(f"the campaign did not get to a lock: {bot.communicate()[1]}")
    campaign = int(started.split()[1])
    # Ctrl-C pressed twice, as an operator who sees nothing happen at once does: the second
    # is told the stop is under way, and does not cut it short.
    twice = stop == "SIGINT"
    _, said = _stop(bot, stop, times=2 if twice else 1, then=tmp_path / "release")

    assert bot.returncode == 0, said
    # One line as the stop begins, one once it is over; between them, the clean close.
    again = [f"Sortie: still stopping ({stop}), after what is in progress..."] if twice else []
    began = f"Sortie: stopping ({stop})..."
    _said_only(said, began, *again, "database closed", "Sortie: stopped.")
    assert "leaked semaphore" not in said, said
    database = tmp_path / "data" / "sortie.db"
    assert not Path(f"{database}-wal").exists()  # every connection closed: SQLite tidied up

    # The next start finds the lock, and the announcements it queued still to be posted.
    services = await open_services(database, SystemClock())
    try:
        panel = await services.campaigns.panel(campaign, JAP)
        assert panel.locked
        async with services.repo.read() as tx:
            queued = [row for row in await tx.outbox(campaign) if row.status == "pending"]
        assert queued
    finally:
        await services.close()


@pytest.mark.parametrize("stop", STOPS)
def test_a_signal_while_the_bot_starts_closes_the_database_it_opened(
    tmp_path: Path, stop: str
) -> None:
    # The database is open and migrated, the command list is on its way to Discord.
    program = tmp_path / "program.py"
    program.write_text(textwrap.dedent(BOT), encoding="utf-8")
    bot = _start(
        [sys.executable, str(program)], tmp_path, child_environment(tmp_path, PHASE="sync")
    )
    assert bot.stdout is not None
    if bot.stdout.readline() != "syncing\n":
        os.killpg(bot.pid, signal.SIGKILL)
        pytest.fail(f"the bot did not get to its sync: {bot.communicate()[1]}")
    _, said = _stop(bot, stop)

    assert bot.returncode == 0, said
    _said_only(said, f"Sortie: stopping ({stop})...", "database closed", "Sortie: stopped.")
    assert not Path(f"{tmp_path / 'data' / 'sortie.db'}-wal").exists()


def test_under_nohup_a_closed_terminal_leaves_the_bot_running(tmp_path: Path) -> None:
    # ``nohup python -m bot`` is how one keeps the bot running after logging out.
    program = tmp_path / "program.py"
    program.write_text(textwrap.dedent(BOT), encoding="utf-8")
    env = child_environment(tmp_path, PHASE="sync")
    bot = _start(["nohup", sys.executable, str(program)], tmp_path, env)
    assert bot.stdout is not None
    if bot.stdout.readline() != "syncing\n":
        os.killpg(bot.pid, signal.SIGKILL)
        pytest.fail(f"the bot did not get to its sync: {bot.communicate()[1]}")
    os.killpg(bot.pid, signal.SIGHUP)
    time.sleep(1.0)
    running = bot.poll() is None
    _, said = _stop(bot, "SIGTERM")

    assert running, said
    assert "SIGHUP" not in said, said
    _said_only(said, "Sortie: stopping (SIGTERM)...", "database closed", "Sortie: stopped.")


def _demo_files(out: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in out.iterdir() if path.is_file()}


@pytest.mark.parametrize("stop", STOPS)
def test_an_interrupted_demo_says_so_and_leaves_its_files_as_they_are(
    tmp_path: Path, stop: str
) -> None:
    out = tmp_path / "demo-out"
    demo = _start(
        [sys.executable, "-m", "bot", "demo", "--out", str(out)],
        tmp_path,
        child_environment(tmp_path),
    )
    # Interrupted once it has written a few files: some images and the channel so far.
    deadline = time.monotonic() + PROMPTLY
    while not (out.is_dir() and len(list(out.glob("*.png"))) >= 2):
        if demo.poll() is not None or time.monotonic() > deadline:
            os.killpg(demo.pid, signal.SIGKILL)
            pytest.fail(f"the demo wrote no images: {demo.communicate()[1]}")
        time.sleep(0.05)
    printed, said = _stop(demo, stop)

    number = getattr(signal, stop).value
    assert demo.returncode == 128 + number, said
    written = _demo_files(out)
    assert "channel.md" in written and "export.json" not in written  # it did not finish
    _said_only(
        said,
        f"Sortie: demo stopped ({stop}) before the end of the campaign: "
        f"the {len(written)} files written so far in {out} are left as they are.",
    )
    assert said.count("\n") == 1, said  # nothing else
    assert "Demo written" not in printed
    assert not Path(f"{out / 'demo.db'}-wal").exists()  # the campaign's database was closed
    assert _demo_files(out) == written  # nothing touched them after the line

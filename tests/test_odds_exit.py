"""The odds previews' worker processes end with the bot, and leave nothing behind.

``python -m bot run`` runs here in a subprocess with Discord's login and gateway answered
without the network; the gateway session stands for a player asking for the odds, which
starts the worker processes. However the bot then ends (closed, crashed, stopped by
systemd's SIGTERM, by Ctrl-C or by a closed terminal's SIGHUP, each sent to the whole
process group as they are), its stderr carries no "leaked semaphore objects" warning and no
worker's traceback, and no worker is still running once the bot's close has returned.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.bot_process import PROMPTLY, child_environment, operator_signals

PROGRAM = """
    import asyncio
    import multiprocessing
    import os
    import runpy
    import sys

    import discord

    from tests.offline_discord import answer_login

    import bot.client


    async def sync(self, *args, **kwargs):
        return []


    async def connect(self, *args, **kwargs):
        from bot import odds

        assert await asyncio.to_thread(odds._spread, abs, [-1, -2, -3]) == [1, 2, 3]
        assert odds._workers is not None and not odds._broken  # it did use the processes
        print("previewed", flush=True)
        if os.environ["ENDING"] == "crash":
            raise RuntimeError("injected fault after a preview")
        while os.environ["ENDING"] != "close" and not self.is_closed():
            await asyncio.sleep(0.05)


    original_close = bot.client.SortieBot.close


    async def close(self):
        await original_close(self)
        alive = len(multiprocessing.active_children())
        print(f"workers alive after close: {alive}", file=sys.stderr, flush=True)


    if __name__ == "__main__":  # a worker process imports this file too
        answer_login()
        discord.app_commands.CommandTree.sync = sync
        discord.Client.connect = connect
        bot.client.SortieBot.close = close
        sys.argv = ["python -m bot", "run"]
        runpy.run_module("bot", run_name="__main__", alter_sys=True)
"""


@pytest.mark.parametrize("ending", ["close", "crash", "SIGTERM", "SIGINT", "SIGHUP"])
def test_the_odds_workers_end_with_the_bot_leaving_nothing(tmp_path: Path, ending: str) -> None:
    program = tmp_path / "program.py"
    program.write_text(textwrap.dedent(PROGRAM), encoding="utf-8")
    env = child_environment(tmp_path, SORTIE_ODDS_WORKERS="2", ENDING=ending)
    bot = subprocess.Popen(
        [sys.executable, str(program)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a process group of its own, as a service or a terminal
        preexec_fn=operator_signals,
    )
    try:
        assert bot.stdout is not None
        if bot.stdout.readline() != "previewed\n":
            pytest.fail(f"no preview: {bot.communicate(timeout=PROMPTLY)[1]}")
        if ending.startswith("SIG"):
            os.killpg(bot.pid, getattr(signal, ending))
        _, said = bot.communicate(timeout=PROMPTLY)
    finally:
        if bot.poll() is None:
            os.killpg(bot.pid, signal.SIGKILL)
            bot.wait()
    assert "leaked semaphore" not in said, said
    assert "ForkServerProcess" not in said, said  # a worker's own traceback
    assert "workers alive after close: 0" in said, said
    if ending == "crash":
        assert bot.returncode == 1
        assert "Sortie stopped on an unexpected error (RuntimeError: injected fault" in said
    else:  # closed, or stopped as asked (tests/test_graceful_stop_signals.py)
        assert bot.returncode == 0, said
        assert "Traceback" not in said, said

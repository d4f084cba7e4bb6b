"""The workers' fork server is forked from the bot at start-up (``bot.processes.share_start_up``).

A fork server started as a new interpreter built its own copy of every game's rules,
presenters and words, and the bot held a second: with 1,000 campaigns the fork server and
its workers held 88 MiB between them at rest (issue 29, ``bench/memory.py``). Forked from
the bot, they map the bot's own pages. What is checked, in a fresh interpreter started as
``python -m bot`` starts (the fork server is one per process): the worker's registry is the
one the bot built, the bot's memory is shared with its workers (counted in bytes), a
picture drawn by the worker is the bytes drawn in the bot, and the server keeps nothing
the bot opened or handles (a socket, a SIGTERM handler).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]

# What the bot's process does before and after its start-up; prints what the test reads.
_BOT = """
import asyncio, json, os, signal, socket, sys
sys.path.insert(0, ROOT)
listening = socket.socket()  # opened before the start-up: not the fork server's
listening.bind(("127.0.0.1", 0))
listening.listen()
signal.signal(signal.SIGTERM, lambda *_: None)  # the bot's own: not the fork server's
from multiprocessing import forkserver
from bot import drawing, preload, processes
from tests.test_shared_start_up import ctrl_c_at_start, in_the_worker, picture_args
forked = processes.share_start_up()
bare = processes.fork_context().Pool(1)  # no initializer: what a worker has from its start
ignores_ctrl_c = bare.apply(ctrl_c_at_start)
bare.terminate()
bare.join()
drawing.warm_up()
worker = drawing._pool.submit(in_the_worker).result(60)
plugin = preload.registry().get("carrier")
args = picture_args(plugin)
drawn_there = asyncio.run(drawing.draw(plugin, "status_board", *args))
server = forkserver._forkserver._forkserver_pid
def rollup(pid):
    out = {}
    for row in open(f"/proc/{pid}/smaps_rollup").read().splitlines()[1:]:
        name, _, rest = row.partition(":")
        out[name] = int(rest.split()[0]) * 1024
    return out
def caught(pid):
    for row in open(f"/proc/{pid}/status"):
        if row.startswith("SigCgt:"):
            return int(row.split()[1], 16)
server_fds = [os.readlink(f"/proc/{server}/fd/{fd}") for fd in os.listdir(f"/proc/{server}/fd")]
print(json.dumps({
    "bot": os.getpid(),
    "forked": forked,
    "server": server,
    "server_parent": int(open(f"/proc/{server}/stat").read().rsplit(")", 1)[1].split()[1]),
    "worker": worker,
    "bot_memory": rollup(os.getpid()),
    "socket": f"socket:[{os.fstat(listening.fileno()).st_ino}]",
    "server_fds": server_fds,
    "server_catches_sigterm": bool(caught(server) & (1 << (signal.SIGTERM - 1))),
    "worker_ignores_ctrl_c": ignores_ctrl_c,
    "same_bytes": drawn_there == plugin.presenter.status_board(*args),
}))
# The server killed: the next pool's workers come from one multiprocessing starts again.
drawing.shut_down()
os.kill(server, signal.SIGKILL)
import time
while open(f"/proc/{server}/stat").read().rsplit(")", 1)[1].split()[0] != "Z":
    time.sleep(0.01)  # dead, left for multiprocessing to reap as it finds it so
drawing.warm_up()
again = drawing._pool.submit(in_the_worker).result(60)
print(json.dumps({
    "again": again,
    "server_again": forkserver._forkserver._forkserver_pid,
    "drawn_again": asyncio.run(drawing.draw(plugin, "status_board", *args)) == drawn_there,
}))
drawing.shut_down()
"""


def in_the_worker() -> dict[str, Any]:
    """In a worker: its pid and parent, and who built the registry it draws with."""
    from bot import preload

    preload.registry()
    return {"pid": os.getpid(), "parent": os.getppid(), "built_by": preload.built_by}


def ctrl_c_at_start() -> bool:
    """In a worker no initializer touched: whether Ctrl-C is ignored there already."""
    import signal

    return signal.getsignal(signal.SIGINT) is signal.SIG_IGN


def picture_args(plugin: Any) -> tuple[Any, ...]:
    """A carrier status board's arguments: a recorded game after a few rounds, public."""
    from bot import secrecy
    from engine.rng import Rng
    from tests.golden_rulesets import load

    game = next(g for g in load() if g["ruleset"] == "carrier")
    rules, seed = plugin.rules, f"golden-{game['seed']}"
    state = rules.new(game["scenario"], seed)
    for recorded in game["rounds"][:4]:
        progress = rules.progress(state)
        state, _ = rules.resolve(
            state, recorded["choices"], Rng(seed, progress.turn, progress.round)
        )
    public = secrecy.view_for(rules, state, secrecy.Viewer.public())
    return (public, {rules.side_ids[0]: True}, "2026-01-02 12:00 UTC", "en")


@pytest.fixture(scope="module")
def started() -> dict[str, Any]:
    """The bot's start-up run once, in a fresh interpreter; what it saw."""
    environment = {**os.environ, "SORTIE_DRAW_WORKERS": "1", "SORTIE_RESOLVE_WORKERS": "0"}
    code = f"ROOT = {str(ROOT)!r}\n{_BOT}"
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=180,
        env=environment,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    first, then = done.stdout.strip().splitlines()[-2:]
    out: dict[str, Any] = {**json.loads(first), **json.loads(then)}
    return out


def test_the_workers_share_the_bots_own_start_up(started: dict[str, Any]) -> None:
    # The server is the bot's own child, and the worker the server's.
    assert started["forked"] == started["server"]
    assert started["server_parent"] == started["bot"]
    assert started["worker"]["parent"] == started["server"]
    # The worker draws with the registry the bot built, not one of its own or the server's.
    assert started["worker"]["built_by"] == started["bot"]
    # Counted: the bot's anonymous memory (its heap, the objects start-up built) is mapped
    # by the server and the worker too. A server of its own shares none of it.
    memory = started["bot_memory"]
    shared = memory["Anonymous"] - memory["Pss_Anon"]
    assert shared > 12 * 1024 * 1024, f"{shared / 2**20:.1f} MiB of the bot's memory shared"
    # The same picture either way.
    assert started["same_bytes"]


def test_the_fork_server_keeps_nothing_the_bot_opened_or_handles(
    started: dict[str, Any],
) -> None:
    sockets = [fd for fd in started["server_fds"] if fd.startswith("socket:")]
    assert started["socket"] not in sockets
    assert len(sockets) == 1  # its own: where the pools ask it for a worker
    assert not started["server_catches_sigterm"]  # SIGTERM ends it, as any process
    # Ctrl-C ignored in a worker from its first instruction, before any initializer: a
    # second Ctrl-C while a worker was being forked printed a KeyboardInterrupt traceback.
    assert started["worker_ignores_ctrl_c"]


def test_a_killed_fork_server_is_started_again_and_draws_the_same(
    started: dict[str, Any],
) -> None:
    again = started["again"]
    assert started["server_again"] not in (None, started["server"])
    assert again["parent"] == started["server_again"]
    assert again["built_by"] == again["pid"]  # a new interpreter: it builds its own
    assert started["drawn_again"]

"""The open loop with its load generator in another process than the bot it loads.

``bench/capacity.py`` ran the calls' arrivals, their timing and the bot's service in one
process: the generator's own work (its timers, its tasks, the bookkeeping of every call)
took CPU and event-loop turns from the bot it measured, and a worker process (the
resolver's) competed with both for the machine's two cores. With ``--apart``, each rate
starts the bot under test in a fresh process of its own (``serve``): its service on a
fresh copy of the set-up file, its GC policy, its start-up freeze and its worker processes
as ``python -m bot`` makes them, the same campaigns and actors. The generator (this
process) sends each call over a Unix socket as a line (a call's number and its campaign's
index) and times it from its scheduled arrival to the answer's line, as the Discord
gateway would deliver an interaction and a player wait for the answer: one round trip of
a local socket (tens of microseconds) on top of the bot's work.

The bot's process reports, per rate: its CPU over the calls (``time.process_time``), the
resolving processes' CPU (``bot.resolver``), its full collections' pauses, its peak RSS,
and the share of the run its write lock was held, in all and by group commits (what a
write queues behind: ``SqliteRepository.lock_held``); the generator's own CPU is printed
beside them, apart.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import pickle
import random
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.load import Actor

ROOT = Path(__file__).resolve().parents[1]


def save_actors(template: list[Actor], path: Path) -> None:
    """What each actor knows (no asyncio lock, no random state), for the bot's process."""
    rows = [(a.campaign_id, a.users, a.side, a.panel) for a in template]
    path.write_bytes(pickle.dumps(rows))


def _actors(path: Path) -> list[Actor]:
    return [
        Actor(cid, users, random.Random(cid), side=side, panel=panel, status_after_resolve=True)
        for cid, users, side, panel in pickle.loads(path.read_bytes())
    ]


# ------------------------------------------------------------------- the bot's process


async def _serve(folder: str, name: str, actors_path: str, address: str) -> None:
    from bench.common import resolver_cpu, rss_mib
    from bench.rounds import cold
    from bench.service import _full_pause_probe, _open
    from bot import collector, resolver
    from bot.runtime import freeze_start_up

    actors = _actors(Path(actors_path))
    async with _open(folder, name, len(actors)) as (repo, svc):
        # As the bot's start-up: its workers started, what start-up made frozen, the GC
        # policy installed (``bot.client``, ``bot.commands.run_bot``).
        await asyncio.to_thread(resolver.warm_up)
        freeze_start_up()
        collector.install()
        cold()
        pauses: list[float] = []
        gc.callbacks.append(_full_pause_probe(pauses))
        finished = asyncio.Event()
        marks: dict[str, float] = {}

        async def one(writer: asyncio.StreamWriter, ident: bytes, index: int) -> None:
            actor = actors[index]
            try:
                async with actor.busy:
                    kind = await actor.step(svc)
            except Exception as error:  # counted, and the generator is not left waiting
                print(f"bot under test: {error!r}", file=sys.stderr)
                kind = "failed"
            writer.write(ident + b" " + kind.encode() + b"\n")

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            tasks: set[asyncio.Task[None]] = set()
            marks["cpu"], marks["resolver"] = time.process_time(), resolver_cpu()
            marks["wall"] = time.perf_counter()
            marks["held"], marks["commits"] = repo.lock_held()
            while line := await reader.readline():
                ident, _, index = line.strip().partition(b" ")
                if ident == b"end":
                    break
                task = asyncio.create_task(one(writer, ident, int(index)))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
            if tasks:
                await asyncio.gather(*tasks)
            await svc.settle()  # the follow-up work the last resolutions started
            cpu = time.process_time() - marks["cpu"]
            held, commits = repo.lock_held()
            wall = time.perf_counter() - marks["wall"]
            stats = {
                # The share of the run the write lock was held, in all and by group commits.
                "lock_held": (held - marks["held"]) / wall,
                "commits_held": (commits - marks["commits"]) / wall,
                "cpu": cpu,
                "resolver_cpu": resolver_cpu() - marks["resolver"],
                "resolvers": resolver.workers(),
                "pauses": pauses,
                "rss_peak": rss_mib()[1],
            }
            writer.write(json.dumps(stats).encode() + b"\n")
            await writer.drain()
            writer.close()
            finished.set()

        server = await asyncio.start_unix_server(handle, address)
        print("ready", flush=True)
        async with server:
            await finished.wait()
    resolver.shut_down()


def serve(argv: list[str]) -> None:
    """The bot's process: ``folder name actors address``."""
    asyncio.run(_serve(*argv))


# ------------------------------------------------------------------- the generator


@dataclass
class ApartResult:
    rate: float
    latencies: dict[str, list[float]] = field(default_factory=dict)
    # (seconds from the first arrival to this call's, latency) of every call: whether the
    # tail sits in the first seconds, while every campaign's caches are still cold.
    arrivals: list[tuple[float, float]] = field(default_factory=list)
    wall: float = 0.0
    saturated: bool = False
    generator_cpu: float = 0.0
    bot: dict[str, Any] = field(default_factory=dict)

    def all(self) -> list[float]:
        return [x for values in self.latencies.values() for x in values]


async def open_loop_apart(
    folder: str,
    template: list[Actor],
    rate: float,
    calls: int,
    *,
    seed: int,
    environment: dict[str, str],
    give_up_after: float = 5.0,
) -> ApartResult:
    """``calls`` calls at ``rate``/s (Poisson) on random campaigns with none in flight, to a
    bot started for this rate in a process of its own on a fresh copy of the set-up."""
    name = f"apart-{rate:g}.db"
    shutil.copyfile(Path(folder) / "setup.db", Path(folder) / name)
    actors_path = Path(folder) / "actors.pickle"
    save_actors(template, actors_path)
    address = str(Path(folder) / "bot.sock")
    Path(address).unlink(missing_ok=True)
    code = f"import sys; sys.path.insert(0, {str(ROOT)!r}); from bench.apart import serve"
    command = [sys.executable, "-c", f"{code}; serve(sys.argv[1:])"]
    bot = subprocess.Popen(
        [*command, folder, name, str(actors_path), address],
        env={**os.environ, **environment},
        stdout=subprocess.PIPE,
        text=True,
    )
    result = ApartResult(rate)
    try:
        assert bot.stdout is not None
        ready = await asyncio.to_thread(bot.stdout.readline)
        if ready.strip() != "ready":
            raise RuntimeError(f"the bot under test did not start: {ready!r}")
        reader, writer = await asyncio.open_unix_connection(address)
        await _drive(reader, writer, template, rate, calls, seed, give_up_after, result)
        writer.write(b"end\n")
        await writer.drain()
        result.bot = json.loads(await reader.readline())
        writer.close()
    finally:
        await asyncio.to_thread(bot.wait, 60)
        (Path(folder) / name).unlink(missing_ok=True)
    return result


async def _drive(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    template: list[Actor],
    rate: float,
    calls: int,
    seed: int,
    give_up_after: float,
    result: ApartResult,
) -> None:
    rng = random.Random(seed)
    count = len(template)
    in_flight: dict[int, tuple[int, float]] = {}  # call number -> (campaign index, due)
    busy: set[int] = set()
    finished: set[int] = set()
    answered = asyncio.Event()

    async def answers() -> None:
        while line := await reader.readline():
            ident, _, kind = line.decode().strip().partition(" ")
            index, due = in_flight.pop(int(ident))
            busy.discard(index)
            if kind == "over":
                finished.add(index)
            result.latencies.setdefault(kind, []).append(time.perf_counter() - due)
            result.arrivals.append((due - start, time.perf_counter() - due))
            if not in_flight:
                answered.set()

    def pick() -> int | None:
        for _ in range(32):
            index = rng.randrange(count)
            if index not in busy and index not in finished:
                return index
        live = [i for i in range(count) if i not in finished and i not in busy]
        return rng.choice(live) if live else None

    cpu = time.process_time()
    start = due = time.perf_counter()
    listening = asyncio.create_task(answers())
    for number in range(calls):
        due += rng.expovariate(rate)
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        if (
            in_flight
            and time.perf_counter() - min(d for _, d in in_flight.values()) > give_up_after
        ):
            result.saturated = True
            break
        index = pick()
        if index is None:
            continue
        busy.add(index)
        in_flight[number] = (index, due)
        answered.clear()
        writer.write(f"{number} {index}\n".encode())
    if in_flight:
        await answered.wait()
    result.wall = time.perf_counter() - start
    result.generator_cpu = time.process_time() - cpu
    listening.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await listening  # the socket's reader is free for the bot's figures

"""Memory with many campaigns late in their game: the bot's processes against the caches'
estimate.

    python bench/memory.py [--campaigns 1000] [--draw-workers N] [--trace] [--keep setup.db]
                           [--seeds 3] [--fresh] [--own-fork-server] [--no-heap-trim] [--pages]

Set-up (untimed, a minute; skipped when ``--keep`` names a file already set up): copies
of campaigns played once through the service (``bench/clone.py``, the capacity
benchmark's stages, cached under ``~/.cache/sortie-bench``), each standing at the opening
of a round drawn from 8 to 20, capped below its scenario's end: carrier (Coral Sea,
Midway), land (Malaya) and Wings (1917) in turn. Then, in a fresh process (``--phase
measure``, run by this script), as a bot serving them would: the bot's start-up (its
drawing and resolving processes started, their presenters and rules built,
``freeze_start_up``, the tuned collector), then every commander's panel of every campaign
(its round's decisions, its side's view, what a click needs), then each commander drafts
what is missing and locks: the second Lock resolves the round, and the next round's
decisions, views and pictures (the round message's board in each lock state, each side's
order panel) are worked out ahead, the pictures drawn in the drawing processes
(``bot/drawing.py``) and kept in the main process's board cache.

The measured process starts as ``python -m bot run`` does: its workers' fork server
and multiprocessing's resource tracker forked from it once the games' rules, presenters
and words are built (``bot.processes.share_start_up``); ``--own-fork-server`` starts them
as new interpreters instead, as before session 16.

Prints, after start-up, after the panels and after the Locks, for the main process and
each of its descendants (drawing workers, the resolving process, their fork server,
multiprocessing's resource tracker; an odds process too, if one was started): RSS (which
counts a page shared between processes in each of them), PSS (a shared page's cost split
between its sharers: the sum over processes is the footprint) and USS (pages only that
process maps), from ``/proc/<pid>/smaps_rollup``, and again 2.5 s later, the workers
idle and the bot's own C heap given back once quiet (``bot.heap``; ``--no-heap-trim``
keeps it, as before); the peaks seen while the workers draw (sampled every 0.2 s) and each
process's own peak RSS (``VmHWM``); then again after the collector's review of its frozen objects
(``bot.collector``), which writes into start-up's objects and so copies their pages into
the bot's process. Then what the caches estimate they hold (parsed states and engine
results, ``SORTIE_CACHE_MB``'s budget; the board cache's PNG bytes) and, with
``--trace``, in another fresh process, the bytes tracemalloc sees them actually hold (the
drop when each is emptied; tracemalloc slows the calls and adds its own memory, so the
footprint is read from the run without it). ``--pages``: at rest, every physical page of
the bot's processes counted once, under the processes that hold it (``bench/pages.py``).

Counted, never timed. **Leaves out**: Discord (discord.py keeps no message cache,
``max_messages=None``; the gateway's own buffers are not here), the odds preview's
process (started on demand, stopped when idle: ``bot/odds.py``), the pictures a player's
click draws beyond those drawn ahead (a panel with drafts in it, a strike report).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from multiprocessing import forkserver, resource_tracker

from bench.clone import cached_stages, place
from bench.common import machine
from bench.service import _open
from bot import boards, drawing, heap, processes, resolver, service_states
from bot.service_cache import budget_bytes
from bot.service_model import ServiceError

RSS_TARGET_MB = 200.0
ROUNDS = (8, 20)
MIB = 1024 * 1024


async def set_up(folder: str, path: Path, count: int, seeds: int, fresh: bool) -> None:
    stages, how = await cached_stages(folder, seeds, 20, fresh)
    async with _open(str(path.parent), path.name, 1):
        pass  # the schema, migrated as the service makes it
    try:
        placed = place(stages, path, count, random.Random(8), ROUNDS)
    finally:
        stages.close()
    print(f"set-up: {count} campaigns ({how}); the round they stand at: {placed.spread()}")


@dataclass(frozen=True)
class Usage:
    """One process's memory (KiB): resident, proportional (shared pages split between their
    sharers) and unique (pages no other process maps), and its peak resident."""

    pid: int
    role: str
    rss: int
    pss: int
    uss: int
    peak_rss: int


def _read(path: str) -> str:
    try:
        with open(path) as file:
            return file.read()
    except OSError:
        return ""


def _fields(text: str) -> dict[str, int]:
    out = {}
    for row in text.splitlines():
        name, _, rest = row.partition(":")
        parts = rest.split()
        if len(parts) == 2 and parts[1] == "kB":
            out[name] = int(parts[0])
    return out


def _children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        out += [int(child) for child in _read(f"{task}/children").split()]
    return out


def _role(pid: int, parent_role: str) -> str:
    command = _read(f"/proc/{pid}/cmdline").replace("\0", " ")
    if parent_role == "main":
        for word in ("resource_tracker", "forkserver"):
            if word in command:
                return word.replace("_", " ")
        # Those forked from the bot (``bot.processes.share_start_up``) have the bot's command.
        if pid == resource_tracker._resource_tracker._pid:  # type: ignore[attr-defined]
            return "resource tracker"
        return "forkserver" if pid == forkserver._forkserver._forkserver_pid else "child"
    if parent_role == "forkserver":
        # The fork server starts both pools' processes: the resolver knows its own.
        return "resolver" if pid in resolver.pids() else "worker"
    return f"{parent_role}'s child"


def footprint() -> list[Usage]:
    """This process and every descendant, main first."""
    out: list[Usage] = []
    queue = [(os.getpid(), "main")]
    while queue:
        pid, role = queue.pop(0)
        rollup = _fields(_read(f"/proc/{pid}/smaps_rollup"))
        status = _fields(_read(f"/proc/{pid}/status"))
        if rollup:
            uss = rollup.get("Private_Clean", 0) + rollup.get("Private_Dirty", 0)
            out.append(Usage(pid, role, rollup["Rss"], rollup["Pss"], uss, status.get("VmHWM", 0)))
        queue += [(child, _role(child, role)) for child in _children(pid)]
    return out


class Peaks:
    """The highest sums over the bot's processes seen while it works, sampled in a thread."""

    def __init__(self, every: float = 0.2) -> None:
        self.every = every
        self.pss = self.rss = self.uss = self.workers_pss = 0
        self.samples = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Peaks:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            usage = footprint()
            self.samples += 1
            self.pss = max(self.pss, sum(u.pss for u in usage))
            self.rss = max(self.rss, sum(u.rss for u in usage))
            self.uss = max(self.uss, sum(u.uss for u in usage))
            drawn = sum(u.pss for u in usage if u.role == "worker")
            self.workers_pss = max(self.workers_pss, drawn)


def _mib(kib: int) -> str:
    return f"{kib / 1024:.0f}"


def report(when: str, usage: list[Usage]) -> None:
    rss, pss, uss = (sum(getattr(u, f) for u in usage) for f in ("rss", "pss", "uss"))
    main = usage[0]
    print(
        f"{when}: main RSS {_mib(main.rss)} MiB (PSS {_mib(main.pss)}, USS {_mib(main.uss)}); "
        f"all {len(usage)} processes PSS {_mib(pss)} MiB = {pss * 1.024 / 1000:.0f} MB "
        f"(USS {_mib(uss)}, RSS summed {_mib(rss)}, counting shared pages once per process)"
    )
    for u in usage[1:]:
        print(
            f"    {u.role:<16} pid {u.pid}: RSS {_mib(u.rss)} MiB, PSS {_mib(u.pss)}, "
            f"USS {_mib(u.uss)}, peak RSS {_mib(u.peak_rss)}"
        )


def caches() -> tuple[float, float, float, int, int, int]:
    """The caches' estimates (MiB): parsed states, engine results, boards' PNG bytes; their
    entries."""
    states, memo = service_states._states._items, service_states._memo._items
    drawn = boards.boards
    return (
        states.used / MIB,
        memo.used / MIB,
        drawn._bytes / MIB,
        len(states),
        len(memo),
        len(drawn),
    )


async def _commanders(repo: object) -> dict[int, list[int]]:
    async with repo.read() as tx:  # type: ignore[attr-defined]
        rows = await tx.raw.execute_fetchall(
            "SELECT campaign_id, user_id FROM players WHERE commander ORDER BY campaign_id"
        )
    campaigns: dict[int, list[int]] = {}
    for campaign_id, user_id in rows:
        campaigns.setdefault(campaign_id, []).append(user_id)
    return campaigns


async def _each_commander(
    campaigns: dict[int, list[int]], act: Callable[[int, int], Awaitable[bool]]
) -> int:
    """``act`` for every commander of every campaign in turn; how many did something (a
    refusal, such as a campaign over, counts as nothing)."""
    done = 0
    for campaign_id, users in campaigns.items():
        for user in users:
            try:
                done += await act(campaign_id, user)
            except ServiceError:
                continue
    return done


async def _panel(svc: Any, campaign_id: int, user: int) -> bool:
    await svc.panel(campaign_id, user)
    return True


async def _lock(svc: Any, campaign_id: int, user: int) -> bool:
    """The side's missing orders drafted (each field's first option), then its Lock."""
    panel = await svc.panel(campaign_id, user)
    for field in panel.missing:
        option = next(d for d in panel.decisions if d.field == field).options[0]
        panel = await svc.draft(campaign_id, user, panel.round_id, field, option.id)
    if not panel.decisions or panel.locked:
        return False
    await svc.lock(campaign_id, user, panel.round_id)
    return True


async def measure(path: Path, trace: bool, trim_heap: bool = True, pages: bool = False) -> None:
    import tracemalloc

    from bot import collector
    from bot.runtime import freeze_start_up

    async with _open(str(path.parent), path.name, 1) as (repo, svc):
        # As the bot's start-up does (``bot.client``, ``bot.commands.run_bot``).
        collector.install()
        trimmer = heap.install() if trim_heap else None
        if drawing.in_workers():
            drawing.warm_up()
            svc.draws_ahead = True
        resolver.warm_up()
        freeze_start_up()
        started = footprint()
        if trace:
            tracemalloc.start()
        campaigns = await _commanders(repo)
        calls = await _each_commander(campaigns, lambda cid, user: _panel(svc, cid, user))
        await svc.settle()
        gc.collect()
        panels = footprint()
        # Then each commander drafts what is missing and locks: the second lock resolves the
        # round, and the next round's decisions, views and pictures are worked out ahead.
        with Peaks() as peaks:
            locks = await _each_commander(campaigns, lambda cid, user: _lock(svc, cid, user))
            await svc.settle()
            gc.collect()
        locked = footprint()
        # The workers idle give their heap back (``bot.drawing``), and so does the bot's
        # process once quiet (``bot.heap``: no collection for a whole check period).
        await asyncio.sleep(2 * heap.QUIET + 0.5)
        rested = footprint()
        if pages:  # in a process of its own, gone before the next footprint
            holders = [f"{u.pid}={u.role}" for u in rested]
            subprocess.run([sys.executable, str(Path(__file__).with_name("pages.py")), *holders])
        # What the C allocator keeps free in the bot's own process: the heap given back.
        trimmed = rested
        trim = heap.heap_trimmer()
        if trim is not None:
            trim()
            trimmed = footprint()
        # The collector's review (``bot.collector``: once per 20 million objects frozen, every
        # 12 minutes or so at 500 calls/s) walks every frozen object, start-up's too: what
        # it writes into them is copied into the bot's process, no more shared.
        reviewer = collector.install()
        reviewer.review()
        reviewed = footprint()
        states, memo, drawn, n_states, n_memo, n_drawn = caches()
        workers = sum(1 for u in locked if u.role == "worker")
        print(
            f"{len(campaigns)} campaigns: {calls} panels (every commander's), then {locks} "
            f"Locks (each side's missing orders drafted first); cache budget "
            f"{budget_bytes(1) / 2**20:g} MiB; {workers} drawing processes"
        )
        print(
            f"caches estimate {states + memo:.1f} MiB: parsed states {states:.1f} MiB "
            f"({n_states} entries), engine results {memo:.1f} MiB ({n_memo} entries); "
            f"board cache {drawn:.1f} MiB of PNG ({n_drawn} pictures)"
        )
        if trace:
            _freed(tracemalloc, states, memo, drawn)
            return
        report("after start-up", started)
        report("after the panels", panels)
        report("after the Locks", locked)
        report("2.5 s later (the workers idle, the bot quiet)", rested)
        trims = "off (--no-heap-trim)" if trimmer is None else f"{trimmer.trims} trims"
        print(
            f"the bot's process, its C heap given back once quiet (bot.heap: {trims}): PSS "
            f"{_mib(rested[0].pss)} MiB; trimmed once more now: {_mib(trimmed[0].pss)}"
        )
        report("after the collector's review of its frozen objects", reviewed)
        main = locked[0]
        print(
            f"while the Locks resolved and the workers drew ({peaks.samples} samples): peak "
            f"PSS of all processes {_mib(peaks.pss)} MiB (the workers' {_mib(peaks.workers_pss)}"
            f"), peak USS {_mib(peaks.uss)}, peak RSS summed {_mib(peaks.rss)}"
        )
        main_mb, whole_mb = main.peak_rss * 1.024 / 1000, peaks.pss * 1.024 / 1000
        rest_mb = sum(u.pss for u in rested) * 1.024 / 1000
        reviewed_mb = sum(u.pss for u in reviewed) * 1.024 / 1000
        print(
            f"target RSS <= {RSS_TARGET_MB:.0f} MB: the bot's process peak RSS {main_mb:.0f} MB "
            f"({'meets' if main_mb <= RSS_TARGET_MB else 'MISSES'}); the whole bot, PSS at "
            f"rest {rest_mb:.0f} MB ({'meets' if rest_mb <= RSS_TARGET_MB else 'MISSES'}), "
            f"peak {whole_mb:.0f} MB ({'meets' if whole_mb <= RSS_TARGET_MB else 'MISSES'}), "
            f"after a review {reviewed_mb:.0f} MB; "
            f"load average {os.getloadavg()[0]:.1f}"
        )


def _freed(tracemalloc: object, states: float, memo: float, drawn: float) -> None:
    """Empty each cache in turn and print what tracemalloc saw go, beside its estimate; then
    what is still traced, and what the collector's frozen objects kept."""
    traced = tracemalloc.get_traced_memory  # type: ignore[attr-defined]
    # The board cache last: what it frees then is its PNGs and the views only it still holds.
    emptied = (
        ("engine results", memo, service_states._memo._items.clear),
        ("parsed states", states, service_states._states._items.clear),
        ("board cache", drawn, boards.boards._items.clear),
    )
    held = start = traced()[0]
    parts = []
    for name, estimate, clear in emptied:
        clear()
        gc.collect()
        now = traced()[0]
        freed, held = (held - now) / MIB, now
        ratio = f"x{estimate / freed:.2f}" if freed > 0 else "-"
        parts.append((name, estimate, freed))
        print(f"  emptying the {name} freed {freed:.1f} MiB (its estimate {estimate:.1f}: {ratio})")
    frozen = gc.get_freeze_count()
    gc.unfreeze()
    gc.collect()
    thawed = (held - traced()[0]) / MIB
    print(
        f"  traced before {start / MIB:.1f} MiB, after the caches {held / MIB:.1f}; unfreezing "
        f"the collector's {frozen} frozen objects and collecting freed {thawed:.1f} more"
    )
    tracemalloc.stop()  # type: ignore[attr-defined]
    service = [(e, f) for n, e, f in parts if n != "board cache"]
    estimate, freed = sum(e for e, _ in service), sum(f for _, f in service)
    print(
        f"tracemalloc: the service's caches estimate x{estimate / freed:.2f} of what emptying "
        f"them freed ({estimate:.1f} MiB estimated, {freed:.1f} freed)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=1000)
    parser.add_argument("--keep", help="the set-up's file: reused when it exists")
    parser.add_argument("--trace", action="store_true", help="also the caches' bytes, traced")
    parser.add_argument(
        "--draw-workers",
        type=int,
        default=-1,
        help="drawing processes (SORTIE_DRAW_WORKERS): as the bot, one per core, unless set",
    )
    parser.add_argument("--seeds", type=int, default=3, help="campaigns played per scenario")
    parser.add_argument("--fresh", action="store_true", help="play the stages again")
    parser.add_argument("--phase", choices=("all", "measure"), default="all")
    parser.add_argument("--quick", action="store_true", help="smoke run: 8 campaigns")
    parser.add_argument(
        "--own-fork-server",
        action="store_true",
        help="the workers' fork server a new interpreter, as before session 16",
    )
    parser.add_argument(
        "--no-heap-trim",
        action="store_true",
        help="the bot's C heap not given back once quiet (bot.heap), as before session 17",
    )
    parser.add_argument(
        "--pages",
        action="store_true",
        help="at rest, who holds each physical page (bench/pages.py; needs root)",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.campaigns, args.seeds = 8, 1
    if args.phase == "measure":
        if not args.own_fork_server:
            # As ``python -m bot`` starts: what the workers need built here, the fork server
            # forked from this process before anything is opened (``bot.processes.share_start_up``).
            processes.share_start_up()
        asyncio.run(measure(Path(args.keep), args.trace, not args.no_heap_trim, args.pages))
        return 0
    print(f"machine: {machine()}")
    env = dict(os.environ)
    if args.draw_workers >= 0:
        env["SORTIE_DRAW_WORKERS"] = str(args.draw_workers)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(args.keep) if args.keep else Path(folder) / "memory.db"
        if not path.exists():
            asyncio.run(set_up(folder, path.resolve(), args.campaigns, args.seeds, args.fresh))
        for trace in (False, True) if args.trace else (False,):
            # A fresh process each (the set-up's own memory is not the bot's), on a copy (the
            # Locks move the campaigns on: the kept set-up stays as it was).
            copy = Path(folder) / "measured.db"
            for suffix in ("", "-wal"):
                if Path(f"{path}{suffix}").exists():
                    shutil.copyfile(f"{path}{suffix}", f"{copy}{suffix}")
            # Started from ``-c``, as ``python -m bot`` starts the bot, so its worker processes
            # import no main module: started from this file they would each import it, and
            # with it the benchmark's own modules (8 MiB a worker the bot does not have).
            root = str(Path(__file__).resolve().parents[1])
            start = f"import sys; sys.path.insert(0, {root!r}); from bench.memory import main"
            command = [
                sys.executable,
                "-c",
                f"{start}; raise SystemExit(main(sys.argv[1:]))",
                "--phase",
                "measure",
                "--keep",
                str(copy),
            ]
            flags = ["--trace"] if trace else []
            flags += ["--own-fork-server"] if args.own_fork_server else []
            flags += ["--no-heap-trim"] if args.no_heap_trim else []
            flags += ["--pages"] if args.pages and not trace else []
            subprocess.run([*command, *flags], check=True, env=env)
            for suffix in ("", "-wal", "-shm"):
                Path(f"{copy}{suffix}").unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

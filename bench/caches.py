"""What the service's caches hold, per game and kind of entry, beside what they charge.

    python bench/caches.py [--campaigns 1000] [--calls 3000] [--seeds 3] [--fresh]

Set-up as ``bench/capacity.py`` (copies of campaigns played once, at rounds 1 to 20:
carrier, land and Wings), then ``--calls`` players' calls one at a time on random
campaigns (panels, drafts, Locks, resolutions, ``/status``), rounds resolved in the bot's
thread. Then every entry of the parsed states' cache and of the engine results' cache is
walked (``gc.get_referents``, ``sys.getsizeof``), leaving out what existed before the
first call (modules, the games' data). An object reached from several entries (a turn's
records shared by a state and its views, decisions shared by campaigns) is split between
them ("fair"); "own" counts only the objects no other entry reaches, as evicting that
entry alone would free. Prints, per game and kind: entries, what the cache charges each
(``Rules.held``), fair and own bytes, the charge over the fair size, the objects each
owns and how many of those the garbage collector tracks; then the entries of snapshots a
campaign has moved past (superseded).

Counted, never timed. **Leaves out**: the board cache (``bench/memory.py`` reads it), the
caches' own bookkeeping (keys, links: a few hundred bytes an entry).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import sys
import tempfile
import time
import types
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("SORTIE_DRAW_WORKERS", "0")
os.environ.setdefault("SORTIE_RESOLVE_WORKERS", "0")  # one process: every object walked

from bench.clone import cached_stages, place
from bench.common import machine
from bench.load import Actor
from bench.rounds import cold
from bench.service import _open
from bot import service_states
from bot.service_cache import budget_bytes

SHARED_TYPES = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
)
KINDS = {0: "state, snapshot only", 1: "state, latest records", 2: "state, whole"}


def reachable(roots: list[Any], keep: list[Any]) -> set[int]:
    """Ids of every object reachable from ``roots``; the objects are appended to ``keep``
    so that no id is reused while the set is in use."""
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        keep.append(obj)
        stack.extend(gc.get_referents(obj))
    return seen


def walk(root: Any, skip: set[int]) -> list[Any]:
    """The objects reachable from ``root``, none of ``skip`` nor a type, module or function."""
    seen: set[int] = set()
    out: list[Any] = []
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or id(obj) in skip or isinstance(obj, SHARED_TYPES):
            continue
        seen.add(id(obj))
        out.append(obj)
        stack.extend(gc.get_referents(obj))
    return out


def entries(games: dict[int, str]) -> list[tuple[str, str, int, Any]]:
    """(game, kind, what the cache charges, value) for every entry of both caches."""
    out = []
    for key, (value, cost) in list(service_states._states._items._items.items()):
        out.append((games.get(key[1], "?"), KINDS[key[5]], cost, value[1]))
    for (key, part), (value, cost) in list(service_states._memo._items._items.items()):
        kind = "view, public" if part == "view:public" else part.split(":")[0]
        out.append((games.get(key[1], "?"), kind, cost, value[1]))
    return out


def report(rows: list[tuple[str, str, int, Any]], skip: set[int]) -> None:
    objects = [walk(value, skip) for *_rest, value in rows]
    reach: dict[int, int] = defaultdict(int)
    for found in objects:
        for obj in found:
            reach[id(obj)] += 1
    by: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0, 0.0, 0, 0, 0])
    for (game, kind, cost, _value), found in zip(rows, objects, strict=True):
        row = by[(game, kind)]
        row[0] += 1
        row[1] += cost
        for obj in found:
            size = sys.getsizeof(obj)
            row[2] += size / reach[id(obj)]
            if reach[id(obj)] == 1:
                row[3] += size
                row[4] += 1
                row[5] += gc.is_tracked(obj)
    print(
        f"{'game':8} {'kind':22} {'entries':>7} {'charged':>8} {'fair':>8} {'own':>8} "
        f"{'charged/fair':>12} {'objects':>8} {'tracked':>8}  (KiB, objects: per entry)"
    )
    for (game, kind), (n, cost, fair, own, count, tracked) in sorted(by.items()):
        print(
            f"{game:8} {kind:22} {n:7d} {cost / n / 1024:8.1f} {fair / n / 1024:8.1f} "
            f"{own / n / 1024:8.1f} {cost / max(fair, 1):12.2f} {count / n:8.0f} "
            f"{tracked / n:8.0f}"
        )
    charged = sum(r[1] for r in by.values())
    fair = sum(r[2] for r in by.values())
    print(
        f"all: charged {charged / 2**20:.1f} MiB, held {fair / 2**20:.1f} MiB "
        f"(x{charged / max(fair, 1):.2f}), {len(reach)} objects"
    )


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        stages, how = await cached_stages(folder, args.seeds, 20, args.fresh)
        async with _open(folder, "setup.db", 1):
            pass
        try:
            placed = place(
                stages, Path(folder) / "setup.db", args.campaigns, random.Random(1), (1, 20)
            )
        finally:
            stages.close()
        print(f"set-up: {args.campaigns} campaigns ({how}); rounds: {placed.spread()}")
        async with _open(folder, "setup.db", args.campaigns) as (repo, svc):
            cold()  # nothing the set-up's playing kept
            held: list[Any] = []
            skip = reachable(gc.get_objects(), held)  # what exists before the first call
            actors = [
                Actor(cid, users, random.Random(cid), status_after_resolve=True)
                for cid, users in placed.campaigns
            ]
            rng = random.Random(7)
            cpu = time.process_time()
            for _ in range(args.calls):
                await rng.choice(actors).step(svc)
                await svc.settle()
            print(
                f"{args.calls} calls one at a time: {time.process_time() - cpu:.1f} s CPU; "
                f"cache budget {budget_bytes(1) / 2**20:g} MiB"
            )
            gc.collect()
            report(entries(placed.ruleset), skip)
            async with repo.read() as tx:
                rows = await tx.raw.execute_fetchall(  # type: ignore[attr-defined]
                    "SELECT c.id, s.history_len FROM campaigns c"
                    " JOIN snapshots s ON s.id = c.snapshot_id"
                )
            now = dict(rows)
            memo, states = service_states._memo._items._items, service_states._states._items._items
            old_memo = sum(1 for key, _part in memo if now.get(key[1]) != key[3])
            old_states = sum(1 for key in states if now.get(key[1]) != key[3])
            print(
                f"superseded (a snapshot its campaign has moved past): engine results "
                f"{old_memo} of {len(memo)}, parsed states {old_states} of {len(states)}"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=1000)
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--fresh", action="store_true", help="play the stages again")
    parser.add_argument("--quick", action="store_true", help="smoke run: tiny sizes")
    args = parser.parse_args(argv)
    if args.quick:
        args.campaigns, args.calls, args.seeds = 8, 40, 1
    print(f"machine: {machine()}")
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

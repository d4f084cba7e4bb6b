"""Capacity with campaigns of every age: 1,000 campaigns spread over rounds 1-20, calls that
read panels, draft, lock, resolve rounds and read /status, as interactions per second at
p99 <= 50 ms.

    python bench/capacity.py [--campaigns 1000] [--rates 10,20,40,80,160] [--seconds 15]
                             [--serial 2000] [--seeds 3] [--fresh] [--profile tottime]
                             [--alternate-views]
                             [--alternate head-start|views|packs|watchdog|before-s17|drafts]

``bench/service.py`` starts every rate from campaigns at their first round, where a state
is small and a resolution cheap. Here the campaigns stand at a round drawn evenly from
1 to 20, capped one round before their scenario's end so they stay live: carrier (Coral
Sea, Midway: 12 rounds), land (Malaya, 18 missions) and Wings (1917), a quarter each.

Set-up (untimed): ``--seeds`` campaigns per scenario are played once through the real
service, every side drafting random legal orders; after each round, with every side's
orders drafted, their stored rows are kept (``bench/clone.py``). The 1,000 campaigns are
copies of those rows under new ids (states, histories, drafts byte for byte). The played
stages are cached under ``~/.cache/sortie-bench``, keyed by a hash of the engine's, the
service's and the storage's sources (``--fresh`` plays them again). Each campaign then
makes 0 to 7 of its players' calls (untimed, through the service, stopping at a
resolution), so the load starts from every point of a round, not from its first panel.

An interaction is one Discord interaction's service work (no Discord, no drawing:
``bench/players.py`` times those), one of: ``panel`` (a commander opens the order panel:
the round's decisions and the side's view), ``draft`` (one select: a field drafted, the
panel read back), ``lock`` (a side locks), ``resolve`` (the last side's Lock, which resolves
the round and opens the next: the engine, the new snapshot, the announcements in the
outbox, and the next round's decisions and views worked out in the background), and
``status`` (``/status`` after each resolution: the public view of the new state). Each
campaign's two commanders cycle through panel, drafts, Lock, then /status after the round
resolves. For each rate, on a fresh copy of the set-up file with the parsed-state caches
emptied: calls at Poisson times on random campaigns (open loop), timed from the scheduled
arrival to the answer, at least 300 per rate. The floor, in the same run: a read
transaction with one ``SELECT 1`` and a one-row write transaction, alternating.

Rounds resolve in the bot's worker process(es) (``bot.resolver``, ``SORTIE_RESOLVE_WORKERS``;
by default one per core but one), as in the bot. Prints p50/p99 per rate and per kind, the
capacity (the highest rate whose p99 <= 50 ms, every lower rate passing; rates go on past a
miss until one cannot be kept up with), the worst garbage-collection pause and RSS, with
the load average. ``--serial N`` first times N calls one at a time (CPU per call by kind
and ruleset, the follow-up work of a resolution included, this process's; the resolving
processes' printed beside it): the mix's CPU per call bounds what one core can serve.
``--alternate-views`` (with ``--serial``) asks each resolution's worker for the new round's
views or not, in turn (``bot.service_plan.VIEWS_FROM_WORKER``), and prints the resolving
calls' CPU by setting and game: the two measured in the same run, at the same load.
``--alternate packs`` does the same with the worker packing the new state and records for
the store (``Transaction.packs``, ``db.packing.packed_ahead``) or the bot packing them;
``--alternate watchdog`` with each job's answer waited for by a kernel-timed poll or under a
watchdog thread of its own (``bot.resolver.QUIET_SEND``, 0: every job gets one, as before);
``--alternate before-s17`` with both as before (on) or as now (off); ``--alternate drafts``
weighs drafts, not resolutions: each waiting for a COMMIT on the disk of its own (on, as
before session 18) or a working note (``Repository.working_transaction``, off).
``--alternate head-start``: the Lock that completes a round hands the engine its job
before its own COMMIT (on, ``bot.service_plan.start_resolution``) or the round is
planned from a read after it (off, as before session 20). Alternated calls also print
their wall time, from the call to its answer with the follow-up work: what a head start
saves is waiting, not CPU.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import os
import pstats
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# Service work only: no picture drawn ahead of a round (``bot.drawing``), whose worker
# processes would take the cores from the calls timed; bench/players.py times drawing.
os.environ.setdefault("SORTIE_DRAW_WORKERS", "0")

from bench.apart import open_loop_apart
from bench.clone import cached_stages, place
from bench.common import GcPauses, call_cost, machine, median, percentile, rss_mib
from bench.load import Actor, open_loop
from bench.rounds import cold
from bench.service import _ms, _open, floor_ms
from bot import collector, processes, resolver, service, service_plan, service_states
from bot.runtime import freeze_start_up
from db.sql import SqlTransaction
from db.sqlite import SqliteRepository, SqliteTransaction

P99_TARGET_MS = 50.0
MIN_CALLS = 300  # per rate: a p99 from at least 300 samples
RATE_TARGET = 500.0
RSS_TARGET_MB = 200.0
PLAY_OF: dict[int, str] = {}  # campaign id -> its ruleset, for the serial breakdown
PROFILE = ""  # --profile tottime|cumulative: cProfile each rate's load, the top 40 printed
# --alternate-views / --alternate NAME: in the serial calls, each resolution made with one
# setting of NAME, then the other, in turn (``TOGGLES``).
ALTERNATE = ""


def _views(on: bool) -> None:
    service_plan.VIEWS_FROM_WORKER = on


def _packs(on: bool) -> None:
    SqliteTransaction.packs = on


def _watchdog(on: bool) -> None:
    # On: each job's own watchdog thread, as before the kernel-timed wait.
    resolver.QUIET_SEND = 0 if on else 64 * 1024


def _s17(on: bool) -> None:
    # Both of session 17's cuts off (on: as before them), to weigh them together.
    _packs(not on)
    _watchdog(on)


_working = SqliteRepository.working_transaction


def _drafts(on: bool) -> None:
    # On: every draft waits for a COMMIT on the disk of its own, as before session 18.
    SqliteRepository.working_transaction = (  # type: ignore[method-assign]
        SqliteRepository.transaction if on else _working
    )


_started = service.start_resolution


def _head_start(on: bool) -> None:
    # Off: the Lock that completes a round sends no job before its COMMIT; the round is
    # planned after it, from a read, as before session 20.
    service.start_resolution = _started if on else _no_head_start  # type: ignore[assignment]


def _no_head_start(*args: Any, **kwargs: Any) -> None:
    return None


TOGGLES = {
    "head-start": _head_start,
    "views": _views,
    "packs": _packs,
    "watchdog": _watchdog,
    "before-s17": _s17,
    "drafts": _drafts,
}
# The kind of call each setting is weighed on (resolutions, unless named here).
TOGGLED_KIND = {"drafts": "draft"}


async def set_up(
    folder: str, count: int, seed: int, seeds: int, fresh: bool, top: int = 20
) -> tuple[list[Actor], dict[int, int], str]:
    """``count`` campaigns, each at a round drawn from 1-20 (capped below its scenario's
    end): copies of campaigns played once through the service (``bench/clone.py``)."""
    stages, how = await cached_stages(folder, seeds, top, fresh)
    async with _open(folder, "setup.db", 1):
        pass  # the schema, migrated as the service makes it
    rng = random.Random(seed)
    try:
        placed = place(stages, Path(folder) / "setup.db", count, rng, (1, 20))
    finally:
        stages.close()
    PLAY_OF.update(placed.ruleset)
    actors: list[Actor] = []
    async with _open(folder, "setup.db", 1) as (_, svc):
        for cid, users in placed.campaigns:
            actor = Actor(cid, users, random.Random(cid), status_after_resolve=True)
            # Each campaign starts at a random point of its round (0 to 7 of its players'
            # calls made, untimed, stopping at the Lock that resolves it), so the load's
            # first calls are the steady state's mix, not every campaign's first panel.
            for _ in range(rng.randrange(8)):
                if await actor.step(svc) in ("resolve", "over", "refused"):
                    break
            actors.append(actor)
        await svc.settle()
    cold()
    return actors, placed.ages, how


def _copies(template: list[Actor]) -> list[Actor]:
    return [
        Actor(
            a.campaign_id,
            a.users,
            random.Random(a.campaign_id),
            side=a.side,
            panel=a.panel,
            status_after_resolve=True,
        )
        for a in template
    ]


async def serial_cost(folder: str, template: list[Actor], calls: int) -> None:
    """Calls one at a time on random campaigns, on a fresh copy with cold caches: the
    process's CPU per call by kind, and the rate one core could serve at that mix."""
    shutil.copyfile(Path(folder) / "setup.db", Path(folder) / "serial.db")
    cold()
    cpu: dict[str, list[float]] = {}
    elsewhere = 0.0  # the resolving processes' CPU (``bot.resolver``), over every call
    # SQL statements by kind of call (load-independent, unlike CPU): every statement of
    # both backends goes through ``SqlTransaction._all``.
    statements: dict[str, int] = {}
    run_one = SqlTransaction._all
    counted = [0]
    by_views: dict[tuple[str, bool], list[float]] = {}  # (game, setting) -> CPU
    walls: dict[tuple[str, bool], list[float]] = {}  # (game, setting) -> wall, with its waits
    setting = False  # --alternate's setting for the next call

    async def counting(self: SqlTransaction, sql: str, params: Any = ()) -> list[Any]:
        counted[0] += 1
        return await run_one(self, sql, params)

    SqlTransaction._all = counting  # type: ignore[method-assign]
    async with _open(folder, "serial.db", len(template)) as (_, svc):
        actors = _copies(template)
        rng = random.Random(7)
        profile = cProfile.Profile() if PROFILE else None
        if profile is not None:
            profile.enable()
        for _ in range(calls):
            actor = rng.choice(actors)
            counted[0] = 0
            if ALTERNATE:
                TOGGLES[ALTERNATE](setting)

            async def call(actor: Actor = actor) -> str:
                kind = await actor.step(svc)
                await svc.settle()  # the follow-up work a resolution starts, counted with it
                return kind

            began = time.perf_counter()
            kind, spent, resolving = await call_cost(call)
            wall = time.perf_counter() - began
            if ALTERNATE and kind == TOGGLED_KIND.get(ALTERNATE, "resolve"):
                game = PLAY_OF.get(actor.campaign_id, "?")
                by_views.setdefault((game, setting), []).append(spent)
                by_views.setdefault(("all", setting), []).append(spent)
                walls.setdefault((game, setting), []).append(wall)
                walls.setdefault(("all", setting), []).append(wall)
                setting = not setting
            statements[kind] = statements.get(kind, 0) + counted[0]
            elsewhere += resolving
            cpu.setdefault(kind, []).append(spent)
            cpu.setdefault(f"{kind}@{PLAY_OF.get(actor.campaign_id, '?')}", []).append(spent)
        if profile is not None:
            profile.disable()
            pstats.Stats(profile).sort_stats(PROFILE).print_stats(50)
    SqlTransaction._all = run_one  # type: ignore[method-assign]
    (Path(folder) / "serial.db").unlink()
    every = [x for k, v in cpu.items() if "@" not in k for x in v]
    mean = sum(every) / len(every)
    kinds = ", ".join(
        f"{kind} {sorted(v)[len(v) // 2] * 1000:.2f}/{sum(v) / len(v) * 1000:.2f} ({len(v)})"
        for kind, v in sorted(cpu.items())
    )
    print(
        f"serial: {len(every)} calls one at a time, CPU per call median/mean ms (calls): {kinds};"
        f" mean {mean * 1000:.2f} ms, so one core serves at most {1 / mean:.0f} calls/s of this"
        f" mix (load {os.getloadavg()[0]:.1f})"
    )
    per_call = ", ".join(
        f"{kind} {n / len(cpu[kind]):.1f}" for kind, n in sorted(statements.items())
    )
    print(f"serial: SQL statements per call, the follow-up work included: {per_call}")
    for (game, asked), spent in sorted(by_views.items()):
        print(
            f"serial: {TOGGLED_KIND.get(ALTERNATE, 'resolve')}s of {game},"
            f" {ALTERNATE} {'on' if asked else 'off'}:"
            f" CPU median/mean {median(spent) * 1000:.2f}/{sum(spent) / len(spent) * 1000:.2f}"
            f" ms, wall median/mean {median(walls[game, asked]) * 1000:.2f}/"
            f"{sum(walls[game, asked]) / len(spent) * 1000:.2f} ms ({len(spent)})"
        )
    resolutions = len(cpu.get("resolve", []))
    if resolver.workers() and resolutions:
        share = elsewhere / len(every)
        print(
            f"serial: the {resolver.workers()} resolving process(es) besides: {elsewhere:.2f} s"
            f" CPU, {elsewhere / resolutions * 1000:.2f} ms per resolution (a mean: /proc counts"
            f" 10 ms ticks), {share * 1000:.2f} ms per call of the mix"
        )


async def one_rate(
    folder: str, template: list[Actor], rate: float, seconds: float, floor: float
) -> tuple[float, bool, bool]:
    """One rate on a fresh copy: (p99, met the target, kept up with the offered rate);
    ``floor``: the one-row write transaction's median, ms."""
    name = f"load-{rate:g}.db"
    shutil.copyfile(Path(folder) / "setup.db", Path(folder) / name)
    cold()  # nothing parsed for the previous rate's copy counts for this one
    async with _open(folder, name, len(template)) as (_, svc):
        actors = _copies(template)
        load = os.getloadavg()[0]
        profile = cProfile.Profile() if PROFILE else None
        if profile is not None:
            profile.enable()
        calls = max(int(rate * seconds), MIN_CALLS)
        result = await open_loop(svc, actors, rate, calls, seed=int(rate))
        if profile is not None:
            profile.disable()
            pstats.Stats(profile).sort_stats(PROFILE).print_stats(40)
        await svc.settle()
    (Path(folder) / name).unlink()
    every = result.all()
    p99 = percentile(every, 0.99) * 1000 if len(every) >= 100 else float("inf")
    achieved = len(every) / result.wall
    kinds = ", ".join(
        f"{kind} {_ms(v, 0.5)}/{_ms(v, 0.99)} ({len(v)})"
        for kind, v in sorted(result.latencies.items())
    )
    state = "SATURATED, stopped" if result.saturated else ""
    print(
        f"{rate:>7.0f}/s {achieved:>7.0f}/s {len(every):>6} {median(every) * 1000:>8.1f} "
        f"{p99:>8.1f}  p99 x{p99 / floor:.0f} the write floor, load {load:.1f} {state}"
    )
    print(f"{'':>9} by kind, p50/p99 ms (calls): {kinds}")
    kept_up = not result.saturated and achieved >= 0.9 * rate
    return p99, kept_up and p99 <= P99_TARGET_MS, kept_up


async def rates_apart(
    folder: str, template: list[Actor], args: argparse.Namespace, floor: float
) -> None:
    """Every rate with the generator apart (``bench/apart.py``), once per resolver setting
    in ``--resolvers`` and ``--repeat`` times, the settings' order turned round each time so
    neither always runs first; then each setting's p99s side by side."""
    settings = [int(n) for n in str(args.resolvers).split(",")]
    p99s: dict[tuple[int, float], list[float]] = {}
    print(
        f"{'workers':>8} {'offered':>8} {'achieved':>8} {'calls':>6} {'p50':>7} {'p99':>7}"
        "  CPU ms per call: bot / resolver / generator; worst full GC; bot RSS peak; load"
    )
    for rate in args.rates:
        for repeat in range(args.repeat):
            order = settings if repeat % 2 == 0 else settings[::-1]
            for workers in order:
                calls = max(int(rate * args.seconds), MIN_CALLS)
                load = os.getloadavg()[0]
                result = await open_loop_apart(
                    folder,
                    template,
                    rate,
                    calls,
                    seed=int(rate) + repeat,
                    environment={"SORTIE_RESOLVE_WORKERS": str(workers)},
                )
                every = result.all()
                p99 = percentile(every, 0.99) * 1000 if len(every) >= 100 else float("inf")
                p99 = float("inf") if result.saturated else p99
                p99s.setdefault((workers, rate), []).append(p99)
                bot, n = result.bot, max(1, len(every))
                pauses = bot.get("pauses") or [0.0]
                print(
                    f"{workers:>8} {rate:>7.0f}/s {len(every) / result.wall:>6.0f}/s"
                    f" {len(every):>6}"
                    f" {median(every) * 1000:>7.1f} {p99:>7.1f}  {bot['cpu'] / n * 1000:.2f} /"
                    f" {bot['resolver_cpu'] / n * 1000:.2f} / {result.generator_cpu / n * 1000:.2f}"
                    f"; {max(pauses):.0f} ms; {bot['rss_peak']:.0f} MiB; load {load:.1f}"
                    + (" SATURATED" if result.saturated else "")
                )
                print(
                    f"{'':>9} write lock held {bot['lock_held'] * 100:.0f} % of the run, group"
                    f" commits {bot['commits_held'] * 100:.0f} % (their hop to the writer's thread)"
                )
                kinds = ", ".join(
                    f"{kind} {_ms(v, 0.5)}/{_ms(v, 0.99)} ({len(v)})"
                    for kind, v in sorted(result.latencies.items())
                )
                print(f"{'':>9} by kind, p50/p99 ms (calls): {kinds}")
                print(f"{'':>9} p99 ms by third of the run, by arrival: {thirds(result.arrivals)}")
    print("\np99 ms by resolver setting, each run in order (median):")
    for rate in args.rates:
        cells = []
        for workers in settings:
            runs = p99s.get((workers, rate), [])
            shown = " ".join(f"{p:.0f}" for p in runs)
            middle = median(runs) if len(runs) > 1 else runs[0]  # --repeat 1: the one run
            cells.append(f"{workers} worker(s): {shown} ({middle:.0f})")
        print(f"  {rate:>5.0f}/s  " + "; ".join(cells))


def thirds(arrivals: list[tuple[float, float]]) -> str:
    """The p99 of the calls that arrived in each third of the run: the first third holds
    every campaign's first calls, on cold caches."""
    if not arrivals:
        return "-"
    end = max(at for at, _ in arrivals) or 1.0
    parts: list[list[float]] = [[], [], []]
    for at, latency in arrivals:
        parts[min(2, int(3 * at / end))].append(latency)
    return ", ".join(
        f"{percentile(p, 0.99) * 1000:.0f} ({len(p)})" if len(p) >= 100 else f"- ({len(p)})"
        for p in parts
    )


def cache_mib() -> tuple[float, float]:
    """What the service's caches estimate they hold: parsed states, engine results (MiB)."""
    mib = 1024 * 1024
    return service_states._states._items.used / mib, service_states._memo._items.used / mib


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with _open(folder, "floor.db", 1) as (repo, _svc):
            writes, reads = await floor_ms(repo, 300)
        print(
            f"floor: read tx + SELECT 1 median {median(reads):.3f} ms; one-row write tx median "
            f"{median(writes):.2f} ms ({len(reads)} each, alternating)"
        )
        freeze_start_up()
        collector.install()  # the bot's GC policy (bot.commands.run_bot installs it too)
        pauses = GcPauses()
        gc.callbacks.append(pauses)
        run_cpu = time.process_time()
        pauses.phase = "set-up"
        start, cpu = time.perf_counter(), time.process_time()
        template, ages, how = await set_up(
            folder, args.campaigns, 1, args.seeds, args.fresh, args.top
        )
        spread = ", ".join(f"{age}: {n}" for age, n in sorted(ages.items()))
        print(
            f"set-up: {args.campaigns} campaigns in {time.perf_counter() - start:.0f} s "
            f"({time.process_time() - cpu:.0f} s CPU; {how}); round they stand at: {spread}"
        )
        rss_setup, _ = rss_mib()
        # The resolving processes started before anything is timed, as the bot starts them.
        await asyncio.to_thread(resolver.warm_up)
        if args.serial:
            pauses.phase = "serial"
            await serial_cost(folder, template, args.serial)
        if args.apart:
            print(
                f"\n== open loop over {args.campaigns} campaigns, the bot in a process of its own"
                f" per run, latency ms from scheduled arrival (write floor {median(writes):.2f} ms)"
            )
            await rates_apart(folder, template, args, median(writes))
            print(f"load average at the end: {os.getloadavg()[0]:.2f}")
            return
        print(f"\n== open loop over {args.campaigns} campaigns, latency ms from scheduled arrival")
        print(f"{'offered':>9} {'achieved':>8} {'calls':>6} {'p50':>8} {'p99':>8}")
        passing: list[float] = []
        missed = False
        for rate in args.rates:
            pauses.phase = f"{rate:g}/s"
            _p99, ok, kept_up = await one_rate(folder, template, rate, args.seconds, median(writes))
            missed = missed or not ok
            if not missed:
                passing.append(rate)  # counted only while every lower rate passed
            if not kept_up:
                print(f"{'':>9} (past saturation: the higher rates are not tried)")
                break
        capacity = max(passing, default=0.0)
        verdict = "meets" if capacity >= RATE_TARGET else "MISSES"
        print(
            f"\ncapacity at p99 <= {P99_TARGET_MS:g} ms: {capacity:.0f} interactions/s of the rates"
            f" tried (target >= {RATE_TARGET:.0f}: {verdict})"
        )
        pauses.phase = "end"
        report_gc(pauses, [f"{rate:g}/s" for rate in args.rates], time.process_time() - run_cpu)
        now, peak = rss_mib()
        states, results = cache_mib()
        print(
            f"caches: estimate {states + results:.0f} MiB (states {states:.0f}, engine results "
            f"{results:.0f}) of RSS {now:.0f} MiB"
        )
        print(
            f"RSS: after set-up {rss_setup:.0f} MiB, peak {peak:.0f} MiB, now {now:.0f} MiB "
            f"(target <= {RSS_TARGET_MB:.0f} MB: {'meets' if peak * 1.048576 <= 200 else 'MISSES'})"
        )
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")


def report_gc(pauses: GcPauses, loaded: list[str], cpu: float) -> None:
    """The worst full collection under the open loop and elsewhere, every collection's CPU,
    and the one long pause the collector allows itself (``bot.collector``'s review)."""
    wall, pause_cpu, walked, count = pauses.worst(loaded)
    verdict = "meets" if wall <= 50 else ("CPU meets, wall MISSES" if pause_cpu <= 50 else "MISSES")
    print(
        f"full GC under the open loop: {count} collections, worst pause {wall:.0f} ms wall, "
        f"{pause_cpu:.0f} ms CPU, at most {walked} objects walked (target <= 50: {verdict}; "
        "wall counts the waits for a core on a loaded machine)"
    )
    for phase in ("set-up", "serial"):
        wall, pause_cpu, walked, count = pauses.worst([phase])
        print(
            f"full GC in the {phase}: {count} collections, worst {wall:.0f} ms wall, "
            f"{pause_cpu:.0f} ms CPU, at most {walked} objects walked"
        )
    tuned = collector._installed
    frozen = gc.get_freeze_count()
    steps: list[tuple[float, float]] = []  # (wall, CPU) of each step of the review, in ms
    if tuned is not None:
        # As the bot runs a review, one step per turn of its event loop: each step is a pause.
        more = True
        while more:
            began, began_cpu = time.perf_counter(), time.thread_time()
            if steps:
                more = tuned.step()
            else:
                tuned._begin()  # listing the frozen objects: a pause of its own
            steps.append(
                ((time.perf_counter() - began) * 1000, (time.thread_time() - began_cpu) * 1000)
            )
        found = tuned._found
    else:
        began, began_cpu = time.perf_counter(), time.thread_time()
        found = gc.collect()
        steps.append(
            ((time.perf_counter() - began) * 1000, (time.thread_time() - began_cpu) * 1000)
        )
    print(
        f"GC: {pauses.collections} collections of any generation, {pauses.cpu:.2f} s CPU "
        f"({pauses.cpu / cpu * 100:.1f} % of this process's over the run); "
        f"{tuned.freezes if tuned else 0} freezes ({tuned.frozen if tuned else 0} objects "
        f"summed; a review is due past {collector.REVIEW_GROWTH}). A review now ({frozen} "
        f"objects frozen): listed in {steps[0][1]:.0f} ms CPU, then {len(steps) - 1} steps, "
        f"{sum(cpu for _, cpu in steps):.0f} ms CPU in all; the longest pause "
        f"{max(wall for wall, _ in steps):.0f} ms wall, "
        f"{max(cpu for _, cpu in steps):.0f} ms CPU (target <= 50); {found} unreachable found"
    )
    # What the review was before it took slices, on the same objects: one pause.
    began, began_cpu = time.perf_counter(), time.thread_time()
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    print(
        f"GC: unfreezing everything and collecting once instead: "
        f"{(time.perf_counter() - began) * 1000:.0f} ms wall, "
        f"{(time.thread_time() - began_cpu) * 1000:.0f} ms CPU, one pause"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=1000)
    parser.add_argument("--rates", default="10,20,40,80,160,320,500")
    parser.add_argument("--seconds", type=float, default=15.0, help="per rate")
    parser.add_argument("--seeds", type=int, default=3, help="campaigns played per scenario")
    parser.add_argument("--top", type=int, default=20, help="the latest round played")
    parser.add_argument("--fresh", action="store_true", help="play the stages again")
    parser.add_argument("--quick", action="store_true", help="smoke run: tiny sizes")
    parser.add_argument("--serial", type=int, default=0, help="calls timed one at a time first")
    parser.add_argument("--profile", default="", help="cProfile each rate: tottime|cumulative")
    parser.add_argument(
        "--apart", action="store_true", help="the load generator apart from the bot under test"
    )
    parser.add_argument(
        "--resolvers", default="1", help="with --apart: SORTIE_RESOLVE_WORKERS values, alternated"
    )
    parser.add_argument("--repeat", type=int, default=1, help="with --apart: runs per setting")
    parser.add_argument(
        "--alternate-views",
        action="store_true",
        help="with --serial: the worker's views (VIEWS_FROM_WORKER) on and off by turns",
    )
    parser.add_argument(
        "--own-fork-server",
        action="store_true",
        help="the workers' fork server a new interpreter, as before session 16",
    )
    parser.add_argument(
        "--alternate",
        choices=sorted(TOGGLES),
        default="",
        help="with --serial: one setting, then the other, resolution by resolution",
    )
    args = parser.parse_args(argv)
    global PROFILE, ALTERNATE
    PROFILE = args.profile
    ALTERNATE = args.alternate or ("views" if args.alternate_views else "")
    args.rates = [float(r) for r in str(args.rates).split(",")]
    if args.quick:
        args.campaigns, args.rates, args.seconds, args.seeds, args.top = 8, [20.0], 6.0, 1, 3
    print(f"machine: {machine()}")
    if not args.own_fork_server and not args.apart:
        # As ``python -m bot`` starts: the resolving processes' fork server forked from
        # here, sharing this process's start-up (``bot.processes.share_start_up``).
        processes.share_start_up()
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

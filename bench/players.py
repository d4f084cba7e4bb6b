"""What a player meets: the Lock that opens a round's locking, the Lock that resolves it,
and ``/status`` after the resolution, at round 1 and at a late round, through simcord.

    python bench/players.py [--samples 40] [--late 12] [--ruleset land --scenario malaya-all]

The real bot runs in simcord (the in-memory Discord of the end-to-end tests, poll 1 ms as
in ``bench/interactions.py``). Each sample is a campaign of its own, played through the
service (untimed) to round 1 or round ``--late``, its commanders' DM panels delivered and
every select on them picked through simcord (untimed). Then, timed, each action right after
a no-op slash command (the floor, interleaved, so both see the same load):

- ``first lock``: the first commander's Lock (the round goes on; the board of the round's
  lock state is drawn for the round message);
- ``resolving lock``: the other commander's Lock, which resolves the round;
- ``status``: ``/status`` in the channel, with the parsed-state caches emptied first (a bot
  serving many campaigns rarely still holds this one's).

Each is timed to its acknowledgment (the first answer, a deferral counted: the click's
spinner stops and Discord's three seconds are met), to its answer (the last: the panel as
it then stands, "locked" only once the lock is stored), to settled (the bot's
work done: round message, reveal, reports, the pump), in the bot process's CPU time to
settled (the event loop's share: what stalls other players), and the CPU time the drawing
worker processes spent meanwhile (``bot.drawing``, read from /proc; ``SORTIE_DRAW_WORKERS=0``
draws in the bot's threads instead, as before issue 29), and the processes that resolve
rounds (``bot.resolver``, as the bot starts them; ``SORTIE_RESOLVE_WORKERS=0`` resolves in a
thread of the bot, as before). Also printed: the longest time the
event loop ran one callback (its thread's CPU time, and wall) while timing, the CPU of the
bot's own callbacks (``bot loop``: simcord's polling and Discord side left out, see
``LoopWatch``), and the longest garbage-collection pause once the bot is up, by generation.
Rounds 1 and late alternate sample by sample. Verdicts compare the acknowledgment with the
no-op's answer (not a settled no-op padded by simcord's poll); both answers are printed.
Medians, and p95 once there are 20 samples; no p99 (that needs 200 samples per point,
several minutes per campaign played).
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import cProfile
import gc
import multiprocessing.connection
import os
import pstats
import sys
import tempfile
import time
import types
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import simcord

from bench.common import machine, median, percentile, processes_cpu, resolver_cpu
from bench.interactions import (
    ACKNOWLEDGED,
    COGS,
    COUNTING,
    COUNTS,
    DEFAULTS,
    EPOCH,
    BenchBot,
    count_writes,
    timed,
)
from bench.rounds import Game, cold
from bot.demo import SeededTokens
from bot.outbox import OutboxWorker
from bot.runtime import FuncClock, open_services
from bot.service_model import Pace
from db.sqlite import SqliteTransaction

# simcord stops the clock (``time.monotonic``) for the bot; multiprocessing's waits on its
# worker processes count their timeouts on that clock and would never end: starting a
# drawing process polls the ones already running (``Process.start``'s clean-up, a zero
# wait). They keep the real one: the drawing processes run in real time, as in production.
# (The resolver no longer needs this: it reads its worker's sentinel with ``select``.)
multiprocessing.connection.time = types.SimpleNamespace(  # type: ignore[attr-defined]
    **{name: getattr(time, name) for name in dir(time) if not name.startswith("_")}
)

try:
    from bot import collector
except ImportError:  # a tree from before the collector was tuned
    collector = None  # type: ignore[assignment]

try:
    from bot import resolver
except ImportError:  # a tree from before rounds resolved in worker processes
    resolver = None  # type: ignore[assignment]

try:
    from bot import drawing
except ImportError:  # a tree from before issue 29, to compare: it draws in threads
    drawing = None  # type: ignore[assignment]

ACTIONS = ("first lock", "resolving lock", "status")
RATIO_TARGET = 3.0
BLOCK_TARGET_MS = 20.0
GC_TARGET_MS = 50.0
LOOP_TARGET_MS = 20.0


class LoopWatch:
    """How long the event loop ran each callback (its thread's CPU time, which the other
    processes on a loaded machine cannot inflate, and wall time), while ``on``: the longest
    is how long the loop was blocked, every other player's click waiting meanwhile.

    Also the CPU of the callbacks that are the bot's (``bot``): every callback but the steps
    of tasks running simcord's or this harness's coroutines (the clicks, the settling that
    polls every millisecond while the drawing processes work), less what simcord's HTTP
    client spends inside the bot's requests (``Simcord.requests``), and the timeouts of
    that settling's waits (``asyncio.wait(..., timeout=)``: a timer that wakes only a
    harness task, and whose waking runs simcord's tracking of the task; counted as the
    bot's until s15, about 2 ms of a resolving Lock). The loop's own turns (``select``,
    scheduling) go to neither: with simcord polling they grow with wall time."""

    def __init__(self) -> None:
        self.on = False
        self.cpu: list[float] = []
        self.wall: list[float] = []
        self.bot = 0.0
        # --callbacks: the bot's callbacks' CPU by what ran (a task's coroutine, or the
        # callback) while an action is counted, and the longest callbacks with their names.
        self.named: dict[str, Counter[str]] = defaultdict(Counter)
        self.longest: list[tuple[float, str, str]] = []
        self.naming = False
        real = asyncio.events.Handle._run
        harness = (str(Path(simcord.__file__).parent), str(Path(__file__).parent))

        def harness_task(owner: Any) -> bool:
            code = getattr(owner.get_coro(), "cr_code", None)
            return code is not None and code.co_filename.startswith(harness)

        def theirs(handle: Any) -> bool:
            owner = getattr(handle._callback, "__self__", None)
            if not isinstance(owner, asyncio.Task):
                return False  # counted as the bot's: never understate it
            return harness_task(owner)

        release = asyncio.tasks._release_waiter  # type: ignore[attr-defined]

        def wakes_harness(handle: Any) -> bool:
            """A wait's timeout whose waiter only wakes harness tasks (looked at before it
            runs: running it hands the waiter's callbacks on)."""
            if handle._callback is not release or not handle._args:
                return False
            owners = [
                getattr(callback, "__self__", None)
                for callback, _context in getattr(handle._args[0], "_callbacks", None) or ()
            ]
            return bool(owners) and all(
                isinstance(owner, asyncio.Task) and harness_task(owner) for owner in owners
            )

        def run(handle: Any) -> None:
            if not self.on:
                return real(handle)
            harness_timer = wakes_harness(handle)
            cpu, wall = time.thread_time(), time.perf_counter()
            try:
                return real(handle)
            finally:
                spent = time.thread_time() - cpu
                self.cpu.append(spent)
                self.wall.append(time.perf_counter() - wall)
                if not theirs(handle) and not harness_timer:
                    self.bot += spent
                    if self.naming:
                        self.name(handle, spent)

        asyncio.events.Handle._run = run  # type: ignore[method-assign]

    def name(self, handle: Any, spent: float) -> None:
        callback = handle._callback
        code = getattr(callback, "__code__", None)
        if code is not None and "callback" in code.co_freevars:  # simcord's tracking wrapper
            callback = callback.__closure__[code.co_freevars.index("callback")].cell_contents
        owner = getattr(callback, "__self__", None)
        if isinstance(owner, asyncio.Task):
            coro = owner.get_coro()
            frame = getattr(coro, "cr_frame", None)
            what = getattr(coro, "__qualname__", repr(coro))
            # Where the task stands (the await it resumes from, innermost): which step ran.
            inner = coro
            while getattr(inner, "cr_await", None) is not None and hasattr(
                inner.cr_await, "cr_frame"
            ):
                inner = inner.cr_await
            frame = getattr(inner, "cr_frame", None)
            if frame is not None and inner is not coro:
                what += f" @ {inner.__qualname__}:{frame.f_lineno}"
        else:
            what = getattr(callback, "__qualname__", repr(callback))
        action = COUNTING[0] or "between actions"
        self.named[action][what] += spent
        self.longest.append((spent, what, action))
        self.longest.sort(reverse=True)
        del self.longest[12:]


WATCH = LoopWatch()

# --profile: cProfile over the resolving Locks only, on the event loop's thread (where
# cProfile runs: the drawing processes and the SQLite writer's thread are not in it), timed
# by that thread's CPU clock: a wait for a core or for the GIL is not counted as work.
PROFILE: cProfile.Profile | None = None


class Simcord:
    """The CPU simcord spends being Discord: its settling (it polls the bot's tasks every
    millisecond while the drawing processes work, so its cost grows with the wall time a
    picture takes) and its HTTP client and webhook adapter (the Discord side of every
    request: routing, checking and copying the payloads); ``requests`` is the part of it
    spent inside the bot's own tasks, taken off the bot's share (``LoopWatch.bot``), which
    keeps discord.py's own work (building each request, parsing the events it is fed)."""

    def __init__(self) -> None:
        self.cpu = 0.0
        self.requests = 0.0  # of which inside the bot's requests
        watch = self
        settle = simcord.Env._settle_internal

        def settling(env: Any, *args: Any, **kwargs: Any) -> Any:
            return _Stepped(settle(env, *args, **kwargs), watch)

        simcord.Env._settle_internal = settling  # type: ignore[method-assign,assignment]
        for owner in (simcord.http.client.FakeHTTPClient, simcord.http.client.FakeWebhookAdapter):
            real = owner.request

            def request(*args: Any, real: Any = real, **kwargs: Any) -> Any:
                return _Stepped(real(*args, **kwargs), watch, requests=True)

            owner.request = request  # type: ignore[method-assign,assignment]


class _Stepped:
    """A coroutine whose every step's thread CPU is added to ``watch.cpu`` (each step runs
    synchronously on the loop; the waits between steps are not counted)."""

    def __init__(self, coro: Any, watch: Simcord, requests: bool = False) -> None:
        self.coro, self.watch, self.requests = coro, watch, requests

    def __await__(self) -> Any:
        value: Any = None
        error: BaseException | None = None
        while True:
            cpu = time.thread_time()
            try:
                step = self.coro.throw(error) if error is not None else self.coro.send(value)
            except StopIteration as stop:
                return stop.value
            finally:
                spent = time.thread_time() - cpu
                self.watch.cpu += spent
                if self.requests:
                    self.watch.requests += spent
            try:
                value, error = (yield step), None
            except BaseException as raised:  # a cancellation, thrown into the coroutine
                value, error = None, raised


SIMCORD = Simcord()


# Set in the task delivering the outbox (and what it awaits), not in the tasks that run
# beside it meanwhile (the next round's preparation reads too).
IN_OUTBOX: contextvars.ContextVar[bool] = contextvars.ContextVar("in_outbox", default=False)


def count_work(repo: Any) -> None:
    """Count, while an action is timed, what it costs the database and the outbox: write
    transactions (``count_writes``), read transactions, SQL statements, and the outbox's
    rows by kind with the read transactions and statements of their delivery."""
    count_writes(repo)
    for name in ("read", "glance"):
        real = getattr(repo, name)

        def counted(*args: Any, real: Any = real, **kwargs: Any) -> Any:
            if COUNTING[0] is not None:
                COUNTS[COUNTING[0]]["read transactions"] += 1
                if IN_OUTBOX.get():
                    COUNTS[COUNTING[0]]["outbox: read transactions"] += 1
            return real(*args, **kwargs)

        setattr(repo, name, counted)
    transaction = SqliteTransaction  # the bench's store is a SQLite file
    run_statement = transaction._run

    async def statement(self: Any, sql: str, params: Any) -> Any:
        if COUNTING[0] is not None:
            COUNTS[COUNTING[0]]["SQL statements"] += 1
            if IN_OUTBOX.get():
                COUNTS[COUNTING[0]]["outbox: SQL statements"] += 1
        return await run_statement(self, sql, params)

    transaction._run = statement  # type: ignore[method-assign]
    deliver, claimed = OutboxWorker.deliver_due, OutboxWorker._deliver_claimed

    async def delivering(self: Any) -> Any:
        mark = IN_OUTBOX.set(True)
        try:
            return await deliver(self)
        finally:
            IN_OUTBOX.reset(mark)

    async def rows(self: Any, rows: Any, *args: Any) -> Any:
        if COUNTING[0] is not None:
            for row in rows:
                COUNTS[COUNTING[0]][f"outbox row: {row.kind}"] += 1
        return await claimed(self, rows, *args)

    if drawing is not None:
        draw = drawing.draw

        async def drawn(plugin: Any, method: str, *args: Any) -> Any:
            if COUNTING[0] is not None:
                COUNTS[COUNTING[0]][f"drawn: {method}"] += 1
            return await draw(plugin, method, *args)

        drawing.draw = drawn  # type: ignore[assignment]
        whole = getattr(drawing, "after_action", None)  # a tree from before it: in draw
        if whole is not None:

            async def after_action(*args: Any) -> Any:
                if COUNTING[0] is not None:
                    COUNTS[COUNTING[0]]["drawn: after_action, whole state"] += 1
                return await whole(*args)

            drawing.after_action = after_action
    OutboxWorker.deliver_due = delivering  # type: ignore[method-assign]
    OutboxWorker._deliver_claimed = rows  # type: ignore[method-assign]


GC_GENERATIONS: dict[int, list[float]] = defaultdict(list)  # CPU seconds by generation
GC_FOUND: dict[int, list[int]] = defaultdict(list)  # unreachable objects each one freed


def _gc_probe(pauses: list[float], cpu: list[float]) -> Any:
    started: list[float] = []

    def probe(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[:] = [time.perf_counter(), time.thread_time()]
        elif started:
            pauses.append(time.perf_counter() - started[0])
            cpu.append(time.thread_time() - started[1])
            GC_GENERATIONS[info.get("generation", -1)].append(cpu[-1])
            GC_FOUND[info.get("generation", -1)].append(info.get("collected", 0))

    return probe


def drawing_cpu() -> float:
    """CPU seconds the drawing worker processes have used (``bot.drawing``), from /proc."""
    pool = getattr(drawing, "_pool", None)
    if pool is None:
        return 0.0
    return processes_cpu(list(getattr(pool, "_processes", {}) or {}))


Sample = tuple[float, float, float, float, float, float, float, float]


async def _timed(call: Any, env: Any, counted: str | None = None) -> Sample:
    """Answer (the last: what the panel then shows), settled, process CPU, drawing
    processes' CPU, the event loop thread's CPU, the bot's share of it (``LoopWatch.bot``),
    the acknowledgment (the first answer, a deferral counted) and the resolving processes'
    CPU (``bot.resolver``), in seconds."""
    before, resolving = drawing_cpu(), resolver_cpu()
    loop, bot, requests = time.thread_time(), WATCH.bot, SIMCORD.requests
    start = time.perf_counter()
    if counted is not None:
        COUNTS.setdefault(counted, Counter())["actions"] += 1
    answer, settled, cpu = await timed(call, env, counted)
    acked = ACKNOWLEDGED[0]
    loop = time.thread_time() - loop
    bot = (WATCH.bot - bot) - (SIMCORD.requests - requests)
    ack = answer if acked is None else acked - start
    return answer, settled, cpu, drawing_cpu() - before, loop, bot, ack, resolver_cpu() - resolving


def _components(message: Any) -> list[Any]:
    return [child for row in message.components for child in getattr(row, "children", ())]


def _panel(user: Any) -> Any:
    return [m for m in user.dm_channel.history() if m.components][-1]


async def _pick_all(user: Any) -> None:
    """Pick an option in every order select of the user's latest DM panel (untimed)."""
    seen: set[str] = set()
    for _ in range(30):
        panel = _panel(user)
        todo = [
            c
            for c in _components(panel)
            if (getattr(c, "custom_id", "") or "").startswith("sortie:o:")
            and c.custom_id not in seen
            and getattr(c, "options", None)
        ]
        if not todo:
            return
        select = todo[0]
        seen.add(select.custom_id)
        await user.select(panel, [select.options[0].value], custom_id=select.custom_id)


def _lock_id(user: Any) -> str:
    for child in _components(_panel(user)):
        if (getattr(child, "custom_id", "") or "").startswith("sortie:lock:"):
            return str(child.custom_id)
    raise LookupError("no Lock button on the panel")


LAST = 0  # the round point ``--last``: the round that finishes the campaign


def _round_name(at: int) -> str:
    return "last" if at == LAST else str(at)


async def _deciding(svc: Any, cid: int, users: dict[str, int], members: dict[str, Any]) -> list:
    """The commanders with orders to give in the open round, every select on their DM panel
    picked (untimed)."""
    deciding = []
    for side, member in members.items():
        try:
            panel = await svc.panel(cid, users[side])
        except Exception:
            return []  # the campaign is over
        if panel.status != "open" or panel.locked or not panel.decisions:
            continue
        await _pick_all(member[0])
        deciding.append(member)
    return deciding


async def _locks(
    env: Any, channel: Any, deciding: list, at: int, args: Any, label: str
) -> dict[str, Sample]:
    """Each deciding commander's Lock, timed after a no-op: the first, then the one that
    resolves the round (alone when one side sits the round out)."""
    out: dict[str, Sample] = {}
    named = ("first lock", "resolving lock") if len(deciding) > 1 else ("resolving lock",)
    for name, (user, member) in zip(named, deciding, strict=True):
        out[f"noop {name}"] = await _timed(member.slash(channel, "noop"), env)
        profiled = (
            PROFILE is not None and name == "resolving lock" and args.profile_round in (None, at)
        )
        if profiled and PROFILE is not None:
            PROFILE.enable()
        try:
            click = user.click(_panel(user), custom_id=_lock_id(user))
            out[name] = await _timed(click, env, f"{name}, {label}")
        finally:
            if profiled and PROFILE is not None:
                PROFILE.disable()
    return out


def _relabel(old: str, new: str | None) -> None:
    """Move (or, ``new`` None, drop) what was counted under ``old`` to ``new``."""
    for table in (COUNTS, WATCH.named):
        for key in [k for k in table if k.endswith(old)]:
            moved = table.pop(key)
            if new is not None:
                table.setdefault(key[: -len(old)] + new, Counter()).update(moved)
    WATCH.longest[:] = [
        (spent, what, action if not action.endswith(old) else action[: -len(old)] + (new or "?"))
        for spent, what, action in WATCH.longest
    ]


async def _sample(
    env: Any, bot: Any, svc: Any, guild: Any, gm: Any, index: int, late: int, args: Any
) -> tuple[int, dict[str, Sample]] | None:
    at = 1 if index % 2 == 0 else late
    channel = guild.create_text_channel(f"c-{index}")
    rules = svc.rulesets.get(args.ruleset).rules
    info = await svc.create_campaign(
        guild.id, channel.id, gm.id, args.scenario, Pace(), f"p{index}", ruleset=args.ruleset
    )
    users = {}
    members = {}
    for number, side in enumerate(rules.side_ids):
        user = env.create_user(f"u{index}-{number}")
        members[side] = (user, guild.add_member(user))
        users[side] = members[side][1].id
        await svc.join(info.id, users[side], side)
    await svc.start(info.id, gm.id)
    game = Game(info.id, users, index)
    if at == LAST:
        # Every round through simcord (which round finishes the campaign is known only once
        # it has), the last one's figures kept: the others' Locks are counted in the
        # event loop's figures (longest callback, GC), not in the table.
        WATCH.on = True
        for _round in range(400):
            await bot.pump()
            await env.settle()
            deciding = await _deciding(svc, info.id, users, members)
            if not deciding:
                WATCH.on = False
                return None  # over without a Lock of ours to time (or nobody decides)
            out = await _locks(env, channel, deciding, at, args, "round ?")
            if (await svc.info(info.id)).status == "finished":
                _relabel("round ?", "round last")
                break
            _relabel("round ?", None)
        else:
            WATCH.on = False
            return None
        member = deciding[0][1]
    else:
        while game.resolved < at - 1 and not game.over:
            await game.step_round(svc)
        if game.over:
            return None
        await bot.pump()
        await env.settle()
        deciding = await _deciding(svc, info.id, users, members)
        if len(deciding) < 2:
            return None  # a round one side sits out: no first-lock/resolving pair to time
        WATCH.on = True
        out = await _locks(env, channel, deciding, at, args, f"round {at}")
        member = deciding[0][1]
    cold()
    out["noop status"] = await _timed(member.slash(channel, "noop"), env)
    cold()
    out["status"] = await _timed(member.slash(channel, "status"), env)
    WATCH.on = False
    return at, out


async def run(args: Any) -> None:
    holder: list[Any] = []
    clock = FuncClock(lambda: holder[0].now() if holder else EPOCH)
    figures: dict[int, dict[str, list[Sample]]] = defaultdict(lambda: defaultdict(list))
    loads: list[float] = []
    pauses: list[float] = []
    gc_cpu: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        services = await open_services(Path(folder) / "players.db", clock, seeds=SeededTokens(3))
        try:
            count_work(services.repo)
            bot = BenchBot(services=services, cogs=COGS)
            async with simcord.run(bot) as env:
                holder.append(env)
                # From here on: the bot is up. Start-up's own full collection (before it
                # freezes what it made, ``bot.runtime.freeze_start_up``) holds up no player.
                if collector is not None:
                    # As ``bot.commands.run_bot`` does; before the probe, so that a pause
                    # includes the collector's own work at its end.
                    collector.install()
                probe = _gc_probe(pauses, gc_cpu)
                gc.callbacks.append(probe)
                guild = env.create_guild()
                gm = guild.add_member(env.create_user("gm"))
                index = 0
                while min((len(figures[r]["status"]) for r in (1, args.late)), default=0) < (
                    args.samples
                ):
                    got = await _sample(
                        env, bot, services.campaigns, guild, gm, index, args.late, args
                    )
                    index += 1
                    loads.append(os.getloadavg()[0])
                    if got is None:
                        if index > 4 * args.samples + 8:
                            break
                        continue
                    at, out = got
                    for name, value in out.items():
                        figures[at][name].append(value)
        finally:
            await services.campaigns.settle()
            await services.close()
            if drawing is not None:
                drawing.shut_down()  # the picture processes end with the run
            if resolver is not None:
                resolver.shut_down()  # and the rounds' ones
        gc.callbacks.remove(probe)  # the review below is the benchmark's, not the bot's
    report(args, figures, loads)
    tuned = collector._installed if collector is not None else None
    if tuned is not None:
        collector.uninstall()
        last = gc.collect()  # the run's last garbage, not frozen
        leaked = tuned.review()
        print(
            f"collector: {tuned.freezes} freezes of a full collection's survivors "
            f"({tuned.frozen} objects in all), {tuned.reviews - 1} reviews during the run; "
            f"at the end a full collection found {last} unreachable objects, then, everything "
            f"unfrozen, {leaked} more (cycles frozen alive that became garbage)"
        )
    if WATCH.naming:
        for action, named in sorted(WATCH.named.items()):
            times = max(COUNTS.get(action, Counter()).get("actions", 0), 1)
            print(f"bot callbacks, {action}, ms CPU per action ({times}):")
            for what, spent in named.most_common(12):
                print(f"  {spent / times * 1000:7.2f}  {what}")
        print("longest bot callbacks, ms CPU:")
        for spent, what, action in WATCH.longest:
            print(f"  {spent * 1000:7.2f}  {what}  ({action})")
    cpu, wall = sorted(WATCH.cpu), sorted(WATCH.wall)
    if cpu:
        longest = cpu[-1] * 1000
        print(
            f"event loop, per callback while timed ({len(cpu)} callbacks): longest "
            f"{longest:.1f} ms CPU ({wall[-1] * 1000:.1f} ms wall), p99.9 "
            f"{cpu[int(len(cpu) * 0.999)] * 1000:.1f} ms CPU; over {BLOCK_TARGET_MS:g} ms: "
            f"{sum(c * 1000 > BLOCK_TARGET_MS for c in cpu)} "
            f"(target: none: {'meets' if longest <= BLOCK_TARGET_MS else 'MISSES'})"
        )
    worst = max(pauses, default=0.0) * 1000
    worst_cpu = max(gc_cpu, default=0.0) * 1000
    print(
        f"garbage collection: {len(pauses)} collections, longest pause {worst:.1f} ms wall, "
        f"{worst_cpu:.1f} ms CPU (target <= {GC_TARGET_MS:g}: "
        f"{'meets' if worst <= GC_TARGET_MS else 'MISSES'} on wall)"
    )
    print(
        "  full collections, ms CPU each: "
        + ", ".join(f"{spent * 1000:.1f}" for spent in GC_GENERATIONS.get(2, []))
    )
    for generation, spent in sorted(GC_GENERATIONS.items()):
        print(
            f"  generation {generation}: {len(spent)} collections, longest "
            f"{max(spent) * 1000:.1f} ms CPU, total {sum(spent) * 1000:.1f} ms CPU; "
            f"most unreachable objects freed by one: {max(GC_FOUND[generation])}"
        )


def _ms(values: list[float]) -> str:
    text = f"{median(values) * 1000:8.1f}"
    if len(values) >= 20:
        text += f" (p95 {percentile(values, 0.95) * 1000:.1f})"
    return text


def report(args: Any, figures: Any, loads: list[float]) -> None:
    print(
        f"\n== {args.ruleset} {args.scenario}; load average {min(loads):.1f}-{max(loads):.1f} "
        f"during the run"
    )
    for at in sorted(figures):
        out = figures[at]
        print(f"-- round {_round_name(at)}: {len(out['status'])} samples")
        print(
            f"{'action':<16}{'ack ms':>8}{'x noop':>8}{'answer ms':>10}{'noop ans':>10}"
            f"{'x noop':>8}{'settled ms':>12}{'CPU ms':>9}{'loop CPU':>10}{'bot loop':>10}"
            f"{'draw CPU':>10}{'res CPU':>9}{'noop CPU':>10}{'x noop':>8}  verdict"
        )
        for name in ACTIONS:
            mine, noop = out[name], out[f"noop {name}"]
            if not mine:
                continue
            ack = [m[6] for m in mine]
            answer = [m[0] for m in mine]
            noop_answer = [n[0] for n in noop]
            cpu = [m[2] for m in mine]
            noop_cpu = [n[2] for n in noop]
            acked = median(ack) / median(noop_answer)
            ratio = median(answer) / median(noop_answer)
            verdict = "meets" if acked <= RATIO_TARGET else "MISSES"
            print(
                f"{name:<16}{median(ack) * 1000:>8.1f}{acked:>8.1f}"
                f"{median(answer) * 1000:>10.1f}{median(noop_answer) * 1000:>10.2f}"
                f"{ratio:>8.1f}{median([m[1] for m in mine]) * 1000:>12.1f}"
                f"{median(cpu) * 1000:>9.1f}{median([m[4] for m in mine]) * 1000:>10.1f}"
                f"{median([m[5] for m in mine]) * 1000:>10.1f}"
                f"{median([m[3] for m in mine]) * 1000:>10.1f}"
                f"{sum(m[7] for m in mine) / len(mine) * 1000:>9.1f}"
                f"{median(noop_cpu) * 1000:>10.2f}"
                f"{median(cpu) / median(noop_cpu):>8.1f}  acknowledged x noop answer <= "
                f"{RATIO_TARGET:g}: {verdict}"
            )
    print(
        "(ack: the click's first answer, a deferral counted, what Discord's three seconds "
        "wait for; answer: the last, the panel as it then stands, e.g. 'locked' once stored;"
        " res CPU: the resolving processes' CPU, a mean: /proc counts it in 10 ms ticks)"
    )
    for at in sorted(figures):
        mine = figures[at]["resolving lock"]
        if mine:
            bot = median([m[5] for m in mine]) * 1000
            print(
                f"round {_round_name(at)}, resolving lock: the bot's CPU on the event loop "
                f"{bot:.1f} ms "
                f"(median; of the loop thread's {median([m[4] for m in mine]) * 1000:.1f} ms, the "
                f"rest simcord's and the loop's polling), target <= {LOOP_TARGET_MS:g}: "
                f"{'meets' if bot <= LOOP_TARGET_MS else 'MISSES'}"
            )
    for name, counts in sorted(COUNTS.items()):
        actions = counts.get("actions", 0)
        if not actions:
            continue
        said = ", ".join(
            f"{label} {count / actions:.1f}"
            for label, count in sorted(counts.items())
            if label != "actions"
        )
        print(f"{name}, counted per action ({actions}): {said}")
    late, first = figures.get(args.late), figures.get(1)
    if late and first and late["resolving lock"] and first["resolving lock"]:
        ratio = median([m[2] for m in late["resolving lock"]]) / median(
            [m[2] for m in first["resolving lock"]]
        )
        print(
            f"resolving lock CPU, round {_round_name(args.late)} / round 1: x{ratio:.2f} "
            "(target <= 1.3)"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--samples", type=int, default=40, help="samples per round point")
    parser.add_argument("--late", type=int, default=12, help="the late round timed")
    parser.add_argument(
        "--last",
        action="store_true",
        help="time the round that finishes the campaign instead of round --late",
    )
    parser.add_argument("--ruleset", default="carrier")
    parser.add_argument("--scenario", default="coral-sea")
    parser.add_argument("--quick", action="store_true", help="smoke run: 2 samples")
    parser.add_argument(
        "--profile",
        choices=("tottime", "cumulative"),
        help="cProfile the resolving Locks (the event loop's thread); the top 60 printed",
    )
    parser.add_argument(
        "--callbacks",
        action="store_true",
        help="the bot's loop CPU per action by task, and its longest callbacks, named",
    )
    parser.add_argument("--profile-dump", help="with --profile: also keep the stats in a file")
    parser.add_argument(
        "--profile-round", type=int, help="with --profile: only the resolving Locks of this round"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.samples, args.late = 2, 3
    if args.last:
        args.late = LAST
    DEFAULTS["idle"] = 0.001
    WATCH.naming = args.callbacks
    print(f"machine: {machine()}")
    global PROFILE
    if args.profile:
        PROFILE = cProfile.Profile(time.thread_time)
    asyncio.run(run(args))
    if PROFILE is not None:
        stats = pstats.Stats(PROFILE)
        if args.profile_dump:
            stats.dump_stats(args.profile_dump)
        stats.sort_stats(args.profile).print_stats(60)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

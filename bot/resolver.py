"""A round's resolution worked out in a worker process, off the bot's event loop (issue 29).

The engine's resolution, the parsing and writing of the state around it, and the next
round's decisions are pure CPU that holds the GIL: in a thread of the bot's own process a
resolving Lock stalled every other player's click for its 10 to 30 ms. Here a resolution is
a job for a worker process (``SORTIE_RESOLVE_WORKERS``; by default one per core but one,
leaving a core to the event loop; 0 works them out in a thread, as before). The job carries
the round's stored snapshot text (and the history, for a state whose resolution reads it),
the locked choices and what the round's random draws are seeded from; the worker builds
the ruleset from the packaged data and answers with the new state as the store keeps it,
the events, and what the application asks of the new state (``Outcome``). Same code, same
data, same bytes as worked out here (``tests/test_resolver_pool.py``).

Nothing is written by a worker: the application stores the outcome in its own write
transaction, after checking the round is still resolving. A worker that dies mid-job is
replaced and the job given once to the new one; one that answers nothing within
``SORTIE_RESOLVE_TIMEOUT`` seconds is killed and the resolution fails: the round stays
``resolving`` with its locks, and is retried (``CampaignService._resolve``), never lost and
never resolved twice. A plugin built from other data than the packaged one (a test's), and
every job once the processes cannot be started, are worked out in a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import select
import signal
import threading
import traceback
import zlib
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from multiprocessing.reduction import ForkingPickler
from typing import Any

from bot import preload
from bot.processes import count_set, fork_context, hangup_blocked
from bot.round_views import SentView, views_after
from bot.rulesets import Plugin
from db.packing import HISTORY_1, STATE_1, pack
from engine.rng import Rng
from engine.ruleset import Decision, Event, LogDetail, Progress, Stored

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Job:
    """One round to resolve, in plain data that pickles."""

    ruleset: str
    scenario: str
    current: str  # the round's snapshot as stored (``Rules.dump_stored``'s ``current``)
    # The branch's history records up to the snapshot, or None to resolve from the snapshot
    # alone (``Rules.resolves_from_snapshot``; the answer is None if the rules refuse it).
    records: tuple[str, ...] | None
    stored_len: int  # how many history records the branch holds at the snapshot
    choices: Mapping[str, Mapping[str, str]]  # side -> its locked choice
    seed: str  # the campaign's seed: the round's draws are ``Rng(seed, turn, kind)``
    turn: int
    kind: str
    # Whether the round's own decisions are wanted (the caller does not hold them already).
    decisions: bool = True
    # Whether the next round's views are wanted (the public's and each side's it asks).
    views: bool = False
    # Whether the store packs its large texts (``db.packing``; SQLite does): the new state
    # and the round's records are then packed here, off the bot's event loop.
    pack: bool = False


@dataclass(frozen=True)
class Outcome:
    """A resolved round, as the application stores and announces it."""

    stored: Stored  # the new state cut for storage, its records from the branch's end on
    base: int  # how many of the branch's records the new state's own history leaves out
    events: tuple[Event, ...]
    progress: Progress
    ends_turn: bool
    details: tuple[LogDetail, ...]  # what the log tells of the turn, when it ends
    # The turn's reports and whether the card shows the campaign's length, from the
    # public view (asked only when the turn ends).
    reports: int
    shows_length: bool
    decisions: tuple[Decision, ...] | None  # the round's own, when asked
    # The next round's decisions, from the new state as parsed back from its stored text
    # (None once the campaign is over): the application keeps them, so the new round's
    # locks and first panels need not work them out again.
    next_decisions: tuple[Decision, ...] | None
    # That parsed state, when worked out in this process (a worker does not send it back:
    # it would cost as much to unpickle as to parse): the application keeps it.
    bare: Any = None
    # The next round's views, when asked (``bot.round_views.views_after``): the public's
    # and each side's the round asks, those whose records the resolution holds.
    views: tuple[SentView, ...] = ()
    # When the job asks: ``stored.current`` and then each of ``stored.records`` as the store
    # packs them (``db.packing.pack``), and the zlib that packed them.
    packed: tuple[str | bytes, ...] = ()
    zlib_version: str = ""


def packed_values(outcome: Outcome) -> list[tuple[int, str, str | bytes]]:
    """The outcome's packed values as ``db.packing.packed_ahead`` takes them."""
    texts = (outcome.stored.current, *outcome.stored.records)
    marks = (STATE_1, *(HISTORY_1 for _ in outcome.stored.records))
    if len(outcome.packed) != len(texts):
        return []
    return list(zip(marks, texts, outcome.packed, strict=True))


def play(plugin: Plugin[Any, Any], job: Job, state: Any = None) -> Outcome | None:
    """Resolve ``job`` with ``plugin``; ``state``: the snapshot already parsed (from
    ``job.current`` and ``job.records``), when the caller holds it. None when the rules
    need the history and the job came without it."""
    rules = plugin.rules
    if state is None:
        state = rules.load_stored(job.current, job.records or ())
        if job.records is None and job.stored_len and not rules.resolves_from_snapshot(state):
            return None
    decisions = tuple(rules.pending(state)) if job.decisions else None
    new_state, events = rules.resolve(state, job.choices, Rng(job.seed, job.turn, job.kind))
    # A state resolved from its snapshot alone holds only the records its round added.
    base = job.stored_len if job.records is None else 0
    stored = rules.dump_stored(new_state, since=job.stored_len - base)
    progress = rules.progress(new_state)
    ends_turn = rules.ends_turn(job.kind, job.turn, progress)
    details: tuple[LogDetail, ...] = ()
    reports, shows_length = 0, False
    if ends_turn:
        details = tuple(rules.log_detail(new_state, job.turn))
        # The public's view through the same gate as ``bot.secrecy.view_for``.
        public = rules.view(new_state, None)
        reports = plugin.presenter.report_count(public, job.turn)
        shows_length = bool(
            reports and plugin.presenter.campaign_length(job.scenario, public, "en")
        )
    next_decisions, bare = None, None
    views: tuple[SentView, ...] = ()
    if not progress.finished:
        # As the next round will read it: parsed back from storage, its history left out.
        bare = rules.load_stored(stored.current, ())
        next_decisions = tuple(rules.pending(bare))
        if job.views:
            # From what storage will hold: the branch's records as they will stand (those
            # of the job, then the round's own), never the engine's state in memory.
            known = (*(job.records or ()), *stored.records)  # the branch's last records
            views = views_after(
                rules,
                stored.current,
                bare,
                base + stored.length,
                known,
                sorted({d.side for d in next_decisions}, key=rules.side_ids.index),
            )
    packed: tuple[str | bytes, ...] = ()
    if job.pack:
        packed = (pack(stored.current, STATE_1), *(pack(r, HISTORY_1) for r in stored.records))
    return Outcome(
        stored,
        base,
        tuple(events),
        progress,
        ends_turn,
        details,
        reports,
        shows_length,
        decisions,
        next_decisions,
        bare,
        views,
        packed,
        zlib.ZLIB_RUNTIME_VERSION if job.pack else "",
    )


# ------------------------------------------------------------------------ the processes


class WorkerLost(RuntimeError):
    """A resolution's worker died or hung (``hung``): nothing of the round was written."""

    def __init__(self, message: str, *, hung: bool) -> None:
        super().__init__(message)
        self.hung = hung


def workers() -> int:
    """Resolution processes: ``SORTIE_RESOLVE_WORKERS``, else one per core but one (at least
    one); 0 for none (a thread of the bot's process, as before).

    One even on a 2-core machine, from ``bench/capacity.py --apart --resolvers 1,0`` (the
    load's generator in a process of its own, the two settings alternated): the bot's
    process spent 8 % less CPU per call with it, its full collections' worst pauses were
    shorter, and below saturation the open loop's p50 and p99 were no worse, lower at 40
    calls/s (past it, with every core busy, its extra CPU per resolution costs more); the
    process holds 10 to 25 MiB of its own since it shares the fork server's pages
    (``bot.preload``). See docs/benchmarks.md, "Fifth pass: the bot's worker processes"."""
    wanted = count_set("SORTIE_RESOLVE_WORKERS")
    return wanted if wanted is not None and wanted >= 0 else max(1, (os.cpu_count() or 1) - 1)


def timeout() -> float:
    """Seconds a worker has to answer one job (``SORTIE_RESOLVE_TIMEOUT``, 60): a round
    takes milliseconds; one taking this long has hung."""
    try:
        seconds = float(os.environ.get("SORTIE_RESOLVE_TIMEOUT", "60"))
    except ValueError:
        seconds = 60.0
    return seconds if seconds > 0 else 60.0


def _serve(conn: Connection) -> None:
    """A worker's life: answer jobs until the bot closes the pipe."""
    # Ctrl-C reaches the whole process group: the bot stops on it and stops its workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        try:
            if job is None:  # warming up: build the rules now, not on the first round
                preload.registry()
                conn.send(("ok", None))
                continue
            outcome = play(preload.registry().get(job.ruleset), job)
            conn.send(("ok", outcome and replace(outcome, bare=None)))
        except Exception as error:
            # The engine's own failure, as the bot's thread would have raised it.
            error.add_note("in the resolution worker:\n" + traceback.format_exc())
            try:
                conn.send(("error", error))
            except Exception:
                conn.send(("error", RuntimeError(traceback.format_exc())))


# A job pickled to at most this many bytes goes into the pipe at once, whatever its worker
# does (a socket pair's buffer holds about 200 KiB, and it is empty between jobs): no
# watchdog is needed for its send. Jobs are 1 to 11 KiB; one sent its whole history may not be.
QUIET_SEND = 64 * 1024


def _readable(conn: Connection, seconds: float) -> bool:
    """Whether ``conn`` has something to read (an answer, or the end of a dead worker's
    pipe) within ``seconds``, counted by the kernel: multiprocessing's own ``poll`` loops
    on ``time.monotonic``, which a test's clock may hold still (see ``_Worker.ended``)."""
    poller = select.poll()
    poller.register(conn.fileno(), select.POLLIN)
    return bool(poller.poll(max(0, int(seconds * 1000))))


class _Worker:
    """One process and its pipe, used by one thread at a time."""

    def __init__(self) -> None:
        context = fork_context()
        self.conn, child = context.Pipe()
        with hangup_blocked():
            self.process = context.Process(target=_serve, args=(child,), daemon=True)
            self.process.start()
        child.close()

    def ask(self, job: Job | None, seconds: float) -> Any:
        """The worker's answer to ``job``; ``WorkerLost`` if it dies or overruns."""
        data = ForkingPickler.dumps(job)  # as ``Connection.send`` pickles it
        hung = threading.Event()
        watchdog: threading.Timer | None = None
        if len(data) > QUIET_SEND:
            # A job this large may fill the pipe, and the send would wait for ever on a
            # worker that hung before reading it: the watchdog's kill ends that wait.
            def overrun() -> None:
                hung.set()
                with contextlib.suppress(Exception):
                    self.process.kill()

            watchdog = threading.Timer(seconds, overrun)
            watchdog.daemon = True
            watchdog.start()
        try:
            self.conn.send_bytes(data)
            # The answer waited for with one ``poll``, whose timeout the kernel counts (as
            # ``ended`` does), not a watchdog thread started for every job: starting and
            # cancelling one cost about 0.1 ms CPU a resolution, and the GIL's hand-overs.
            if not hung.is_set() and not _readable(self.conn, seconds):
                hung.set()
                self.kill()
            status, value = self.conn.recv()
        except (EOFError, OSError) as error:
            self.kill()
            why = f"answered nothing in {seconds:g} s" if hung.is_set() else "died"
            raise WorkerLost(
                f"resolution worker {self.process.pid} {why}", hung=hung.is_set()
            ) from error
        finally:
            if watchdog is not None:
                watchdog.cancel()
        if status == "error":
            raise value
        return value

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.process.kill()
        with contextlib.suppress(Exception):
            self.conn.close()

    def ended(self, seconds: float = 0.0) -> bool:
        """Whether the process has ended, waiting up to ``seconds`` for it, reaped if so.

        Its sentinel is read with one ``select``, whose timeout the kernel counts:
        multiprocessing's own waits (``is_alive``, ``join``) loop on ``time.monotonic``
        until their timeout has passed (even a timeout of 0 s), so a clock that stands still
        (simcord's, in the end-to-end tests) held a resolving Lock for ever."""
        try:
            ready, _, _ = select.select([self.process.sentinel], [], [], seconds)
        except (OSError, ValueError):
            return True  # its sentinel is closed: nothing left to wait for
        if ready:
            self.process.join()  # returns at once: the process is known to have ended
        return bool(ready)

    def alive(self) -> bool:
        return not self.conn.closed and not self.ended()

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.close()  # the worker's recv ends: it returns
        if not self.ended(5):
            self.kill()
            self.ended(1)


_lock = threading.Lock()
_threads: ThreadPoolExecutor | None = None
_local = threading.local()  # each of ``_threads`` owns one worker: ``_local.worker``
_all: list[_Worker] = []  # every worker started and not stopped, for ``shut_down``
_broken = False  # the processes could not start: resolutions stay in threads


def _executor() -> ThreadPoolExecutor | None:
    global _threads
    with _lock:
        if _threads is None and not _broken and workers() > 0:
            # One thread per worker: a job waits for a free one in the executor's queue.
            _threads = ThreadPoolExecutor(workers(), thread_name_prefix="resolver")
        return _threads


# Seconds a new worker has to start and build its rules (about a second on an idle core):
# a job's own ``timeout()`` counts its resolution only.
START_SECONDS = 120.0


def _own_worker() -> _Worker:
    """This thread's worker, started (and its rules built) if it has none alive."""
    worker: _Worker | None = getattr(_local, "worker", None)
    if worker is None or not worker.alive():
        if worker is not None:
            _forget(worker)
        _local.worker = None
        worker = _Worker()
        with _lock:
            _all.append(worker)
        try:
            worker.ask(None, START_SECONDS)
        except WorkerLost as lost:
            # Not this round's fault: no worker can be had here, rounds go to threads.
            _forget(worker)
            raise OSError(f"a resolution worker could not start ({lost})") from lost
        _local.worker = worker
    return worker


def _forget(worker: _Worker) -> None:
    worker.kill()
    worker.ended(1)
    with _lock:
        if worker in _all:
            _all.remove(worker)


def _exchange(job: Job) -> Any:
    """In one of ``_threads``: the job through this thread's worker. A worker that died
    (killed from outside, out of memory) is replaced and the job given once more; one that
    hung is not given it again (a job that hangs a worker would hang the next)."""
    seconds = timeout()
    for attempt in (1, 2):
        worker = _own_worker()
        try:
            return worker.ask(job, seconds)
        except WorkerLost as lost:
            _forget(worker)
            _local.worker = None
            if lost.hung or attempt == 2:
                raise
            log.warning("%s; its round goes to a new one", lost)
    raise AssertionError("unreachable")


def in_workers(plugin: Plugin[Any, Any]) -> bool:
    """Whether ``plugin``'s rounds resolve in the worker processes."""
    return plugin.packaged and workers() > 0 and not _broken


async def resolve(plugin: Plugin[Any, Any], job: Job, state: Any = None) -> Outcome | None:
    """``play(plugin, job)``, in a worker process when there are some, else in a thread
    (with ``state``, the snapshot parsed already, when the caller has it)."""
    threads = _executor() if plugin.packaged else None
    if threads is None:
        return await asyncio.to_thread(play, plugin, job, state)
    handed = asyncio.get_running_loop().run_in_executor(threads, _exchange, job)
    return await _answer(plugin, job, handed, state)


def start(plugin: Plugin[Any, Any], job: Job) -> asyncio.Future[Outcome | None]:
    """``resolve(plugin, job)`` begun now, its answer to await later: for a caller inside a
    transaction, whose job then runs while the transaction commits. The job is handed to
    the workers' threads at once, not at the event loop's next turn."""
    threads = _executor() if plugin.packaged else None
    if threads is None:
        return asyncio.ensure_future(resolve(plugin, job))
    handed = asyncio.get_running_loop().run_in_executor(threads, _exchange, job)
    return asyncio.ensure_future(_answer(plugin, job, handed))


async def _answer(
    plugin: Plugin[Any, Any],
    job: Job,
    handed: asyncio.Future[Outcome | None],
    state: Any = None,
) -> Outcome | None:
    global _broken
    try:
        return await handed
    except OSError as error:
        # No process could be started (a host without them): threads from now on.
        log.warning("resolver: no worker processes (%s); resolving in threads", error)
        with _lock:
            _broken = True
    return await asyncio.to_thread(play, plugin, job, state)


def warm_up() -> None:
    """Start the workers and build their rules now (the bot calls this once ready), so the
    first round resolved does not wait for a process to start."""
    threads = _executor()
    if threads is None:
        return
    futures = [threads.submit(_own_worker) for _ in range(workers())]
    for future in futures:
        future.result()


def shut_down() -> None:
    """Stop the workers (a job under way finishes first); the bot's close calls this, so
    no worker outlives it. A later resolution starts them again."""
    global _threads
    with _lock:
        threads, _threads = _threads, None
    if threads is not None:
        threads.shutdown(wait=True)
    with _lock:
        workers_now, _all[:] = list(_all), []
    for worker in workers_now:
        worker.stop()


def pids() -> Sequence[int]:
    """The worker processes' ids (tests kill them)."""
    with _lock:
        return [w.process.pid for w in _all if w.process.pid is not None]

"""What the bot's worker processes (odds previews, pictures, resolutions) share."""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import multiprocessing.context
import os
import signal
import threading
from collections.abc import Iterator
from multiprocessing import forkserver
from typing import Any


@contextlib.contextmanager
def hangup_blocked() -> Iterator[None]:
    """SIGHUP blocked in this thread while it may start processes, which keep it blocked.

    A closed terminal sends SIGHUP to the whole process group; the bot stops cleanly on it
    and stops its workers (``shut_down``), but the workers, their fork server and
    multiprocessing's resource tracker would die of it at once, the tracker then printing a
    warning and a traceback per semaphore. The processes started here (on first use, at
    ``map``) inherit this thread's signal mask, so the signal stays pending in them, unseen.
    """
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGHUP})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def count_set(variable: str) -> int | None:
    """The process count an environment variable asks for, or None when it is unset or not
    a whole number (each pool then sizes itself to the machine its own way)."""
    try:
        return int(os.environ[variable])
    except (KeyError, ValueError):
        return None


_server_lock = threading.Lock()
_server_asked = False


def fork_context() -> multiprocessing.context.ForkServerContext:
    """The start method of every worker pool: forked from multiprocessing's fork server, so
    the bot's threads and sockets are never forked into a worker, the server started once
    with ``bot.preload`` imported (what every worker shares, built once).

    Python 3.11's fork server is handed the bot's ``sys.path`` but does not apply it: it is
    started here with this copy's folder first on ``PYTHONPATH`` and named in
    ``SORTIE_PRELOAD_FROM``, which ``bot.preload`` checks (and both are put back in the
    server), so it never preloads another copy of the code (an installed one).
    """
    global _server_asked
    context = multiprocessing.get_context("forkserver")
    with _server_lock:
        if not _server_asked:
            _server_asked = True
            from bot import preload

            context.set_forkserver_preload([preload.__name__])
            path = os.environ.get("PYTHONPATH")
            first = preload.ROOT + (os.pathsep + path if path else "")
            # (hangup_blocked: it starts the resource tracker and the server)
            with _environment(PYTHONPATH=first, **{preload.FROM: preload.ROOT}), hangup_blocked():
                forkserver.ensure_running()
            # A server multiprocessing restarts (this one killed) preloads nothing: without
            # the environment above it could find another copy of the bot first.
            context.set_forkserver_preload([])
    return context


@contextlib.contextmanager
def _environment(**values: str) -> Iterator[None]:
    """``values`` in the environment of the processes started meanwhile, then put back."""
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def share_start_up() -> int | None:
    """The bot's start-up, once, before it opens anything (a database, Discord, a thread):
    build every game's rules and presenters and read the words here, put them out of the
    collector's reach, then fork the fork server from this process
    (``fork_server_from_here``); its pid, or None if one ran already.

    The workers forked from it map the bot's own copy of all that, shared, where a fork
    server of its own built a second one (and each worker wrote into its share of it);
    the bot uses the same registry (``bot.runtime.open_services``), so it builds no third.
    Frozen first: a full collection writes into every object it walks, which would copy
    each page of them in the bot (``bot.runtime.freeze_start_up`` freezes again later).
    No font is open yet: a file FreeType reads, opened before the fork, would be one file
    position shared by every worker.
    """
    from bot import collector, preload
    from rendering import i18n, rulebook

    preload.registry()
    i18n.warm()
    rulebook.warm()
    gc.collect()
    gc.freeze()
    collector.mark_shared()  # what the collector's reviews leave alone: shared, unwritten
    return fork_server_from_here()


def fork_server_from_here() -> int | None:
    """Start multiprocessing's fork server as a fork of this process, not as a new
    interpreter; its pid, or None when one runs already (nothing done).

    Called once by the bot's start-up (``share_start_up``) before it opens a
    database, a connection or a thread: the server, and every worker forked from it, then
    map the bot's own pages (the interpreter, the modules, the games' rules and presenters,
    the words), shared until one of them writes to a page (copy on write). A server started
    as a new interpreter built its own copy of all that, and each worker wrote into its
    share: with 1,000 campaigns the server, the drawing and the resolving processes held 88
    MiB between them at rest (``bench/memory.py``).

    What the bot set up is not the server's: every file descriptor but the two it serves
    on (and the standard ones) is closed in it, and every signal the bot handles goes back
    to its default there (a server that ignored SIGTERM would outlive a stopped bot), but
    Ctrl-C, ignored there so that a worker never sees it. SIGHUP stays blocked in it, as
    ``hangup_blocked`` keeps it in every worker. A server multiprocessing must start again
    later (this one killed) is a new interpreter, as before.
    """
    import socket
    from multiprocessing import connection, util

    server: Any = forkserver._forkserver
    global _server_asked
    with server._lock:
        if server._forkserver_pid is not None:
            return None
        _tracker_from_here()
        # As ``ForkServer.ensure_running`` sets up its server, but forked, not spawned.
        with socket.socket(socket.AF_UNIX) as listener:
            address = connection.arbitrary_address("AF_UNIX")  # type: ignore[attr-defined]
            listener.bind(address)
            if not util.is_abstract_socket_namespace(address):
                os.chmod(address, 0o600)
            listener.listen()
            alive_r, alive_w = os.pipe()
            try:
                with hangup_blocked():
                    pid = os.fork()
                if pid == 0:  # the fork server: never back into the bot's code
                    code = 1
                    try:
                        _only(listener.fileno(), alive_r)
                        forkserver.main(listener.fileno(), alive_r, [])
                    except SystemExit:
                        code = 0  # every client gone: the server's normal end
                    finally:
                        os._exit(code)
            except BaseException:
                os.close(alive_w)
                raise
            finally:
                os.close(alive_r)
            server._forkserver_address = address
            server._forkserver_alive_fd = alive_w
            server._forkserver_pid = pid
        # Nothing preloaded by a server multiprocessing starts again (this one killed), as
        # ``fork_context`` leaves it: no preload asked of one that holds it all already.
        forkserver.set_forkserver_preload([])
        _server_asked = True
    return pid


def _tracker_from_here() -> None:
    """multiprocessing's resource tracker forked from here too, as ``fork_server_from_here``
    forks the server (a new interpreter of its own held 6.6 MiB); as
    ``ResourceTracker.ensure_running`` starts it otherwise."""
    from multiprocessing import resource_tracker

    tracker: Any = resource_tracker._resource_tracker
    with tracker._lock:
        if tracker._fd is not None:
            return
        read, write = os.pipe()
        # Ctrl-C and SIGTERM blocked until the tracker ignores them (its ``main`` does, then
        # unblocks them), as when it is spawned; SIGHUP stays blocked (``hangup_blocked``).
        held = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, held)
        try:
            pid = os.fork()
            if pid == 0:
                code = 1
                try:
                    _only(read)
                    resource_tracker.main(read)
                    code = 0
                finally:
                    os._exit(code)
        except BaseException:
            os.close(write)
            raise
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
            os.close(read)
        tracker._fd, tracker._pid = write, pid


def _only(*kept: int) -> None:
    """In a forked server: the bot's descriptors closed but ``kept`` and the standard
    three, its signal handlers back to their defaults (Ctrl-C ignored)."""
    low = 0
    for fd in sorted({0, 1, 2, *kept}):
        if fd > low:  # (``closerange`` of an empty range closes every descriptor)
            os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, os.sysconf("SC_OPEN_MAX"))
    for number in signal.valid_signals():
        if number in (signal.SIGKILL, signal.SIGSTOP, signal.SIGPIPE):
            continue  # SIGPIPE: ignored by every Python process from its start
        # SIGINT ignored, which every worker inherits from its first instruction: a worker
        # ignores it anyway once started, but a second Ctrl-C landing while it was still
        # being forked printed a KeyboardInterrupt traceback on the operator's terminal.
        default = signal.SIG_IGN if number == signal.SIGINT else signal.SIG_DFL
        try:
            if signal.getsignal(number) not in (default, None):
                signal.signal(number, default)
        except (OSError, ValueError):
            continue

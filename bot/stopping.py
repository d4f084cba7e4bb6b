"""How a command stops when the operator asks: Ctrl-C (SIGINT), systemd or docker (SIGTERM),
a terminal or an ssh session closed (SIGHUP).

Python's own answer to these is a KeyboardInterrupt traceback for the first, which reads as
a crash, and an immediate death for the other two, which skips the bot's close. Here each
becomes ``Stopped``: in the event loop the running work is cancelled once, so that its
``finally`` and ``async with`` blocks close what it holds (a delivery in progress finishes,
the database commits and closes, the odds workers end), and ``Stopped`` is raised once they
have; outside the loop the signal raises it where the program is, as Ctrl-C raises
KeyboardInterrupt. The command then says so in one line and exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Coroutine
from types import FrameType
from typing import Any, TypeVar

T = TypeVar("T")

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

Handler = Callable[[int, FrameType | None], Any] | int | None


class Stopped(BaseException):
    """The operator stopped the program with a signal.

    A BaseException, as KeyboardInterrupt: an ``except Exception`` meant for failures must
    not take a stop for one.
    """

    def __init__(self, signum: int) -> None:
        self.signal = signal.Signals(signum)
        super().__init__(self.signal.name)

    @property
    def name(self) -> str:
        return self.signal.name

    @property
    def exit_code(self) -> int:
        """128 + the signal's number, as a shell reports a command the signal ended."""
        return 128 + int(self.signal)


def tell(line: str) -> None:
    """One line on stderr, if anyone can still read it: after SIGHUP the terminal may be
    gone, and a failed write must not stop the close."""
    with contextlib.suppress(OSError, ValueError):
        print(line, file=sys.stderr, flush=True)


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    raise Stopped(signum)


def _ignored(sig: signal.Signals) -> bool:
    # ``nohup`` ignores SIGHUP, a shell ignores SIGINT in a job it runs in the background:
    # what the operator set up to be ignored stays ignored.
    return signal.getsignal(sig) is signal.SIG_IGN


def raise_on_stop_signals() -> dict[signal.Signals, Handler]:
    """Make the stop signals raise ``Stopped`` outside the event loop; the handlers they had
    before, for ``restore``. Main thread only, as any signal handler."""
    before: dict[signal.Signals, Handler] = {}
    if threading.current_thread() is not threading.main_thread():
        return before
    for sig in STOP_SIGNALS:
        if not _ignored(sig):
            before[sig] = signal.signal(sig, _raise_stopped)
    return before


def restore(handlers: dict[signal.Signals, Handler]) -> None:
    for sig, handler in handlers.items():
        signal.signal(sig, handler)


def as_stopped(error: KeyboardInterrupt | Stopped) -> Stopped:
    """A Ctrl-C that came as KeyboardInterrupt (before our handlers, or between two event
    loops) is the same stop as any other."""
    return error if isinstance(error, Stopped) else Stopped(signal.SIGINT)


async def stoppable(work: Coroutine[Any, Any, T], *, say: bool = False) -> T:
    """Await ``work``; a stop signal cancels it, once, and ``Stopped`` is raised after the
    work has finished unwinding (its closes done).

    ``say``: announce the stop on stderr as it begins, for work whose close takes a while
    (the bot waits for a delivery in progress); a second signal is then told the stop is
    under way rather than cutting the close short, which a third would not do either: a
    kill (SIGKILL) is what ends a process at once.
    """
    if threading.current_thread() is not threading.main_thread():
        return await work  # signals reach the main thread only
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    asked: list[signal.Signals] = []

    def stop(sig: signal.Signals) -> None:
        if asked:
            if say:
                tell(f"Sortie: still stopping ({sig.name}), after what is in progress...")
            return
        asked.append(sig)
        task.cancel()
        if say:
            tell(f"Sortie: stopping ({sig.name})...")

    before: dict[signal.Signals, Handler] = {}
    for sig in STOP_SIGNALS:
        if not _ignored(sig):
            before[sig] = signal.getsignal(sig)
            loop.add_signal_handler(sig, stop, sig)
    try:
        return await work
    except asyncio.CancelledError:
        if not asked:
            raise  # cancelled by something else than a stop: not ours to answer
        task.uncancel()
        raise Stopped(asked[0]) from None
    finally:
        for sig, handler in before.items():
            loop.remove_signal_handler(sig)
            signal.signal(sig, handler)  # the loop would leave the default in its place

"""What the bot's worker processes share: imported and built once, in their fork server.

The worker processes (pictures, odds previews, resolutions: ``bot.drawing``, ``bot.odds``,
``bot.resolver``) are forked from multiprocessing's fork server. Each used to import the
engine, pydantic, Pillow and the presenters and build every game's rules and presenters on
its own: 40 to 50 MiB of each worker's memory was its own copy of the same things
(``bench/memory.py``). The fork server imports this module before it forks any worker
(``bot.processes.fork_context``), so those pages are the server's and every worker maps
them, shared until it writes to one (copy on write). The collector is told to leave them
alone (``gc.freeze``): a collection writes into every object it visits, which would copy
the pages of everything built here into each worker at its first collection.

The bot itself (``python -m bot run``) goes further: it builds all that in its own
process and forks the fork server from itself before it opens anything
(``bot.processes.share_start_up``), so the server and the workers map the bot's own
pages and nobody builds a second copy (1,000 campaigns: the whole bot 260 -> 220 MB at
rest). What follows is for a fork server started as a new interpreter (tests,
benchmarks, a server restarted).

Only where the fork server runs the bot's own copy of the code: Python 3.11's fork
server is handed the bot's ``sys.path`` but does not apply it, so
``bot.processes.fork_context`` starts it with the bot's folder on ``PYTHONPATH`` and names
that folder in ``SORTIE_PRELOAD_FROM``; a fork server that found another copy first loads
nothing of it: each worker then imports and builds what it needs itself, as before.
``fork_context`` names no preload once its server runs, so a restarted one loads nothing.

Fonts are not opened here: a font's file is read by FreeType as pictures are drawn, and a
file opened before the fork would be one file position shared by every worker.
"""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.rulesets import Registry

ROOT = str(Path(__file__).resolve().parents[1])  # the folder this copy of the bot is in
FROM = "SORTIE_PRELOAD_FROM"  # the environment variable naming the folder to load from

_registry: Registry | None = None
# The process that built ``_registry``: a worker whose registry came from its fork server
# holds the server's pid here, not its own (``tests/test_preload.py``).
built_by: int | None = None


def registry() -> Registry:
    """Every game's rules and presenters from the packaged data: the fork server's, shared,
    when it built them; else built here, once per process."""
    global _registry, built_by
    if _registry is None:
        from bot.rulesets import Registry

        _registry, built_by = Registry(), os.getpid()
    return _registry


def built() -> Registry | None:
    """The registry this process built (``registry``) or inherited, if any."""
    return _registry


def _in_fork_server() -> None:
    """Build the workers' shared registry, if this is a fork server the bot started."""
    wanted = os.environ.pop(FROM, None)  # the workers forked from here do not inherit it
    if wanted is None:
        return  # imported as any module is (the bot, a worker)
    if wanted != ROOT:
        # A fork server that found another copy of the bot first (its working folder comes
        # before PYTHONPATH): nothing of that copy stays imported, so the workers import
        # the bot's own. The server skips a preload whose import fails, and the import
        # system drops this module itself then.
        for name in [name for name in sys.modules if name.partition(".")[0] == "bot"]:
            if name != __name__:
                del sys.modules[name]
        raise ImportError(f"{__name__}: the fork server found {ROOT}, not {wanted}")
    # The workers inherit the bot's own PYTHONPATH, without the folder put first for this.
    rest = os.environ.get("PYTHONPATH", "").split(os.pathsep)[1:]
    if rest:
        os.environ["PYTHONPATH"] = os.pathsep.join(rest)
    else:
        os.environ.pop("PYTHONPATH", None)
    registry()
    # What every worker reads on first use, read once here: the words and babel's locale
    # data (4.4 MiB a worker that resolved or drew in both languages, by tracemalloc).
    from rendering import i18n

    i18n.warm()
    gc.collect()  # what building left for the collector goes now, before the pages are shared
    gc.freeze()


_in_fork_server()

"""The worker processes share what their fork server built (``bot.preload``).

Each worker (pictures, odds previews, resolutions) used to import the engine and the
presenters and build every game's rules on its own, 40 to 50 MiB apiece. The fork server
now builds them once before it forks: a worker's registry is the one the server built (its
``built_by`` is the server's pid, not the worker's), and the server is of this copy of the
code. A fork server that found another copy of the bot first keeps nothing of it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bot import drawing, preload, processes

ROOT = Path(__file__).resolve().parents[1]


def _what_the_worker_holds() -> tuple[int, int | None, str, int]:
    """In a worker: its pid, who built its registry, where its bot comes from, and how many
    objects the collector was told to leave alone before it was forked."""
    import gc

    from bot import preload

    built = preload.built_by
    preload.registry()  # what a job does first: the same object when the server built it
    return os.getpid(), built, preload.ROOT, gc.get_freeze_count()


def test_a_worker_uses_the_rules_and_presenters_its_fork_server_built(drawing_pool: None) -> None:
    drawing.warm_up()
    assert drawing._pool is not None
    pid, built_by, root, frozen = drawing._pool.submit(_what_the_worker_holds).result(60)
    assert built_by is not None and built_by != pid  # built before the fork, in the server
    assert built_by != os.getpid()  # nor in the bot's own process
    assert root == str(ROOT)  # this copy of the code, not another one
    assert frozen > 10_000  # the server's objects out of the collector's reach


def test_every_pool_starts_its_workers_from_the_one_fork_server() -> None:
    context = processes.fork_context()
    assert context is processes.fork_context()
    with context.Pool(1) as workers:
        pid, built_by, _root, _frozen = workers.apply(_what_the_worker_holds)
    assert built_by is not None and built_by != pid


def _imported(environment: dict[str, str]) -> list[str]:
    """Import ``bot.preload`` as a fork server does (an ImportError skipped), in a fresh
    interpreter: the bot's modules left imported, whether it built the registry, and
    PYTHONPATH as it ends."""
    code = (
        "import os, sys\n"
        "try:\n    import bot.preload as p\nexcept ImportError:\n    p = None\n"
        "print(sorted(m for m in sys.modules if m.partition('.')[0] == 'bot'))\n"
        "print(p is not None and p.built_by == os.getpid())\n"
        "print(os.environ.get('PYTHONPATH'))\n"
        "from babel import localedata\n"
        "from rendering import i18n\n"
        "print(i18n._messages.cache_info().currsize, sorted(localedata._cache))"
    )
    env = {**os.environ, **environment}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.splitlines()


def test_a_fork_server_of_this_copy_builds_the_registry_and_gives_back_pythonpath() -> None:
    modules, built, path, read = _imported(
        {"PYTHONPATH": f"{ROOT}{os.pathsep}/elsewhere", preload.FROM: str(ROOT)}
    )
    assert "'bot.rulesets'" in modules and built == "True"
    assert path == "/elsewhere"  # the workers inherit the bot's own PYTHONPATH
    # The words and babel's locale data each worker would read on first use (4.4 MiB).
    assert read == "2 ['en', 'fr', 'root']", read


def test_a_fork_server_that_found_another_copy_keeps_nothing_of_it() -> None:
    modules, built, _path, _read = _imported(
        {"PYTHONPATH": str(ROOT), preload.FROM: "/another/copy"}
    )
    assert modules == "[]" and built == "False"


def test_imported_by_the_bot_it_builds_nothing() -> None:
    modules, built, _path, _read = _imported({"PYTHONPATH": str(ROOT)})
    assert "'bot.preload'" in modules and "'bot.rulesets'" not in modules
    assert built == "False"

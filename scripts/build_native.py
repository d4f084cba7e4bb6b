"""Compiles the strike's hot modules with mypyc, next to their sources (issue 13's speed),
and the bot's C helpers (``HELPERS``: the collector's listing of frozen objects).

    python scripts/build_native.py          # build (a failure leaves pure Python, exit 0)
    python scripts/build_native.py --clean  # remove the compiled modules
    python scripts/build_native.py --strict # build, and fail if it cannot
    python scripts/build_native.py --check  # the demo, compiled and interpreted: same bytes?

The compiled modules are a cache of the sources, never committed (.gitignore): a clone
without them, or ``SORTIE_PURE=1`` in the environment (``engine/__init__.py``), runs the
same sources interpreted, with the same outputs byte for byte
(``tests/engine/test_native.py``). mypyc reads the project's mypy settings; the C build
calls setuptools' ``build_ext`` directly, without the packaging metadata, so it works with
whatever setuptools the venv has (the CLI ``mypyc`` would not: it needs setuptools >= 77).
"""

from __future__ import annotations

import argparse
import filecmp
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The strike and what it calls in its inner loops (the profile in docs/benchmarks.md), and
# the secrecy gate every view walks a state through (``engine.sight``: issue 29).
# Not here: the carrier's ``engine.rulesets.carrier.turn``, whose ``fly_strike`` the engine
# bench and a test replace at run time (a compiled module's calls would not see it),
# ``engine.zero.mirror``, which makes classes on the fly, and the pydantic models' modules.
MODULES = (
    "engine/zero/strike.py",
    "engine/zero/dogfight.py",
    "engine/zero/flak.py",
    "engine/zero/bombing.py",
    "engine/zero/cards.py",
    "engine/zero/trusted.py",
    "engine/compact.py",
    "engine/sight.py",
)


# C written for the bot, not compiled from Python: the collector's in-place listing of
# the frozen objects (``bot/_frozen.c``). Absent, the bot runs the same, its collector's
# reviews copying start-up's shared pages (``bot.collector``).
HELPERS = (("bot._frozen", "bot/_frozen.c"),)

# mypyc's library of the compiled code, inside the package (not at the top level, where a
# process started elsewhere would not find it); and what it was compiled from, read by
# ``engine/__init__.py``, which runs the sources while they differ from it.
GROUP = "engine._compiled"
STAMP = ROOT / "engine" / "_compiled.json"


def compiled() -> list[Path]:
    """The compiled files a build leaves: one per module, and mypyc's shared library."""
    found = [p for m in MODULES for p in (ROOT / m).parent.glob(Path(m).stem + ".*.so")]
    return found + sorted((ROOT / "engine").glob("_compiled__mypyc.*.so"))


def helpers_built() -> list[Path]:
    """The helpers' compiled files (``HELPERS``)."""
    found: list[Path] = []
    for name, _ in HELPERS:
        folder, _, stem = name.rpartition(".")
        found += sorted((ROOT / folder.replace(".", "/")).glob(stem + ".*.so"))
    return found


def clean() -> None:
    for path in [*compiled(), *helpers_built(), STAMP]:
        path.unlink(missing_ok=True)


def sources() -> dict[str, str]:
    """Each compiled module's path under ``engine/`` and the SHA-256 of its source."""
    return {
        str(Path(m).relative_to("engine")): hashlib.sha256((ROOT / m).read_bytes()).hexdigest()
        for m in MODULES
    }


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import Distribution

    os.chdir(ROOT)
    clean()
    built_from = sources()
    extensions = mypycify(list(MODULES), opt_level="3", target_dir="build/mypyc", group_name=GROUP)
    dist = Distribution({"name": "sortie-native", "ext_modules": extensions})
    dist.script_args = ["build_ext", "--inplace", "--build-temp", "build/mypyc/temp"]
    dist.parse_command_line()
    dist.run_commands()
    STAMP.write_text(json.dumps(built_from, indent=1) + "\n")


def build_helpers() -> None:
    from setuptools import Distribution, Extension

    os.chdir(ROOT)
    helpers = [Extension(name, [source]) for name, source in HELPERS]
    dist = Distribution({"name": "sortie-helpers", "ext_modules": helpers})
    dist.script_args = ["build_ext", "--inplace", "--build-temp", "build/helpers/temp"]
    dist.parse_command_line()
    dist.run_commands()


def check() -> int:
    """``python -m bot demo`` compiled and interpreted (``SORTIE_PURE=1``): every file it
    writes (images, logs, the export, the database) must be the same bytes."""
    if not compiled():
        print("native: nothing compiled to check (build first)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        runs = {}
        for pure in ("0", "1"):
            out = Path(tmp) / f"pure-{pure}"
            env = {**os.environ, "SORTIE_PURE": pure}
            demo = [sys.executable, "-m", "bot", "demo", "--out", str(out)]
            subprocess.run(demo, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
            runs[pure] = out
        names = sorted(p.name for p in runs["0"].iterdir())
        assert names == sorted(p.name for p in runs["1"].iterdir()), "different files"
        _, differ, errors = filecmp.cmpfiles(runs["0"], runs["1"], names, shallow=False)
    if differ or errors:
        print(f"native: the demo differs compiled and interpreted: {differ + errors}")
        return 1
    print(f"native: the demo's {len(names)} files are the same compiled and interpreted")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    parser.add_argument("--strict", action="store_true", help="fail if the build fails")
    parser.add_argument("--check", action="store_true", help="compare the demo both ways")
    args = parser.parse_args(argv)
    if args.check:
        return check()
    if args.clean:
        clean()
        print("native: removed; the engine runs interpreted")
        return 0
    start = time.monotonic()
    try:
        build()
    except (Exception, SystemExit) as error:  # no mypyc, no compiler, a mypyc error
        clean()
        print(f"native: build failed ({error!r}); the engine runs interpreted", file=sys.stderr)
        return 1 if args.strict else 0
    try:
        build_helpers()
    except (Exception, SystemExit) as error:  # no compiler, no CPython internal headers
        for path in helpers_built():
            path.unlink(missing_ok=True)
        print(f"native: the bot's helpers did not build ({error!r})", file=sys.stderr)
        if args.strict:
            return 1
    names = ", ".join(p.name for p in [*compiled(), *helpers_built()])
    print(f"native: built in {time.monotonic() - start:.0f} s: {names}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

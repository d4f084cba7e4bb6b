"""The compiled engine (scripts/build_native.py) and the interpreted one agree byte for byte.

The strike's modules may run compiled by mypyc, or interpreted from the same sources: in a
clone without a build, after a failed build, or with ``SORTIE_PURE=1``. Both must give the
same campaigns and odds, to the byte (``tests/engine/golden.py``'s digests). Here the
interpreted engine runs in a child process with ``SORTIE_PURE=1`` and is compared with
this process's engine, compiled when a build is present. ``python scripts/build_native.py
--check`` compares the demo's files (images, logs, export) the same way.
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pytest

from bench.views import digest, first_games
from engine.ruleset import Event
from engine.sight import Eyes, own
from tests.engine.golden import compute

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from build_native import MODULES, compiled  # noqa: E402

NAMES = [m.removesuffix(".py").replace("/", ".") for m in MODULES]


def _in_child(code: str, *, pure: bool) -> str:
    env = {k: v for k, v in os.environ.items() if k != "SORTIE_PURE"}
    if pure:
        env["SORTIE_PURE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _origins(*, pure: bool) -> dict[str, str]:
    code = (
        "import importlib, json\n"
        f"print(json.dumps({{n: importlib.import_module(n).__file__ for n in {NAMES!r}}}))"
    )
    return {name: Path(path).name for name, path in json.loads(_in_child(code, pure=pure)).items()}


def test_sortie_pure_runs_the_sources_even_beside_a_build() -> None:
    origins = _origins(pure=True)
    assert origins == {name: name.split(".")[-1] + ".py" for name in NAMES}


def test_a_build_is_what_the_engine_runs() -> None:
    if os.environ.get("SORTIE_PURE") == "1" or not compiled():
        pytest.skip("no compiled engine here (scripts/build_native.py): the golden test runs it")
    origins = _origins(pure=False)
    assert all(path.endswith(".so") for path in origins.values()), origins
    assert all(import_module(name).__file__.endswith(".so") for name in NAMES)  # type: ignore[union-attr]


def test_compiled_and_interpreted_engines_give_the_same_bytes() -> None:
    if os.environ.get("SORTIE_PURE") == "1" or not compiled():
        pytest.skip("no compiled engine here (scripts/build_native.py): the golden test runs it")
    interpreted = json.loads(
        _in_child(
            "import json\nfrom tests.engine.golden import compute\nprint(json.dumps(compute()))",
            pure=True,
        )
    )
    here = compute()
    assert here.keys() == interpreted.keys()
    assert [name for name in here if here[name] != interpreted[name]] == []


def test_the_secrecy_gate_is_compiled_with_the_strike() -> None:
    """The gate (``engine.sight.keep``) walks a state for every view the bot makes on its
    event loop, three per resolution (issue 29): it is compiled with the strike."""
    assert "engine.sight" in NAMES
    if os.environ.get("SORTIE_PURE") == "1" or not compiled():
        pytest.skip("no compiled engine here (scripts/build_native.py)")
    assert import_module("engine.sight").__file__.endswith(".so")  # type: ignore[union-attr]


def test_compiled_and_interpreted_gates_keep_the_same_views() -> None:
    """Every state of one recorded game per ruleset, every viewer: what the gate keeps and
    the view made of it, each value with its type, in order (``bench/views.py``)."""
    if os.environ.get("SORTIE_PURE") == "1" or not compiled():
        pytest.skip("no compiled engine here (scripts/build_native.py)")
    code = "from bench.views import digest, first_games\nprint(digest(first_games()))"
    assert _in_child(code, pure=True) == digest(first_games()) + "\n"


def test_labels_and_eyes_pickle_and_copy_compiled_as_interpreted() -> None:
    """A label and a viewer are frozen dataclasses: compiled, they are native classes whose
    default pickle and copy would set each field through the frozen ``__setattr__`` and be
    refused. A secret event carries its label from the resolving worker to the bot."""
    label = own("never", key="planes", owner_sees=len)
    event = Event(kind="looked", turn=3, data={"plane": "a"}, sight=label, owner="allied")
    for value in (label, Eyes.of("allied"), Eyes.gm(True), Eyes.public()):
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.copy(value) == value and copy.deepcopy(value) == value
    again = pickle.loads(pickle.dumps(event))
    assert (again.sight, again.owner) == (label, "allied")
    assert copy.deepcopy(event).sight == label

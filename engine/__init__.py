"""The pure rules of every game: the seam (``ruleset``, ``rng``), ZERO!'s shared strike
rules and data (``zero``), and one package per game (``rulesets.<game>``).

Belongs here: the campaign state, the legal options (``pending``), resolution of locked
choices (``resolve``), what each side may see (``view``), and the data files that feed
them. Does not belong here: Discord, asyncio, the database, the clock, or any randomness
that does not come from the ``rng`` argument. Same inputs, same outputs, always.
"""

import hashlib
import json
import os
import sys
import warnings
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, ModuleSpec, SourceFileLoader
from pathlib import Path
from typing import Any


class _SourcesOnly:
    """Imports ``engine``'s modules from their sources even where a compiled copy sits
    beside them (scripts/build_native.py), as a clone without a build does."""

    @staticmethod
    def find_spec(name: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        if not name.startswith(__name__ + ".") or not path:
            return None
        for folder in path:
            spec = FileFinder(folder, (SourceFileLoader, SOURCE_SUFFIXES)).find_spec(name)
            if spec is not None:
                return spec
        return None


def _compiled_is_stale() -> bool:
    """Whether compiled modules sit here that were not built from today's sources (an
    edit or a checkout since the build): they would run yesterday's rules."""
    here = Path(__file__).parent
    if not any(name.endswith(".so") for name in os.listdir(here)):
        return False
    try:
        built_from = json.loads((here / "_compiled.json").read_text())
        return any(
            hashlib.sha256((here / name).read_bytes()).hexdigest() != digest
            for name, digest in built_from.items()
        )
    except (OSError, ValueError):
        return True


# ``SORTIE_PURE=1`` runs the engine interpreted, to compare it with the compiled one.
if os.environ.get("SORTIE_PURE") == "1":
    sys.meta_path.insert(0, _SourcesOnly())
elif _compiled_is_stale():
    warnings.warn(
        "engine: the compiled modules are older than their sources; running the sources "
        "(rebuild: python scripts/build_native.py)",
        RuntimeWarning,
        stacklevel=2,
    )
    sys.meta_path.insert(0, _SourcesOnly())

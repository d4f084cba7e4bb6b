# The C helper bot/_frozen.c (built by scripts/build_native.py), as mypy reads it.
from typing import Any

def frozen_after(mark: object, /) -> list[Any] | None: ...

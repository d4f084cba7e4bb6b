"""The demo games that tests play with ``bot.demo.run``, as (ruleset, scenario); None is the
ruleset's own scenario. Each test adds the other games its check applies to."""

from __future__ import annotations

# The ZERO! games: the carrier's two scenarios, the land campaign and Pearl Harbor.
ZERO_DEMOS: tuple[tuple[str, str | None], ...] = (
    ("carrier", "coral-sea"),
    ("carrier", "midway"),
    ("land", None),
    ("pearl-harbor", None),
)

"""Memoir '44 "New Flight Plan": the air war of a Memoir '44 game, kept by the bot while the
board stays at the table (issue 28; rules digest ../shared/rules/memoir44-air.md).

Modules: ``catalog`` (the data files), ``board`` (hex labels and geometry), ``dice``,
``state``, ``deck`` (the Air Combat deck), ``setup``, ``orders`` (typed orders and the
checks), ``flow`` (the turn), ``battle`` (the dice of a turn), ``view`` (what a viewer may
see) and ``seam`` (rounds and fields: the only module that knows the application's seam).
"""

from __future__ import annotations

from engine.rulesets.memoir44.seam import KEY, Memoir44Rules

__all__ = ["KEY", "Memoir44Rules"]

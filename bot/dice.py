"""The game's own dice rolled on request (``/roll``): where each roll's randomness comes
from, and how ``verify`` checks every roll of an export.

A roll draws from the campaign's seed, the turn and the length of the campaign's log when
it was asked (its ``index``): no two rolls of a campaign share a stream, nobody can aim
for one (the seed stays secret until the end), and anyone can recompute them all from the
export once the seed is revealed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from engine.rng import Rng
from engine.ruleset import Rules

DICE_ROLLED = "dice-rolled"
MAX_DICE = 12
FREE_ROLL = "free-roll"


def free_roll_stream(seed: str, turn: int, index: int) -> random.Random:
    return Rng(seed, turn, FREE_ROLL).stream(str(index))


def roll_problems(
    rules: Rules[Any, Any], seed: str, events: Iterable[Mapping[str, Any]]
) -> tuple[int, list[str]]:
    """How many logged rolls replay, and a line for each that does not (or reuses a
    stream another roll already used)."""
    checked, problems, seen = 0, [], set()
    for event in events:
        if event["kind"] != DICE_ROLLED:
            continue
        data = event["data"]
        index, count = data.get("index"), data.get("count")
        where = f"event {event.get('seq', '?')} ({DICE_ROLLED})"
        if not isinstance(index, int) or not isinstance(count, int) or index in seen:
            problems.append(f"{where}: its stream is missing or used twice")
            continue
        seen.add(index)
        faces = rules.roll_dice(count, free_roll_stream(seed, int(event["turn"]), index))
        if faces is None or list(faces) != list(data.get("faces", ())):
            problems.append(f"{where}: the dice differ from the seed's")
            continue
        checked += 1
    return checked, problems

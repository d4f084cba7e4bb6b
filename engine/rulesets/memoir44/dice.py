"""The Memoir '44 battle die and the hit rules the air rules use.

Six faces: infantry twice, armour, grenade, star, flag (memoir44-authored-data.md 2.3, H).
A rule says which faces hit as a list of words: ``symbol`` (the target unit's own symbol:
the infantry face against infantry, the armour face against armour, none against
artillery or anything else), ``grenade``, ``star``, ``flag``.

Every roll draws from one named stream of the campaign's ``Rng``; the caller names it with
a counter kept in the state, so no two rolls of a campaign share a stream.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

Face = Literal["infantry", "armour", "grenade", "star", "flag"]
FACES: tuple[Face, ...] = ("infantry", "infantry", "armour", "grenade", "star", "flag")
Target = Literal["infantry", "armour", "artillery", "other"]
TARGETS: tuple[Target, ...] = ("infantry", "armour", "artillery", "other")


def roll(stream: random.Random, count: int) -> tuple[Face, ...]:
    return tuple(FACES[stream.randrange(6)] for _ in range(count))


def _symbol(target: Target) -> Face | None:
    if target == "infantry":
        return "infantry"
    if target == "armour":
        return "armour"
    return None  # artillery and the rest have no face of their own


def hits(faces: Sequence[Face], rule: Sequence[str], target: Target) -> int:
    """How many of ``faces`` hit a ``target`` under a rule's list of hitting faces."""
    wanted: set[Face] = set()
    for word in rule:
        if word == "symbol":
            symbol = _symbol(target)
            if symbol is not None:
                wanted.add(symbol)
        elif word in ("grenade", "star", "flag"):
            wanted.add(word)  # type: ignore[arg-type]
    return sum(1 for face in faces if face in wanted)


def grenades(faces: Sequence[Face], also: Sequence[str] = ()) -> int:
    """Hits on a plane: grenades, and any face a card adds (a star for Out of the Sun)."""
    return sum(1 for face in faces if face == "grenade" or face in also)


def confirm(faces: Sequence[Face], shoot_down: Sequence[str] = ("grenade",)) -> str:
    """III.h: rerolled hit dice with a grenade shoot the plane down; else a flag forces it
    off; else nothing happens."""
    if any(face in shoot_down for face in faces):
        return "shot-down"
    if "flag" in faces:
        return "forced-off"
    return "no-effect"

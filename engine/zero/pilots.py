"""Pilot counters and the pilot draft that opens every strike (ZERO! 19.2).

A counter has two faces, each a pilot; a face with skill codes is Skilled (19.22). Generic
counters fly any aircraft of their nation and service (19.21); a type-specific counter flies
only the type it names (19.23). The cup is rebuilt for each aircraft type of the strike, so
one side's draft is a short, fully determined sequence of picks from ``rng``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, TypeVar

from engine.zero.catalog import AircraftType, Frozen, Provenance
from engine.zero.orders import PilotFace
from engine.zero.trusted import trusted, trusted_defaults
from engine.zero.types import Side

# 19.25: Ace, bombing, burst, Combat Vision, damage, gunner, horsepower, performance, strafe.
SKILL_CODES: frozenset[str] = frozenset({"A", "BM", "BU", "CV", "D", "G", "H", "P", "S"})

_T = TypeVar("_T")


class Picker(Protocol):
    """Where the draft's randomness comes from. ``random.Random`` is one; a test can pass a
    scripted picker to replay a worked example draw for draw."""

    def choice(self, seq: Sequence[_T], /) -> _T: ...


class PilotCounter(Frozen):
    """One two-faced pilot counter (19.21-19.23)."""

    id: str
    nation: Side
    service: str  # "navy", "army", "marines", "british"
    aircraft: str | None = None  # 19.23: the only type it may fly; None = any of its service
    faces: tuple[PilotFace, PilotFace]
    provenance: Provenance = "authored-default"

    def may_fly(self, aircraft: AircraftType) -> bool:
        if self.nation is not aircraft.nation or self.service != aircraft.service:
            return False
        return self.aircraft is None or self.aircraft == aircraft.code


class PilotPool(Frozen):
    """Every pilot counter in the box, as loaded from ``pilots.toml``."""

    provenance: Provenance = "authored-default"
    counters: tuple[PilotCounter, ...]

    def cup_for(self, aircraft: AircraftType) -> tuple[PilotCounter, ...]:
        """19.24 step 1: every counter eligible for this type, in a fixed order so that the
        same rng always draws the same counter."""
        return self._cup(aircraft)[2]

    def cup_ids_for(self, aircraft: AircraftType) -> tuple[tuple[str, PilotCounter], ...]:
        """``cup_for`` with each counter's id beside it (a model's reads are slow, and the
        draft filters the cup by id for every Leader)."""
        return self._cup(aircraft)[3]

    def _cup(self, aircraft: AircraftType) -> _Cup:
        key = (id(self), aircraft.code)
        hit = _cups.get(key)
        if hit is None or hit[0] is not self or hit[1] is not aircraft:
            cup = tuple(sorted((c for c in self.counters if c.may_fly(aircraft)), key=_by_id))
            if len(_cups) >= 256:
                _cups.clear()  # only tests load other pools
            hit = _cups[key] = (self, aircraft, cup, tuple((c.id, c) for c in cup))
        return hit

    def counter(self, counter_id: str) -> PilotCounter:
        for counter in self.counters:
            if counter.id == counter_id:
                return counter
        raise KeyError(counter_id)


def _by_id(counter: PilotCounter) -> str:
    return counter.id


# The cups already sorted, per pool and type: every Leader of every strike asks (issue 13).
# An entry keeps its pool and type so their ids cannot be reused while it lives.
_Cup = tuple[
    "PilotPool",
    AircraftType,
    tuple[PilotCounter, ...],
    tuple[tuple[str, PilotCounter], ...],
]
_cups: dict[tuple[int, str], _Cup] = {}


class PilotDraw(Frozen):
    """One draw from the cup for one Leader. ``pilot`` is what goes on the aircraft card:
    the face shown if it is skilled, else nothing (19.24 step 4)."""

    uid: str  # the Leader's FlightUnit uid
    aircraft: str  # its type code
    counter: str | None  # None: the cup was empty, the Leader flies without a pilot
    face: int | None = None  # 0 or 1, the face the coin flip showed
    shown: PilotFace | None = None
    skilled: bool = False
    pilot: PilotFace | None = None
    redraw: bool = False  # the extra draw after an unskilled one (Veteran Aircrew)


def _by_type(
    leaders: Sequence[tuple[str, AircraftType]],
) -> list[tuple[AircraftType, list[str]]]:
    """Leaders grouped by aircraft type, types in order of first appearance."""
    groups: dict[str, tuple[AircraftType, list[str]]] = {}
    for uid, aircraft in leaders:
        groups.setdefault(aircraft.code, (aircraft, []))[1].append(uid)
    return list(groups.values())


def draft_pilots(
    leaders: Sequence[tuple[str, AircraftType]],
    pool: PilotPool,
    rng: random.Random | Picker,
    extra_draw_if_unskilled: bool = False,
) -> list[PilotDraw]:
    """19.24: one counter drawn per Leader, its face chosen by a coin flip.

    The cup is rebuilt for each aircraft type: the generic counters of that type's nation
    and service plus the counters naming the type. A skilled face goes on the Leader and
    its counter stays out of every cup for the rest of this strike. An unskilled face is
    discarded: the Leader flies without a pilot, that counter is not drawn again for this
    type, and it goes back into the pool for the next type (the seed's Paek). With
    ``extra_draw_if_unskilled`` (resource Veteran Aircrew) a Leader that drew an unskilled
    face draws once more and keeps the second result.

    Returns every draw in order, so a Leader that redrew appears twice; its last draw is the
    one that counts. Pilots granted by a resource are not in the pool (19.24) and are not
    handled here.
    """
    # The draws are built from the pool's own values, so without validation (an odds
    # preview drafts some eight Leaders per play: validating them cost a tenth of a play).
    draws: list[PilotDraw] = []
    placed: set[str] = set()  # skilled counters already on an aircraft of this strike
    for aircraft, uids in _by_type(leaders):
        discarded: set[str] = set()  # unskilled this type; back in the pool for the next
        eligible = pool.cup_ids_for(aircraft)
        for uid in uids:
            attempts = 2 if extra_draw_if_unskilled else 1
            for attempt in range(attempts):
                cup = [c for cid, c in eligible if cid not in placed and cid not in discarded]
                if not cup:
                    draws.append(
                        trusted_defaults(
                            PilotDraw,
                            uid=uid,
                            aircraft=aircraft.code,
                            counter=None,
                            redraw=attempt > 0,
                        )
                    )
                    break
                counter = rng.choice(cup)
                face_index = rng.choice((0, 1))
                face = counter.faces[face_index]
                skilled = bool(face.skills)
                draws.append(
                    trusted(
                        PilotDraw,
                        uid=uid,
                        aircraft=aircraft.code,
                        counter=counter.id,
                        face=face_index,
                        shown=face,
                        skilled=skilled,
                        pilot=face if skilled else None,
                        redraw=attempt > 0,
                    )
                )
                if skilled:
                    placed.add(counter.id)
                    break
                discarded.add(counter.id)
    return draws


def assignments(draws: Sequence[PilotDraw]) -> dict[str, PilotFace | None]:
    """The pilot each Leader ends up with: its last draw counts (Veteran Aircrew redraws)."""
    return {draw.uid: draw.pilot for draw in draws}

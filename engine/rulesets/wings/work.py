"""The turn as the rule modules see it: what they may read and call on the working copy of
a mission (``turn.Turn``), and the shot they hand back to it.

The rule modules (balloons, landing, shooting...) are called by ``turn.Turn`` with itself.
They name this protocol rather than the class, so none of them imports ``turn`` back: the
turn depends on the rules, never the other way round. ``Turn`` satisfies it (mypy checks
it where the turn hands itself over); a member the rules start using goes here first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from engine.rng import Rng
from engine.rulesets.wings.catalog import Catalog, DamageCard, Gun, SideName
from engine.rulesets.wings.state import GroundElement, MissionState, Objective, PlaneState


@dataclass
class Shot:
    shooter: str
    gun: Gun
    target: str
    cards: int
    bonus: int
    aimed: bool
    short: bool
    left: int = 0
    sharp: bool = False  # seed D.VII.b Sharpshooter: one card more drawn, the best kept
    killer: bool = False  # seed D.VII.b Killer: one card to the pilot
    picked: list[int] = field(default_factory=list)  # card ids chosen ahead, dealt in order
    sure: bool = False  # seed D.VI: a behaviour's extra (last) card, which no skill lessens
    # Seed D.VI Soldier: the dive shot his power boosted makes its specials lasting.
    soldier: bool = False


class Turn(Protocol):
    """One turn's working copy of a mission (``turn.Turn``), as the rules use it."""

    catalog: Catalog
    mission: MissionState
    rng: Rng
    planes: dict[str, PlaneState]
    ground: dict[str, GroundElement]
    objectives: dict[str, Objective]
    piles: dict[str, list[int]]
    spent: dict[str, list[int]]
    turn: int
    phase: int
    fresh: set[tuple[str, str]]
    pursuits: dict[str, str]
    floor: int
    rocket_runs: dict[str, int]
    lp_at_start: dict[str, int]

    def where(self) -> str: ...

    def ids(self) -> list[str]: ...

    def flying(self) -> list[PlaneState]: ...

    def aloft(self) -> list[PlaneState]: ...

    def update(self, pid: str, **changes: object) -> PlaneState: ...

    def event(self, kind: str, secret_for: SideName | None = None, **data: object) -> None: ...

    def draw(self, letter: str, holder: str | None) -> tuple[int, DamageCard]: ...

    def spend_token(self, pid: str, skill: str) -> bool: ...

    def add_damage(self, pid: str, points: int, source: str | None) -> None: ...

    def shoot_down(self, pid: str, status: str, source: str | None) -> None: ...

    def zone(self, side: str, x: float) -> str: ...

    def apply_card(
        self,
        target: str,
        card: DamageCard,
        shooter: str | None,
        gun: Gun | None,
        *,
        bonus: int = 0,
        aimed: bool = False,
        long_range: bool = False,
        seen: set[str] | None = None,
        sure: bool = False,
        soldier: bool = False,
    ) -> None: ...

    def apply_special(
        self,
        pid: str,
        special: str,
        face: int,
        shooter: str | None,
        gun: Gun | None,
        *,
        soldier: bool = False,
    ) -> None: ...

    def release_bomb(self, plane: PlaneState, last_kind: str, announced: bool = False) -> None: ...

    def damage_balloon(self, oid: str, points: int, special: str, source: str | None) -> None: ...

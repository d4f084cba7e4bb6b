"""The stored state of a land campaign (its view is ``engine.rulesets.land.view``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from engine.rulesets.land.view import Draw, MissionRecord
from engine.sight import Public
from engine.zero.types import Side

ROUND = "mission"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LandState(_Frozen):
    scenario: Public[str]  # "<campaign>-<period key>" or "<campaign>-all"
    campaign: Public[str]  # sheet key
    periods: Public[tuple[str, ...]]  # period keys played, in order
    turn: Public[int] = 1  # the mission being played (1-based)
    missions: Public[int]
    draw: Public[Draw]
    used: Public[dict[Side, tuple[int, ...]]] = Field(default_factory=dict)
    vp: Public[dict[Side, int]] = Field(default_factory=dict)
    history: Public[tuple[MissionRecord, ...]] = ()
    # The targets flown so far (each mission's draw), kept beside the history so the next
    # draw (3.8.2's replacements) reads the snapshot alone. None in a state stored before
    # it was kept: the history still says.
    flown: Public[tuple[int, ...] | None] = None
    finished: Public[bool] = False
    winner: Public[str | None] = None  # side id or "draw"
    performance: Public[dict[Side, str]] = Field(default_factory=dict)  # 24.7, once finished

    @property
    def round(self) -> str:
        return ROUND

    def period(self, mission: int) -> str:
        """The period a mission belongs to: each period is one sheet's length of missions."""
        per = max(1, self.missions // max(1, len(self.periods)))
        return self.periods[min(len(self.periods) - 1, (mission - 1) // per)]

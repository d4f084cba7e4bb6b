"""The stored state of a land campaign and what one viewer sees of it.

Nothing in a land state is secret: the target of the coming mission is drawn in the open
(24.44) and the resource picks exist only in the application's locked choices until the
mission round resolves, so the view is the state itself plus who is looking.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from engine.land import MissionLength, VPLine
from engine.report import StrikeReport
from engine.types import Side

ROUND = "mission"
NO_RESOURCE = 0  # the pick of a side with nothing left (or nothing it wants) to spend


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Draw(_Frozen):
    """The card drawn for a mission and the target it selected (24.44-24.45)."""

    card: int  # Action card id
    key: str  # Missions-table row, e.g. "IMS-2B"
    listed: int  # the number the table gave
    target: int  # the number flown (a once-only target already flown is replaced)
    period: str  # period key of the column read


class MissionRecord(_Frozen):
    """One flown mission, all public once it is resolved."""

    mission: int
    draw: Draw
    resources: dict[Side, int]
    doctrines: dict[Side, str]
    length: MissionLength
    clouds_card: int | None = None  # the card Clouds over Target drew, if picked
    clouds: bool = False  # that card had a blue border
    dispersal_points: int = 0  # points Dispersal took off the damage
    report: StrikeReport
    lines: tuple[VPLine, ...] = ()
    vp: dict[Side, int]  # this mission's points
    totals: dict[Side, int]  # the campaign totals after it


class LandState(_Frozen):
    scenario: str  # "<campaign>-<period key>" or "<campaign>-all"
    campaign: str  # sheet key
    periods: tuple[str, ...]  # period keys played, in order
    turn: int = 1  # the mission being played (1-based)
    missions: int
    draw: Draw
    used: dict[Side, tuple[int, ...]] = Field(default_factory=dict)
    vp: dict[Side, int] = Field(default_factory=dict)
    history: tuple[MissionRecord, ...] = ()
    finished: bool = False
    winner: str | None = None  # side id or "draw"
    performance: dict[Side, str] = Field(default_factory=dict)  # 24.7, once finished

    @property
    def round(self) -> str:
        return ROUND

    def period(self, mission: int) -> str:
        """The period a mission belongs to: each period is one sheet's length of missions."""
        per = max(1, self.missions // max(1, len(self.periods)))
        return self.periods[min(len(self.periods) - 1, (mission - 1) // per)]


class LandView(_Frozen):
    """What anyone may see: everything (see the module note), and who is looking."""

    viewer: Side | None
    state: LandState

    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def finished(self) -> bool:
        return self.state.finished

"""Pearl Harbor (26.0): the sheet, the records of play and the public view.

A solitaire campaign has no secret from anyone but the assignments of the wave being
planned, which live in the application's drafts until the reveal; the view is the whole
state. The presenter imports this module and nothing else of the ruleset.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.sight import public_record
from engine.zero.loader import DATA_DIR, _fail, _path, _read, default_catalog
from engine.zero.types import BombResult

FILE = "pearl-harbor.toml"
NONE = "none"  # the option of a group kept out of the wave


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PearlTarget(_Frozen):
    key: str
    name: str
    sheet: str
    map: tuple[int, int]


class PearlGroup(_Frozen):
    key: str  # the decision field
    aircraft: str
    mode: Literal["torpedo", "level", "dive", "strafe"]
    count: tuple[int, ...]  # aircraft per wave; 0 = does not fly that wave


class DefenceRow(_Frozen):
    result: Literal["miss", "hit", "direct", "vital"]
    name: str
    lost: int
    cards: int


class PerformanceRow(_Frozen):
    min: int
    level: str


class PearlSheet(_Frozen):
    provenance: str
    name: str
    targets: tuple[PearlTarget, ...]
    groups: tuple[PearlGroup, ...]
    defence: tuple[DefenceRow, ...]
    performance: tuple[PerformanceRow, ...]

    @property
    def waves(self) -> int:
        return len(self.groups[0].count)

    def target(self, key: str) -> PearlTarget:
        return next(t for t in self.targets if t.key == key)

    def group(self, key: str) -> PearlGroup:
        return next(g for g in self.groups if g.key == key)

    def defence_for(self, result: BombResult, alert: int) -> DefenceRow:
        """The defence card's row: its result read ``alert`` levels higher (capped)."""
        return self.defence[min(len(self.defence) - 1, result.value + alert)]

    def performance_for(self, difference: int) -> str:
        for row in self.performance:
            if difference >= row.min:
                return row.level
        return self.performance[-1].level

    def allowed(self, group: PearlGroup) -> tuple[PearlTarget, ...]:
        """Torpedoes only against ships (21.5), strafing only land targets whose sheet can
        be strafed (21.71), bombs anywhere."""
        catalog = default_catalog()
        out = []
        for target in self.targets:
            sheet = catalog.targets[target.sheet]
            if group.mode == "torpedo" and not sheet.naval:
                continue
            if group.mode == "strafe" and (sheet.naval or sheet.strafe is None):
                continue
            out.append(target)
        return tuple(out)


@cache
def load_pearl(data_dir: Path | None = None) -> PearlSheet:
    """``pearl-harbor.toml`` read with the shared loader's helpers and cross-checked."""
    raw = _read(DATA_DIR if data_dir is None else data_dir, FILE)
    data = {
        "provenance": raw.get("provenance"),
        "name": raw.get("name"),
        "targets": raw.get("target", []),
        "groups": raw.get("group", []),
        "defence": raw.get("defence", []),
        "performance": raw.get("performance", []),
    }
    try:
        sheet = PearlSheet.model_validate(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        _fail(FILE, None, _path(list(error["loc"])) or None, str(error["msg"]))
    catalog = default_catalog()
    for target in sheet.targets:
        if target.sheet not in catalog.targets:
            _fail(FILE, target.key, "sheet", f"unknown Target Sheet {target.sheet!r}")
    for group in sheet.groups:
        if group.aircraft not in catalog.aircraft:
            _fail(FILE, group.key, "aircraft", f"unknown aircraft {group.aircraft!r}")
        if len(group.count) != sheet.waves:
            _fail(FILE, group.key, "count", "one count per wave, as many as the first group's")
    if [row.result for row in sheet.defence] != ["miss", "hit", "direct", "vital"]:
        _fail(FILE, None, "defence", "one row per bombing result, miss to vital")
    return sheet


@public_record
class Attack(_Frozen):
    """One group's attack: the defence card, what it cost, the attack cards and damage."""

    group: str
    target: str
    defence_card: int
    defence: str  # the defence row's name
    lost: int
    cards: tuple[int, ...]
    points: int


@public_record
class WaveRecord(_Frozen):
    wave: int
    assignments: dict[str, str]  # group -> target key or "none"
    attacks: tuple[Attack, ...]
    damage: dict[str, int]  # target -> damage points after the wave


class PearlView(_Frozen):
    viewer: str | None
    turn: int
    waves: int
    damage: dict[str, int] = Field(default_factory=dict)
    lost: dict[str, int] = Field(default_factory=dict)  # group -> aircraft lost so far
    history: tuple[WaveRecord, ...] = ()
    vp: dict[str, int] = Field(default_factory=dict)
    finished: bool = False
    performance: str | None = None

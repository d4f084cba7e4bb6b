"""The game data a rules check needs, read straight from the TOML files.

The checker must not trust the engine it checks, so it does not use ``engine.zero.loader`` or
``engine.zero.catalog``: it reads the same authored data files (``engine/zero/data/*.toml``, see
``docs/data.md``) with ``tomllib`` and keeps only the few numbers the rules ask for.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parents[3] / "zero" / "data"

# The band names of the data files, as the export numbers them (Very Low 0 ... Very High 4).
BANDS = {"VL": 0, "L": 1, "M": 2, "H": 3, "VH": 4}
RESULTS = {"miss": 0, "hit": 1, "direct": 2, "vital": 3}
RANGE = {"close": 0, "medium": 1, "long": 2}  # 25.32: recovery cards each tactic adds
HISTORICAL = "-historical"  # the scenario that plays its sheet's optional opening rule


@dataclass(frozen=True)
class Level:
    name: str
    min_boxes: int
    vp: int
    no_strike: bool  # Sinking: the fleet launches nothing (authored 3.7.5)
    out_of_action: bool


@dataclass(frozen=True)
class Place:
    key: str
    side: str
    sheet: str
    track: str
    carrier_fleet: bool
    airfield: bool  # has an airfield table: Midway, whose damage sets its strikes and CAP
    card_cap: bool  # CAP drawn from an Action card (25.43)


@dataclass(frozen=True)
class Aircraft:
    code: str
    nation: str
    service: str
    cls: str
    box: int
    bomb: dict[str, int]
    damaged_bomb: dict[str, int]
    norden: bool
    performance: tuple[int, int]  # undamaged, damaged (authored 3.2.7 derivation)
    defensive: tuple[int, int]


@dataclass
class GameData:
    cards: dict[int, dict[str, Any]]
    aircraft: dict[str, Aircraft]
    naval_sheets: set[str]
    tracks: dict[str, list[Level]]
    resources: dict[int, dict[str, Any]]
    scenarios: dict[str, dict[str, Any]]
    pilot_faces: dict[str, tuple[dict[str, Any], ...]] = field(default_factory=dict)
    pilot_pool: dict[str, tuple[str, str, str | None]] = field(default_factory=dict)
    lengths: dict[str, int] = field(default_factory=dict)  # boxes of each track (25.82)

    def places(self, scenario: str) -> dict[str, Place]:
        return {
            p["key"]: Place(
                key=p["key"],
                side=p["side"],
                sheet=p["sheet"],
                track=p["track"],
                carrier_fleet=bool(p.get("carrier_fleet", False)),
                airfield=bool(p.get("airfield_table")),
                card_cap=bool(p.get("cap_table")),
            )
            for p in self.scenarios[scenario]["places"]
        }

    def level(self, track: str, boxes: int) -> Level:
        reached = self.tracks[track][0]
        for level in self.tracks[track]:
            if boxes >= level.min_boxes:
                reached = level
        return reached

    def effect(self, number: int, side: str) -> dict[str, Any]:
        resource = self.resources.get(number, {})
        by_side = resource.get("effects_by_side", {})
        return dict(by_side.get(side, resource.get("effect", {})))


def _read(directory: Path, name: str) -> dict[str, Any]:
    with (directory / name).open("rb") as handle:
        return tomllib.load(handle)


def _sides(entry: dict[str, Any], name: str, floor: int) -> tuple[int, int]:
    """A rating on both sides of the card: the Damaged side is one less, never below
    ``floor`` (authored 3.2.7), unless the file's ``[aircraft.damaged]`` says otherwise."""
    value = int(entry.get("undamaged", {}).get(name, 0))
    damaged = entry.get("damaged", {}).get(name, max(min(value, floor), value - 1))
    return value, int(damaged)


def load(directory: Path = DATA_DIR) -> GameData:
    deck = _read(directory, "deck.toml")
    cards = {int(card["id"]): card for card in deck["cards"]}
    aircraft = {}
    for entry in _read(directory, "aircraft.toml")["aircraft"]:
        bomb = dict(entry.get("undamaged", {}).get("bomb", {}))
        damaged = dict(bomb)
        damaged.update(entry.get("damaged", {}).get("bomb", {}))
        aircraft[entry["code"]] = Aircraft(
            code=entry["code"],
            nation=entry["nation"],
            service=entry["service"],
            cls=entry["cls"],
            box=int(entry["box"]),
            bomb=bomb,
            damaged_bomb=damaged,
            norden=bool(entry.get("norden", False)),
            performance=_sides(entry, "performance", 0),
            defensive=_sides(entry, "defensive", 1),
        )
    naval = {s["id"] for s in _read(directory, "targets.toml")["sheet"] if s.get("naval")}
    tracks = {
        t["id"]: [
            Level(
                name=level["name"],
                min_boxes=int(level["min_boxes"]),
                vp=int(level.get("vp", 0)),
                no_strike=bool(level.get("no_strike_only", False)),
                out_of_action=bool(level.get("out_of_action", False)),
            )
            for level in t["levels"]
        ]
        for t in _read(directory, "tracks.toml")["track"]
    }
    resources = {int(r["number"]): r for r in _read(directory, "resources.toml")["resource"]}
    scenarios = {name: _read(directory, f"{name}.toml") for name in ("coral-sea", "midway")}
    for name, sheet in list(scenarios.items()):
        if sheet.get("optional_opening_targets"):
            # Authored 3.7.4's optional historical opening, played as "<sheet>-historical".
            scenarios[f"{name}{HISTORICAL}"] = {**sheet, "historical_opening": True}
    data = GameData(cards, aircraft, naval, tracks, resources, scenarios)
    data.lengths = {t["id"]: int(t["boxes"]) for t in _read(directory, "tracks.toml")["track"]}
    for pool in _read(directory, "pilots.toml")["pool"]:
        for counter in pool["counters"]:
            data.pilot_faces[counter["id"]] = tuple(counter["faces"])
            data.pilot_pool[counter["id"]] = (
                pool["nation"],
                pool["service"],
                counter.get("aircraft"),
            )
    return data


def is_attack(card: dict[str, Any]) -> bool:
    """IN MY SIGHTS or OUT OF THE SUN: the cards that fail a recovery (25.71)."""
    return card["title"] in ("IMS", "OTS")

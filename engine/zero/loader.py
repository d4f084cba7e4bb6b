"""Reads the TOML files of ``engine/zero/data`` into the validated models of ``catalog``.

Every problem becomes a ``DataError`` whose message names the file, the entry and the field
path, e.g. ``aircraft.toml: entry 'A6M2': field 'undamaged.burst': Input should be a valid
integer``, so a GM editing a table finds the line without reading a traceback. Beyond the
schema, the loader checks what pydantic cannot see on one entry alone: references between
files, unique ids, and the counter-mix limit of the game box (seed 25.65).

The files write a few things in their own, friendlier notation, converted here before
validation: bands by name ("VH"), bombing results by name ("hit"), "-" for a band an
aircraft cannot fly in, and "no" for a target that cannot be strafed.
"""

from __future__ import annotations

import functools
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar, get_args

from pydantic import BaseModel, ValidationError

from engine.zero.catalog import (
    HISTORICAL,
    ActionCard,
    AircraftType,
    Catalog,
    DamageTrack,
    DataError,
    DeckData,
    Place,
    Provenance,
    Ratings,
    Resource,
    Scenario,
    TargetSheet,
    UnitSpec,
)
from engine.zero.pilots import SKILL_CODES, PilotCounter, PilotPool
from engine.zero.types import AircraftClass, Band, BombMode, BombResult, CardTitle, Side

DATA_DIR = Path(__file__).parent / "data"
SCENARIO_FILES = ("coral-sea.toml", "midway.toml")
FLIGHT_OPS_SIZES = ("large", "small", "none")

Raw = dict[str, Any]
_M = TypeVar("_M", bound=BaseModel)

_BANDS = {band.name: band for band in Band}
_RESULTS = {result.name.lower(): result for result in BombResult}
_PROVENANCES: tuple[str, ...] = get_args(Provenance)


# --- Error reporting ------------------------------------------------------------------------


def _path(loc: Iterable[str | int]) -> str:
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


def _message(file: str, entry: str | None, field: str | None, message: str) -> str:
    parts = [file]
    if entry is not None:
        parts.append(f"entry '{entry}'")
    if field:
        parts.append(f"field '{field}'")
    return ": ".join([*parts, message])


def _fail(file: str, entry: str | None, field: str | None, message: str) -> NoReturn:
    raise DataError(_message(file, entry, field, message))


def _first_error(exc: ValidationError) -> tuple[list[str | int], str]:
    """The first problem pydantic found (its location and message), noting how many more."""
    errors = exc.errors()
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return list(errors[0]["loc"]), f"{errors[0]['msg']}{more}"


def _validate(
    model: type[_M],
    data: object,
    file: str,
    entry: str | None,
    prefix: Sequence[str | int] = (),
) -> _M:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        loc, message = _first_error(exc)
        field = _path([*prefix, *loc]) or None
        raise DataError(_message(file, entry, field, message)) from exc


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- Reading ---------------------------------------------------------------------------------


def _read(directory: Path, name: str) -> Raw:
    path = directory / name
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise DataError(f"{name}: file not found in {directory}") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{name}: not valid TOML: {exc}") from exc
    except OSError as exc:
        raise DataError(f"{name}: cannot be read: {exc}") from exc


def _check_top(raw: Raw, file: str, allowed: Iterable[str]) -> None:
    """Every file states its provenance at the top; unknown top-level keys are typos."""
    if "provenance" not in raw:
        _fail(file, None, "provenance", "Field required")
    if raw["provenance"] not in _PROVENANCES:
        _fail(file, None, "provenance", f"Input should be one of {', '.join(_PROVENANCES)}")
    known = {"provenance", *allowed}
    for key in raw:
        if key not in known:
            _fail(file, None, key, "unknown key")


def _entries(
    raw: Raw, file: str, key: str, label: Callable[[Raw], object]
) -> list[tuple[str, Raw]]:
    """The tables of an array such as ``[[aircraft]]``, each with the name errors use."""
    items = raw.get(key)
    if items is None:
        _fail(file, None, key, "Field required")
    if not isinstance(items, list):
        _fail(file, None, key, "Input should be a list of tables")
    out: list[tuple[str, Raw]] = []
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            _fail(file, f"#{index + 1}", None, "Input should be a table")
        name = label(item)
        out.append((str(name) if name is not None else f"#{index + 1}", dict(item)))
    return out


# --- Friendlier notation --------------------------------------------------------------------


def _band(value: object, file: str, entry: str, field: str) -> Band:
    if isinstance(value, str) and value in _BANDS:
        return _BANDS[value]
    _fail(file, entry, field, f"unknown band {value!r} (one of VH, H, M, L, VL)")


def _result(value: object, file: str, entry: str, field: str) -> BombResult:
    if isinstance(value, str) and value in _RESULTS:
        return _RESULTS[value]
    _fail(file, entry, field, f"unknown bombing result {value!r} (one of miss, hit, direct, vital)")


def _horsepower(
    value: object, file: str, entry: str, field: str, partial: bool
) -> dict[Band, int | None]:
    """Horsepower per band; "-" marks a band the aircraft may not enter (3.2.2). A full
    profile must list all five bands, so a forgotten band is not silently forbidden."""
    if not isinstance(value, dict):
        _fail(file, entry, field, "Input should be a table of bands (VH, H, M, L, VL)")
    for name in value:
        if name not in _BANDS:
            _fail(file, entry, f"{field}.{name}", "unknown band (one of VH, H, M, L, VL)")
    profile: dict[Band, int | None] = {}
    for band in sorted(Band, reverse=True):
        if band.name not in value:
            if partial:
                continue
            _fail(file, entry, f"{field}.{band.name}", 'band missing (write "-" if not allowed)')
        cards = value[band.name]
        if cards == "-":
            profile[band] = None
        elif _is_int(cards) and cards >= 1:
            profile[band] = cards
        else:
            _fail(file, entry, f"{field}.{band.name}", 'Input should be a number >= 1 or "-"')
    return profile


def _ratings_raw(value: object, file: str, entry: str, field: str, partial: bool) -> object:
    if isinstance(value, dict) and "horsepower" in value:
        value = dict(value)
        value["horsepower"] = _horsepower(
            value["horsepower"], file, entry, f"{field}.horsepower", partial
        )
    return value


# --- Deck ------------------------------------------------------------------------------------


def _load_deck(raw: Raw) -> DeckData:
    file = "deck.toml"
    _check_top(raw, file, ("cards", "answers"))
    cards: list[ActionCard] = []
    seen: set[int] = set()
    for label, entry in _entries(
        raw, file, "cards", lambda e: f"card {e['id']}" if "id" in e else None
    ):
        if "bombing" in entry:
            entry["bombing"] = _result(entry["bombing"], file, label, "bombing")
        card = _validate(ActionCard, entry, file, label)
        if card.id in seen:
            _fail(file, label, "id", f"duplicate card id {card.id}")
        seen.add(card.id)
        if card.is_attack and card.burst is None:
            _fail(file, label, "burst", f"an {card.title.value} card needs burst and damage")
        if card.is_attack and card.damage is None:
            _fail(file, label, "damage", f"an {card.title.value} card needs burst and damage")
        if not card.is_attack and (card.burst is not None or card.damage is not None):
            _fail(file, label, "burst", "only IMS and OTS cards carry burst and damage")
        cards.append(card)
    answers = raw.get("answers")
    if isinstance(answers, dict):
        for title in CardTitle:
            if title.value not in answers:
                _fail(
                    file, None, f"answers.{title.value}", "missing (write [] if it cancels nothing)"
                )
    return _validate(
        DeckData,
        {"provenance": raw["provenance"], "cards": cards, "answers": answers},
        file,
        None,
    )


# --- Aircraft --------------------------------------------------------------------------------


def derive_damaged(undamaged: Ratings, cls: AircraftClass) -> Ratings:
    """The Damaged side by the authored rule of 3.2.7.

    Performance -1, Horsepower -1 per allowed band (min 1), Burst -1 (min 0), Offensive -1
    (min 0), Defensive -1 (min 1), Turret Defense -1 (min 0). A floor never lifts a rating
    that was already below it (a formation aircraft's Defensive 0 stays 0). Speed drops by 1
    only for formation aircraft: fighters and fighter-bombers always count as Speed 6 (seed
    23.24). Bomb ratings are kept: a Damaged fighter-bomber jettisons anyway (seed 18.22)
    and formation aircraft give their damaged ratings in the file (3.5).
    """

    def down(value: int, floor: int) -> int:
        return max(min(value, floor), value - 1)

    return undamaged.model_copy(
        update={
            "performance": down(undamaged.performance, 0),
            "horsepower": {
                band: None if cards is None else down(cards, 1)
                for band, cards in undamaged.horsepower.items()
            },
            "burst": down(undamaged.burst, 0),
            "offensive": down(undamaged.offensive, 0),
            "defensive": down(undamaged.defensive, 1),
            "turret_defense": down(undamaged.turret_defense, 0),
            "speed": undamaged.speed - 1 if cls.is_formation else undamaged.speed,
        }
    )


def _merge(base: Mapping[Any, Any], override: Mapping[Any, Any]) -> dict[Any, Any]:
    """Fields of ``override`` replace those of ``base``; tables are merged key by key, so
    ``damaged = { bomb = { saturation = 0 } }`` keeps a bomber's torpedo rating."""
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    return merged


def _load_aircraft(raw: Raw) -> dict[str, AircraftType]:
    file = "aircraft.toml"
    _check_top(raw, file, ("aircraft",))
    out: dict[str, AircraftType] = {}
    for label, entry in _entries(raw, file, "aircraft", lambda e: e.get("code")):
        explicit = entry.pop("damaged", None)
        if "max_band" in entry:
            entry["max_band"] = _band(entry["max_band"], file, label, "max_band")
        if "undamaged" in entry:
            entry["undamaged"] = _ratings_raw(entry["undamaged"], file, label, "undamaged", False)
        # The damaged side is derived below from the validated undamaged one; a blank
        # stands in meanwhile so that the file's own fields are the ones reported.
        probe = _validate(AircraftType, {**entry, "damaged": Ratings()}, file, label)
        damaged = derive_damaged(probe.undamaged, probe.cls)
        if explicit is not None:
            if not isinstance(explicit, dict):
                _fail(file, label, "damaged", "Input should be a table")
            explicit = _ratings_raw(explicit, file, label, "damaged", True)
            assert isinstance(explicit, dict)
            damaged = _validate(
                Ratings, _merge(damaged.model_dump(), explicit), file, label, ("damaged",)
            )
        aircraft = probe.model_copy(update={"damaged": damaged})
        _check_aircraft(aircraft, explicit, file, label)
        if aircraft.code in out:
            _fail(file, label, "code", f"duplicate aircraft code {aircraft.code!r}")
        out[aircraft.code] = aircraft
    return out


def _check_aircraft(aircraft: AircraftType, explicit: object, file: str, label: str) -> None:
    hp = aircraft.undamaged.horsepower
    if not aircraft.cls.is_formation and not hp:
        _fail(file, label, "undamaged.horsepower", "a fighter or fighter-bomber needs a profile")
    if hp:
        allowed = [band for band, cards in hp.items() if cards is not None]
        if not allowed:
            _fail(file, label, "undamaged.horsepower", "no band is allowed")
        if max(allowed) != aircraft.max_band:
            _fail(
                file,
                label,
                "max_band",
                f"is {aircraft.max_band.name} but the highest band with Horsepower is "
                f"{max(allowed).name}",
            )
    if aircraft.cls.is_formation and BombMode.SATURATION in aircraft.undamaged.bomb:
        given = isinstance(explicit, dict) and "saturation" in (explicit.get("bomb") or {})
        if not given:
            _fail(
                file,
                label,
                "damaged.bomb.saturation",
                "a formation aircraft needs its damaged saturation rating (3.5)",
            )
    for name in ("flip_at", "destroy_extra", "box"):
        if getattr(aircraft, name) < 1:
            _fail(file, label, name, "Input should be at least 1")


# --- Target sheets and damage tracks ---------------------------------------------------------


def _load_targets(raw: Raw) -> dict[str, TargetSheet]:
    file = "targets.toml"
    _check_top(raw, file, ("sheet",))
    out: dict[str, TargetSheet] = {}
    for label, entry in _entries(raw, file, "sheet", lambda e: e.get("id")):
        points = entry.get("points")
        if isinstance(points, dict):
            converted: dict[BombResult, int] = {}
            for name, value in points.items():
                result = _result(name, file, label, f"points.{name}")
                if not _is_int(value) or value < 0:
                    _fail(file, label, f"points.{name}", "Input should be a whole number >= 0")
                converted[result] = value
            for result in BombResult:
                if result not in converted:
                    _fail(file, label, f"points.{result.name.lower()}", "Field required")
            if converted[BombResult.MISS] != 0:
                _fail(file, label, "points.miss", "a Miss always scores 0")
            entry["points"] = converted
        if entry.get("strafe") == "no":
            entry["strafe"] = None
        elif isinstance(entry.get("strafe"), str):
            _fail(file, label, "strafe", 'Input should be a whole number or "no"')
        sheet = _validate(TargetSheet, entry, file, label)
        mins = [level.min_points for level in sheet.levels]
        if mins and (mins[0] != 0 or mins != sorted(set(mins))):
            _fail(file, label, "levels", "levels must start at 0 points and rise")
        if sheet.id in out:
            _fail(file, label, "id", f"duplicate sheet id {sheet.id!r}")
        out[sheet.id] = sheet
    return out


def _load_tracks(raw: Raw) -> dict[str, DamageTrack]:
    file = "tracks.toml"
    _check_top(raw, file, ("track",))
    out: dict[str, DamageTrack] = {}
    for label, entry in _entries(raw, file, "track", lambda e: e.get("id")):
        track = _validate(DamageTrack, entry, file, label)
        mins = [level.min_boxes for level in track.levels]
        if not mins or mins[0] != 0 or mins != sorted(set(mins)):
            _fail(file, label, "levels", "levels must start at 0 boxes and rise")
        if mins[-1] > track.boxes:
            _fail(file, label, "levels", f"a level starts at {mins[-1]}, past the last box")
        if track.id in out:
            _fail(file, label, "id", f"duplicate track id {track.id!r}")
        out[track.id] = track
    return out


# --- Resources -------------------------------------------------------------------------------


def _resource_label(entry: Raw) -> object:
    return f"resource {entry['number']}" if "number" in entry else entry.get("key")


def _load_resources(raw: Raw) -> tuple[Resource, ...]:
    file = "resources.toml"
    _check_top(raw, file, ("resource",))
    numbers: set[int] = set()
    keys: set[str] = set()
    out: list[Resource] = []
    for label, entry in _entries(raw, file, "resource", _resource_label):
        resource = _validate(Resource, entry, file, label)
        if resource.number in numbers:
            _fail(file, label, "number", f"duplicate resource number {resource.number}")
        if resource.key in keys:
            _fail(file, label, "key", f"duplicate resource key {resource.key!r}")
        numbers.add(resource.number)
        keys.add(resource.key)
        out.append(resource)
    return tuple(sorted(out, key=lambda r: r.number))


# --- Campaign sheets -------------------------------------------------------------------------


def _scenario_entry(raw: Raw, loc: Sequence[str | int]) -> tuple[str | None, list[str | int]]:
    """Splits a field path into the entry a GM thinks in (a place, a Flight Ops row, a scout)
    and the field inside it."""
    rest = list(loc)
    if len(rest) >= 2 and rest[0] == "places" and isinstance(rest[1], int):
        places = raw.get("places")
        key = None
        if isinstance(places, list) and rest[1] < len(places) and isinstance(places[rest[1]], dict):
            key = places[rest[1]].get("key")
        return f"place {key if key is not None else '#' + str(rest[1] + 1)}", rest[2:]
    if len(rest) >= 3 and rest[0] == "flight_ops":
        return f"flight_ops.{rest[1]}.{rest[2]}", rest[3:]
    if len(rest) >= 2 and rest[0] == "scouts":
        return f"scouts.{rest[1]}", rest[2:]
    return None, rest


def _load_scenario(raw: Raw, file: str) -> Scenario:
    name = raw.get("key") if isinstance(raw.get("key"), str) else file.removesuffix(".toml")
    data = dict(raw)
    scouts = data.get("scouts")
    if isinstance(scouts, dict):
        data["scouts"] = {
            side: (
                {**spec, "band": _band(spec["band"], file, f"scouts.{side}", "band")}
                if isinstance(spec, dict) and "band" in spec
                else spec
            )
            for side, spec in scouts.items()
        }
    places = data.get("places")
    if isinstance(places, list):
        data["places"] = [_place_raw(place, file) for place in places]
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:
        loc, message = _first_error(exc)
        entry, rest = _scenario_entry(raw, loc)
        raise DataError(_message(file, entry or str(name), _path(rest) or None, message)) from exc


def _place_raw(place: object, file: str) -> object:
    if not isinstance(place, dict) or not isinstance(place.get("cap_table"), list):
        return place
    label = f"place {place.get('key')}"
    rows = []
    for index, row in enumerate(place["cap_table"]):
        if isinstance(row, dict) and "result" in row:
            row = {
                **row,
                "result": _result(row["result"], file, label, f"cap_table[{index}].result"),
            }
        rows.append(row)
    return {**place, "cap_table": rows}


def _cards(specs: Iterable[UnitSpec]) -> Counter[str]:
    """Aircraft cards a list of specs takes out of the box: an L/W element uses two."""
    used: Counter[str] = Counter()
    for spec in specs:
        used[spec.aircraft] += spec.count * (2 if spec.kind == "L/W" else 1)
    return used


class _ScenarioCheck:
    """Cross-checks of one campaign sheet against the aircraft, sheets and tracks."""

    def __init__(self, scenario: Scenario, file: str, catalog: _Parts) -> None:
        self.scenario = scenario
        self.file = file
        self.parts = catalog

    def fail(self, entry: str | None, field: str | None, message: str) -> NoReturn:
        _fail(self.file, entry if entry is not None else self.scenario.key, field, message)

    def specs(self, specs: Sequence[UnitSpec], side: Side, entry: str | None, field: str) -> None:
        for index, spec in enumerate(specs):
            where = f"{field}[{index}]"
            aircraft = self.parts.aircraft.get(spec.aircraft)
            if aircraft is None:
                self.fail(entry, f"{where}.aircraft", f"unknown aircraft {spec.aircraft!r}")
            if aircraft.nation is not side:
                self.fail(
                    entry,
                    f"{where}.aircraft",
                    f"{spec.aircraft} does not fly for the {side.value} side",
                )
            if spec.count < 1:
                self.fail(entry, f"{where}.count", "Input should be at least 1")
            if (spec.kind == "formation") != aircraft.cls.is_formation:
                wanted = "formation" if aircraft.cls.is_formation else "L or L/W"
                self.fail(entry, f"{where}.kind", f"{spec.aircraft} flies as {wanted}")

    def place_ref(self, key: str, side: Side, entry: str | None, field: str) -> Place:
        try:
            place = self.scenario.place(key)
        except KeyError:
            self.fail(entry, field, f"unknown place {key!r}")
        if place.side is side:
            self.fail(entry, field, f"{key!r} belongs to the {side.value} side, not the enemy")
        return place

    def box(self, used: Counter[str], entry: str, field: str, context: str = "") -> None:
        for code, cards in sorted(used.items()):
            aircraft = self.parts.aircraft.get(code)
            if aircraft is not None and cards > aircraft.box:
                self.fail(
                    entry,
                    field,
                    f"needs {cards} {code} cards{context}, the box holds {aircraft.box} (25.65)",
                )

    def run(self) -> None:
        s = self.scenario
        if len(s.turn_labels) != s.turns:
            self.fail(None, "turn_labels", f"{len(s.turn_labels)} labels for {s.turns} turns")
        keys: set[str] = set()
        for place in s.places:
            entry = f"place {place.key}"
            if place.key in keys:
                self.fail(entry, "key", f"duplicate place key {place.key!r}")
            keys.add(place.key)
            if place.sheet not in self.parts.targets:
                self.fail(entry, "sheet", f"unknown target sheet {place.sheet!r}")
            if place.track not in self.parts.tracks:
                self.fail(entry, "track", f"unknown damage track {place.track!r}")
            results = [row.result for row in place.cap_table]
            if len(results) != len(set(results)):
                self.fail(entry, "cap_table", "a bombing result appears twice")
            for index, card_row in enumerate(place.cap_table):
                self.specs(card_row.cap, place.side, entry, f"cap_table[{index}].cap")
                self.box(_cards(card_row.cap), entry, f"cap_table[{index}].cap")
            mins = [row.min_boxes for row in place.airfield_table]
            if mins and (mins[0] != 0 or mins != sorted(set(mins))):
                self.fail(entry, "airfield_table", "rows must start at 0 boxes and rise")
            for index, row in enumerate(place.airfield_table):
                self.specs(row.strike, place.side, entry, f"airfield_table[{index}].strike")
                self.specs(row.cap, place.side, entry, f"airfield_table[{index}].cap")
                self.box(_cards((*row.strike, *row.cap)), entry, f"airfield_table[{index}]")
            if place.strike_target is not None:
                self.place_ref(place.strike_target, place.side, entry, "strike_target")
        for side in Side:
            fleets = [p for p in s.places if p.carrier_fleet and p.side is side]
            if len(fleets) != 1:
                self.fail(None, "places", f"the {side.value} side needs exactly one carrier fleet")
        self.sides()

    def sides(self) -> None:
        s = self.scenario
        for side in Side:
            rows = s.flight_ops.get(side)
            if rows is None:
                self.fail(None, f"flight_ops.{side.value}", "Field required")
            for size in rows:
                if size not in FLIGHT_OPS_SIZES:
                    self.fail(
                        f"flight_ops.{side.value}.{size}", None, "unknown size (large, small, none)"
                    )
            for size in FLIGHT_OPS_SIZES:
                if size not in rows:
                    self.fail(f"flight_ops.{side.value}", size, "Field required")
            for field in ("strike_targets", "land_based_target", "optional_opening_targets"):
                targets: Mapping[Side, Sequence[str]] = getattr(s, field)
                for index, key in enumerate(targets.get(side, ())):
                    self.place_ref(key, side, None, f"{field}.{side.value}[{index}]")
            if not s.strike_targets.get(side):
                self.fail(None, f"strike_targets.{side.value}", "Field required")
            land_based = s.land_based.get(side, ())
            self.specs(land_based, side, None, f"land_based.{side.value}")
            scout = s.scouts.get(side)
            if scout is None:
                self.fail(None, f"scouts.{side.value}", "Field required")
            scout_entry = f"scouts.{side.value}"
            if scout.aircraft not in self.parts.aircraft:
                self.fail(scout_entry, "aircraft", f"unknown aircraft {scout.aircraft!r}")
            if self.parts.aircraft[scout.aircraft].nation is not side:
                self.fail(
                    scout_entry,
                    "aircraft",
                    f"{scout.aircraft} does not fly for the {side.value} side",
                )
            if scout.band > self.parts.aircraft[scout.aircraft].max_band:
                self.fail(scout_entry, "band", f"above the {scout.aircraft}'s highest band")
            self.specs((scout.bonus,), side, scout_entry, "bonus")
            # Everything else the side may field in the same turn shares the box (25.65):
            # its bases' tables at their worst, land-based bombers, the scout and its bonus.
            extra: Counter[str] = Counter()
            for place in s.places:
                if place.side is not side:
                    continue
                for table in (
                    [row.cap for row in place.cap_table],
                    [(*row.strike, *row.cap) for row in place.airfield_table],
                ):
                    for row_specs in table:
                        extra |= _cards(row_specs)
            extra += _cards((*land_based, scout.bonus))
            extra[scout.aircraft] += 1
            for size in FLIGHT_OPS_SIZES:
                row = rows[size]
                entry = f"flight_ops.{side.value}.{size}"
                self.specs(row.strike, side, entry, "strike")
                self.specs(row.cap, side, entry, "cap")
                own = _cards((*row.strike, *row.cap))
                for code in own:
                    field = "cap" if any(spec.aircraft == code for spec in row.cap) else "strike"
                    self.box(Counter({code: own[code]}), entry, field)
                    self.box(
                        Counter({code: own[code] + extra[code]}),
                        entry,
                        field,
                        " with the other aircraft this side fields in a turn",
                    )
        for index, objective in enumerate(s.objectives):
            for cond_index, condition in enumerate(objective.when):
                if condition.place not in {p.key for p in s.places}:
                    self.fail(
                        None,
                        f"objectives[{index}].when[{cond_index}].place",
                        f"unknown place {condition.place!r}",
                    )


class _Parts:
    """What a campaign sheet refers to, loaded before it."""

    def __init__(
        self,
        aircraft: dict[str, AircraftType],
        targets: dict[str, TargetSheet],
        tracks: dict[str, DamageTrack],
    ) -> None:
        self.aircraft = aircraft
        self.targets = targets
        self.tracks = tracks


# --- Entry points ----------------------------------------------------------------------------


def load_catalog(data_dir: Path | None = None) -> Catalog:
    """Every data file of ``data_dir`` (default ``engine/zero/data``), validated and cross-checked.

    Raises ``DataError`` naming the file, the entry and the field of the first problem.
    """
    directory = DATA_DIR if data_dir is None else data_dir
    deck = _load_deck(_read(directory, "deck.toml"))
    aircraft = _load_aircraft(_read(directory, "aircraft.toml"))
    targets = _load_targets(_read(directory, "targets.toml"))
    tracks = _load_tracks(_read(directory, "tracks.toml"))
    resources = _load_resources(_read(directory, "resources.toml"))
    parts = _Parts(aircraft, targets, tracks)
    scenarios: dict[str, Scenario] = {}
    for file in SCENARIO_FILES:
        scenario = _load_scenario(_read(directory, file), file)
        if scenario.key != file.removesuffix(".toml"):
            _fail(
                file,
                scenario.key,
                "key",
                f"should be {file.removesuffix('.toml')!r}, the file's name",
            )
        _ScenarioCheck(scenario, file, parts).run()
        scenarios[scenario.key] = scenario
        if scenario.optional_opening_targets:
            # The optional rule as its own scenario, the GM's pick at /campaign new.
            twin = scenario.model_copy(
                update={
                    "key": scenario.key + HISTORICAL,
                    "name": f"{scenario.name}, historical opening",
                    "historical_opening": True,
                }
            )
            scenarios[twin.key] = twin
    return Catalog(
        deck=deck,
        aircraft=aircraft,
        targets=targets,
        tracks=tracks,
        resources=resources,
        scenarios=scenarios,
    )


@functools.cache
def default_catalog() -> Catalog:
    """The catalog of the packaged data files, loaded once per process."""
    return load_catalog()


def load_pilots(data_dir: Path | None = None, catalog: Catalog | None = None) -> PilotPool:
    """The pilot counters of ``pilots.toml`` (19.2), checked against the catalog's aircraft:
    a type-specific counter must name a known type of its own nation and service."""
    directory = DATA_DIR if data_dir is None else data_dir
    if catalog is None:
        catalog = default_catalog() if data_dir is None else load_catalog(directory)
    file = "pilots.toml"
    raw = _read(directory, file)
    _check_top(raw, file, ("pool",))
    counters: list[PilotCounter] = []
    ids: set[str] = set()
    services = {(a.nation, a.service) for a in catalog.aircraft.values()}
    codes = ", ".join(sorted(SKILL_CODES))
    pools = _entries(raw, file, "pool", lambda e: f"pool {e.get('nation')}/{e.get('service')}")
    for pool_label, pool in pools:
        for key in pool:
            if key not in ("nation", "service", "counters"):
                _fail(file, pool_label, key, "unknown key")
        members = _entries(pool, file, "counters", lambda e: e.get("id"))
        for label, entry in members:
            entry = {"nation": pool.get("nation"), "service": pool.get("service"), **entry}
            counter = _validate(PilotCounter, entry, file, label)
            if counter.id in ids:
                _fail(file, label, "id", f"duplicate counter id {counter.id!r}")
            ids.add(counter.id)
            if (counter.nation, counter.service) not in services:
                _fail(
                    file,
                    label,
                    "service",
                    f"no {counter.nation.value} aircraft of service {counter.service!r}",
                )
            for face_index, face in enumerate(counter.faces):
                for skill_index, skill in enumerate(face.skills):
                    if skill not in SKILL_CODES:
                        _fail(
                            file,
                            label,
                            f"faces[{face_index}].skills[{skill_index}]",
                            f"unknown skill code {skill!r} (19.25: {codes})",
                        )
            if counter.aircraft is not None:
                aircraft = catalog.aircraft.get(counter.aircraft)
                if aircraft is None:
                    _fail(file, label, "aircraft", f"unknown aircraft {counter.aircraft!r}")
                if (aircraft.nation, aircraft.service) != (counter.nation, counter.service):
                    _fail(
                        file,
                        label,
                        "aircraft",
                        f"{aircraft.code} is not flown by this pool's service",
                    )
            counters.append(counter)
    return _validate(PilotPool, {"provenance": raw["provenance"], "counters": counters}, file, None)


@functools.cache
def default_pilot_pool() -> PilotPool:
    """The packaged pilot counters, loaded once per process."""
    return load_pilots()

"""Strike and CAP sizes: the campaign sheet's rows, damage penalties, resources, box limits.

25.63-25.65. "Strike -n a/c" is the owner's choice at the table; here a fixed policy makes
it: the last-listed aircraft go first, Wingmen before Leaders, so a strike loses its
escorts' depth before its bombers. Starting bands follow the aircraft's trade (dive bombers
Medium 21.41, torpedoes Very Low 21.53, level bombers Low, formations their sheet band).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from engine.zero.catalog import AircraftType, Catalog, UnitSpec
from engine.zero.orders import Doctrine, FlightUnit, PilotFace
from engine.zero.trusted import trusted, trusted_copy
from engine.zero.types import AircraftClass, Band, BombMode, Ordnance, Side

SIDE_LETTER = {Side.JAPANESE: "J", Side.ALLIED: "A"}


def formation_size(aircraft: AircraftType) -> int:
    """17.22: medium 2, heavy 3 but the B-17 2; recon aircraft fly alone (17.31)."""
    if aircraft.cls is AircraftClass.RECON:
        return 1
    if aircraft.cls is AircraftClass.HEAVY and not aircraft.code.startswith("B-17"):
        return 3
    return 2


def _ordnance(
    aircraft: AircraftType, spec: UnitSpec, group: str, doctrine: Doctrine, naval: bool
) -> Ordnance:
    if group != "strike" or spec.ordnance == "none":
        return Ordnance.NONE
    modes = aircraft.undamaged.bomb
    if spec.ordnance == "torpedo":
        return Ordnance.TORPEDO if naval else Ordnance.BOMB
    if BombMode.TORPEDO in modes and naval and doctrine.torpedo and spec.ordnance != "bomb":
        return Ordnance.TORPEDO
    if aircraft.cls is AircraftClass.FIGHTER and spec.ordnance != "bomb":
        return Ordnance.NONE  # 24.46: a fighter carries bombs only where the sheet says so
    if any(mode in modes for mode in (BombMode.LEVEL, BombMode.DIVE, BombMode.SATURATION)):
        return Ordnance.BOMB
    return Ordnance.NONE


def _band(aircraft: AircraftType, ordnance: Ordnance, group: str, doctrine: Doctrine) -> Band:
    if group == "cap":
        band = doctrine.cap_band
    elif ordnance is Ordnance.TORPEDO:
        band = Band.VL
    elif aircraft.cls in (AircraftClass.MEDIUM, AircraftClass.HEAVY):
        band = Band.H if aircraft.cls is AircraftClass.HEAVY else Band.M
    elif aircraft.cls is AircraftClass.RECON or (
        ordnance is Ordnance.BOMB and BombMode.DIVE in aircraft.undamaged.bomb
    ):
        band = Band.M
    elif ordnance is Ordnance.BOMB:
        band = Band.L
    else:
        band = Band.M
    band = min(band, aircraft.max_band)
    while aircraft.undamaged.horsepower.get(band, 1) is None and band > Band.VL:
        band = Band(band - 1)
    return band


# The units of recent sheet lines, by the objects they are built from (the catalog's own
# lines, the doctrine presets) and the plain facts beside them: Midway's raids and CAP, the
# card-drawn CAPs and the scouts expand the same few lines in every turn and every play of
# an odds preview. The units are frozen, so they are shared; each caller gets its own list.
# An entry holds the objects its key names by id, so no id is reused while it lives.
_Expanded = tuple[Catalog, tuple[UnitSpec, ...], Doctrine, tuple[FlightUnit, ...]]
_expanded: dict[tuple[object, ...], _Expanded] = {}
_EXPANDED_SIZE = 1024


def expand(
    specs: Iterable[UnitSpec],
    side: Side,
    group: str,
    prefix: str,
    catalog: Catalog,
    doctrine: Doctrine,
    naval: bool,
) -> list[FlightUnit]:
    """Turn sheet notation (24.46: "n L/W", "L", plain counts) into individual aircraft.

    ``side`` must be the ``Side`` itself: the units are built from the sheet's own values
    without validation (issue 13, thousands per campaign)."""
    lines = tuple(specs)
    key = (id(catalog), tuple(map(id, lines)), side, group, prefix, id(doctrine), naval)
    hit = _expanded.get(key)
    if hit is not None and hit[0] is catalog and hit[2] is doctrine:
        return list(hit[3])

    def unit(uid: str, role: str, element: str) -> FlightUnit:
        return trusted(
            FlightUnit,
            uid=uid,
            aircraft=aircraft.code,
            side=side,
            role=role,
            group=group,
            element=element,
            band=band,
            ordnance=ordnance,
            pilot=None,
            damage=0,
        )

    units: list[FlightUnit] = []
    element_no = 0
    for spec in lines:
        aircraft = catalog.aircraft[spec.aircraft]
        ordnance = _ordnance(aircraft, spec, group, doctrine, naval)
        band = _band(aircraft, ordnance, group, doctrine)
        if aircraft.cls.is_formation:
            size = formation_size(aircraft)
            role = "recon" if aircraft.cls is AircraftClass.RECON else "formation"
            for index in range(spec.count):
                if index % size == 0:
                    element_no += 1
                element = f"{prefix}{element_no}"
                units.append(unit(f"{element}-{aircraft.code}-{index % size + 1}", role, element))
            continue
        for _ in range(spec.count):
            element_no += 1
            element = f"{prefix}{element_no}"
            roles = ("leader", "wingman") if spec.kind == "L/W" else ("leader",)
            for role in roles:
                units.append(unit(f"{element}-{aircraft.code}-{role[0].upper()}", role, element))
    if len(_expanded) >= _EXPANDED_SIZE:
        _expanded.clear()  # lines made on the fly (tests) fill it; the catalog's are few
    _expanded[key] = (catalog, lines, doctrine, tuple(units))
    return units


def remove_aircraft(units: Sequence[FlightUnit], count: int) -> list[FlightUnit]:
    """25.63 "-n a/c": drop Wingmen from the back first, then Leaders from the back."""
    kept = list(units)
    for _ in range(max(0, count)):
        if not kept:
            break
        wingmen = [i for i, unit in enumerate(kept) if unit.role == "wingman"]
        index = wingmen[-1] if wingmen else len(kept) - 1
        removed = kept.pop(index)
        if removed.role == "leader":
            # A lone Wingman left behind flies on as a Leader (authored 3.7.1).
            kept = [
                trusted_copy(unit, role="leader")
                if unit.element == removed.element and unit.role == "wingman"
                else unit
                for unit in kept
            ]
    return kept


def within_box(
    units: Sequence[FlightUnit], catalog: Catalog, already: Mapping[str, int]
) -> list[FlightUnit]:
    """25.65: never more aircraft of a type than the box has cards, whatever adds them."""
    used = dict(already)  # a plain copy: a Counter's is a loop in Python
    types = catalog.aircraft
    kept: list[FlightUnit] = []
    for unit in units:
        code = unit.aircraft
        count = used.get(code, 0)
        if count < types[code].box:
            used[code] = count + 1
            kept.append(unit)
    return kept


def add_scout_bonus(
    units: Sequence[FlightUnit],
    bonus: UnitSpec,
    *,
    catalog: Catalog,
    already: Mapping[str, int],
    prefix: str,
    doctrine: Doctrine,
    naval: bool,
) -> list[FlightUnit]:
    """The sheet's scout bonus (25.63 [EX], authored 3.4 step 4): one more aircraft of the
    bonus type, as the Wingman of a lone Leader of that type (the seed's second Val), or
    else as a lone Leader of its own. Nothing is added if the box has no card left (25.65).
    """
    kept = list(units)
    code = bonus.aircraft
    in_use = already.get(code, 0) + sum(1 for unit in kept if unit.aircraft == code)
    if in_use >= catalog.aircraft[code].box:
        return kept
    for index, unit in enumerate(kept):
        alone = not any(o.element == unit.element for o in kept if o is not unit)
        if unit.aircraft == code and unit.role == "leader" and alone:
            wingman = trusted_copy(unit, uid=f"{unit.element}-{code}-W", role="wingman", pilot=None)
            kept.insert(index + 1, wingman)
            return kept
    leader = UnitSpec(count=1, kind="L", aircraft=code, ordnance=bonus.ordnance)
    side = kept[0].side if kept else catalog.aircraft[code].nation
    kept += expand(
        [leader],
        side=side,
        group="strike",
        prefix=prefix,
        catalog=catalog,
        doctrine=doctrine,
        naval=naval,
    )
    return kept


def describe(units: Sequence[FlightUnit]) -> str:
    """Back to the sheet's notation, for panels and reports: "1 L/W A6M2, 1 L D3A1"."""
    parts: list[str] = []
    seen: dict[str, list[FlightUnit]] = {}
    for unit in units:
        seen.setdefault(unit.element, []).append(unit)
    counts: Counter[str] = Counter()
    order: list[str] = []
    for members in seen.values():
        first = members[0]
        if first.role in ("formation", "recon"):
            key = f"{first.aircraft}"
            counts[key] += len(members)
        else:
            key = f"{'L/W' if len(members) > 1 else 'L'} {first.aircraft}"
            counts[key] += 1
        if key not in order:
            order.append(key)
    for key in order:
        parts.append(f"{counts[key]} {key}")
    return ", ".join(parts) if parts else "—"


def with_pilot(units: Sequence[FlightUnit], pilots: dict[str, PilotFace]) -> list[FlightUnit]:
    return [
        trusted_copy(unit, pilot=pilots[unit.uid]) if unit.uid in pilots else unit for unit in units
    ]

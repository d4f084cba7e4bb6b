"""Playing a carrier turn once both resources are revealed (25.5-25.9).

Order inside a turn (25.53, 25.61, authored 3.7.2): the fleets' CAP goes up (fixed for the
turn, so scouts meet it), scout missions, Out of Sight, Midway's airfield strike, carrier
strikes by resource number (a later strike sized by the level its fleet is at by then;
equal numbers fly simultaneously, their sizes taken from the damage at the start of the
turn), a land-based strike right after its owner's, then recovery (25.7), loss ticks
(25.82), Damage Control, VPs (25.83), end (25.9).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.rng import Rng
from engine.rulesets.carrier.state import (
    Event,
    PilotRecord,
    RecoveryDraw,
    SidePicks,
    SideState,
    State,
    Tick,
    TrackState,
    TurnRecord,
)
from engine.zero.cards import Deck
from engine.zero.catalog import (
    Catalog,
    DamageTrack,
    ObjectiveBonus,
    Place,
    ResourceEffect,
    Scenario,
    TrackLevel,
    UnitSpec,
)
from engine.zero.forces import (
    SIDE_LETTER,
    add_scout_bonus,
    describe,
    expand,
    remove_aircraft,
    with_pilot,
    within_box,
)
from engine.zero.loader import default_pilot_pool
from engine.zero.orders import DOCTRINE_PRESETS, Doctrine, FlightUnit, PilotFace, StrikeSetup
from engine.zero.pilots import draft_pilots
from engine.zero.report import AircraftOutcome, StrikeReport
from engine.zero.strike import fly_strike, fly_unrecorded
from engine.zero.trusted import trusted, trusted_copy, trusted_defaults, trusted_dicts
from engine.zero.types import (
    AircraftClass,
    AircraftState,
    BombMode,
    BombResult,
    FleetTactic,
    RoundKind,
    Side,
    StrikeSize,
)

# The sides in their fixed order, as a tuple: iterating the enum itself costs a
# generator per loop, and a turn loops over the sides some sixty times.
SIDES = tuple(Side)
# Sizes by their text: calling the enum with a value runs its lookup in Python.
_SIZES = {size.value: size for size in StrikeSize}

# ----------------------------------------------------------------------------- levels


# Each track's level by count of boxes, found once (a turn asks about a hundred times).
# An entry keeps its track so the track's id cannot be reused while it lives.
_levels: dict[tuple[int, int], tuple[DamageTrack, TrackLevel]] = {}


def level_at(track: DamageTrack, boxes: int) -> TrackLevel:
    """``track.level(boxes)``, remembered."""
    hit = _levels.get((id(track), boxes))
    if hit is None or hit[0] is not track:
        if len(_levels) >= 4096:
            _levels.clear()  # only a catalog after catalog (tests) gets here
        hit = _levels[id(track), boxes] = (track, track.level(boxes))
    return hit[1]


def track_level(catalog: Catalog, scenario: Scenario, track: TrackState) -> TrackLevel:
    """Penalties read from the effective boxes (repairs count); VP from ticked boxes."""
    place = scenario.place(track.place)
    return level_at(catalog.tracks[place.track], track.effective)


def fleet_level(catalog: Catalog, state: State, side: Side) -> TrackLevel:
    scenario = catalog.scenarios[state.scenario]
    fleet = scenario.fleet_of(side)
    return track_level(catalog, scenario, state.tracks[fleet.key])


def tick_track(track: TrackState, length: int, points: int) -> tuple[TrackState, int]:
    """``track`` with ``points`` boxes ticked, as many as it has left; and how many that is.

    A track has no box past its end (25.82): points beyond it tick nothing, nor change any
    level or VP (they read "at least N boxes"). Boxes Damage Control restored are room
    again (authored #11), so a fleet repaired and hit again still fills its track.
    """
    room = max(0, length + track.repaired - track.boxes)
    ticked = min(points, room)
    if ticked <= 0:
        return track, 0
    return _track(track, damage_points=track.damage_points + ticked), ticked


def _track(track: TrackState, **update: int) -> TrackState:
    """``track`` with some of its counts changed (the engine's own ints: not validated)."""
    counts = {"damage_points": track.damage_points, "losses": track.losses}
    counts["repaired"] = track.repaired
    counts.update(update)
    return trusted(TrackState, place=track.place, **counts)


def _first_of(specs: tuple[UnitSpec, ...], catalog: Catalog, cls: AircraftClass) -> str | None:
    for spec in specs:
        if catalog.aircraft[spec.aircraft].cls is cls:
            return spec.aircraft
    return None


# The forces of recent combinations of the only facts ``_build_forces`` reads: the sheet
# row (scenario, side, size), the level's penalties, the four numbers of a resource that
# change forces, whether the target is a ship, the doctrine's torpedo choice and CAP band,
# and the box cards the bases fly. Most resources and levels change none of them, so the
# same few lists serve every Flight Ops option on the panels, the turn itself and every
# sample of an odds preview (random Coral Sea campaigns meet some 430, all kept). A new
# read in ``_build_forces`` must join the key. The units are frozen, so the lists are
# shared as tuples and each caller gets its own list. An entry keeps its catalog so the
# catalog's id cannot be reused while it lives; the oldest entry goes first; plain dict
# operations only, so threads can share it.
_FORCES_SIZE = 512
_forces: dict[
    tuple[object, ...], tuple[Catalog, tuple[FlightUnit, ...], tuple[FlightUnit, ...]]
] = {}


def _carrier_forces(
    catalog: Catalog,
    scenario: Scenario,
    side: Side,
    size: StrikeSize,
    level: TrackLevel,
    effect: ResourceEffect,
    target: Place | None,
    doctrine: Doctrine,
    already: Counter[str] | None = None,
) -> tuple[list[FlightUnit], list[FlightUnit]]:
    """25.63-25.65: the sheet's row, less the track's penalties, plus resources, within the
    box. ``already``: cards of the box the side's bases fly this turn (Midway)."""
    naval = bool(target and catalog.targets[target.sheet].naval)
    boxes = tuple(sorted(already.items())) if already else ()
    # Only what tells two builds apart: the strike's facts when the row has a strike (the
    # doctrine's torpedo choice only against a ship), the CAP's penalties as their sum.
    strike_facts = (
        (
            level.strike_minus,
            effect.strike_add_fighter_elements,
            effect.strike_add_fighter_bomber_leaders,
            naval,
            naval and doctrine.torpedo,
        )
        if scenario.flight_ops[side][size.value].strike
        else None
    )
    key = (
        id(catalog),
        scenario.key,
        side,
        size,
        strike_facts,
        level.cap_minus + effect.cap_minus,
        effect.cap_add_elements,
        doctrine.cap_band,
        boxes,
    )
    hit = _forces.get(key)
    if hit is None or hit[0] is not catalog:
        strike, cap = _build_forces(
            catalog, scenario, side, size, level, effect, naval, doctrine, already
        )
        while len(_forces) >= _FORCES_SIZE:
            try:
                del _forces[next(iter(_forces))]
            except (KeyError, RuntimeError, StopIteration):  # another thread got there first
                break
        hit = _forces[key] = (catalog, tuple(strike), tuple(cap))
    return list(hit[1]), list(hit[2])


def _build_forces(
    catalog: Catalog,
    scenario: Scenario,
    side: Side,
    size: StrikeSize,
    level: TrackLevel,
    effect: ResourceEffect,
    naval: bool,
    doctrine: Doctrine,
    already: Counter[str] | None,
) -> tuple[list[FlightUnit], list[FlightUnit]]:
    base = Counter(already or {})
    row = scenario.flight_ops[side][size.value]
    fighter = _first_of(
        scenario.flight_ops[side]["none"].cap, catalog, AircraftClass.FIGHTER
    ) or _first_of(row.cap, catalog, AircraftClass.FIGHTER)
    bomber = _first_of(
        scenario.flight_ops[side]["large"].strike, catalog, AircraftClass.FIGHTER_BOMBER
    )
    letter = SIDE_LETTER[side]
    strike_specs = list(row.strike)
    if strike_specs and fighter and effect.strike_add_fighter_elements:
        strike_specs.append(
            UnitSpec(count=effect.strike_add_fighter_elements, kind="L/W", aircraft=fighter)
        )
    if strike_specs and bomber and effect.strike_add_fighter_bomber_leaders:
        strike_specs.append(
            UnitSpec(count=effect.strike_add_fighter_bomber_leaders, kind="L", aircraft=bomber)
        )
    strike = expand(strike_specs, side, "strike", f"{letter}S", catalog, doctrine, naval)
    strike = remove_aircraft(strike, level.strike_minus)
    strike = within_box(strike, catalog, base)
    cap_specs = list(row.cap)
    cap = expand(cap_specs, side, "cap", f"{letter}C", catalog, doctrine, False)
    cap = remove_aircraft(cap, level.cap_minus + effect.cap_minus)
    used = base + Counter(unit.aircraft for unit in strike)
    cap = within_box(cap, catalog, used)
    if effect.cap_add_elements:
        # 25.65 [EX]: with the fighters' box full, Extra CAP may be a fighter-bomber pair.
        for _ in range(effect.cap_add_elements):
            in_use = used + Counter(unit.aircraft for unit in cap)
            for code in (fighter, bomber):
                if code and in_use[code] + 2 <= catalog.aircraft[code].box:
                    extra = expand(
                        [UnitSpec(count=1, kind="L/W", aircraft=code, ordnance="none")],
                        side,
                        "cap",
                        f"{letter}X{len(cap)}",
                        catalog,
                        doctrine,
                        False,
                    )
                    cap.extend(extra)
                    break
    return strike, cap


def _specs_count(specs: tuple[UnitSpec, ...]) -> Counter[str]:
    """Aircraft (box cards) a sheet line uses: an L/W element is two (24.46)."""
    used: Counter[str] = Counter()
    for spec in specs:
        used[spec.aircraft] += spec.count * (2 if spec.kind == "L/W" else 1)
    return used


def bases_in_use(
    scenario: Scenario, tracks: dict[str, TrackState], side: Side, turn_no: int
) -> Counter[str]:
    """25.65: the box cards the side's airfield (Midway) flies this turn, by its damage at
    the start of the turn: its CAP, and its strike while it still launches raids."""
    used: Counter[str] = Counter()
    for place in scenario.places:
        if place.side is not side or not place.airfield_table:
            continue
        strike, cap = _airfield_row(place, tracks[place.key].effective)
        used += _specs_count(cap)
        if place.strike_last_turn is None or turn_no <= place.strike_last_turn:
            used += _specs_count(strike)
    return used


_NO_EFFECT = ResourceEffect()
_PLAIN = Doctrine()
# Recent previews by the only facts they read (see ``_forces`` for why an entry holds it).
_previews: dict[tuple[object, ...], tuple[Catalog, tuple[str, str]]] = {}


def preview_forces(catalog: Catalog, state: State, side: Side, size: StrikeSize) -> tuple[str, str]:
    """What a Flight Ops size would field now (before this turn's resource), as notation."""
    return preview_on(catalog, state.scenario, state.tracks, state.turn, side, size)


def preview_on(
    catalog: Catalog,
    scenario_key: str,
    tracks: dict[str, TrackState],
    turn: int,
    side: Side,
    size: StrikeSize,
) -> tuple[str, str]:
    """``preview_forces`` from the public facts it reads: the tracks and the turn."""
    scenario = catalog.scenarios[scenario_key]
    level = track_level(catalog, scenario, tracks[scenario.fleet_of(side).key])
    already = bases_in_use(scenario, tracks, side, turn)
    key = (id(catalog), scenario.key, side, size, level, tuple(sorted(already.items())))
    hit = _previews.get(key)
    if hit is None or hit[0] is not catalog:
        strike, cap = _carrier_forces(
            catalog, scenario, side, size, level, _NO_EFFECT, None, _PLAIN, already
        )
        if len(_previews) >= _FORCES_SIZE:
            _previews.clear()
        hit = _previews[key] = (catalog, (describe(strike), describe(cap)))
    return hit[1]


# ----------------------------------------------------------------------------- the turn


# Per scenario (kept alive by its entry): its places by key and each side's carrier
# fleet, looked up once instead of walking the list at every ask.
_sheets: dict[int, tuple[Scenario, dict[str, Place], dict[Side, Place]]] = {}


def _sheet_of(scenario: Scenario) -> tuple[dict[str, Place], dict[Side, Place]]:
    hit = _sheets.get(id(scenario))
    if hit is None or hit[0] is not scenario:
        if len(_sheets) >= 64:
            _sheets.clear()  # only a catalog after catalog (tests) gets here
        places = {place.key: place for place in scenario.places}
        fleets = {side: scenario.fleet_of(side) for side in SIDES}
        hit = _sheets[id(scenario)] = (scenario, places, fleets)
    return hit[1], hit[2]


@dataclass
class _Turn:
    catalog: Catalog
    scenario: Scenario
    state: State
    rng: Rng
    resources: dict[Side, int]
    tracks: dict[str, TrackState]
    events: list[Event] = field(default_factory=list)
    reports: list[StrikeReport] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    cap_damage: dict[str, int] = field(default_factory=dict)  # uid -> damage carried
    caps: dict[str, list[FlightUnit]] = field(default_factory=dict)  # place -> CAP
    scout_success: dict[Side, bool] = field(default_factory=dict)
    out_of_sight: dict[Side, str] = field(default_factory=dict)  # "hidden" / "partial"
    pilots: dict[str, PilotFace] = field(default_factory=dict)
    losses: Counter[str] = field(default_factory=Counter)  # place key -> aircraft lost
    cap_home: dict[tuple[Side, str], str] = field(default_factory=dict)  # -> place flown from
    aces: set[Side] = field(default_factory=set)  # sides whose Ace Leader (#14) is placed
    bases: dict[Side, Counter[str]] = field(default_factory=dict)  # box cards bases fly (25.65)
    # 25.65: box cards each side has put up so far this turn, bases apart (fleet CAP,
    # card-drawn CAPs, strikes launched, scouts, land-based bombers).
    fielded: dict[Side, dict[str, int]] = field(
        default_factory=lambda: {side: {} for side in SIDES}
    )
    # The export's record of the turn (issue 11): pilot draws and track ticks with causes.
    pilot_records: list[PilotRecord] = field(default_factory=list)
    drafted: set[str] = field(default_factory=set)  # Leaders that had their draw (19.24)
    ticks: list[Tick] = field(default_factory=list)
    effects: dict[Side, ResourceEffect] = field(default_factory=dict)  # by side, once found
    places: dict[str, Place] = field(default_factory=dict)  # the scenario's, by key
    fleets: dict[Side, Place] = field(default_factory=dict)  # each side's carrier fleet
    levels: dict[str, tuple[TrackState, TrackLevel]] = field(default_factory=dict)
    recovery: list[RecoveryDraw] = field(default_factory=list)  # 25.71 tests, in order
    # False: only the tracks are wanted (``tracks_after``, an odds preview): the events and
    # the records the turn's record keeps (pilots, ticks, recovery draws, strike details)
    # are not made. Every draw and every rule runs the same.
    records: bool = True

    def length(self, key: str) -> int:
        """How many boxes the place's damage track has."""
        return self.catalog.tracks[self.place(key).track].boxes

    def place(self, key: str) -> Place:
        return self.places[key]

    def fleet(self, side: Side) -> Place:
        return self.fleets[side]

    def room(self, side: Side) -> dict[str, int]:
        """Box cards of ``side`` already in use this turn (25.65), by aircraft type (a
        plain dict: adding two Counters runs in Python, and this is asked a dozen times)."""
        used = dict(self.bases[side])
        for code, count in self.fielded[side].items():
            used[code] = used.get(code, 0) + count
        return used

    def field_units(self, side: Side, units: list[FlightUnit]) -> None:
        fielded = self.fielded[side]
        for unit in units:  # ``Counter.update`` would walk them in Python all the same
            code = unit.aircraft
            fielded[code] = fielded.get(code, 0) + 1

    def effect(self, side: Side) -> ResourceEffect:
        # Asked a hundred times a turn; the catalog finds a resource by walking its list.
        found = self.effects.get(side)
        if found is None:
            found = self.effects[side] = self.catalog.resource(self.resources[side]).effect_for(
                side
            )
        return found

    def tactic(self, side: Side) -> FleetTactic:
        tactic = self.state.sides[side].tactic
        assert tactic is not None
        return tactic

    def doctrine(self, side: Side) -> Doctrine:
        preset = DOCTRINE_PRESETS.get(self.state.sides[side].doctrine)
        return _PLAIN if preset is None else preset

    def level(self, place: Place) -> TrackLevel:
        # ``track_level`` without looking the place up again (asked for many times a turn),
        # kept beside the track state it was read from: a new state means a new look.
        track = self.tracks[place.key]
        hit = self.levels.get(place.key)
        if hit is None or hit[0] is not track:
            level = level_at(self.catalog.tracks[place.track], track.effective)
            hit = self.levels[place.key] = (track, level)
        return hit[1]

    def emit(self, event_kind: str, /, **data: object) -> None:
        if not self.records:
            return
        # ``data`` is this call's own new dict: the event keeps it as it is.
        self.events.append(
            trusted(Event, kind=event_kind, turn=self.state.turn, data=data, sight=None, owner=None)
        )


def _draft(
    turn: _Turn, side: Side, units: list[FlightUnit], purpose: str, *, ace: bool = False
) -> list[FlightUnit]:
    """19.24: one pilot counter per Leader, drawn from the cup of its nation and service.

    ``ace``: this group carries the side's Ace Leader (authored #14), if not placed yet.
    """
    # 19.24: one draw per Leader. Midway's fighters cover its airfield and its ground
    # defences, so the same group reaches here more than once: a Leader that drew an
    # unskilled face keeps flying without a pilot instead of drawing again.
    leaders = [
        (unit.uid, turn.catalog.aircraft[unit.aircraft])
        for unit in units
        if unit.role == "leader" and unit.uid not in turn.pilots and unit.uid not in turn.drafted
    ]
    turn.drafted.update(uid for uid, _ in leaders)
    if not leaders:
        return with_pilot(units, turn.pilots)
    placed: dict[str, str] = {}
    if ace and turn.effect(side).ace_leader and side not in turn.aces:
        # Authored #14: one named ace for the whole side this turn, on the group's first
        # Leader; it is not drawn from the cup (19.24), so that Leader draws no counter.
        uid, aircraft = leaders.pop(0)
        bombing = aircraft.cls is not AircraftClass.FIGHTER
        face = PilotFace(name="Ace leader", skills=("A", "BM") if bombing else ("A", "BU"))
        turn.pilots[uid] = face
        turn.aces.add(side)
        placed[uid] = face.name
        turn.pilot_records.append(  # kept in any case: one a turn at most
            trusted_defaults(
                PilotRecord,
                side=side,
                purpose=purpose,
                uid=uid,
                aircraft=aircraft.code,
                counter=None,
                ace=True,
                skilled=True,
                pilot=face.name,
            )
        )
    draws = draft_pilots(
        leaders,
        default_pilot_pool(),
        turn.rng.stream(f"pilots:{purpose}"),
        extra_draw_if_unskilled=turn.effect(side).veteran_aircrew,
    )
    if not turn.records:
        for draw in draws:
            fields = draw.__dict__
            if fields["pilot"] is not None:
                turn.pilots[fields["uid"]] = fields["pilot"]
        return with_pilot(units, turn.pilots)
    rows: list[dict[str, object]] = []
    for draw in draws:
        fields = draw.__dict__  # one read per field, not pydantic's slow attribute path
        pilot = fields["pilot"]
        # Every field of ``PilotRecord`` in its order: the records are built as they are.
        rows.append(
            {
                "side": side,
                "purpose": purpose,
                "uid": fields["uid"],
                "aircraft": fields["aircraft"],
                "counter": fields["counter"],
                "face": fields["face"],
                "skilled": fields["skilled"],
                "redraw": fields["redraw"],
                "ace": False,
                "pilot": pilot.name if pilot is not None else None,
            }
        )
        if pilot is not None:
            turn.pilots[fields["uid"]] = pilot
            placed[fields["uid"]] = pilot.name
    turn.pilot_records.extend(trusted_dicts(PilotRecord, rows))
    turn.emit("pilots-drafted", side=side.value, purpose=purpose, placed=placed)
    return with_pilot(units, turn.pilots)


def _card_cap(turn: _Turn, place: Place, doctrine: Doctrine) -> list[FlightUnit]:
    """25.43: Port Moresby's and the Invasion Force's CAP come from one card's bombing result."""
    level = turn.level(place)
    if level.no_cap or not place.cap_table:
        return []
    deck = Deck(turn.catalog.deck.cards, turn.rng.stream(f"cap:{place.key}"))
    card = deck.draw(f"cap:{place.key}")
    result = BombResult(max(0, card.bombing.value - level.cap_shift))
    row = next((r for r in place.cap_table if r.result is result), None)
    specs = row.cap if row else ()
    units = expand(
        specs, place.side, "cap", f"{SIDE_LETTER[place.side]}P", turn.catalog, doctrine, False
    )
    # 25.65: the card cannot put up aircraft whose box cards the side already flies.
    units = within_box(units, turn.catalog, turn.room(place.side))
    turn.field_units(place.side, units)
    if turn.records:
        cap = describe(units)
        turn.emit("cap-drawn", place=place.key, card=card.id, result=result.name, cap=cap)
    return units


def _airfield_row(place: Place, boxes: int) -> tuple[tuple[UnitSpec, ...], tuple[UnitSpec, ...]]:
    current = place.airfield_table[0]
    for row in place.airfield_table:
        if boxes >= row.min_boxes:
            current = row
    return current.strike, current.cap


def _note_cap_home(turn: _Turn, units: list[FlightUnit], home: Place) -> None:
    """25.82: a CAP aircraft lost ticks the fleet or airfield it flew from."""
    for unit in units:
        turn.cap_home[unit.side, unit.uid] = home.key


def _covering_airfield(turn: _Turn, place: Place) -> Place | None:
    """The airfield whose fighters defend ``place``: itself, or for Midway's other land
    targets (its ground defences) Midway's airfield. Places with their own card-drawn
    CAP (the transports) and carrier fleets have none."""
    if place.airfield_table:
        return place
    airfield = _midway(turn.scenario)
    if airfield is None or place.carrier_fleet or place.cap_table:
        return None
    return airfield if airfield.side is place.side else None


def _cap_for(turn: _Turn, place: Place) -> list[FlightUnit]:
    """The CAP over ``place`` this turn, fixed once and worn down by each raid (authored 3.7.1)."""
    if place.key not in turn.caps:
        defender = place.side
        airfield = _covering_airfield(turn, place)
        if place.carrier_fleet:
            turn.caps[place.key] = []  # carrier CAP is set in _setup_fleet_caps
        elif place.cap_table:
            turn.caps[place.key] = _card_cap(turn, place, turn.doctrine(defender))
            _note_cap_home(turn, turn.caps[place.key], place)
        elif airfield is not None and airfield.key in turn.caps:
            turn.caps[place.key] = turn.caps[airfield.key]  # the same fighters, already up
        elif airfield is not None:
            _, cap_specs = _airfield_row(airfield, turn.tracks[airfield.key].effective)
            units = expand(
                cap_specs, airfield.side, "cap", "AM", turn.catalog, turn.doctrine(defender), False
            )
            units = _draft(turn, defender, units, f"cap:{airfield.key}")
            _note_cap_home(turn, units, airfield)
            turn.caps[place.key] = turn.caps[airfield.key] = units
        else:
            turn.caps[place.key] = []
        turn.caps[place.key] = _draft(turn, defender, turn.caps[place.key], f"cap:{place.key}")
    alive: list[FlightUnit] = []
    for unit in turn.caps[place.key]:
        damage = turn.cap_damage.get(unit.uid, 0)
        aircraft = turn.catalog.aircraft[unit.aircraft]
        if damage >= aircraft.flip_at + aircraft.destroy_extra:
            continue
        alive.append(unit if unit.damage == damage else trusted_copy(unit, damage=damage))
    return alive


# Each scenario's airfield (Midway) or None, found once (a turn asks a few times).
_airfields: dict[int, tuple[Scenario, Place | None]] = {}


def _midway(scenario: Scenario) -> Place | None:
    hit = _airfields.get(id(scenario))
    if hit is None or hit[0] is not scenario:
        if len(_airfields) >= 64:
            _airfields.clear()  # only a catalog after catalog (tests) gets here
        found = next((p for p in scenario.places if p.airfield_table), None)
        hit = _airfields[id(scenario)] = (scenario, found)
    return hit[1]


def _setup_fleet_caps(
    turn: _Turn, forces: dict[Side, tuple[list[FlightUnit], list[FlightUnit]]]
) -> None:
    for side in SIDES:
        fleet = turn.fleet(side)
        # The ace flies with the strike when the side launches one, else with this CAP.
        strikes = bool(forces[side][0])
        turn.caps[fleet.key] = _draft(
            turn, side, forces[side][1], f"cap:{fleet.key}", ace=not strikes
        )
        turn.field_units(side, turn.caps[fleet.key])
        _note_cap_home(turn, turn.caps[fleet.key], fleet)


def _launch_size(size: StrikeSize, level: TrackLevel) -> tuple[StrikeSize, str | None]:
    """What a fleet at ``level`` may still launch of the size it chose (authored 3.7.5):
    nothing once Sinking or Out of Action (25.9), no Large Strike from Heavy on. The
    choice was legal when made; a level reached later in the turn cuts it down."""
    if size is StrikeSize.NONE:
        return size, None
    if level.out_of_action:
        return StrikeSize.NONE, "fleet-out-of-action"
    if level.no_strike_only:
        return StrikeSize.NONE, "fleet-sinking"
    if size is StrikeSize.LARGE and level.no_large:
        return StrikeSize.SMALL, "fleet-damage"
    return size, None


def _forces_now(
    turn: _Turn, side: Side, *, emit: bool = False
) -> tuple[list[FlightUnit], list[FlightUnit]]:
    """The side's strike and CAP from its fleet's level at this moment (25.63, 25.84)."""
    flight_ops = turn.state.sides[side].flight_ops or "none"
    size_text, _, target_key = flight_ops.partition(":")
    fleet = turn.fleet(side)
    level = turn.level(fleet)
    size, reason = _launch_size(_SIZES[size_text], level)
    if reason is not None and emit:
        turn.emit("strike-cut", side=side.value, size=size.value, reason=reason)
    target = turn.place(target_key) if target_key else None
    return _carrier_forces(
        turn.catalog,
        turn.scenario,
        side,
        size,
        level,
        turn.effect(side),
        target,
        turn.doctrine(side),
        turn.bases[side],
    )


def _strike_setup(
    turn: _Turn,
    side: Side,
    code: str,
    kind: str,
    origin: str,
    target: Place,
    strike: list[FlightUnit],
    cap: list[FlightUnit],
    **more: Any,
) -> StrikeSetup:
    """A strike of this turn: what every kind fills the same way (its id, the target's
    sheet, both sides' doctrines), and ``more``."""
    return trusted_defaults(
        StrikeSetup,
        id=f"T{turn.state.turn}-{code}",
        turn=turn.state.turn,
        kind=kind,
        attacker=side,
        origin=origin,
        target=target.key,
        sheet=target.sheet,
        strike=tuple(strike),
        cap=tuple(cap),
        attacker_doctrine=turn.doctrine(side),
        defender_doctrine=turn.doctrine(target.side),
        **more,
    )


def _defences(turn: _Turn, defender: Side, applies: bool, own_tb_mod: int = 0) -> dict[str, Any]:
    """The Target Bound, and what the defender's resource adds to a strike on its fleet
    (authored #13 AA Screen and the like, #9 Out of Sight) when it ``applies``."""
    if not applies:
        return {
            "target_bound": 2 + own_tb_mod,
            "area_flak_mod": 0,
            "target_flak_mod": 0,
            "result_shift": 0,
            "hidden": False,
        }
    effect = turn.effect(defender)
    hidden = turn.out_of_sight.get(defender)
    return {
        "target_bound": 2 + own_tb_mod + effect.enemy_tb_mod,
        "area_flak_mod": effect.enemy_area_flak_mod,
        "target_flak_mod": effect.enemy_target_flak_mod,
        "result_shift": 1 if hidden == "partial" else 0,
        "hidden": hidden == "hidden",
    }


def _fly(turn: _Turn, setup: StrikeSetup) -> StrikeReport:
    deck = Deck(turn.catalog.deck.cards, turn.rng.stream(f"strike:{setup.id}"))
    fly = fly_strike if turn.records else fly_unrecorded
    report = fly(setup, turn.catalog, deck)
    cap_damage = turn.cap_damage
    for outcome in report.aircraft:
        fields = outcome.__dict__  # the fields as stored, without pydantic's slow reads
        if fields["group"] == "cap":
            cap_damage[fields["uid"]] = fields["damage"]
    if report.target_points and setup.kind != "scout":
        track, ticked = tick_track(
            turn.tracks[setup.target], turn.length(setup.target), report.target_points
        )
        turn.tracks[setup.target] = track
        if ticked and turn.records:
            turn.ticks.append(
                trusted_defaults(
                    Tick, place=setup.target, boxes=ticked, cause="damage", strike=report.id
                )
            )
    turn.reports.append(report)
    turn.emit(
        "strike-flown",
        strike=report.id,
        kind=report.kind,
        attacker=report.attacker.value,
        target=report.target,
        points=report.target_points,
        hidden=report.hidden,
    )
    return report


# The scout's sheet line per aircraft type: one object each, so ``expand`` knows it again.
_scout_lines: dict[str, UnitSpec] = {}


def _scout_line(aircraft: str) -> UnitSpec:
    line = _scout_lines.get(aircraft)
    if line is None:
        line = _scout_lines[aircraft] = UnitSpec(count=1, kind="formation", aircraft=aircraft)
    return line


def _scouts(turn: _Turn) -> None:
    """Authored 3.4: a scout flies two turns against one element of the scouted fleet's CAP,
    which is already up (it is fixed for the whole turn), then makes its report draw."""
    for side in SIDES:
        if not turn.effect(side).scout:
            continue
        spec = turn.scenario.scouts[side]
        enemy_fleet = turn.fleet(side.enemy)
        scout = expand(
            [_scout_line(spec.aircraft)],
            side,
            "scout",
            f"{SIDE_LETTER[side]}R",
            turn.catalog,
            turn.doctrine(side),
            False,
        )
        scout = [trusted_copy(unit, band=spec.band) for unit in scout]
        turn.field_units(side, scout)
        cap = _cap_for(turn, enemy_fleet)
        interceptors = [u for u in cap if u.element == cap[0].element] if cap else []
        setup = _strike_setup(
            turn,
            side,
            f"{SIDE_LETTER[side]}R",
            "scout",
            turn.fleet(side).key,
            enemy_fleet,
            scout,
            interceptors,
            carrier_fleet=True,
            order=0,
            target_bound=2,
            home_bound=0,
            hidden=True,
        )
        report = _fly(turn, setup)
        # 23.64 / authored 3.4: living through the two turns only earns the report draw;
        # the mission succeeds if that draw leaves a Hit, Direct or Vital.
        success = any(
            run.mode is BombMode.RECON and any(r is not BombResult.MISS for r in run.results)
            for run in report.bomb_runs
        )
        turn.scout_success[side] = success
        turn.reports[-1] = trusted_copy(report, scout_success=success)
        turn.emit("scout-mission", side=side.value, success=success)


def _out_of_sight(turn: _Turn) -> None:
    """Authored #9: blue borders among 1 + range-value cards; an enemy scout's success spoils it."""
    for side in SIDES:
        if not turn.effect(side).out_of_sight:
            continue
        if turn.scout_success.get(side.enemy):
            turn.emit("out-of-sight", side=side.value, outcome="spotted", cards=[])
            continue
        deck = Deck(turn.catalog.deck.cards, turn.rng.stream(f"out-of-sight:{side.value}"))
        cards = deck.draw_many(1 + turn.tactic(side).recovery_cards, "out-of-sight")
        blue = sum(1 for card in cards if card.border == "blue")
        outcome = "hidden" if blue >= 2 else "partial" if blue == 1 else "failed"
        if outcome != "failed":
            turn.out_of_sight[side] = outcome
        turn.emit("out-of-sight", side=side.value, outcome=outcome, cards=[c.id for c in cards])


def _with_scout_bonus(turn: _Turn, side: Side, strike: list[FlightUnit]) -> list[FlightUnit]:
    """25.63 [EX]: after a successful Scout Mission the strike flies one aircraft more."""
    if not strike or not turn.scout_success.get(side):
        return strike
    flight_ops = turn.state.sides[side].flight_ops or "none"
    target = turn.place(flight_ops.partition(":")[2])
    spec = turn.scenario.scouts[side].bonus
    bonus = add_scout_bonus(
        strike,
        spec,
        catalog=turn.catalog,
        already=turn.room(side),
        prefix=f"{SIDE_LETTER[side]}SB",
        doctrine=turn.doctrine(side),
        naval=turn.catalog.targets[target.sheet].naval,
    )
    if len(bonus) > len(strike):
        turn.emit("scout-bonus", side=side.value, aircraft=spec.aircraft)
    return bonus


def _carrier_setup(
    turn: _Turn, side: Side, strike: list[FlightUnit], order: int, simultaneous: bool
) -> StrikeSetup | None:
    flight_ops = turn.state.sides[side].flight_ops or "none"
    _, _, target_key = flight_ops.partition(":")
    if not target_key or not strike:
        return None
    target = turn.place(target_key)
    defender = target.side
    own_effect = turn.effect(side)
    against_fleet = target.carrier_fleet
    if (
        turn.state.turn == 1
        and against_fleet
        and turn.scenario.sighting_rule.get(side)
        and not turn.scout_success.get(side)
    ):
        # Authored "Sighting": on turn 1 a fleet is found only by a successful scout.
        turn.notes.append(f"not-sighted:{side.value}")
        turn.emit("strike-recalled", side=side.value, reason="not-sighted")
        return None
    strike = _draft(turn, side, strike, f"strike:{side.value}", ace=True)
    return _strike_setup(
        turn,
        side,
        f"{SIDE_LETTER[side]}1",
        "carrier",
        turn.fleet(side).key,
        target,
        strike,
        _cap_for(turn, target),
        carrier_fleet=against_fleet,
        order=order,
        simultaneous=simultaneous,
        home_bound=1,
        damage_bonus=own_effect.fleet_damage_bonus if against_fleet else 0,
        **_defences(turn, defender, against_fleet, own_effect.own_tb_mod),
    )


def _land_based(turn: _Turn, side: Side, order: int) -> None:
    """Authored #8: Coral Sea land-based bombers, or Midway's submarine attack."""
    if not turn.effect(side).land_based_strike:
        return
    enemy_fleet = turn.fleet(side.enemy)
    if turn.scenario.submarine:
        deck = Deck(turn.catalog.deck.cards, turn.rng.stream(f"submarine:{side.value}"))
        card = deck.draw("submarine")
        sheet = turn.catalog.targets[enemy_fleet.sheet]
        points = sheet.points.get(card.bombing, 0) * 2  # read as a torpedo (21.55)
        track, ticked = tick_track(
            turn.tracks[enemy_fleet.key], turn.length(enemy_fleet.key), points
        )
        turn.tracks[enemy_fleet.key] = track
        if ticked and turn.records:
            turn.ticks.append(
                trusted_defaults(Tick, place=enemy_fleet.key, boxes=ticked, cause="submarine")
            )
        turn.emit(
            "submarine", side=side.value, card=card.id, result=card.bombing.name, points=points
        )
        return
    specs = turn.scenario.land_based.get(side, ())
    targets = turn.scenario.land_based_target.get(side, (enemy_fleet.key,))
    own_ops = turn.state.sides[side].flight_ops or "none"
    _, _, own_target = own_ops.partition(":")
    target = turn.place(own_target if own_target in targets else targets[0])
    units = expand(
        specs,
        side,
        "strike",
        f"{SIDE_LETTER[side]}B",
        turn.catalog,
        turn.doctrine(side),
        turn.catalog.targets[target.sheet].naval,
    )
    units = within_box(units, turn.catalog, turn.room(side))  # 25.65
    turn.field_units(side, units)
    defender = target.side
    setup = _strike_setup(
        turn,
        side,
        f"{SIDE_LETTER[side]}LB",
        "land-based",
        "land",
        target,
        units,
        _cap_for(turn, target),
        carrier_fleet=target.carrier_fleet,
        order=order,
        home_bound=1,
        # Authored #13 AA Screen: every enemy strike on the fleet, this one included.
        **_defences(turn, defender, target.carrier_fleet),
    )
    _fly(turn, setup)


def _airfield_strike(turn: _Turn) -> None:
    """25.43, 25.61: Midway launches by its damage alone, after scouts, before the carriers."""
    airfield = _midway(turn.scenario)
    if airfield is None or airfield.strike_target is None:
        return
    if airfield.strike_last_turn is not None and turn.state.turn > airfield.strike_last_turn:
        return  # authored 3.7.4 open point 5: Midway's raids stop after the first day
    strike_specs, _ = _airfield_row(airfield, turn.tracks[airfield.key].effective)
    if not strike_specs:
        return
    target = turn.place(airfield.strike_target)
    side = airfield.side
    units = expand(
        strike_specs,
        side,
        "strike",
        "AA",
        turn.catalog,
        turn.doctrine(side),
        turn.catalog.targets[target.sheet].naval,
    )
    units = _draft(turn, side, units, "strike:midway")
    defender = target.side
    setup = _strike_setup(
        turn,
        side,
        "AM",
        "airfield",
        airfield.key,
        target,
        units,
        _cap_for(turn, target),
        carrier_fleet=target.carrier_fleet,
        order=1,
        home_bound=1,
        **_defences(turn, defender, True),
    )
    _fly(turn, setup)


def _range_of(turn: _Turn, place: Place, opponent: Side) -> int:
    """25.34: a carrier fleet counts its own Fleet Tactic; any other force (Midway, Port
    Moresby, the Invasion Force, the transports) counts the tactic of the carrier fleet it
    is fighting. That gives Midway the Japanese range whether it is attacked or attacks
    (the 25.71 example)."""
    if place.carrier_fleet:
        return turn.tactic(place.side).recovery_cards
    return turn.tactic(opponent).recovery_cards


def _recovery_cards(turn: _Turn, report: StrikeReport) -> int:
    """25.71: the range values of the two forces in the fight, added."""
    if report.kind == "land-based":
        return 1  # authored 3.7.1: land-based bombers test with one card
    origin = turn.place(report.origin)
    target = turn.place(report.target)
    return _range_of(turn, origin, target.side) + _range_of(turn, target, origin.side)


def _recovery(turn: _Turn) -> list[RecoveryDraw]:
    """25.71-25.72: each Damaged strike aircraft draws the range values of both forces in
    its fight (25.34 for forces that are not carrier fleets); IMS/OTS loses it."""
    draws: list[RecoveryDraw] = []
    for index, report in enumerate(turn.reports):
        if report.kind == "scout" or report.hidden:
            continue
        count = _recovery_cards(turn, report)
        updated: list[AircraftOutcome] = []
        # The deck is shuffled only for a strike with aircraft to test: its stream is its
        # own, so one never shuffled draws nothing another could see.
        deck: Deck | None = None
        attacker = report.attacker
        for outcome in report.aircraft:
            fields = outcome.__dict__  # three reads each, on a few hundred aircraft a turn
            if (
                fields["group"] != "strike"
                or fields["side"] is not attacker
                or fields["state"] is not AircraftState.DAMAGED
            ):
                updated.append(outcome)
                continue
            if deck is None:
                stream = turn.rng.stream(f"recovery:{report.id}")
                deck = Deck(turn.catalog.deck.cards, stream)
            cards = deck.draw_many(count, "recovery")
            lost = any(card.is_attack for card in cards)
            if turn.records:
                draws.append(
                    trusted(
                        RecoveryDraw,
                        uid=outcome.uid,
                        strike=report.id,
                        cards=tuple(c.id for c in cards),
                        lost=lost,
                    )
                )
            if lost:
                outcome = trusted_copy(
                    outcome, state=AircraftState.DESTROYED, lost_on_recovery=True
                )
            updated.append(outcome)
        if deck is not None:
            turn.reports[index] = trusted_copy(report, aircraft=tuple(updated))
    if draws:
        turn.emit(
            "recovery",
            tests=len(draws),
            lost=[d.uid for d in draws if d.lost],
        )
    return draws


def _tick_losses(turn: _Turn) -> None:
    """25.82: one box per own aircraft destroyed, on the fleet or airfield it flew from.

    Strike aircraft tick the place they launched from; CAP aircraft the fleet or airfield
    whose CAP they flew, whichever raid they met (a land-based raid included, and Midway's
    fighters over its ground defences). Aircraft lost on a scout mission tick nothing, nor
    do resource #8's land-based bombers (authored 3.7.2). A CAP that fought two raids
    appears in two reports: each aircraft counts once.
    """
    seen: set[tuple[Side, str]] = set()
    recount: Counter[str] = Counter()
    for report in turn.reports:
        if report.kind == "scout":
            continue
        for outcome in report.aircraft:
            fields = outcome.__dict__  # the fields as stored, without pydantic's slow reads
            if fields["state"] is not AircraftState.DESTROYED:
                continue
            key = (fields["side"], fields["uid"])
            if key in seen:
                continue
            if outcome.group == "strike":
                if report.kind == "land-based":
                    continue
                origin = report.origin
            else:
                origin = turn.cap_home.get(key, report.target)
            place = turn.place(origin)
            if place.carrier_fleet or place.airfield_table:
                seen.add(key)
                track = turn.tracks[place.key]
                if track.boxes + recount[place.key] >= turn.length(place.key) + track.repaired:
                    continue  # the track is full: no box left to tick (25.82)
                recount[place.key] += 1
                if turn.records:
                    turn.ticks.append(
                        trusted(
                            Tick,
                            place=place.key,
                            boxes=1,
                            cause="aircraft-lost",
                            strike=report.id,
                            uid=outcome.uid,
                        )
                    )
    turn.losses = recount
    for place_key, count in sorted(turn.losses.items()):
        track = turn.tracks[place_key]
        turn.tracks[place_key] = _track(track, losses=track.losses + count)
        turn.emit("losses-ticked", place=place_key, boxes=count)


def _damage_control(turn: _Turn) -> None:
    for side in SIDES:
        amount = turn.effect(side).damage_control
        if not amount:
            continue
        fleet = turn.fleet(side)
        track = turn.tracks[fleet.key]
        level = turn.level(fleet)
        if level.out_of_action:
            continue  # authored #11: no coming back from Out of Action
        repair = min(amount, track.damage_points - track.repaired)
        if repair > 0:
            turn.tracks[fleet.key] = _track(track, repaired=track.repaired + repair)
            turn.emit("damage-control", side=side.value, boxes=repair)


def score(catalog: Catalog, scenario: Scenario, tracks: dict[str, TrackState]) -> dict[Side, int]:
    """25.83: each track's VP, at the highest level its ticked boxes reached, goes to the enemy."""
    vp = {side: 0 for side in SIDES}
    for place in scenario.places:
        track = catalog.tracks[place.track]
        vp[place.side.enemy] += level_at(track, min(tracks[place.key].boxes, track.boxes)).vp
    return vp


def objectives_met(scenario: Scenario, tracks: dict[str, TrackState]) -> list[ObjectiveBonus]:
    """The campaign sheet's objective bonuses (authored 3.7.3) that the tracks meet as the
    campaign ends. A condition reads ticked boxes, as the VP do (25.83): a repair restores
    capacity, it does not undo a Turned Back."""
    return [
        objective
        for objective in scenario.objectives
        if all(
            tracks[condition.place].boxes >= condition.min_boxes
            and (condition.below is None or tracks[condition.place].boxes < condition.below)
            for condition in objective.when
        )
    ]


def tracks_after(
    catalog: Catalog, state: State, resources: dict[Side, int], rng: Rng
) -> dict[str, TrackState]:
    """The damage tracks as ``play_turn`` leaves them, without its events, its turn record
    or the new state: all an odds preview reads of a play (``engine.rulesets.carrier.odds``).
    The same steps draw the same cards; only what they would record is not made."""
    return _fly_turn(catalog, state, resources, rng, records=False).tracks


def _fly_turn(
    catalog: Catalog, state: State, resources: dict[Side, int], rng: Rng, *, records: bool
) -> _Turn:
    """The turn from the resources' reveal to Damage Control: everything that ticks boxes."""
    scenario = catalog.scenarios[state.scenario]
    turn = _Turn(catalog, scenario, state, rng, resources, dict(state.tracks), records=records)
    turn.places, turn.fleets = _sheet_of(scenario)
    turn.bases = {side: bases_in_use(scenario, state.tracks, side, state.turn) for side in SIDES}
    turn.emit("resources-revealed", **{side.value: resources[side] for side in SIDES})

    start_forces = {side: _forces_now(turn, side) for side in SIDES}
    # The fleets' CAP is up before anything flies, so a scout can meet it (authored 3.4).
    _setup_fleet_caps(turn, start_forces)
    _scouts(turn)
    _out_of_sight(turn)
    _airfield_strike(turn)

    # 25.53: lower resource number strikes first; equal numbers fly together.
    order = sorted(SIDES, key=lambda side: (resources[side], side is Side.ALLIED))
    simultaneous = resources[Side.JAPANESE] == resources[Side.ALLIED]
    # A fleet Sinking or Out of Action by now (Midway's raid flew first) launches nothing,
    # even in a simultaneous pair (3.7.5, 25.9).
    grounded = {
        side
        for side in SIDES
        if _launch_size(StrikeSize.LARGE, turn.level(turn.fleet(side)))[0] is StrikeSize.NONE
    }
    for slot, side in enumerate(order, start=2):
        if not simultaneous:
            # 25.53: a later strike is sized by the damage done earlier this turn.
            strike = _forces_now(turn, side, emit=True)[0]
        elif side in grounded:
            strike = _forces_now(turn, side, emit=True)[0]
        else:
            strike = start_forces[side][0]
        # 25.65: a base's card-drawn CAP may have taken box cards since the turn began.
        strike = within_box(strike, catalog, turn.room(side))
        strike = _with_scout_bonus(turn, side, strike)
        setup = _carrier_setup(turn, side, strike, slot, simultaneous)
        if setup is not None:
            turn.field_units(side, list(setup.strike))
            _fly(turn, setup)
        _land_based(turn, side, slot)

    turn.recovery = _recovery(turn)
    _tick_losses(turn)
    _damage_control(turn)
    return turn


def play_turn(
    catalog: Catalog, state: State, resources: dict[Side, int], rng: Rng
) -> tuple[State, list[Event]]:
    turn = _fly_turn(catalog, state, resources, rng, records=True)
    scenario = turn.scenario
    vp = score(catalog, scenario, turn.tracks)
    fleets_out = [side.value for side in SIDES if turn.level(turn.fleet(side)).out_of_action]
    finished = state.turn >= scenario.turns or bool(fleets_out)
    if finished:
        for objective in objectives_met(scenario, turn.tracks):
            vp[objective.side] += objective.vp
            turn.emit("objective-met", side=objective.side.value, vp=objective.vp)
    turn.emit("vp", **{side.value: vp[side] for side in SIDES})

    winner: Side | str | None = None
    if finished:
        if vp[Side.JAPANESE] == vp[Side.ALLIED]:
            winner = "draw"
        else:
            winner = max(SIDES, key=lambda side: vp[side])
        turn.emit(
            "campaign-ended",
            winner=winner if isinstance(winner, str) else winner.value,
            vp={side.value: vp[side] for side in SIDES},
            out_of_action=fleets_out,
        )

    record = trusted(
        TurnRecord,
        turn=state.turn,
        picks={
            side: trusted(
                SidePicks,
                tactic=turn.tactic(side),
                flight_ops=state.sides[side].flight_ops or "none",
                resource=resources[side],
            )
            for side in SIDES
        },
        strikes=tuple(turn.reports),
        recovery=tuple(turn.recovery),
        vp=dict(vp),
        # Ticked boxes as the log sheet shows them: a box Damage Control restored and
        # ticked again is still one box of the track.
        boxes={key: min(track.boxes, turn.length(key)) for key, track in turn.tracks.items()},
        notes=tuple(turn.notes),
        pilots=tuple(turn.pilot_records),
        ticks=tuple(turn.ticks),
        repaired={key: track.repaired for key, track in turn.tracks.items() if track.repaired},
    )
    sides: dict[Side, SideState] = {}
    for side in SIDES:
        current = state.sides[side]
        used = current.resources_used
        if not catalog.resource(resources[side]).repeatable:
            used = (*used, resources[side])
        size_text = (current.flight_ops or "none").partition(":")[0]
        sides[side] = trusted_copy(
            current,
            last_tactic=current.tactic,
            last_size=_SIZES[size_text],
            tactic=None,
            flight_ops=None,
            resources_used=used,
        )
    new_state = trusted_copy(
        state,
        turn=state.turn if finished else state.turn + 1,
        round=RoundKind.ORDERS,
        finished=finished,
        winner=winner,
        sides=sides,
        tracks=turn.tracks,
        vp=vp,
        history=(*state.history, record),
    )
    return new_state, turn.events

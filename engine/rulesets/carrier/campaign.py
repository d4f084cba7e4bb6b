"""The carrier campaign's public API: ``new_campaign``, ``pending``, ``resolve``.

A turn is two secret rounds (25.1 III): ORDERS (Fleet Tactic 25.3, Flight Ops 25.4 and
the strike doctrine) and RESOURCE (25.5). Resolving ORDERS reveals them; resolving
RESOURCE reveals the resources and plays the rest of the turn (``engine.rulesets.carrier.turn``).
"""

from __future__ import annotations

from engine.rng import Rng, seed_commitment
from engine.rulesets.carrier.state import (
    Decision,
    Event,
    Excluded,
    Option,
    SideState,
    State,
    TrackState,
)
from engine.rulesets.carrier.turn import (
    _airfield_row,
    fleet_level,
    level_at,
    play_turn,
    preview_forces,
    tracks_after,
)
from engine.zero.catalog import Catalog, DamageTrack, Place, Resource, Scenario
from engine.zero.orders import DOCTRINE_PRESETS
from engine.zero.trusted import trusted, trusted_copy, trusted_defaults
from engine.zero.types import FleetTactic, RoundKind, Side, StrikeSize

# The sides in their fixed order, as a tuple: iterating the enum itself costs a
# generator per loop, and a turn loops over the sides some sixty times.
SIDES = tuple(Side)

TACTIC_LABELS = {
    FleetTactic.CLOSE: "Close Range",
    FleetTactic.MEDIUM: "Medium Range",
    FleetTactic.LONG: "Long Range",
}
# Tactics by their text: calling the enum with a value runs its lookup in Python.
_TACTICS = {tactic.value: tactic for tactic in FleetTactic}
SIZE_LABELS = {StrikeSize.LARGE: "Large Strike", StrikeSize.SMALL: "Small Strike"}
NO_STRIKE = "none"


class IllegalChoice(ValueError):
    """A choice that is not among the legal options; ``reason`` is a short key."""

    def __init__(self, side: Side, field: str, value: str, reason: str) -> None:
        super().__init__(f"{side.value} {field}={value!r}: {reason}")
        self.side, self.field, self.value, self.reason = side, field, value, reason


def new_campaign(catalog: Catalog, scenario_key: str, seed: str) -> State:
    scenario = catalog.scenarios[scenario_key]
    # Built from the catalog's own values: nothing here for validation to check.
    return trusted_defaults(
        State,
        scenario=scenario.key,
        seed_commitment=seed_commitment(seed),
        sides={side: trusted_defaults(SideState, side=side) for side in SIDES},
        tracks={
            place.key: trusted_defaults(TrackState, place=place.key) for place in scenario.places
        },
        vp={side: 0 for side in SIDES},
    )


def parse_flight_ops(option_id: str) -> tuple[StrikeSize, str | None]:
    if option_id == NO_STRIKE:
        return StrikeSize.NONE, None
    size, _, target = option_id.partition(":")
    return StrikeSize(size), target


def flight_ops_label(catalog: Catalog, scenario: Scenario, option_id: str) -> str:
    size, target = parse_flight_ops(option_id)
    if size is StrikeSize.NONE or target is None:
        return "No Strike"
    return f"{SIZE_LABELS[size]} → {scenario.place(target).name}"


# 25.32: the tactic a fleet may not take after its last one, and why.
_JUMPS: dict[tuple[FleetTactic | None, FleetTactic], str] = {
    (FleetTactic.LONG, FleetTactic.CLOSE): "after-long",
    (FleetTactic.CLOSE, FleetTactic.LONG): "after-close",
}


def _decision(
    side: Side, field: str, options: list[Option], excluded: list[Excluded], default: str
) -> Decision:
    """One side's menu, with the lines it may not pick and why."""
    return trusted_defaults(
        Decision,
        side=side.value,
        field=field,
        options=tuple(options),
        excluded=tuple(excluded),
        default=default,
    )


def _tactic_decision(side_state: SideState) -> Decision:
    last = side_state.last_tactic
    options: list[Option] = []
    excluded: list[Excluded] = []
    for tactic in FleetTactic:
        # 25.32: no jump straight between Close and Long.
        jump = _JUMPS.get((last, tactic))
        if jump is not None:
            excluded.append(
                trusted_defaults(
                    Excluded, id=tactic.value, label=TACTIC_LABELS[tactic], reason=jump
                )
            )
        else:
            options.append(
                trusted_defaults(
                    Option,
                    id=tactic.value,
                    label=TACTIC_LABELS[tactic],
                    detail=f"recovery +{tactic.recovery_cards}",
                )
            )
    default = last.value if last is not None else FleetTactic.MEDIUM.value
    return _decision(side_state.side, "fleet_tactic", options, excluded, default)


def _flight_ops_decision(catalog: Catalog, state: State, side: Side) -> Decision:
    scenario = catalog.scenarios[state.scenario]
    side_state = state.sides[side]
    level = fleet_level(catalog, state, side)
    options: list[Option] = []
    excluded: list[Excluded] = []
    for size in (StrikeSize.LARGE, StrikeSize.SMALL):
        for target in scenario.strike_targets[side]:
            option_id = f"{size.value}:{target}"
            label = flight_ops_label(catalog, scenario, option_id)
            reason = None
            opening = scenario.optional_opening_targets.get(side)
            if (
                scenario.historical_opening
                and state.turn == 1
                and opening
                and target not in opening
            ):
                reason = "historical-opening"  # 3.7.4, the GM's switch: T1 strikes Midway
            elif level.no_strike_only:
                reason = "fleet-sinking"  # authored 3.7.5: No Strike only
            elif size is StrikeSize.LARGE and side_state.last_size is StrikeSize.LARGE:
                reason = "large-twice"  # 25.42
            elif size is StrikeSize.LARGE and level.no_large:
                reason = "fleet-damage"  # authored 3.7.5
            if reason:
                excluded.append(
                    trusted_defaults(Excluded, id=option_id, label=label, reason=reason)
                )
            else:
                strike, cap = preview_forces(catalog, state, side, size)
                options.append(
                    trusted_defaults(
                        Option, id=option_id, label=label, detail=f"{strike} — CAP {cap}"
                    )
                )
    _, cap = preview_forces(catalog, state, side, StrikeSize.NONE)
    options.append(trusted_defaults(Option, id=NO_STRIKE, label="No Strike", detail=f"CAP {cap}"))
    return _decision(side, "flight_ops", options, excluded, NO_STRIKE)


def _doctrine_decision(side_state: SideState) -> Decision:
    options = tuple(trusted_defaults(Option, id=key, label=key) for key in DOCTRINE_PRESETS)
    return trusted_defaults(
        Decision, side=side_state.side.value, field="doctrine", options=options, default="balanced"
    )


# Each resource's line on the panel, by why it is in or out: a few dozen small models,
# the same in every campaign of the catalog (a resource decision is rebuilt whenever the
# resources used change). The entry holds the catalog so its id stays its own.
_lines: dict[tuple[object, ...], tuple[Catalog, Option | Excluded]] = {}


def _resource_line(catalog: Catalog, resource: Resource, reason: str | None) -> Option | Excluded:
    key = (id(catalog), resource.number, reason)
    hit = _lines.get(key)
    if hit is not None and hit[0] is catalog:
        return hit[1]
    option_id = str(resource.number)
    label = f"#{resource.number} {resource.name}"
    line: Option | Excluded
    if reason is None:
        line = trusted_defaults(Option, id=option_id, label=label, detail=resource.text)
    else:
        line = trusted_defaults(Excluded, id=option_id, label=label, reason=reason)
    if len(_lines) >= 1024:
        _lines.clear()  # only a catalog after catalog (tests) gets here
    _lines[key] = (catalog, line)
    return line


# Per catalog, scenario and side: each resource's line when free and when used (the same
# line for one the side never loses, repeatable or out of its reach), and the default.
# A resource decision is rebuilt whenever the resources used change; from this it is one
# pass over the lines. The entry holds the catalog so its id stays its own.
_ResourceRows = tuple[tuple[tuple[int, Option | Excluded, Option | Excluded], ...], str]
_tables: dict[tuple[object, ...], tuple[Catalog, _ResourceRows]] = {}


def _resource_rows(catalog: Catalog, scenario: Scenario, side: Side) -> _ResourceRows:
    key = (id(catalog), scenario.key, side)
    hit = _tables.get(key)
    if hit is not None and hit[0] is catalog:
        return hit[1]
    rows: list[tuple[int, Option | Excluded, Option | Excluded]] = []
    default = ""
    for resource in catalog.resources:
        if resource.repeatable:
            default = str(resource.number)
        free: str | None = None
        used: str | None = "used"
        if resource.side is not None and resource.side is not side:
            free = used = "other-side"
        elif resource.effect.land_based_strike and not (
            scenario.land_based.get(side) or scenario.submarine
        ):
            free = "not-in-scenario"
        if resource.repeatable:
            used = free
        line = _resource_line(catalog, resource, free)
        rows.append((resource.number, line, _resource_line(catalog, resource, used)))
    if len(_tables) >= 64:
        _tables.clear()  # only a catalog after catalog (tests) gets here
    table = (tuple(rows), default)
    _tables[key] = (catalog, table)
    return table


def _resource_decision(catalog: Catalog, state: State, side: Side) -> Decision:
    rows, default = _resource_rows(catalog, catalog.scenarios[state.scenario], side)
    used = state.sides[side].resources_used
    options: list[Option] = []
    excluded: list[Excluded] = []
    for number, free, taken in rows:
        line = taken if number in used else free
        if isinstance(line, Option):
            options.append(line)
        else:
            excluded.append(line)
    return _decision(side, "resource", options, excluded, default)


# The decision lists of the last few states. A round asks for them at least twice (the
# commanders' panels, then ``validate`` inside ``resolve``) and building them makes many
# small models: about a third of a campaign's engine time before this memo (issue 13).
# States are frozen, so a list stays right for its state; the entry holds the catalog and
# the state so their ids cannot be reused while it lives. Plain dict operations only, so
# threads resolving different campaigns can share it.
_RECENT_SIZE = 4
_recent: dict[tuple[int, int], tuple[Catalog, State, _Lists]] = {}

# A decision with what ``validate`` asks of it: its side and its legal ids, as a set.
_Check = tuple[Side, frozenset[str], Decision]
# One round's decisions, and their checks in the same order.
_Lists = tuple[tuple[Decision, ...], tuple[_Check, ...]]
_NOTHING: _Lists = ((), ())


def pending(catalog: Catalog, state: State) -> list[Decision]:
    """Who must decide what now, with the legal options and why the others are left out."""
    return list(_lists(catalog, state)[0])


def _lists(catalog: Catalog, state: State) -> _Lists:
    key = (id(catalog), id(state))
    hit = _recent.get(key)
    if hit is not None and hit[0] is catalog and hit[1] is state:
        return hit[2]
    lists = _NOTHING if state.finished else _round_lists(catalog, state)
    if len(_recent) >= _RECENT_SIZE:
        _recent.clear()  # the states of a few rounds ago are not asked about again
    _recent[key] = (catalog, state, lists)
    return lists


# A side's decisions of a round by the only facts they read: the same few lists come back
# every round and in every sample of an odds preview (issue 13). Decisions are frozen; an
# entry keeps its catalog so the catalog's id cannot be reused while it lives. The orders
# lists are a few hundred at most; the resource lists (one per set of resources used)
# are thousands over many campaigns, so they have their own table, emptied when full:
# dropping the oldest one at a time made each lookup of "the oldest" walk the holes the
# earlier ones left. Plain dict operations only, so threads can share them.
_Memo = dict[tuple[object, ...], tuple[Catalog, tuple[_Check, ...]]]
_orders_made: _Memo = {}
_resources_made: _Memo = {}
_MADE_SIZE = 1024


def _checks(decisions: tuple[Decision, ...]) -> tuple[_Check, ...]:
    return tuple((Side(d.side), frozenset(option.id for option in d.options), d) for d in decisions)


def _keep(
    memo: _Memo, key: tuple[object, ...], catalog: Catalog, made: tuple[Decision, ...]
) -> tuple[_Check, ...]:
    if len(memo) >= _MADE_SIZE:
        memo.clear()
    checks = _checks(made)
    memo[key] = (catalog, checks)
    return checks


# Per scenario (kept alive by its entry): each side's fleet, the damage track it reads,
# and its airfields, looked up once.
_Places = dict[Side, tuple[Place, DamageTrack, tuple[Place, ...]]]
_places: dict[int, tuple[Scenario, _Places]] = {}


def _sheet_places(catalog: Catalog, scenario: Scenario) -> _Places:
    hit = _places.get(id(scenario))
    if hit is None or hit[0] is not scenario:
        if len(_places) >= 64:
            _places.clear()  # only a catalog after catalog (tests) gets here
        found: _Places = {}
        for side in SIDES:
            fleet = scenario.fleet_of(side)
            airfields = tuple(p for p in scenario.places if p.side is side and p.airfield_table)
            found[side] = (fleet, catalog.tracks[fleet.track], airfields)
        hit = _places[id(scenario)] = (scenario, found)
    return hit[1]


def _orders_key(state: State, side: Side, places: _Places, opening: bool) -> tuple[object, ...]:
    """All a side's orders decisions read of a state: the last Fleet Tactic (25.32); for
    Flight Ops the fleet's level, the last strike's size, per airfield of the side the row
    of its table it flies and whether it still launches raids (``bases_in_use``), and
    whether the historical opening's turn 1 is on (3.7.4). Levels and rows are the
    catalog's own objects, named by identity (the caller's key holds the catalog); two
    rows whose strike and CAP are the same tuples fly the same box cards."""
    fleet, track, airfields = places[side]
    tracks = state.tracks
    side_state = state.sides[side]
    level = level_at(track, tracks[fleet.key].effective)
    bases: tuple[tuple[object, ...], ...] = ()
    if airfields:
        bases = tuple(
            (
                *map(id, _airfield_row(place, tracks[place.key].effective)),
                place.strike_last_turn is None or state.turn <= place.strike_last_turn,
            )
            for place in airfields
        )
    return (side, side_state.last_tactic, id(level), side_state.last_size, bases, opening)


def _round_lists(catalog: Catalog, state: State) -> _Lists:
    scenario = catalog.scenarios[state.scenario]
    checks: list[_Check] = []
    key: tuple[object, ...]
    made: tuple[Decision, ...]
    if state.round is RoundKind.ORDERS:
        places = _sheet_places(catalog, scenario)
        opening = scenario.historical_opening and state.turn == 1
        for side in SIDES:
            key = (id(catalog), state.scenario, _orders_key(state, side, places, opening))
            hit = _orders_made.get(key)
            if hit is not None and hit[0] is catalog:
                checks.extend(hit[1])
                continue
            side_state = state.sides[side]
            made = (
                _tactic_decision(side_state),
                _flight_ops_decision(catalog, state, side),
                _doctrine_decision(side_state),
            )
            checks.extend(_keep(_orders_made, key, catalog, made))
    else:
        for side in SIDES:
            # The resources used in any order: the decision reads only which ones they are.
            used = tuple(sorted(state.sides[side].resources_used))
            key = (id(catalog), state.scenario, side, used)
            hit = _resources_made.get(key)
            if hit is not None and hit[0] is catalog:
                checks.extend(hit[1])
                continue
            made = (_resource_decision(catalog, state, side),)
            checks.extend(_keep(_resources_made, key, catalog, made))
    return tuple(check[2] for check in checks), tuple(checks)


def defaults(decisions: list[Decision]) -> dict[Side, dict[str, str]]:
    """The choice each side gets for a field it did not fill before the deadline."""
    result: dict[Side, dict[str, str]] = {}
    for decision in decisions:
        result.setdefault(Side(decision.side), {})[decision.field] = decision.default
    return result


def validate(catalog: Catalog, state: State, choices: dict[Side, dict[str, str]]) -> list[Decision]:
    """Raise ``IllegalChoice`` unless every pending field has a legal value."""
    decisions, checks = _lists(catalog, state)
    for side, legal, decision in checks:
        value = choices.get(side, {}).get(decision.field)
        if value is None:
            raise IllegalChoice(side, decision.field, "", "missing")
        if not isinstance(value, str) or value not in legal:
            reason = next((e.reason for e in decision.excluded if e.id == value), "unknown-option")
            raise IllegalChoice(side, decision.field, value, reason)
    return list(decisions)


def resolve(
    catalog: Catalog, state: State, choices: dict[Side, dict[str, str]], rng: Rng
) -> tuple[State, list[Event]]:
    """Apply one round of locked choices; all randomness comes from ``rng``."""
    if state.finished:
        raise IllegalChoice(Side.JAPANESE, "round", "", "campaign-over")
    validate(catalog, state, choices)
    if state.round is RoundKind.ORDERS:
        sides = {
            side: trusted_copy(
                state.sides[side],
                tactic=_TACTICS[choices[side]["fleet_tactic"]],
                flight_ops=choices[side]["flight_ops"],
                doctrine=choices[side]["doctrine"],
            )
            for side in SIDES
        }
        # The choices were checked against the lists above: plain text, so neither the
        # event nor the state needs validating again.
        event = trusted(
            Event,
            kind="orders-revealed",
            turn=state.turn,
            data={
                side.value: {
                    "fleet_tactic": choices[side]["fleet_tactic"],
                    "flight_ops": choices[side]["flight_ops"],
                }
                for side in SIDES
            },
            sight=None,
            owner=None,
        )
        return trusted_copy(state, sides=sides, round=RoundKind.RESOURCE), [event]
    resources = {side: int(choices[side]["resource"]) for side in SIDES}
    return play_turn(catalog, state, resources, rng)


def resource_tracks(
    catalog: Catalog, state: State, choices: dict[Side, dict[str, str]], rng: Rng
) -> dict[str, TrackState]:
    """The damage tracks after ``resolve`` plays the resource round of ``state`` with
    ``choices``, box for box, without the round's events, turn record or new state: what
    an odds preview reads of each play."""
    if state.finished or state.round is not RoundKind.RESOURCE:
        raise IllegalChoice(Side.JAPANESE, "round", "", "not-a-resource-round")
    validate(catalog, state, choices)
    resources = {side: int(choices[side]["resource"]) for side in SIDES}
    return tracks_after(catalog, state, resources, rng)

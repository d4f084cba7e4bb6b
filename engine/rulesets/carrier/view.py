"""What one side, or a spectator, may see: the only input of panels and images.

The state holds one secret after the orders reveal: each side's doctrine (labelled its
side's in ``engine.rulesets.carrier.state``). The view is built from what the secrecy gate kept
(``engine.sight.keep``): a doctrine the gate did not keep is ``None`` here, so a renderer
cannot leak what it never receives.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from engine.rulesets.carrier.state import State, TrackState, TurnRecord
from engine.rulesets.carrier.turn import preview_on, track_level
from engine.sight import Eyes, keep
from engine.zero.catalog import Catalog, DamageTrack
from engine.zero.trusted import trusted
from engine.zero.types import FleetTactic, RoundKind, Side, StrikeSize


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LevelView(Model):
    name: str
    min_boxes: int
    vp: int
    effects: tuple[str, ...]  # short keys: "strike-1", "cap-1", "no-large", "out-of-action"


class TrackView(Model):
    place: str
    name: str
    side: Side
    carrier_fleet: bool
    boxes: int  # ticked (VP)
    effective: int  # after repairs (penalties)
    damage_points: int
    losses: int
    max_boxes: int
    level: str
    levels: tuple[LevelView, ...]


class SideView(Model):
    side: Side
    vp: int
    tactic: FleetTactic | None  # this turn's, once revealed
    flight_ops: str | None
    last_tactic: FleetTactic | None
    last_size: StrikeSize | None
    resources_used: tuple[int, ...]
    resources_available: tuple[int, ...]
    doctrine: str | None  # own side only
    strike_minus: int
    cap_minus: int


class ForcePreview(Model):
    size: StrikeSize
    strike: str
    cap: str


class View(Model):
    viewer: Side | None
    scenario: str
    scenario_name: str
    turn: int
    turns: int
    turn_label: str
    round: RoundKind
    finished: bool
    winner: Side | Literal["draw"] | None
    sides: dict[Side, SideView]
    tracks: tuple[TrackView, ...]
    # The played turns' records: the public's view and a finished campaign's (its reports,
    # turn summaries, after-action). A side's view of a running campaign keeps none
    # (``project``).
    history: tuple[TurnRecord, ...]
    previews: tuple[ForcePreview, ...] = ()  # own side only: what each size fields now


def _effects(level: object) -> tuple[str, ...]:
    out: list[str] = []
    strike_minus = getattr(level, "strike_minus", 0)
    cap_minus = getattr(level, "cap_minus", 0)
    if strike_minus:
        out.append(f"strike-{strike_minus}")
    if cap_minus:
        out.append(f"cap-{cap_minus}")
    if getattr(level, "no_large", False):
        out.append("no-large")
    if getattr(level, "no_strike_only", False):
        out.append("no-strike-only")
    if getattr(level, "cap_shift", 0):
        out.append(f"cap-shift-{getattr(level, 'cap_shift', 0)}")
    if getattr(level, "no_cap", False):
        out.append("no-cap")
    if getattr(level, "out_of_action", False):
        out.append("out-of-action")
    return tuple(out)


# The levels of each damage track, as the view shows them: the same for every state, so
# built once per track (the entry holds the track, so its id stays its own).
_levels: dict[int, tuple[object, tuple[LevelView, ...]]] = {}


def _level_views(track: DamageTrack) -> tuple[LevelView, ...]:
    hit = _levels.get(id(track))
    if hit is not None and hit[0] is track:
        return hit[1]
    levels = tuple(
        trusted(
            LevelView,
            name=level.name,
            min_boxes=level.min_boxes,
            vp=level.vp,
            effects=_effects(level),
        )
        for level in track.levels
    )
    _levels[id(track)] = (track, levels)
    return levels


def project(catalog: Catalog, kept: dict[str, Any], viewer: Side | None) -> View:
    """The view of what the gate kept of a state for ``viewer``; its models are built from
    the state's own values without validation (a panel asks for one per state and side,
    issue 13)."""
    scenario = catalog.scenarios[kept["scenario"]]
    states: dict[str, TrackState] = kept["tracks"]
    tracks: list[TrackView] = []
    for place in scenario.places:
        track_state = states[place.key]
        track = catalog.tracks[place.track]
        tracks.append(
            trusted(
                TrackView,
                place=place.key,
                name=place.name,
                side=place.side,
                carrier_fleet=place.carrier_fleet,
                boxes=min(track_state.boxes, track.boxes),  # restored boxes ticked again
                effective=track_state.effective,
                damage_points=track_state.damage_points,
                losses=track_state.losses,
                max_boxes=track.boxes,
                level=track_level(catalog, scenario, track_state).name,
                levels=_level_views(track),
            )
        )
    sides: dict[Side, SideView] = {}
    for side in Side:
        side_state = kept["sides"][side]
        level = track_level(catalog, scenario, states[scenario.fleet_of(side).key])
        used = side_state["resources_used"]
        available = tuple(
            resource.number
            for resource in catalog.resources
            if (resource.side is None or resource.side is side)
            and (resource.repeatable or resource.number not in used)
        )
        sides[side] = trusted(
            SideView,
            side=side,
            vp=kept["vp"][side],
            tactic=side_state["tactic"],
            flight_ops=side_state["flight_ops"],
            last_tactic=side_state["last_tactic"],
            last_size=side_state["last_size"],
            resources_used=used,
            resources_available=available,
            doctrine=side_state.get("doctrine"),
            strike_minus=level.strike_minus,
            cap_minus=level.cap_minus,
        )
    previews: tuple[ForcePreview, ...] = ()
    if viewer is not None and not kept["finished"]:
        previews = tuple(
            trusted(ForcePreview, size=size, strike=strike, cap=cap)
            for size in StrikeSize
            for strike, cap in [
                preview_on(catalog, scenario.key, states, kept["turn"], viewer, size)
            ]
        )
    labels = scenario.turn_labels
    turn = kept["turn"]
    # A side's view of a running campaign feeds its order panel and its board, which read no
    # turn record; the turn's strike reports and summary are drawn from the public's view.
    # Left out, a kept side view no longer holds the last turn's reports (about 130 KiB,
    # 500 objects: issue 29) once its state is gone from the cache.
    history = tuple(kept["history"]) if viewer is None or kept["finished"] else ()
    return trusted(
        View,
        viewer=viewer,
        scenario=scenario.key,
        scenario_name=scenario.name,
        turn=turn,
        turns=scenario.turns,
        turn_label=labels[turn - 1] if turn - 1 < len(labels) else "",
        round=kept["round"],
        finished=kept["finished"],
        winner=kept["winner"],
        sides=sides,
        tracks=tuple(tracks),
        history=history,
        previews=previews,
    )


def view(catalog: Catalog, state: State, viewer: Side | None) -> View:
    """The view of ``state`` for ``viewer`` (None: the public), through the secrecy gate."""
    kept = keep(state, Eyes(side=viewer), finished=state.finished)
    return project(catalog, kept, viewer)

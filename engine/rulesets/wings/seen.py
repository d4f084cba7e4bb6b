"""What a Wings viewer is shown: the facts the views derive, and the view built from
what the secrecy gate kept (``engine.sight``).

The view's ``data`` is the kept campaign (or raid) as JSON, the shape the presenter
draws from. Nothing here decides who sees what: each derived fact carries its label, and
``project`` only reads what the gate handed it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict

import engine.rulesets.wings.dambuster as db
import engine.rulesets.wings.exits as exits
import engine.rulesets.wings.nets as nets
import engine.rulesets.wings.reinforcements as reinforcements
import engine.rulesets.wings.sun as sun
from engine.rulesets.wings.catalog import Catalog
from engine.rulesets.wings.flight import flight_data
from engine.rulesets.wings.state import MissionState
from engine.sight import PUBLIC, Derived, Eyes, jsonable, own


class WingsView(BaseModel):
    """What one viewer may see: the kept state as data, plus the first enemy card each of
    the viewer's pursuers was shown (the only part of an enemy program it may know)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    viewer: str | None
    turn: int
    finished: bool
    stage: str
    scenario: str
    data: dict[str, Any]
    shown: dict[str, str] = {}  # own pursuer plane -> the card its target opens with
    slots: dict[str, str] = {}  # plane id -> "planeN" field it is programmed in
    reports: dict[int, int] = {}
    # Plane type key -> its name and structure (damage points), for the types in play: the
    # presenter draws from the view alone and never holds the engine's catalog.
    plane_types: dict[str, tuple[str, int]] = {}
    # The cards' paths, bases and arcs of the plane types on the table (``flight``): what
    # the pictures draw a program's ghost path and a turn's flown paths from (issue 27).
    flight: dict[str, Any] = {}


def _shown(mission: MissionState, _root: Any) -> dict[str, str]:
    """Seed A.IV.d: each pursuer -> the first card of the program its target flies, shown
    to the pursuer's side while it may reorder."""
    if mission.round != "reorder":
        return {}
    return {
        pursuer: mission.programs[target].cards[0]
        for pursuer, target in mission.pursuits.items()
        if target in mission.programs
    }


def _ring(mission: MissionState, _root: Any) -> list[list[str]]:
    # Seed A.IV.i.2: the protective ring's sections, balloon to balloon.
    if not nets.is_ring(mission):
        return []
    return [[a.id, b.id] for a, b in nets.ring_sections(mission.objectives)]


def _may_come_back(mission: MissionState, _root: Any) -> list[str]:
    # Seed A.IV.c: who left the table last turn and may be brought back now.
    return [
        pid
        for pid, plane in sorted(mission.planes.items())
        if exits.may_come_back(mission, plane, mission.turn)
    ]


def _plane_types(catalog: Catalog, state: Any) -> dict[str, tuple[str, int]]:
    if state.dam is not None:
        lancaster = catalog.planes[state.dam.plane_type]
        return {lancaster.key: (lancaster.name, lancaster.damage_points)}
    campaign = state.campaign
    keys = {pilot.plane for pilot in campaign.pilots.values()}
    if campaign.mission is not None:
        keys |= {plane.type for plane in campaign.mission.planes.values()}
    return {
        key: (catalog.planes[key].name, catalog.planes[key].damage_points)
        for key in sorted(keys)
        if key in catalog.planes
    }


def derived(
    catalog: Catalog,
    state_model: type[BaseModel],
    stage: Callable[[Any], str],
    slots: Callable[[MissionState], dict[str, str]],
) -> tuple[Derived, ...]:
    """The facts a Wings view shows that the state does not hold as such."""

    def may_reinforce(mission: MissionState, root: Any) -> list[str]:
        # Seed E.IV: the downed planes a side may send a new one for this turn.
        campaign = root.campaign
        if campaign is None or campaign.phase != "mission":
            return []
        return [d.field for d in reinforcements.decisions(catalog, campaign, mission)]

    flights: dict[tuple[str, ...], dict[str, Any]] = {}

    def flight(state: Any, _root: Any) -> dict[str, Any]:
        # Printed on the cards and the planes' sheets: public. The same few types all
        # mission long, so each set is drawn up once.
        mission = state.campaign.mission if state.campaign is not None else None
        if mission is None:
            return {}
        types = tuple(sorted({plane.type for plane in mission.planes.values()}))
        if types not in flights:
            flights[types] = flight_data(catalog, types)
        return flights[types]

    def mission_slots(state: Any, _root: Any) -> dict[str, str]:
        mission = state.campaign.mission if state.campaign is not None else None
        return slots(mission) if mission is not None else {}

    return (
        Derived(state_model, "stage", PUBLIC, lambda state, _root: stage(state)),
        Derived(state_model, "slots", PUBLIC, mission_slots),
        Derived(state_model, "plane_types", PUBLIC, lambda state, _: _plane_types(catalog, state)),
        Derived(state_model, "flight", PUBLIC, flight),
        Derived(
            state_model,
            "dam_result",
            PUBLIC,
            lambda state, _root: None if state.dam is None else db.result(state.dam),
        ),
        # Seed F.VI.e: the last turn whose end the sun's favoured side may wait for.
        Derived(MissionState, "sun_entry_by", PUBLIC, lambda _m, _r: sun.LAST_CHOICE_TURN),
        Derived(MissionState, "ring", PUBLIC, _ring),
        Derived(MissionState, "may_come_back", PUBLIC, _may_come_back),
        Derived(MissionState, "may_reinforce", own(item="planes"), may_reinforce),
        Derived(MissionState, "shown", own(key="planes"), _shown),
    )


def project(catalog: Catalog, kept: dict[str, Any], eyes: Eyes) -> WingsView:
    """The view of what the gate kept for ``eyes``."""
    if kept.get("dam") is not None:
        dam = jsonable(kept["dam"])
        plane = catalog.planes[dam["plane_type"]]
        data = {"dam": dam, "dam_result": kept["dam_result"], "dam_structure": plane.damage_points}
        finished = bool(dam["finished"])
        shown: dict[str, str] = {}
    else:
        data = jsonable(kept["campaign"])
        finished = data["phase"] == "ended"
        mission = data.get("mission")
        shown = mission.pop("shown", {}) if mission is not None else {}
    return WingsView(
        viewer=eyes.side,
        turn=kept["turn"],
        finished=finished,
        stage=kept["stage"],
        scenario=kept["scenario"],
        data=data,
        shown=shown,
        slots=kept["slots"],
        reports=kept["reports"],
        plane_types=kept["plane_types"],
        flight=kept.get("flight") or {},
    )

"""The mission generator (seed E): Mission Points, the forces they buy, objectives and
ground defences, weather and time of day, for the patrol, reconnaissance, photography,
bombing and balloon-busting missions.
"""

from __future__ import annotations

import random
from typing import Literal

from pydantic import BaseModel, ConfigDict

import engine.rulesets.wings.balloon_roles as balloon_roles
import engine.rulesets.wings.geometry as geo
import engine.rulesets.wings.hangar as hangar
import engine.rulesets.wings.majors as majors
import engine.rulesets.wings.net_entry as net_entry
import engine.rulesets.wings.nets as nets
import engine.rulesets.wings.relief as relief
import engine.rulesets.wings.strafing as strafing
import engine.rulesets.wings.zones as zones_of
from engine.rng import Rng
from engine.rulesets.wings.catalog import Catalog, SideName
from engine.rulesets.wings.landing import rescue_layout
from engine.rulesets.wings.missions import Sortie, new_mission
from engine.rulesets.wings.objectives import NEEDS_TWO_SEATER, place_objectives
from engine.rulesets.wings.pilots import can_fly, flying_skills, tokens
from engine.rulesets.wings.state import (
    SIDES,
    CampaignState,
    GroundElement,
    MissionState,
    Pilot,
    other,
)

SEASONS = {
    12: "winter", 1: "winter", 2: "winter",
    3: "spring", 4: "spring", 5: "spring",
    6: "summer", 7: "summer", 8: "summer",
    9: "autumn", 10: "autumn", 11: "autumn",
}  # fmt: skip

# Seed F.VI.a: the weather read from an A card's value, by season (0-1, 2-3, 4-5).
WEATHER = {
    "winter": ("heavy", "medium", "clear"),
    "spring": ("medium", "clear", "heavy"),
    "summer": ("clear", "heavy", "medium"),
    "autumn": ("medium", "heavy", "clear"),
}
TIMES_OF_DAY = ("dawn", "morning", "noon", "afternoon", "dusk")  # seed F.VI.e


class MissionPoints(BaseModel):
    model_config = ConfigDict(frozen=True)

    active: int
    enemy: int
    lines: tuple[tuple[str, int], ...]  # the audit trail of the active side's extra MP


def mission_points(
    catalog: Catalog,
    *,
    active_players: int,
    enemy_players: int,
    kind: str,
    extra_objectives: int = 0,
    enemy_extra_aircraft: int = 0,
    enemy_trenches: int = 0,
    enemy_caa: int = 0,
    enemy_dca: int = 0,
    zone: str = "near_enemy",
    enemy_nets: bool = False,
) -> MissionPoints:
    """Seed E.II.a-b: 2 MP per player, plus the creation table's extras for the active side."""
    table = catalog.rules.campaign.mission_table
    per_player = catalog.rules.campaign.mission_points_per_player
    lines = [(f"mission:{kind}", table[kind])]
    if extra_objectives:
        key = "extra_photo" if kind == "photography" else f"extra_{kind}"
        # Seed E.II.b: reconnaissance objectives are priced per two extra, the others each.
        priced = extra_objectives // 2 if kind == "recon" else extra_objectives
        lines.append(("extra objectives", table[key] * priced))
    if enemy_extra_aircraft:
        lines.append(("enemy advantage", table["enemy_advantage"] * enemy_extra_aircraft))
    if enemy_trenches or enemy_caa or enemy_dca or enemy_nets:
        trenches = table["enemy_trenches_per_3"] * (enemy_trenches // 3)
        caa = table["enemy_caa_per_2"] * (enemy_caa // 2)
        defences = trenches + caa + table["enemy_dca_per_1"] * enemy_dca
        # Seed E.II.b's row "balloons with net" among the enemy's ground defences.
        defences += table["enemy_nets"] if enemy_nets else 0
        lines.append(("enemy ground defences", defences))
    lines.append((f"zone:{zone}", table[f"zone_{zone}"]))
    extra = sum(value for _, value in lines)
    return MissionPoints(
        active=active_players * per_player + extra,
        enemy=enemy_players * per_player,
        lines=tuple(lines),
    )


# Short codes in ground element ids ("c-I1"), read alike in every language the log is written
# in, as objective ids are: I an infantry trench, A an anti-aircraft (CAA) post, F a flak
# battery (DCA). Their alphabetical order is the kinds' own (caa, dca, trench), so posts
# act in the same order as under the old ids.
GROUND_CODES: dict[str, str] = {"trench": "I", "caa": "A", "dca": "F"}


Spot = tuple[float, float]


def clear_spot(catalog: Catalog, x: float, y: float, taken: list[Spot]) -> float:
    """Seed E.I.b (and E.II.c: every mission element follows its placement rules): elements
    lie at least R/2 apart. The nearest point to ``y`` across the table, on the line ``x``,
    that is that far from every element already laid (a tenth of a bw at a time, first
    towards the higher edge); ``y`` itself if the table has none."""
    height = catalog.rules.units.table[1]
    gap = catalog.rules.units.ruler / 2 - geo.EPS
    for step in range(int(height * 10) + 1):
        for sign in (1, -1):
            spot = y + sign * step / 10
            if 0 < spot < height and all(geo.distance((x, spot), other) >= gap for other in taken):
                return spot
    return y


def defences(
    catalog: Catalog,
    side: SideName,
    trenches: int,
    caa: int,
    taken: tuple[Spot, ...] = (),
    border: float | None = None,
    enemy_zone: bool = False,
) -> dict[str, GroundElement]:
    """The defending side's trenches and CAA posts along the border of its own zone (seed
    E.I.b: mission elements within R/2 of that border), spread evenly across the table,
    each slid along the border clear of the objectives and posts laid before it. In a
    mission in the enemy zone, the zone's own rule: a ruler inside its edges
    (``zones.post_spot``, ``zones.clear_spot``)."""
    width, height = catalog.rules.units.table
    x = border if border is not None else width * 3 / 4 if side == "central" else width / 4
    kinds: list[Literal["trench", "caa"]] = []
    kinds += ["caa"] * caa
    kinds += ["trench"] * trenches
    laid = list(taken)
    posts = []
    for index, kind in enumerate(kinds):
        if enemy_zone:
            wish = zones_of.post_spot(catalog, side, index, len(kinds))
            x, y = zones_of.clear_spot(catalog, side, wish, laid)
        else:
            y = clear_spot(catalog, x, height * (index + 1) / (len(kinds) + 1), laid)
        laid.append((x, y))
        posts.append(
            GroundElement(
                id=f"{side[0]}-{GROUND_CODES[kind]}{kinds[: index + 1].count(kind)}",
                kind=kind,
                side=side,
                x=x,
                y=y,
            )
        )
    return {post.id: post for post in posts}


def flak_battery(
    catalog: Catalog,
    side: SideName,
    taken: tuple[Spot, ...] = (),
    border: float | None = None,
    wish: Spot | None = None,
) -> GroundElement:
    """The flak battery (DCA) covering the objectives: on the table's middle line as deep in
    the defender's zone as seed E.I.b lets a mission element lie (``[objectives] depth``,
    key ``dca``: R/2), slid across the table clear of the objectives and posts (authored
    spot); armed from the second turn (seed A.IV.h: a turn to arm). In a mission in the
    enemy zone, the clear spot nearest ``wish`` a ruler inside its edges (seed E.II.c,
    ``zones.battery_spot``)."""
    width, height = catalog.rules.units.table
    ruler = catalog.rules.units.ruler
    if border is None:
        border = width * 3 / 4 if side == "central" else width / 4
    inward = 1 if side == "central" else -1
    x = border + inward * ruler * catalog.rules.objectives.depth["dca"]
    if wish is not None:
        x, y = zones_of.clear_spot(catalog, side, wish, list(taken))
    else:
        y = clear_spot(catalog, x, height / 2, list(taken))
    return GroundElement(
        id=f"{side[0]}-{GROUND_CODES['dca']}1",
        kind="dca",
        side=side,
        x=x,
        y=y,
        ready_turn=2,
    )


def draw_weather(catalog: Catalog, date: str, stream: random.Random) -> str:
    """Seed F.VI.a: one card from a shuffled A deck, read by season."""
    season = SEASONS[int(date.split("-")[1])]
    card = stream.choice(catalog.damage_decks["A"].expanded)
    return WEATHER[season][min(card.value, 5) // 2]


def sortie_cost(catalog: Catalog, pilot: Pilot, date: str) -> int:
    """Seed E.II.b deployment cost: the plane by its service class, plus the pilot."""
    plane = catalog.planes[pilot.plane]
    deployment = catalog.rules.campaign.deployment
    if plane.two_seater:
        plane_cost = deployment["two_seater"]
    else:
        service = plane.service_class(date)
        plane_cost = deployment["advanced" if service == "future" else service]
    return plane_cost + deployment[pilot.status]


def choose_forces(
    catalog: Catalog,
    state: CampaignState,
    side: SideName,
    budget: int,
    two_seater_first: bool = False,
) -> list[Pilot]:
    """Pilots fit to fly, with a plane of their type and a sortie of fuel and ammunition
    left, taken in roster order while the Mission Points last (at least one if any can);
    a recon or photo mission takes its two-seater crews first (seed E.I.a). A pilot flying
    a spare comes as a copy whose ``plane`` is the spare's type."""
    squadron = state.squadrons[side]
    planes = {
        key.removeprefix("plane:"): count
        for key, count in squadron.stock.items()
        if key.startswith("plane:")
    }
    sorties = min(squadron.stock.get("fuel", 0), squadron.stock.get("ammunition", 0))
    chosen: list[Pilot] = []
    spent = 0

    def order(pilot: Pilot) -> tuple[bool, str]:
        first = two_seater_first and catalog.planes[pilot.plane].two_seater
        return (not first, pilot.id)

    for pilot in sorted(state.pilots.values(), key=order):
        if pilot.side != side or not can_fly(pilot) or planes.get(pilot.plane, 0) <= 0:
            continue
        if len(chosen) >= sorties:
            break
        cost = sortie_cost(catalog, pilot, state.date)
        if spent + cost > budget and chosen:
            continue
        chosen.append(pilot)
        spent += cost
        planes[pilot.plane] -= 1
    # A fit pilot whose own type the hangar no longer holds takes a spare (hangar)
    # once every pilot of a type in stock has had his.
    taken = {pilot.id for pilot in chosen}
    for pilot in sorted(state.pilots.values(), key=order):
        if pilot.side != side or pilot.id in taken or not can_fly(pilot):
            continue
        spare = hangar.spare_for(catalog, pilot, planes)
        if planes.get(pilot.plane, 0) > 0 or spare is None or len(chosen) >= sorties:
            continue
        flier = pilot.model_copy(update={"plane": spare})
        cost = sortie_cost(catalog, flier, state.date)
        if spent + cost > budget and chosen:
            continue
        chosen.append(flier)
        spent += cost
        planes[spare] -= 1
    return chosen


def can_fly_kind(catalog: Catalog, state: CampaignState, side: SideName, kind: str) -> bool:
    """Seed E.I.a: recon and photo missions need a two-seater the squadron can launch."""
    if kind not in NEEDS_TWO_SEATER:
        return True
    planes = hangar.hangar_of(state.squadrons[side].stock)
    return any(
        pilot.side == side
        and can_fly(pilot)
        and catalog.planes[pilot.plane].two_seater
        and hangar.plane_for(catalog, pilot, planes) is not None
        for pilot in state.pilots.values()
    )


def load_bombs(
    catalog: Catalog, state: CampaignState, force: list[Pilot], budget: int
) -> dict[str, tuple[int, bool]]:
    """Seed E.II.b: a two-seater flies a bombing mission with a cluster of three bombs (its
    2 MP include it); each fighter may take one bomb for 1 MP while the points last."""
    spent = sum(sortie_cost(catalog, pilot, state.date) for pilot in force)
    price = catalog.rules.campaign.deployment["fighter_bomb"]
    loads: dict[str, tuple[int, bool]] = {}
    for pilot in force:
        if catalog.planes[pilot.plane].two_seater:
            loads[pilot.id] = (1, True)
        elif spent + price <= budget:
            loads[pilot.id] = (1, False)
            spent += price
    return loads


def load_rockets(
    catalog: Catalog, state: CampaignState, force: list[Pilot], budget: int
) -> dict[str, int]:
    """Seed E.II.b: a fighter takes two batches of Le Prieur rockets for 1 MP while the
    active side's Mission Points last (a balloon-busting mission)."""
    spent = sum(sortie_cost(catalog, pilot, state.date) for pilot in force)
    price = catalog.rules.campaign.deployment["fighter_bomb"]
    loads: dict[str, int] = {}
    for pilot in force:
        if not catalog.planes[pilot.plane].two_seater and spent + price <= budget:
            loads[pilot.id] = 2
            spent += price
    return loads


def buy_net(catalog: Catalog, state: CampaignState, side: SideName, budget: int, count: int) -> int:
    """Seed E.II.b, under the ``nets_bought`` switch: what the defender pays for the net
    over its ``count`` balloons (0: not bought, or free without the switch). It buys it
    first, when what is left still pays for the planes it would then field."""
    if not state.rules.nets_bought:
        return 0
    cost = nets.price(count, catalog.rules.campaign.deployment["balloons_with_net"])
    if cost > budget:
        return 0
    force = choose_forces(catalog, state, side, budget - cost)
    fielded = sum(sortie_cost(catalog, pilot, state.date) for pilot in force)
    return cost if force and fielded <= budget - cost else 0


def generate_mission(
    catalog: Catalog,
    state: CampaignState,
    rng: Rng,
    kind: str = "patrol",
    objectives: int | None = None,
    major: str | None = None,
    enemy_zone: bool = False,
) -> tuple[MissionState, MissionPoints, dict[SideName, list[Pilot]]]:
    """``enemy_zone``: flown in the enemy zone, deep objectives and all (seed E.I.b,
    ``zones``), priced by the creation table's "deep enemy zone" row."""
    active = state.active
    enemy = other(active)
    fire = catalog.rules.fire
    stock = state.squadrons[enemy].stock
    trenches = min(stock.get("trenches", 0), fire.max_trenches)
    caa = min(stock.get("caa", 0), fire.max_caa)
    dca = 0 if kind == "patrol" else 1
    # seed E.II.b: the squadron's choice; without one, the data's default (recon: four sites)
    sites = catalog.rules.objectives.per_mission.get(kind, 1) if objectives is None else objectives
    zone = "deep_enemy" if enemy_zone else "near_enemy"
    # Seed A.IV.i.2: two balloons or more hang a net, free, or bought by the defender first
    # (E.II.b) under the scenario's ``nets_bought`` switch (nets).
    netted = kind == "balloon" and sites >= 2
    budget = state.squadrons[enemy].players * catalog.rules.campaign.mission_points_per_player
    net_price = buy_net(catalog, state, enemy, budget, sites) if netted else 0
    netted = netted and (net_price > 0 or not state.rules.nets_bought)

    def priced(enemy_extra_aircraft: int = 0) -> MissionPoints:
        return mission_points(
            catalog,
            active_players=state.squadrons[active].players,
            enemy_players=state.squadrons[enemy].players,
            kind=kind,
            extra_objectives=sites - 1,
            enemy_extra_aircraft=enemy_extra_aircraft,
            enemy_trenches=trenches,
            enemy_caa=caa,
            enemy_dca=dca,
            zone=zone,
            enemy_nets=netted,
        )

    points = priced()
    two_first = kind in NEEDS_TWO_SEATER or kind == "bombing"
    enemy_force = choose_forces(catalog, state, enemy, points.enemy - net_price)
    active_force = choose_forces(catalog, state, active, points.active, two_first)
    extra = len(enemy_force) - len(active_force)
    if extra > 0:
        # Seed E.II.b: each aircraft the enemy fields beyond the active side's is worth MP.
        points = priced(extra)
        active_force = choose_forces(catalog, state, active, points.active, two_first)
    loads = load_bombs(catalog, state, active_force, points.active) if kind == "bombing" else {}
    rockets = load_rockets(catalog, state, active_force, points.active) if kind == "balloon" else {}
    forces: dict[SideName, list[Pilot]] = {active: active_force, enemy: enemy_force}
    sorties = [
        Sortie(
            id=pilot.id,
            type=pilot.plane,
            side=pilot.side,
            pilot=pilot.id,
            skills=flying_skills(pilot),
            behaviour=pilot.behaviour,
            tokens=tokens(catalog, pilot),
            pilot_lp=pilot.lp,
            bombs=loads.get(pilot.id, (0, False))[0],
            cluster=loads.get(pilot.id, (0, False))[1],
            rockets=rockets.get(pilot.id, 0),
            kit=pilot.equipment,  # seed D.VIII
        )
        for side in SIDES
        for pilot in forces[side]
    ]
    number = state.mission_number + 1
    stream = rng.stream(f"weather:{number}")
    weather = draw_weather(catalog, state.date, stream)
    mission = new_mission(
        catalog,
        sorties,
        rng,
        number=number,
        date=state.date,
        weather=weather,
        active=active,
        rules=state.rules,
    )
    time_of_day = rng.stream(f"time-of-day:{number}").choice(TIMES_OF_DAY)
    placed = place_objectives(catalog, kind, enemy, sites)
    if major is not None:
        # Seed F.III.c: the enemy's major objective is the mission's one objective.
        placed = majors.place(catalog, state, kind, enemy, major)
    zones = zones_of.enemy_zone_borders(catalog, enemy) if enemy_zone else None
    border = zones_of.border_of(zones, enemy) if zones is not None else None
    if zones is not None:
        placed = zones_of.place_deep(catalog, kind, enemy, sites)
    if netted and state.rules.net_shape == "ring":
        width = catalog.rules.units.table[0]
        default_border = width * 3 / 4 if enemy == "central" else width / 4
        placed = nets.lay_ring(placed, default_border if border is None else border)
    spots = tuple((site.x, site.y) for site in placed.values())
    # Seed E.II.c: in the enemy zone, its placement rule (zones).
    ground = defences(catalog, enemy, trenches, caa, spots, border, zones is not None)
    # Seed E.I.a: a strafing mission's objectives are manned trenches (strafing).
    placed, ground = strafing.man_posts(placed, ground)
    if dca:
        wish = zones_of.battery_spot(catalog, enemy, placed) if zones is not None else None
        laid = (*spots, *((post.x, post.y) for post in ground.values()))
        battery = flak_battery(catalog, enemy, laid, border, wish)
        ground[battery.id] = battery
    mission = mission.model_copy(
        update={
            "time_of_day": time_of_day,
            "ground": ground,
            "kind": kind,
            "objectives": placed,
            # Authored: two balloons or more hang a barrage net between them (seed
            # A.IV.i.2's "balloons with net"), free like the balloons (E.II.c).
            "nets": netted,
            "net_shape": state.rules.net_shape,
            "net_price": net_price,
            "major": major,
            "zones": zones,
            "front": state.front,  # seed F.VI.e, K.1: the campaign's front
        }
    )
    if kind == "rescue":
        mission = rescue_layout(catalog, list(state.pilots.values()), mission)
    # Seed A.IV.i: a balloon mission's strategic role, when the scenario plays them.
    mission = balloon_roles.assign(mission, rng.stream(f"balloon-role:{number}"))
    if mission.rules.relief:
        # Seed F.V: laid last, clear of everything else on the table.
        mission = mission.model_copy(update={"relief": relief.lay(catalog, mission, rng)})
    # Seed A.IV.i.2: a flight briefed on a net comes in over it (net_entry).
    mission = net_entry.come_in_over(catalog, mission)
    return mission, points, forces

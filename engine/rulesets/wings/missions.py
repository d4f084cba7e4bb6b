"""Setting up a mission's table: planes deployed at their edges, damage decks shuffled.

Deployment (seed E.I.b): each side starts half a ruler from its own edge, the Entente on the
left facing right, the Central Powers on the right facing left; the spacing across the
table and the starting level are authored.
"""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel, ConfigDict

import engine.rulesets.wings.ammunition as ammunition
from engine.rng import Rng
from engine.rulesets.wings.catalog import Catalog, SideName
from engine.rulesets.wings.state import MissionRules, MissionState, PlaneState
from engine.rulesets.wings.turn import copies_needed, shuffled_deck


class Sortie(BaseModel):
    """One plane to put on the table, with its pilot's mission-time numbers."""

    model_config = ConfigDict(frozen=True)

    id: str
    type: str
    side: SideName
    pilot: str | None = None
    skills: tuple[str, ...] = ()
    behaviour: str | None = None
    tokens: int = 0
    pilot_lp: int = 10
    bombs: int = 0
    cluster: bool = False
    rockets: int = 0
    kit: dict[str, int] = {}  # seed D.VIII: the pilot's equipment taken aboard


def new_mission(
    catalog: Catalog,
    sorties: list[Sortie],
    rng: Rng,
    *,
    number: int = 1,
    date: str = "1917-09",
    weather: str = "clear",
    active: SideName = "entente",
    rules: MissionRules | None = None,
    max_turns: int | None = None,
) -> MissionState:
    units = catalog.rules.units
    width, height = units.table
    edge = units.ruler / 2
    by_side: dict[SideName, list[Sortie]] = {"entente": [], "central": []}
    for sortie in sorties:
        by_side[sortie.side].append(sortie)
    planes: dict[str, PlaneState] = {}
    for side, group in by_side.items():
        x = edge if side == "entente" else width - edge
        heading = 0.0 if side == "entente" else 180.0
        for index, sortie in enumerate(group):
            plane_type = catalog.planes[sortie.type]
            y = height * (index + 1) / (len(group) + 1)
            planes[sortie.id] = PlaneState(
                id=sortie.id,
                type=sortie.type,
                side=side,
                pilot=sortie.pilot,
                skills=sortie.skills,
                behaviour=sortie.behaviour,
                tokens=sortie.tokens,
                x=x,
                y=y,
                heading=heading,
                level=catalog.rules.altitude.start_level,
                pilot_lp=sortie.pilot_lp,
                bombs=sortie.bombs,
                cluster=sortie.cluster,
                rockets=sortie.rockets,
                kit=dict(sortie.kit),
                observer_lp=catalog.rules.pilot.life_points if plane_type.two_seater else None,
            )
    users: Counter[str] = Counter()
    for plane in planes.values():
        for gun_deck in {gun.deck for gun in catalog.planes[plane.type].guns}:
            users[gun_deck] += 1
    decks = {}
    for letter, deck in sorted(catalog.damage_decks.items()):
        # Every deck is ready: A and B also serve flames, weather and collisions.
        # Stream names carry the mission number, so a caller reusing one Rng for a whole
        # campaign still gets fresh decks each mission.
        stream = rng.stream(f"deck:{number}:{letter}")
        decks[letter] = shuffled_deck(
            letter, len(deck.expanded), copies_needed(users[letter]), stream
        )
    mission = MissionState(
        number=number,
        date=date,
        weather=weather,
        active=active,
        rules=rules or MissionRules(),
        table=(width, height),
        max_turns=max_turns or catalog.rules.campaign.max_turns,
        planes=planes,
        decks=decks,
    )
    if mission.rules.ammunition:
        mission = ammunition.issue(catalog, mission)  # seed B.II
    return mission

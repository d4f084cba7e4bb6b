"""Surprise from the sun (seed F.VI.e), a scenario switch (``MissionRules.sun``).

At the mission's start the first card of an A deck says which side has the sun at its
back: 2, 4, 5 the Entente (the seed's Allies), 1 and 3 the Central Powers; a 0 draws again
and the second card gives the noon sun, a second 0 gives nobody the sun. The draw is public.
The favoured side's planes stay off the table (status ``waiting``) while the other side
flies its first turns; each turn its player decides, in secret with the programs, to enter
or to wait. The planes enter at the end of the turn it chose (so its players program the
entry turn seeing where they stand): each one R/2 from the enemy plane it lines up on, on
the sun side, at the level the sun's height gives, facing it; and on that first turn each
sees its target's first card and may reorder its own (seed step 4, the pursuit regardless
of position).

Authored choices (the seed leaves them open; see docs/wings-data.md "Sun position"):
the card is drawn from the A deck's composition on a stream of its own (``sun:N``), so the
mission's damage piles are the same with the rule on or off; the sun plays in clear
weather, and in medium cloudiness when the campaign flies those missions above the layer;
on the Eastern Front the card's sides and the sun's edge are swapped (``front``
says both and why); entry is chosen during turns 1 to ``LAST_CHOICE_TURN`` and forced at the end of
that turn, so the favoured side flies from turn 2, 3 or 4 ("typically 2 to 4"); with no
enemy plane on the table to line up on, the planes enter at once where they would have
deployed. The sun side is where the sun stands at the time of day, with the board's top
as north on the Western Front (south on the Eastern): east at dawn and in the morning,
south at noon, west in the afternoon and at dusk.
"""

from __future__ import annotations

import math
import random

import engine.rulesets.wings.ceiling as ceiling
import engine.rulesets.wings.front as front
import engine.rulesets.wings.relief as relief
from engine.ruleset import Option
from engine.rulesets.wings.catalog import Catalog, SideName
from engine.rulesets.wings.state import Decision, Event, MissionState, PlaneState, other
from engine.rulesets.wings.work import Turn

ENTER = "enter"
WAIT = "wait"
LAST_CHOICE_TURN = 3  # forced to enter at the end of turn 3: it flies turn 4 at the latest
FAVOURS: dict[int, SideName] = {
    2: "entente",
    4: "entente",
    5: "entente",
    1: "central",
    3: "central",
}
# Seed F.VI.e: entry level relative to the enemy plane lined up on.
LEVEL_BY_TIME = {"dawn": -1, "morning": 0, "noon": 1, "afternoon": 0, "dusk": -1}
# Authored: the heading from the enemy plane towards the sun (0 = east / +x, 90 = south / +y).
SUN_BEARING = {"dawn": 0.0, "morning": 0.0, "noon": 90.0, "afternoon": 180.0, "dusk": 180.0}
# Seed F.VI.e fallback: the enemy's 6, 5 and 7 o'clock (degrees off its heading; a right
# turn lowers the heading, so 5 o'clock is -150).
CLOCK_FALLBACK = (180.0, -150.0, 150.0)
SPREAD = 30.0  # authored: a second plane on the same enemy stands 30 degrees round from the first
EDGE_MARGIN = 0.5  # authored: a placed centre stays half a base-width inside the table


def draw(
    catalog: Catalog, stream: random.Random, on: str = "western"
) -> tuple[tuple[int, ...], SideName | None, bool]:
    """The cards read (one, or two after a 0), the favoured side (None: nobody) and
    whether it is the noon sun, on the front ``on``."""
    first, second = (card.value for card in stream.sample(catalog.damage_decks["A"].expanded, 2))
    if first != 0:
        return (first,), front.favoured(FAVOURS[first], on), False
    if second == 0:
        return (first, second), None, False
    return (first, second), front.favoured(FAVOURS[second], on), True


def at_start(
    catalog: Catalog, mission: MissionState, stream: random.Random
) -> tuple[MissionState, list[Event]]:
    """Draw the sun for a freshly generated mission; the favoured side's planes wait."""
    if not front.sun_plays(mission):
        return mission, []
    cards, side, noon = draw(catalog, stream, mission.front)
    time_of_day = "noon" if noon else mission.time_of_day
    planes = {
        pid: plane.model_copy(update={"status": "waiting"}) if plane.side == side else plane
        for pid, plane in mission.planes.items()
    }
    mission = mission.model_copy(
        update={"planes": planes, "time_of_day": time_of_day, "sun_side": side, "sun_cards": cards}
    )
    return mission, announce(mission)


def announce(mission: MissionState) -> list[Event]:
    """The draw as everyone is told it (empty when the rule was not played)."""
    if not mission.sun_cards:
        return []
    data: dict[str, object] = {"cards": list(mission.sun_cards), "time_of_day": mission.time_of_day}
    side = mission.sun_side
    if side is None:
        return [Event(kind="sun-none", turn=0, data=data)]
    planes = sorted(pid for pid, plane in mission.planes.items() if plane.side == side)
    data |= {"side": side, "against": other(side), "planes": planes}
    return [Event(kind="sun-drawn", turn=0, data=data)]


def waiting(mission: MissionState) -> list[PlaneState]:
    return [
        mission.planes[pid]
        for pid in sorted(mission.planes)
        if mission.planes[pid].status == "waiting"
    ]


def decisions(mission: MissionState) -> list[Decision]:
    """The favoured side's one choice a turn, on its first waiting plane's field: enter at
    this turn's end or wait (the default: a missed deadline keeps the surprise in hand)."""
    planes = waiting(mission)
    if not planes or mission.turn > LAST_CHOICE_TURN - 1 or mission.sun_side is None:
        return []
    return [
        Decision(
            side=mission.sun_side,
            field=planes[0].id,
            kind="sun",
            options=(
                Option(id=WAIT, label="wait out of the sun"),
                Option(id=ENTER, label="enter out of the sun at this turn's end"),
            ),
            default=WAIT,
            detail=f"forced at the end of turn {LAST_CHOICE_TURN}",
        )
    ]


def _fits(point: tuple[float, float], table: tuple[float, float]) -> bool:
    x, y = point
    return EDGE_MARGIN <= x <= table[0] - EDGE_MARGIN and EDGE_MARGIN <= y <= table[1] - EDGE_MARGIN


def _from(target: PlaneState, bearing: float, distance: float) -> tuple[float, float]:
    rad = math.radians(bearing)
    return (target.x + distance * math.cos(rad), target.y + distance * math.sin(rad))


def entry_spot(
    target: PlaneState,
    time_of_day: str,
    nth: int,
    distance: float,
    table: tuple[float, float],
    on: str = "western",
) -> tuple[float, float, float]:
    """Where a plane entering out of the sun stands (x, y) and its heading: ``distance``
    from ``target`` towards the sun (the ``nth`` plane on the same target turned round
    by ``SPREAD`` steps, alternately either way), facing the target; with no room there,
    the target's 6, 5 or 7 o'clock (seed), else the sun-side spot pulled onto the table."""
    turn = SPREAD * ((nth + 1) // 2) * (1 if nth % 2 else -1)
    bearings = [front.bearing(SUN_BEARING[time_of_day], on) + turn]
    bearings += [target.heading + offset + turn for offset in CLOCK_FALLBACK]
    for bearing in bearings:
        spot = _from(target, bearing, distance)
        if _fits(spot, table):
            return (spot[0], spot[1], (bearing + 180.0) % 360.0)
    x, y = _from(target, bearings[0], distance)
    x = min(max(x, EDGE_MARGIN), table[0] - EDGE_MARGIN)
    y = min(max(y, EDGE_MARGIN), table[1] - EDGE_MARGIN)
    facing = math.degrees(math.atan2(target.y - y, target.x - x)) % 360.0
    return (x, y, facing)


def entry_level(work: Turn, plane: PlaneState, target: PlaneState) -> int:
    """The target's level moved by the sun's height, kept between the ground and the
    highest level the plane may fly now."""
    top = min(ceiling.game_ceiling(work), work.catalog.planes[plane.type].ceiling)
    return min(max(target.level + LEVEL_BY_TIME[work.mission.time_of_day], 0), top)


def enter(work: Turn) -> None:
    """At the turn's end: the waiting planes come in if their player chose it, if this was
    the last turn to choose, or if no enemy plane is left on the table to surprise."""
    planes = waiting(work.mission)
    if not planes:
        return
    side = planes[0].side
    targets = [p for p in work.flying() if p.side != side]
    chosen = work.mission.sun_enter
    work.mission = work.mission.model_copy(update={"sun_enter": False})
    if not (chosen or work.turn >= LAST_CHOICE_TURN or not targets):
        return
    distance = work.catalog.rules.units.ruler / 2
    for index, plane in enumerate(planes):
        if not targets:
            # Nobody to surprise: in where it would have deployed.
            work.update(plane.id, status="flying")
            work.event("sun-entered-unopposed", plane=plane.id)
            continue
        target = targets[index % len(targets)]
        nth = index // len(targets)
        x, y, heading = entry_spot(
            target, work.mission.time_of_day, nth, distance, work.mission.table, work.mission.front
        )
        level = entry_level(work, plane, target)
        # Seed F.V: out of the sun over a hill, never inside it.
        spot = plane.model_copy(update={"x": x, "y": y, "heading": heading})
        level = max(level, relief.level_above(work, spot))
        work.update(plane.id, status="flying", x=x, y=y, heading=heading, level=level, counters=0)
        work.event(
            "sun-entered",
            plane=plane.id,
            enemy=target.id,
            x=round(x, 3),
            y=round(y, 3),
            level=level,
            heading=round(heading, 1),
        )
        if nth == 0 and work.mission.rules.tailing:
            # Seed F.VI.e step 4: on the entry turn the pursuit applies whatever the
            # positions; one pursuer a target ("each may look at only one").
            work.pursuits[plane.id] = target.id

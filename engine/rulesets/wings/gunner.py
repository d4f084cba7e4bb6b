"""The flak gunner's choices (seed A.IV.h): a player of the owning side lays the battery's
burst counter once the programs are in, within the distance band of the altitude he
targets; the shell bursts in the second maneuver's fire step, or, if he leaves the counter
unmoved, two phases later (the first maneuver of the next turn); he may instead move it
before the second maneuver is revealed, up to a ruler and one level, and it then bursts
two phases later too.

A play-by-post turn has no round between two maneuvers, so the gunner's choice is one
decision on his side's program panel, made with the programs, among a short list:

- ``auto``: the standing order the battery followed before it had a gunner (the nearest
  enemy plane it reaches, ``flak.aim``); the default, so a missed deadline fires as before;
- ``fire:P``: over enemy plane P at its altitude, where two of its straights would take it
  (the second maneuver), pulled into the band;
- ``delay:P``: over P where four straights would take it (the next turn's first maneuver),
  left unmoved, bursting then;
- ``follow:P``: laid as ``fire:P``, then, before the second maneuver is revealed, moved
  after P as far as the seed allows (a ruler, one level nearer P's) towards where three
  more straights would take it, bursting in the next turn's first maneuver;
- ``hold``: no shell this turn; the battery stays armed.

Authored readings (docs/wings-data.md, "The flak gunner"): a target gone from the table
(down, off it or in the clouds) when the counter is laid leaves the shell in the breech;
one gone when a followed counter would move leaves it where it lies. The order is the
owning side's secret until the shell bursts: it reaches the seam sealed (``sealed``), the
counter and the order are labelled its side's (``state``), and only the burst
is told to all, with where it was.
"""

from __future__ import annotations

import engine.rulesets.wings.flak as flak
import engine.rulesets.wings.geometry as geo
from engine.ruleset import Option
from engine.rulesets.wings.catalog import Catalog
from engine.rulesets.wings.state import Decision, GroundElement, MissionState, PlaneState
from engine.rulesets.wings.work import Turn

PREFIX = "flak:"  # the engine field of a battery's order: "flak:c-F1"
AUTO, HOLD, FIRE, DELAY, FOLLOW = "auto", "hold", "fire", "delay", "follow"
AIMED = (FIRE, DELAY, FOLLOW)
TARGETS = 7  # the nearest enemy planes offered: 1 + 3 x 7 + 1 options fit a select of 25
LEAD = {FIRE: 2, DELAY: 4, FOLLOW: 2}  # straights flown before the burst (or the move)
AFTER_MOVE = 3  # straights from the move (before maneuver 2) to the burst (next turn's 1)


def ready(battery: GroundElement, turn: int) -> bool:
    """Armed, firing and with no counter on the table: its gunner lays one this turn."""
    return (
        battery.kind == "dca"
        and not battery.destroyed
        and not battery.silenced
        and battery.burst is None
        and turn >= battery.ready_turn
    )


def targets(catalog: Catalog, battery: GroundElement, mission: MissionState) -> list[PlaneState]:
    """The enemy planes the gunner may aim over: on the table at a level flak reaches,
    nearest first."""
    found = [
        plane
        for plane in mission.planes.values()
        if plane.side != battery.side
        and plane.status == "flying"
        and not plane.in_cloud
        and flak.band(catalog, plane.level) is not None
    ]
    found.sort(key=lambda p: (geo.distance((battery.x, battery.y), (p.x, p.y)), p.id))
    return found[:TARGETS]


def decisions(catalog: Catalog, mission: MissionState) -> list[Decision]:
    """One decision per ready battery, for its side: where the gunner lays the counter."""
    result = []
    for bid in sorted(mission.ground):
        battery = mission.ground[bid]
        if not ready(battery, mission.turn):
            continue
        options = [Option(id=AUTO, label="standing order", detail=AUTO)]
        for plane in targets(catalog, battery, mission):
            for kind in AIMED:
                options.append(
                    Option(
                        id=f"{kind}:{plane.id}",
                        label=f"{kind} over {plane.id} at altitude {plane.level}",
                        detail=f"{kind}.{plane.id}.{plane.level}",
                    )
                )
        options.append(Option(id=HOLD, label="hold fire", detail=HOLD))
        field = f"{PREFIX}{bid}"
        result.append(Decision.of(battery.side, field, "flak", options, AUTO, detail="flak gunner"))
    return result


def with_orders(mission: MissionState, orders: dict[str, str]) -> MissionState:
    if not orders:
        return mission
    return mission.model_copy(update={"flak_orders": {**mission.flak_orders, **orders}})


# --- in the turn ---------------------------------------------------------------------------


def lay(work: Turn, bid: str) -> tuple[float, float, int] | None:
    """Where this battery's gunner lays its counter this turn, by his order; None: no
    shell. Marks a delayed or followed shell with its burst (next turn's first maneuver)."""
    battery = work.ground[bid]
    order = work.mission.flak_orders.get(bid, AUTO)
    if order == HOLD:
        return None
    if order == AUTO:
        return flak.aim(work.catalog, battery, work.flying())
    kind, _, pid = order.partition(":")
    plane = work.planes.get(pid)
    if plane is None or plane.status != "flying" or plane.in_cloud:
        return None  # the target is gone: the shell stays in the breech
    placed = flak.lead(work.catalog, battery, plane, LEAD[kind])
    if placed is None:
        return None  # out of flak's reach now
    point, _miss = placed
    if kind != FIRE:
        work.ground[bid] = battery.model_copy(
            update={
                "burst_turn": work.turn + 1,
                "burst_phase": 1,
                "follow": pid if kind == FOLLOW else None,
            }
        )
    return point[0], point[1], plane.level


def follow(work: Turn) -> None:
    """Before the second maneuver is revealed: a followed counter moves after its plane,
    a ruler at most and one level nearer it, and stays in the band of its level."""
    for bid in sorted(work.ground):
        battery = work.ground[bid]
        if battery.follow is None or battery.burst is None:
            continue
        pid = battery.follow
        work.ground[bid] = battery = battery.model_copy(update={"follow": None})
        plane = work.planes.get(pid)
        if battery.destroyed or battery.silenced or battery.burst is None:
            continue
        if plane is None or plane.status != "flying" or plane.in_cloud:
            continue  # gone: the counter stays where it lies
        moved = moved_counter(work.catalog, battery, battery.burst, plane)
        work.ground[bid] = battery.model_copy(update={"burst": moved})
        work.event(
            "flak-moved",
            secret_for=battery.side,
            battery=bid,
            x=round(moved[0], 3),
            y=round(moved[1], 3),
            level=moved[2],
        )


def moved_counter(
    catalog: Catalog,
    battery: GroundElement,
    counter: tuple[float, float, int],
    plane: PlaneState,
) -> tuple[float, float, int]:
    """The counter moved after the plane: towards where three more of its straights would
    take it, at most a ruler from where it lay and one level nearer the plane's, inside
    the band of its new level; where no such point exists it stays."""
    x0, y0, level = counter
    step = max(-1, min(1, plane.level - level))
    new_level = level + step
    limits = flak.band(catalog, new_level)
    if limits is None:
        new_level, limits = level, flak.band(catalog, level)
    assert limits is not None
    ahead = flak.lead(catalog, battery, plane.model_copy(update={"level": new_level}), AFTER_MOVE)
    if ahead is None:
        return counter
    (tx, ty), _ = ahead
    ruler = catalog.rules.units.ruler
    # Walk back from the wanted point towards the counter until the move fits in a ruler.
    for tenth in range(10, -1, -1):
        share = tenth / 10
        x = x0 + (tx - x0) * share
        y = y0 + (ty - y0) * share
        (px, py), _ = flak.into_band(battery, (x, y), limits)
        if geo.distance((x0, y0), (px, py)) <= ruler + geo.EPS:
            return px, py, new_level
    return counter

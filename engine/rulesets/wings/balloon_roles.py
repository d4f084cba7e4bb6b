"""The optional strategic roles of balloons (seed A.IV.i), a scenario switch
(``MissionRules.balloon_roles``).

Balloons are purely defensive otherwise. With the switch on, each balloon-busting mission
is given one role when it is generated, drawn on a stream of its own (``balloon-role:N``)
so the rest of the mission is the same with the rule on or off. The role is public: the
briefing says it and the board shows it.

- Artillery spotting: the balloon side ranges its guns. The aggressor has a number of turns
  drawn from 4 to 8 (public, authored: the seed does not say, and the aggressor must know
  how long he has) to set a balloon on fire or bring one down. At the end of that turn, if
  none burns or is down, the artillery fires: the mission is over there, and the attack has
  failed. Who won is then read as at any mission's end (seed E.I.a, E.III.a): the balloon
  side if it holds the air too, else a draw, the aggressor having failed (the initiative
  passes, F.III.a, and the intact balloons score for their side): in the balloon side's
  favour either way. Once a balloon burns, the guns are blind and the mission goes on.
- Battlefield surveillance: the balloon side gets the efficient alert of seed F.VI.d.3,
  which the engine did not play: in clear weather, for the two full turns after the one
  at whose end a plane of the aggressor first stands in the balloon side's zone, each of
  the aggressor's planes then in the mission programs one card only, flown in all three
  maneuvers (so the deck's copies do not limit it, its other rules still do: a diamond
  cannot be flown thrice), and no Immelmann nor Split-S. Authored: a plane whose hit engine
  owes a stall (found 2.7) is spared the alert, since no single card can fly it; a
  reinforcement coming in later was not on the table to be spotted.
- Air defence: each balloon's basket carries a machine gun. Once per maneuver, in the fire
  step, a balloon not burning (authored: its crew has jumped) fires at the nearest enemy
  plane it may: all round at its level (a ruler, short range in the first half) or one
  below (half a ruler, long range), as a CAA post fires (seed A.IV.h: its artillery shot,
  dealt like an aircraft's); one level above only within half a ruler and beside its long
  sides, at long range. Authored: two levels apart or more, no shot, as between aircraft;
  the line of fire may be blocked by a plane between the levels, as any.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable

import engine.rulesets.wings.geometry as geo
import engine.rulesets.wings.zones as zones
from engine.rulesets.wings.catalog import Catalog, Gun, ManeuverCard, SideName
from engine.rulesets.wings.fire import FireCheck, aim, base_polygon, ground_polygon
from engine.rulesets.wings.state import Event, MissionState, Objective, PlaneState, Program, other
from engine.rulesets.wings.work import Shot, Turn

SPOTTING = "spotting"
SURVEILLANCE = "surveillance"
AIR_DEFENCE = "air_defence"
ROLES = (SPOTTING, SURVEILLANCE, AIR_DEFENCE)  # drawn with equal chances (authored)
SPOTTING_TURNS = (4, 8)  # seed A.IV.i: "4 to 8 turns", drawn evenly (authored)
ALERT_TURNS = 2  # seed F.VI.d: two full turns of advantage
# Seed F.VI.d: no Immelmann nor Split-S under the enemy's advantage (a declared Immelmann
# of history is an Immelmann too).
BARRED_MANEUVERS = ("split_s", "historical_immelmann")
BASKET = "basket"  # the basket's gun, named in the fire events like the CAA's "caa"


def assign(mission: MissionState, stream: random.Random) -> MissionState:
    """Give a balloon mission its role, when the scenario plays the roles. Both draws are
    made whatever the role, so a role never shifts the other's numbers."""
    if not mission.rules.balloon_roles or not balloons_of(mission.objectives.values()):
        return mission
    role = stream.choice(ROLES)
    turns = stream.randint(*SPOTTING_TURNS)
    update: dict[str, object] = {"balloon_role": role}
    if role == SPOTTING:
        update["artillery_turn"] = min(turns, mission.max_turns)
    return mission.model_copy(update=update)


def balloons_of(objectives: Iterable[Objective]) -> list[Objective]:
    """The balloons among objectives, in id order."""
    return sorted((o for o in objectives if o.kind == "balloon"), key=lambda o: o.id)


def defender(mission: MissionState) -> SideName:
    return balloons_of(mission.objectives.values())[0].side


def announce(mission: MissionState) -> list[Event]:
    """The role as the briefing tells it (empty when the mission has none)."""
    if mission.balloon_role is None:
        return []
    side = defender(mission)
    data: dict[str, object] = {"role": mission.balloon_role, "side": side, "against": other(side)}
    if mission.artillery_turn is not None:
        data["turns"] = mission.artillery_turn
    if mission.balloon_role == SURVEILLANCE:
        data["clear"] = mission.weather == "clear"
    return [Event(kind=f"balloon-role-{mission.balloon_role.replace('_', '-')}", turn=0, data=data)]


# --- artillery spotting ---------------------------------------------------------------------


def artillery_fires(work: Turn) -> bool:
    """At the end of the spotting's last turn: True (and told) when no balloon burns or is
    down, so the artillery fires and the mission ends, the attack failed."""
    mission = work.mission
    if mission.balloon_role != SPOTTING or work.turn != mission.artillery_turn:
        return False
    balloons = balloons_of(work.objectives.values())
    if any(b.destroyed or b.fire > 0 for b in balloons):
        return False
    side = balloons[0].side
    work.event("artillery-fired", side=side, against=other(side))
    return True


# --- battlefield surveillance: the efficient alert (seed F.VI.d.3) --------------------------


def raise_alert(work: Turn) -> None:
    """At a turn's end: the first time a plane of the aggressor stands in the balloon
    side's zone (clear weather only), the alert holds him for the next two turns."""
    mission = work.mission
    if mission.balloon_role != SURVEILLANCE or mission.alert_turns or mission.weather != "clear":
        return
    side = balloons_of(work.objectives.values())[0].side
    aggressor = other(side)
    spotted = [
        p.id
        for p in work.flying()
        if p.side == aggressor and zones.zone_at(mission, aggressor, p.x) == "enemy"
    ]
    if not spotted:
        return
    turns = tuple(range(work.turn + 1, work.turn + 1 + ALERT_TURNS))
    work.mission = mission.model_copy(update={"alert_turns": turns})
    for pid in work.ids():
        if work.planes[pid].side == aggressor:
            work.update(pid, surprised_turns=turns)
    work.event(
        "alert-raised", side=side, against=aggressor, plane=spotted[0], first=turns[0],
        last=turns[-1],
    )  # fmt: skip


def surprise_refusals(program: Program, resolved: list[ManeuverCard]) -> list[str]:
    """Why a program breaks the efficient alert's limits (empty when it keeps them). The
    caller spares a plane whose hit engine owes a stall: no card flies that thrice."""
    reasons = []
    if len({card.code for card in resolved}) > 1:
        reasons.append("alert-one-card")
    barred = program.maneuver in BARRED_MANEUVERS
    if barred or any(card.kind == "immelmann" for card in resolved):
        reasons.append("alert-no-immelmann")
    return reasons


# --- air defence: the baskets' machine guns ---------------------------------------------


def basket_gun(catalog: Catalog) -> Gun:
    """The basket's gun: the CAA's damage deck (seed: "the CAA firing rules"); its arc is
    never used, the basket fires all round."""
    return Gun(name=BASKET, deck=catalog.rules.fire.caa_deck, axis=0, half_angle=89)


def beside_long_sides(catalog: Catalog, balloon: Objective, area: geo.Polygon) -> geo.Polygon:
    """The part of ``area`` in the band the balloon card's long sides face: between the
    lines through its short sides, out either way."""
    card = ground_polygon(catalog, balloon.x, balloon.y)
    edges = list(zip(card, (*card[1:], card[0]), strict=True))
    start, end = max(edges, key=lambda edge: geo.distance(*edge))
    half = geo.distance(start, end) / 2
    ux, uy = (end[0] - start[0]) / (2 * half), (end[1] - start[1]) / (2 * half)
    centre = (balloon.x, balloon.y)
    near = geo.clip_half_plane(area, (centre[0] - ux * half, centre[1] - uy * half), (ux, uy))
    if len(near) < 3:
        return near
    return geo.clip_half_plane(near, (centre[0] + ux * half, centre[1] + uy * half), (-ux, -uy))


def check_from_basket(
    catalog: Catalog, balloon: Objective, target: PlaneState, others: list[PlaneState]
) -> FireCheck:
    """Can the basket's gun hit ``target`` now (seed A.IV.i, air defence)?"""
    if target.status != "flying":
        return FireCheck(ok=False, reason="not-flying")
    below = balloon.level - target.level  # 1: the plane flies one level lower
    if not -1 <= below <= 1:
        return FireCheck(ok=False, reason="altitude")
    ruler = catalog.rules.units.ruler
    reach = ruler if below == 0 else ruler / 2
    width, length = catalog.base_size(catalog.planes[target.type])
    if (
        geo.distance((balloon.x, balloon.y), (target.x, target.y))
        > reach + math.hypot(width, length) / 2
    ):
        return FireCheck(ok=False, reason="range")
    area = base_polygon(catalog, target)
    if below < 0:
        area = beside_long_sides(catalog, balloon, area)
        if len(area) < 3:
            return FireCheck(ok=False, reason="arc")
    low, high = sorted((balloon.level, target.level))
    screens = [
        base_polygon(catalog, plane)
        for plane in others
        if plane.id != target.id and plane.status == "flying" and low <= plane.level <= high
    ]
    # One level apart, either way, is long range: the seed's "counts as long range" above.
    return aim((balloon.x, balloon.y), area, reach, screens, abs(below), ruler)


def basket_fire(work: Turn, planes: list[PlaneState]) -> list[Shot]:
    """This maneuver's shots of the balloons' baskets, one each at most."""
    if work.mission.balloon_role != AIR_DEFENCE:
        return []
    fire = work.catalog.rules.fire
    gun = basket_gun(work.catalog)
    shots = []
    for balloon in balloons_of(work.objectives.values()):
        if balloon.destroyed or balloon.fire > 0:
            continue
        best: tuple[float, str, bool] | None = None
        for plane in planes:
            if plane.side == balloon.side:
                continue
            check = check_from_basket(work.catalog, balloon, plane, planes)
            if check.ok and (best is None or (check.distance, plane.id) < best[:2]):
                best = (check.distance, plane.id, check.short)
        if best is not None:
            cards = fire.short_cards if best[2] else fire.long_cards
            shots.append(Shot(balloon.id, gun, best[1], cards, 0, False, best[2]))
    return shots

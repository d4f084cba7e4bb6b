"""The rookie: a stand-in player that is still random among legal programs but heads
roughly where his mission sends him (authored, for the bench and AI seats).

He draws a handful of random legal programs and flies the one whose three cards end
nearest his goal, keeping clear of the table's edge. Altitude, fire and the enemy's cards
are not foreseen: the point is a player who knows where to go, not one who plays well, so
that the win rates of the generated missions measure the missions rather than how often
blind programs happen to cross an objective.

Goals: an attacker carrying the mission's task (a two-seater with an observer on a recon
or photo mission, a plane with a bomb left, any gun on a balloon mission) makes for the
nearest objective still open, a bomber for where his bomb would land on it, a photo plane
for a stall over the site; with its picture taken it makes for its own end of the table.
A defender makes for the nearest enemy plane carrying a task, every other plane for the
nearest enemy plane, else an open objective. Near his task's objective the rookie weighs
many more programs: the run-in is where care pays, and a defender takes the same care
while a raider is on his run-in (else the raider's thousand draws met eight).

A defender also knows what the raiders are after: the objectives are his own and on the
board. He expects each raider to fly straight at the objective he carries his task for
(he cannot read his cards), and weighs every program by the damage cards he could deal
him on the way: a card ending with the raider's expected place in his gun's arc and reach
(a ruler, half a ruler one level apart, none further; not overlapping) counts as a shot,
a double one at short range. A raid has few turns before the bomb falls or the picture is
taken, so he weighs a thousand programs whenever a raider's way comes within his reach
this turn, not only on the run-in (seed E.III.a: the defender's goal is to protect the
objectives).

He sees the board as any player does, and no more: a program whose card ends a maneuver in
a net that would catch him (``nets.ahead``: the balloons' places and heights) or over a
hill or ridge he is not above (seed F.V) is thrown out as one leaving the table is. He
reads only public facts: where the planes and balloons stand and how high, the relief, his
own plane; never the enemy's orders (a balloon being winched down is seen once the winch
turns, not when it is ordered) or hands.
"""

from __future__ import annotations

import math
import random
from typing import NamedTuple

import engine.rulesets.wings.geometry as geo
import engine.rulesets.wings.nets as nets
import engine.rulesets.wings.relief as relief
import engine.rulesets.wings.zones as zones
from engine.rulesets.wings.catalog import Catalog
from engine.rulesets.wings.objectives import bomb_markers, can_observe
from engine.rulesets.wings.program import CARDS_PER_TURN, check_program, random_program
from engine.rulesets.wings.state import MissionState, Objective, PlaneState, Program

DRAWS = 8  # random programs the rookie weighs each turn (the illegal ones fall out)
RUN_IN = 8.0  # bw: about a turn's flight from his task's objective...
RUN_IN_DRAWS = 1000  # ...he weighs this many programs
RETRIES = 80  # draws at most when every program so far flies off the table
EDGE_MARGIN = 1.0  # bw: an end pose nearer the edge than this counts as flying off
SAFE_AHEAD = 5.0  # bw: room ahead he wants at the end of a turn
PHOTO_STALL = 1.0  # bw: how much a pass ending on a stall is worth over the photo site
CLIMB_BONUS = 1.5  # bw: how much a climb toward a balloon above is worth
SHOT_WORTH = 2.0  # bw: how much a damage card a defender could deal a raider is worth


class Raider(NamedTuple):
    """A raider as a defender reads him off the board: his level, and where he expects him
    after each card of the turn, flying straight at the objective he carries a task for."""

    level: int
    way: tuple[geo.Point, ...]


def goal(catalog: Catalog, mission: MissionState, plane: PlaneState) -> geo.Point | None:
    """Where the rookie wants to be at the end of his turn, or None for nowhere special."""
    width = mission.table[0]
    open_sites = [
        site
        for site in sorted(mission.objectives.values(), key=lambda o: o.id)
        if site.side != plane.side and not _achieved(site)
    ]
    photo = [
        site
        for site in mission.objectives.values()
        if site.kind == "photo" and site.done_by == plane.id
    ]
    if photo:
        return (-width if plane.side == "entente" else 2 * width, plane.y)  # home
    tasks = [site for site in open_sites if _carries_task(catalog, plane, site)]
    if tasks:
        return _nearest(plane, [(site.x, site.y) for site in tasks])
    enemies = [
        other
        for other in mission.planes.values()
        if other.side != plane.side and other.status == "flying"
    ]
    # A defender goes for the planes carrying the enemy's task first, where each will be
    # at the turn's end on his way to the objective.
    raiders = [raider.way[-1] for raider in _raiders(catalog, mission, plane)]
    if raiders:
        return _nearest(plane, raiders)
    if enemies:
        return _nearest(plane, [(other.x, other.y) for other in enemies])
    if open_sites:
        return _nearest(plane, [(site.x, site.y) for site in open_sites])
    return None


def rookie_program(
    catalog: Catalog,
    mission: MissionState,
    plane: PlaneState,
    stream: random.Random,
    draws: int = DRAWS,
) -> Program:
    """The legal program nearest his goal among ``draws`` random ones (many more on the
    run-in); if none is legal and keeps him on the table, among ``RETRIES`` more; failing
    that, any random legal program."""
    target = goal(catalog, mission, plane)
    if target is None:
        return random_program(catalog, plane, mission.rules, mission.turn, stream)
    site = _task_site(catalog, mission, plane)
    if site is not None and geo.distance((plane.x, plane.y), (site.x, site.y)) <= RUN_IN:
        draws = max(draws, RUN_IN_DRAWS)  # on the run-in he takes more care
    raiders = _raiders(catalog, mission, plane) if site is None else ()
    if _raid_on(catalog, mission, plane) or _within_reach(catalog, plane, raiders):
        draws = max(draws, RUN_IN_DRAWS)  # and so does the defender meeting it
    codes = catalog.maneuver_decks[catalog.planes[plane.type].deck].codes
    for batch in (draws, RETRIES):
        drawn = [tuple(stream.choice(codes) for _ in range(CARDS_PER_TURN)) for _ in range(batch)]
        # Scored first, checked after: the geometry is cheap, the legality check is not.
        ranked = sorted(
            (_score(catalog, mission, plane, cards, target, site, raiders), index, cards)
            for index, cards in enumerate(drawn)
        )
        for score, _, cards in ranked:
            if score == math.inf:
                break
            program = Program(cards=cards)
            if not check_program(catalog, plane, program, mission.rules, mission.turn):
                return program
    return random_program(catalog, plane, mission.rules, mission.turn, stream)


def _score(
    catalog: Catalog,
    mission: MissionState,
    plane: PlaneState,
    cards: tuple[str, ...],
    target: geo.Point,
    site: Objective | None,
    raiders: tuple[Raider, ...] = (),
) -> float:
    """The distance left to the goal after the three cards (the nearest pass counts most,
    the end pose a little, to keep on course), less the shots he could take at raiders on
    their way; off the table or into the ground is out."""
    plane_type = catalog.planes[plane.type]
    deck = catalog.maneuver_decks[plane_type.deck]
    width, height = mission.table
    x, y, heading = plane.x, plane.y, plane.heading
    nearest = math.inf
    climbs = 0
    size = catalog.base_size(plane_type)
    hazards = mission.nets or bool(mission.relief)
    shots = 0
    for step, (code, (level, counters)) in enumerate(
        zip(cards, _heights(catalog, mission, plane, cards), strict=True)
    ):
        card = deck.card(code)
        kind = card.kind if card is not None else ""
        climbs += kind == "climb"
        start = (x, y)
        x, y, heading = geo.apply_move(x, y, heading, catalog.move(plane_type, code))
        inside = (
            EDGE_MARGIN <= x <= width - EDGE_MARGIN and EDGE_MARGIN <= y <= height - EDGE_MARGIN
        )
        if level < 0 or not (inside or _home(mission, plane, target, x, y)):
            return math.inf
        if hazards and _struck(
            mission, plane, geo.rectangle(x, y, heading, *size), start, level, counters
        ):
            return math.inf
        gap = geo.distance((x, y), target)
        if site is not None and site.kind == "target" and level >= 1:
            # A bomber aims where his bomb would land, a few straights ahead.
            gap = geo.distance(_bomb_lands(catalog, plane, x, y, heading, level), target)
        if site is not None and site.kind == "photo":
            # A photograph is taken only after a stall with the base over the site.
            if kind != "stall":
                gap += PHOTO_STALL
            elif level <= 2 and _covers(catalog, plane, x, y, heading, site):
                gap = -PHOTO_STALL
        nearest = min(nearest, gap)
        if raiders:
            shots += _shot_at(catalog, plane, raiders, step, (x, y, heading), level)
    score = nearest - SHOT_WORTH * shots + 0.25 * geo.distance((x, y), target)
    if _on_table(mission, target):
        # Headed at a near edge, next turn has no way back: he sees that much.
        score += max(0.0, SAFE_AHEAD - _room_ahead(mission, x, y, heading))
    if site is not None and site.kind == "balloon" and plane.level < site.level and climbs:
        score -= CLIMB_BONUS  # guns reach a balloon only one level below it, at R/2
    return score


def _raiders(catalog: Catalog, mission: MissionState, plane: PlaneState) -> tuple[Raider, ...]:
    """The enemy planes carrying a task against his side's open objectives, each expected
    to fly a straight's length a card at the nearest of them (public: where they stand,
    their type, where his objectives are)."""
    own = [
        site
        for site in sorted(mission.objectives.values(), key=lambda o: o.id)
        if site.side == plane.side and not _achieved(site)
    ]
    raiders = []
    for other in sorted(mission.planes.values(), key=lambda p: p.id):
        if other.side == plane.side or other.status != "flying":
            continue
        sites = [(site.x, site.y) for site in own if _seen_carrying(catalog, other, site)]
        if not sites:
            continue
        aim = _nearest(other, sites)
        plane_type = catalog.planes[other.type]
        deck = catalog.maneuver_decks[plane_type.deck]
        straight = next(card.code for card in deck.cards if card.is_straight)
        length = catalog.move(plane_type, straight).dx
        gap = geo.distance((other.x, other.y), aim)
        way = []
        for card in range(1, CARDS_PER_TURN + 1):
            part = min(1.0, card * length / gap) if gap > geo.EPS else 1.0
            way.append((other.x + part * (aim[0] - other.x), other.y + part * (aim[1] - other.y)))
        raiders.append(Raider(level=other.level, way=tuple(way)))
    return tuple(raiders)


def _within_reach(catalog: Catalog, plane: PlaneState, raiders: tuple[Raider, ...]) -> bool:
    """Whether a raider's way this turn passes within his guns' reach of somewhere his
    straights could take him by then: a shot this turn is possible, so care pays."""
    plane_type = catalog.planes[plane.type]
    deck = catalog.maneuver_decks[plane_type.deck]
    straight = next(card.code for card in deck.cards if card.is_straight)
    length = catalog.move(plane_type, straight).dx
    ruler = catalog.rules.units.ruler
    return any(
        geo.distance((plane.x, plane.y), spot) <= (step + 1) * length + ruler
        for raider in raiders
        for step, spot in enumerate(raider.way)
    )


def _shot_at(
    catalog: Catalog,
    plane: PlaneState,
    raiders: tuple[Raider, ...],
    step: int,
    pose: tuple[float, float, float],
    level: int,
) -> int:
    """The damage cards his best shot could deal after card ``step`` ending on ``pose``,
    at a raider where he expects him then (seed A.II.a: one card at long range, two at
    short; A.III: a ruler's reach at the same level, half a ruler one level apart)."""
    plane_type = catalog.planes[plane.type]
    ruler = catalog.rules.units.ruler
    fire = catalog.rules.fire
    clear = max(catalog.base_size(plane_type))  # nearer, the bases overlap: no fire
    x, y, heading = pose
    best = 0
    for raider in raiders:
        apart = abs(raider.level - level)
        if apart >= 2:
            continue
        reach = ruler if apart == 0 else ruler / 2
        gap = geo.distance((x, y), raider.way[step])
        if not clear <= gap <= reach:
            continue
        bearing = math.degrees(math.atan2(raider.way[step][1] - y, raider.way[step][0] - x))
        if any(
            gun.turret or abs(geo.normalise(bearing - heading - gun.axis)) <= gun.half_angle
            for gun in plane_type.guns
        ):
            best = max(best, fire.short_cards if gap <= reach / 2 else fire.long_cards)
    return best


def _raid_on(catalog: Catalog, mission: MissionState, plane: PlaneState) -> bool:
    """Whether an enemy plane carrying a task is on its run-in at one of his side's open
    objectives: the defender weighs as many programs there as the raider does."""
    return any(
        geo.distance((other.x, other.y), (site.x, site.y)) <= RUN_IN
        for other in mission.planes.values()
        if other.side != plane.side and other.status == "flying"
        for site in mission.objectives.values()
        if site.side == plane.side and not _achieved(site) and _seen_carrying(catalog, other, site)
    )


def _heights(
    catalog: Catalog, mission: MissionState, plane: PlaneState, cards: tuple[str, ...]
) -> list[tuple[int, int]]:
    """His level and climb counters after each card, as the turn will count them (seed
    A.III: one counter a turn at most, a level at the plane's climb value, none past the
    game ceiling; a dive loses a level). A spin or a two-turn maneuver's step is not foreseen."""
    plane_type = catalog.planes[plane.type]
    deck = catalog.maneuver_decks[plane_type.deck]
    cap = catalog.rules.altitude.cap
    if mission.rules.real_ceiling:
        cap = dict(catalog.rules.altitude.floors).get(mission.floor, cap)
    top = min(cap, plane_type.ceiling)
    level, counters = plane.level, plane.counters
    climbed = plane.climbed_turn == mission.turn
    heights = []
    for code in cards:
        card = deck.card(code)
        kind = card.kind if card is not None else ""
        if kind in ("climb", "immelmann") and not climbed:
            climbed = True
            counters += 1
            if counters >= plane_type.climb:
                level, counters = (level, plane_type.climb - 1) if level >= top else (level + 1, 0)
        if kind == "dive":
            level, counters = level - 1, 1 if level == 1 else 0
        heights.append((level, counters))
    return heights


def _struck(
    mission: MissionState,
    plane: PlaneState,
    base: geo.Polygon,
    start: geo.Point,
    level: int,
    counters: int,
) -> bool:
    """Whether a maneuver from ``start`` ending on ``base`` at this height meets a net that
    would catch him, or a relief he is not above (what the board shows)."""
    if nets.ahead(mission, plane.side, base, start, (level, counters)) > geo.EPS:
        return True
    zone = relief.floor_under(mission.relief, base)
    return zone is not None and not relief.above(level, counters, zone.floor)


def _task_site(catalog: Catalog, mission: MissionState, plane: PlaneState) -> Objective | None:
    sites = [
        site
        for site in sorted(mission.objectives.values(), key=lambda o: o.id)
        if site.side != plane.side and not _achieved(site) and _carries_task(catalog, plane, site)
    ]
    return sites[0] if sites else None


def _bomb_lands(
    catalog: Catalog, plane: PlaneState, x: float, y: float, heading: float, level: int
) -> geo.Point:
    plane_type = catalog.planes[plane.type]
    deck = catalog.maneuver_decks[plane_type.deck]
    straight = next(card.code for card in deck.cards if card.is_straight)
    move = catalog.move(plane_type, straight)
    for _ in range(1 + bomb_markers(catalog, level)):
        x, y, heading = geo.apply_move(x, y, heading, move)
    return (x, y)


def _covers(
    catalog: Catalog, plane: PlaneState, x: float, y: float, heading: float, site: Objective
) -> bool:
    width, length = catalog.base_size(catalog.planes[plane.type])
    return geo.point_in_convex((site.x, site.y), geo.rectangle(x, y, heading, width, length))


def _room_ahead(mission: MissionState, x: float, y: float, heading: float) -> float:
    """How far the plane can fly straight on before it leaves the table."""
    width, height = mission.table
    rad = math.radians(heading)
    dx, dy = math.cos(rad), math.sin(rad)
    room = math.inf
    if dx > 1e-9:
        room = min(room, (width - x) / dx)
    elif dx < -1e-9:
        room = min(room, -x / dx)
    if dy > 1e-9:
        room = min(room, (height - y) / dy)
    elif dy < -1e-9:
        room = min(room, -y / dy)
    return room


def _home(mission: MissionState, plane: PlaneState, target: geo.Point, x: float, y: float) -> bool:
    """Off the table over his own zone with home as his goal: back to base."""
    own = zones.in_own_zone(mission, plane.side, x)
    return own and not _on_table(mission, target)


def _on_table(mission: MissionState, target: geo.Point) -> bool:
    """A goal off the table is home: flying off the table's end is then the point."""
    width, height = mission.table
    return 0 <= target[0] <= width and 0 <= target[1] <= height


def _seen_carrying(catalog: Catalog, other: PlaneState, site: Objective) -> bool:
    """Whether an enemy plane may carry a task against ``site``, as the board shows it: a
    two-seater for a recon or a photograph (whether its observer is hurt is the enemy's
    secret), bombs under the wings for a target, any gun for a balloon."""
    if site.kind in ("recon", "photo"):
        return catalog.planes[other.type].two_seater
    return _carries_task(catalog, other, site)


def _carries_task(catalog: Catalog, plane: PlaneState, site: Objective) -> bool:
    if site.kind in ("recon", "photo"):
        return can_observe(catalog, plane)
    if site.kind == "target":
        return plane.bombs > 0
    return site.kind in ("balloon", "post")  # a post to strafe: any gun


def _achieved(site: Objective) -> bool:
    if site.kind in ("recon", "photo"):
        return site.done_by is not None
    # A balloon down on its winch (seed A.IV.i.3) is out of reach: no use chasing it.
    return site.destroyed or site.hauled_down or (site.kind == "balloon" and site.fire > 0)


def _nearest(plane: PlaneState, points: list[geo.Point]) -> geo.Point:
    return min(points, key=lambda p: (geo.distance((plane.x, plane.y), p), p))

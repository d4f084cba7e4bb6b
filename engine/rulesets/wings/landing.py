"""Landing, takeoff and the rescue mission (seed B.I, E.I.a, E.III.a, B.VIII).

A rescue brings home a pilot of the active squadron who came down in no-man's-land
(``missing``) or was taken (``captured``): a two-seater flying without its observer lands
within 1 R of him, stays on the ground one full turn, takes off and gets back to base.

Authored choices (docs/wings-data.md): a landing and a takeoff are declared as a whole
program, ``LD S S ST`` (land) and ``TO ST S S`` (take off), so a hedge-hopping plane
never lands by accident; a plane on the ground programs ``GD ST ST ST`` (it waits). The
field within 1 R of the pilot to rescue counts as a strip, and so does each side's own
airfield, a strip laid along the middle of its table edge (any plane at level 0 with one
counter may land there, in any mission); landing or taking off anywhere else costs 2 B
cards (seed B.I.a, B.I.b). A plane on the ground takes no part in the air fight. One still on
the ground when the mission ends is lost; its pilot is captured in enemy territory,
missing in no-man's-land.

A seriously wounded pilot (0-2 life points, seed D.V) must get down: he has the two full
turns after the one in which he took his last wound (J 3, B.VIII's figure over D.V's three)
to land, anywhere; still in the air at the end of the second, his plane goes down by the
crash procedure (B.VIII, or the pilot's death with that rule off). Once down he stays on
the ground, and his side counts him out of the fight. Leaving the table is flying home.
"""

from __future__ import annotations

import engine.rulesets.wings.clouds as clouds
import engine.rulesets.wings.geometry as geo
from engine.rulesets.wings.catalog import Catalog, ManeuverDeck
from engine.rulesets.wings.objectives import returned
from engine.rulesets.wings.pilots import state_from_lp
from engine.rulesets.wings.state import MissionState, Objective, Pilot, PlaneState, Program
from engine.rulesets.wings.work import Turn

# Short codes, like the cards' (and the same in every language): land, take off, on the ground.
LAND, TAKE_OFF, GROUND = "LD", "TO", "GD"
GROUND_MANEUVERS = (LAND, TAKE_OFF, GROUND)
# Seed B.I: straight, straight (on the ground), stall; takeoff stall, straight, straight.
SHAPES = {LAND: ("S", "S", "ST"), TAKE_OFF: ("ST", "S", "S"), GROUND: ("ST", "ST", "ST")}
OFF_STRIP_CARDS = ("B", 2)  # seed B.I.a, B.I.b: a landing or takeoff off a strip
# Authored: a side's airfield strip, laid along the middle of its own table edge, depth from
# the edge and length along it in base-widths: the 9 x 27 cm WW2 strip (wings-authored-data
# 3.2) at 4.5 cm a base-width, well inside the side's own quarter of the table.
AIRFIELD = (2.0, 6.0)


def on_airfield(mission: MissionState, plane: PlaneState) -> bool:
    """The plane's centre lies on its own side's airfield strip."""
    width, height = mission.table
    depth, length = AIRFIELD
    edge = plane.x if plane.side == "entente" else width - plane.x
    return 0 <= edge <= depth + geo.EPS and abs(plane.y - height / 2) <= length / 2 + geo.EPS


def lands_home(catalog: Catalog, mission: MissionState, plane: PlaneState) -> bool:
    """A landing flown from here would stop on the plane's own airfield: the menu offers
    it then (outside a rescue a landing anywhere else is only a wreck in waiting)."""
    if not may_land(plane):
        return False
    deck = catalog.maneuver_decks[catalog.planes[plane.type].deck]
    width, height = mission.table
    x, y, heading = plane.x, plane.y, plane.heading
    for code in cards_of(deck, LAND):
        move = catalog.move(catalog.planes[plane.type], code)
        x, y, heading = geo.apply_move(x, y, heading, move)
        if not (0 <= x <= width and 0 <= y <= height):
            return False  # it would leave the table before it stops
    return on_airfield(mission, plane.model_copy(update={"x": x, "y": y}))


def _stall(deck: ManeuverDeck) -> str:
    return "ST" if "ST" in deck.codes else "SS"


def _straight(deck: ManeuverDeck) -> str:
    return next(card.code for card in deck.cards if card.is_straight)


def cards_of(deck: ManeuverDeck, maneuver: str) -> tuple[str, ...]:
    """A ground maneuver's cards in this deck's codes."""
    codes = {"S": _straight(deck), "ST": _stall(deck)}
    return tuple(codes[part] for part in SHAPES[maneuver])


def may_land(plane: PlaneState) -> bool:
    """Seed B.I.a: level 0 with exactly one climb counter."""
    return plane.status == "flying" and plane.level == 0 and plane.counters == 1


def seriously_wounded(catalog: Catalog, plane: PlaneState) -> bool:
    return state_from_lp(catalog, plane.pilot_lp) == "seriously_wounded"


def grounded(catalog: Catalog, plane: PlaneState) -> bool:
    """On the ground for good: a seriously wounded pilot does not take off again."""
    return plane.status == "landed" and seriously_wounded(catalog, plane)


def must_land(catalog: Catalog, plane: PlaneState) -> bool:
    """Flying with the clock running on a seriously wounded pilot: any landing serves."""
    return plane.status == "flying" and plane.land_by is not None


def may_take_off(plane: PlaneState, turn: int) -> bool:
    """Seed E.I.a: a full turn on the ground first (landed in turn T, off in T + 2)."""
    return (
        plane.status == "landed"
        and plane.landed_turn is not None
        and turn >= (plane.landed_turn + 2)
    )


def check(catalog: Catalog, plane: PlaneState, program: Program, turn: int) -> list[str] | None:
    """Reasons a ground program (or any program of a landed plane) is refused; ``None``
    when the program is no business of this module."""
    if program.maneuver not in GROUND_MANEUVERS and plane.status != "landed":
        return None
    deck = catalog.maneuver_decks[catalog.planes[plane.type].deck]
    if program.maneuver not in GROUND_MANEUVERS:
        return ["on-the-ground"]
    if program.cards != cards_of(deck, program.maneuver):
        return ["sequence-mismatch"]
    if program.maneuver == LAND and not may_land(plane):
        return ["landing-needs-level-0"]
    if program.maneuver == TAKE_OFF and grounded(catalog, plane):
        return ["seriously-wounded"]
    if program.maneuver == TAKE_OFF and not may_take_off(plane, turn):
        return ["needs-a-turn-on-the-ground" if plane.status == "landed" else "not-on-the-ground"]
    if program.maneuver == GROUND and plane.status != "landed":
        return ["not-on-the-ground"]
    return []


def programs(catalog: Catalog, plane: PlaneState, turn: int) -> list[Program]:
    """The ground programs open to this plane this turn (landing, waiting, taking off)."""
    deck = catalog.maneuver_decks[catalog.planes[plane.type].deck]
    result = []
    for maneuver in (GROUND, TAKE_OFF, LAND):
        program = Program(cards=cards_of(deck, maneuver), maneuver=maneuver)
        if check(catalog, plane, program, turn) == []:
            result.append(program)
    return result


def site_near(catalog: Catalog, mission: MissionState, plane: PlaneState) -> Objective | None:
    """The enemy-held rescue site within 1 R of the plane (seed E.I.a), if any."""
    ruler = catalog.rules.units.ruler
    for site in sorted(mission.objectives.values(), key=lambda o: o.id):
        if site.kind != "rescue" or site.side == plane.side or site.done_by is not None:
            continue
        if geo.distance((plane.x, plane.y), (site.x, site.y)) <= ruler + geo.EPS:
            return site
    return None


def rescuable(pilot: Pilot) -> bool:
    """Seed B.VIII and D.IV: only a rescue brings back a pilot missing in no-man's-land or
    (besides an exchange) a captured one."""
    return pilot.state in ("missing", "captured")


def rescue_layout(catalog: Catalog, pilots: list[Pilot], mission: MissionState) -> MissionState:
    """The rescue site holds the first pilot waiting (a missing one before a captured one):
    a missing pilot lies a quarter ruler on the no-man's-land side of the enemy border, a
    captured one as far inside it (authored, within seed E.I.b's R/2 of the border). The
    active side's two-seaters fly without their observer, whose seat is for him (seed
    E.I.a); an empty seat fires no rear gun."""
    waiting = sorted(
        (p for p in pilots if p.side == mission.active and rescuable(p)),
        key=lambda p: (p.state != "missing", p.id),
    )
    if not waiting or not mission.objectives:
        return mission
    person = waiting[0]
    oid, site = sorted(mission.objectives.items())[0]
    if person.state == "missing":
        width = mission.table[0]
        border = width * 3 / 4 if site.side == "central" else width / 4
        site = site.model_copy(update={"x": border - (site.x - border)})
    planes = {
        pid: plane.model_copy(update={"observer_lp": -1})
        if plane.side == mission.active and catalog.planes[plane.type].two_seater
        else plane
        for pid, plane in mission.planes.items()
    }
    site = site.model_copy(update={"person": person.id})
    return mission.model_copy(update={"objectives": {oid: site}, "planes": planes})


def rescued(mission: MissionState) -> list[str]:
    """Pilots a rescue brought back: the plane that took him aboard got home."""
    people = []
    for site in sorted(mission.objectives.values(), key=lambda o: o.id):
        carrier = mission.planes.get(site.done_by or "")
        if site.kind == "rescue" and site.person and carrier and returned(mission, carrier):
            people.append(site.person)
    return people


def brought_home(catalog: Catalog, pilot: Pilot) -> Pilot:
    """A rescued pilot is back with the state his life points give (seed D.V), resting as
    a freshly hurt pilot does (seed D.IV)."""
    state = state_from_lp(catalog, pilot.lp)
    rest = {"seriously_wounded": 2, "wounded": 1}.get(state, 0)
    return pilot.model_copy(update={"state": state, "rest": rest})


# --- during the turn (called by ``turn``) ------------------------------------


def take_off(work: Turn, programs: dict[str, Program]) -> None:
    """Before the first maneuver: a plane taking off is back on the move, at level 0 with
    no counter until its third card; by a rescue site it has the pilot aboard."""
    for pid in work.ids():
        plane = work.planes[pid]
        program = programs.get(pid)
        if plane.status != "landed" or program is None or program.maneuver != TAKE_OFF:
            continue
        changes: dict[str, object] = {"status": "flying", "level": 0, "counters": 0}
        # Seed B.I.b: off a strip (the field by a rescued pilot or the own airfield).
        mission = work.mission.model_copy(update={"objectives": work.objectives})
        rough = plane.landed_at is None and not on_airfield(mission, plane)
        site = work.objectives.get(plane.landed_at or "")
        if site is not None and site.done_by is None:
            # Seed E.I.a: landed within 1 R and stayed a full turn: the pilot is aboard.
            changes["carrying"] = site.id
            work.objectives[site.id] = site.model_copy(update={"done_by": pid})
            work.event("rescue-aboard", plane=pid, objective=site.id)
        work.update(pid, landed_turn=None, landed_at=None, **changes)
        work.event("took-off-rough" if rough else "took-off", plane=pid)
        if rough:
            # The points count and the specials as drawn, as for a rough landing; the run
            # is on the ground, so a plane wrecked by them goes down from level 0.
            letter, count = OFF_STRIP_CARDS
            for _ in range(count):
                _, card = work.draw(letter, pid)
                work.apply_card(pid, card, None, None)


def after_move(work: Turn, programs: dict[str, Program]) -> None:
    """After a phase's moves: a landing plane touches down on its second card and stops
    with its stall; a plane taking off is airborne after its third card (seed B.I)."""
    for plane in work.flying():
        maneuver = programs[plane.id].maneuver if plane.id in programs else None
        if maneuver == TAKE_OFF and work.phase == 3:
            work.update(plane.id, counters=1)  # seed B.I.b: level 0 with one counter
        if maneuver != LAND or work.phase < 2:
            continue
        if work.phase == 2:
            work.update(plane.id, counters=0)  # rolling on the ground
            continue
        mission = work.mission.model_copy(update={"objectives": work.objectives})
        site = site_near(work.catalog, mission, plane)
        home = site is None and on_airfield(mission, plane)
        if site is None and not home:
            # Seed B.I.a: off a strip, 2 B cards; the points count, specials as drawn.
            letter, count = OFF_STRIP_CARDS
            for _ in range(count):
                _, card = work.draw(letter, plane.id)
                work.apply_card(plane.id, card, None, None)
        if work.planes[plane.id].status != "flying":
            continue  # the rough landing wrecked it
        work.update(plane.id, status="landed", landed_turn=work.turn, landed_at=site and site.id)
        if home:
            work.event("landed-home", plane=plane.id)
        else:
            work.event("landed", plane=plane.id, objective=site and site.id)


def landing_window(work: Turn) -> None:
    """At a turn's end (seed D.V, B.VIII, J 3): a pilot whose wounds this turn left him
    seriously wounded is told how long he has; one whose window has run out goes down."""
    window = work.catalog.rules.pilot.landing_window
    for plane in work.aloft():
        if not seriously_wounded(work.catalog, plane):
            continue
        if plane.pilot_lp < work.lp_at_start.get(plane.id, plane.pilot_lp):
            # "The turns after the turn in which the last wound was taken": a new wound
            # restarts the count.
            until = work.turn + window
            work.update(plane.id, land_by=until)
            work.event("must-land", secret_for=plane.side, plane=plane.id, turn_limit=until)
        elif plane.land_by is not None and work.turn >= plane.land_by:
            if plane.in_cloud:
                clouds.emerge(work, plane.id)  # he goes down where he really is
                if work.planes[plane.id].status != "flying":
                    continue  # ...which was off the table: he got away
            work.event("forced-down", plane=plane.id)
            work.shoot_down(plane.id, "crashed", plane.last_hit_by)


def stranded(work: Turn) -> None:
    """At the mission's end a plane still on the ground is lost where it stands; its pilot
    is captured in enemy territory, missing in no-man's-land, home on his own side."""
    for pid in work.ids():
        plane = work.planes[pid]
        if plane.status != "landed":
            continue
        zone = work.zone(plane.side, plane.x)
        if zone == "friendly":
            work.update(pid, status="left")  # authored: on its own side it is home
        else:
            work.update(pid, status="crashed", crash_zone=zone)
        work.event("stranded", plane=pid, zone=zone)

"""Balloon cables and nets (seed A.IV.i.1-2), collisions with a balloon (A.IV.i) and Le
Prieur rockets (seed A.IV.j), which may also hit ground targets (rocket_targets).

Rockets: a fighter may carry two batches of three (1 MP, seed E.II.b). A rocket attack is
declared with the program, ``LP S S S``: its first two cards must each be a straight,
a dive or a stall, the plane's guns stay silent for them, and after the second, if the
plane took no special damage meanwhile and an enemy balloon is in a legal firing position
(range, arc, nothing in the way) at its level or one below, both batches go and the
balloon takes a D card for each. Otherwise the rockets stay aboard. Authored: both batches
are always fired together, at the nearest balloon, else at the nearest ground target.

Cables: a plane cannot pass right under a balloon. At the end of a maneuver, a plane lower
than a balloon whose card it (almost) covers takes collision damage, 2 A cards; the balloon
takes nothing. Authored reading of "entirely or almost so": the plane's centre lies on the
balloon's card.

Collision: at the end of a maneuver, a plane whose base lies more than a third on a
balloon's card, at the balloon's level and, like it, with or without climb counters, runs
into it: each takes a C card. Authored, as collisions between planes (B.III): the plane's
card counts its points and an explosion only; the balloon's its points, fire and explosion
(A.IV.i, as any damage it takes).

Nets (a mission switch): a barrage net runs along the line of the balloons from one table
edge to the other, in sections between neighbouring balloons and from the outer ones to
the edges. A section hangs while its balloons fly, as high as the lower of them (level, then
counters); a plane no higher than a section that ends a maneuver with more than a third of
its base past it (from the side it started on) is destroyed; one that touches it with less
takes 2 A cards, and is destroyed if it still touches it after the next maneuver. Authored:
the balloons stand in a line across the table (as the generator lays them), and the section
is the one the plane's centre is beside; the net catches the enemy's planes only (the owner's
pilots deploy and enter behind it: caught, every one of them died crossing it on turn 1).
"""

from __future__ import annotations

from collections.abc import Iterator

import engine.rulesets.wings.geometry as geo
import engine.rulesets.wings.rocket_targets as rocket_targets
from engine.rulesets.wings.catalog import Catalog, Gun
from engine.rulesets.wings.fire import base_polygon, check_at_ground, ground_polygon
from engine.rulesets.wings.state import Objective, PlaneState, Program
from engine.rulesets.wings.work import Turn

CABLE_CARDS = ("A", 2)  # seed A.IV.i.1: collision damage
COLLISION_DECK = "C"  # seed A.IV.i: a plane and a balloon that collide take a C card each
COLLISION_SHARE = 1 / 3  # seed A.IV.i: "clearly", more than a third of the plane's base
NET_CARDS = ("A", 2)  # seed A.IV.i.2: touching a net is a collision
NET_SHARE = 1 / 3  # seed A.IV.i.2: more than a third of the card past the net destroys it
ROCKETS = "LP"  # Le Prieur: a short code, like the cards', the same in every language
ROCKET_DECK = "D"  # seed 0: D cards are rocket damage
ROCKET_CARDS = ("straight", "dive", "stall")  # seed A.IV.j.1


def _live_balloons(work: Turn) -> list[Objective]:
    """The balloons still up, in id order (the order their effects are drawn in)."""
    return [
        b
        for b in sorted(work.objectives.values(), key=lambda o: o.id)
        if b.kind == "balloon" and not b.destroyed and not b.hauled_down
    ]


def _under_balloons(work: Turn) -> Iterator[tuple[PlaneState, Objective]]:
    """Each flying plane with each balloon still up, planes first (as the turn has them)."""
    balloons = _live_balloons(work)
    if not balloons:
        return
    for plane in work.flying():
        for balloon in balloons:
            yield plane, balloon


def _take_cards(work: Turn, pid: str, cards: tuple[str, int]) -> None:
    """The (letter, count) damage cards a cable or a net deals, while the plane still flies."""
    letter, count = cards
    for _ in range(count):
        if work.planes[pid].status != "flying":
            break
        _, damage = work.draw(letter, pid)
        work.apply_card(pid, damage, None, None)


def cables(work: Turn) -> None:
    for plane, balloon in _under_balloons(work):
        if (plane.level, plane.counters) >= (balloon.level, balloon.counters):
            continue
        card = ground_polygon(work.catalog, balloon.x, balloon.y)
        if not geo.point_in_convex((plane.x, plane.y), card):
            continue
        work.event("balloon-cables", plane=plane.id, objective=balloon.id)
        _take_cards(work, plane.id, CABLE_CARDS)


def collisions(work: Turn) -> None:
    for plane, balloon in _under_balloons(work):
        if work.objectives[balloon.id].destroyed or work.planes[plane.id].status != "flying":
            continue
        if plane.level != balloon.level or (plane.counters > 0) != (balloon.counters > 0):
            continue
        base = base_polygon(work.catalog, plane)
        card = ground_polygon(work.catalog, balloon.x, balloon.y)
        if not geo.overlaps(base, card):
            continue
        if geo.overlap_area(base, card) <= COLLISION_SHARE * geo.area(base):
            continue
        work.event("balloon-collision", plane=plane.id, objective=balloon.id)
        _, damage = work.draw(COLLISION_DECK, plane.id)
        if damage.special == "explosion":
            work.shoot_down(plane.id, "exploded", None)
        else:
            work.add_damage(plane.id, damage.value, None)
        _, hit = work.draw(COLLISION_DECK, None)
        work.damage_balloon(balloon.id, hit.value, hit.special, plane.id)


def net_height(work: Turn, y: float) -> tuple[int, int] | None:
    """The height (level, counters) of the net section beside ``y``; None where no net
    hangs (no nets, or a balloon of the section down)."""
    line = sorted(
        (b for b in work.objectives.values() if b.kind == "balloon"), key=lambda b: (b.y, b.id)
    )
    if not work.mission.nets or len(line) < 2:
        return None
    after = next((i for i, b in enumerate(line) if b.y > y), len(line))
    framing = line[max(after - 1, 0) : after + 1]
    if any(b.destroyed or b.hauled_down for b in framing):
        return None
    return min((b.level, b.counters) for b in framing)


def nets(work: Turn, starts: dict[str, tuple[float, float]]) -> None:
    line = [b for b in work.objectives.values() if b.kind == "balloon"]
    if not work.mission.nets or len(line) < 2:
        return
    net_x = sum(b.x for b in line) / len(line)
    for plane in work.flying():
        start = starts.get(plane.id)
        height = net_height(work, plane.y)
        # Authored: a side's own pilots fly the lanes they know through its nets (they
        # deploy and come in behind them); only the enemy's planes are caught.
        own = plane.side == line[0].side
        if own or start is None or height is None or (plane.level, plane.counters) > height:
            work.update(plane.id, net_contact=False)
            continue
        base = base_polygon(work.catalog, plane)
        came_from = 1.0 if start[0] >= net_x else -1.0
        beyond = geo.clip_half_plane(base, (net_x, 0.0), (-came_from, 0.0))
        share = geo.area(beyond) / geo.area(base) if beyond else 0.0
        caught_in_net(work, plane, share)


def caught_in_net(work: Turn, plane: PlaneState, share: float) -> None:
    """Seed A.IV.i.2, whatever the net's shape: ``share`` of the plane's base past it. More
    than a third, or still touching after the last maneuver, destroys it; less costs 2 A
    cards and leaves it touching."""
    if share <= geo.EPS:
        work.update(plane.id, net_contact=False)
        return
    if share > NET_SHARE or plane.net_contact:
        work.event("net-crash", plane=plane.id)
        work.shoot_down(plane.id, "shot_down", None)
        return
    work.event("net-contact", plane=plane.id)
    _take_cards(work, plane.id, NET_CARDS)
    if work.planes[plane.id].status == "flying":
        work.update(plane.id, net_contact=True)


# --- Le Prieur rockets (seed A.IV.j) -----------------------------------------------------


def rocket_refusals(catalog: Catalog, plane: PlaneState, program: Program) -> list[str]:
    """Why a declared rocket attack cannot be flown (empty when it can)."""
    if plane.rockets <= 0:
        return ["no-rockets"]
    deck = catalog.maneuver_decks[catalog.planes[plane.type].deck]
    for code in program.cards[:2]:
        card = deck.card(code)
        if card is None or card.kind not in ROCKET_CARDS:
            return ["rockets-need-straight-dive-or-stall"]
    return []


def rocket_programs(catalog: Catalog, plane: PlaneState) -> list[Program]:
    """Rocket attacks to offer (the seam checks each against the usual card rules)."""
    if plane.rockets <= 0:
        return []
    deck = catalog.maneuver_decks[catalog.planes[plane.type].deck]
    straight = next(card.code for card in deck.cards if card.is_straight)
    others = [card.code for card in deck.cards if card.kind in ("stall", "dive")]
    shapes = [(straight, straight, straight), *((c, straight, straight) for c in others)]
    shapes += [(straight, straight, code) for code in others if code == "ST"]  # a stall owed
    return [Program(cards=cards, maneuver=ROCKETS) for cards in shapes]


def arm_rockets(work: Turn, programs: dict[str, Program]) -> None:
    """Note the planes starting a rocket attack, and the specials they had then."""
    work.rocket_runs = {
        pid: len(work.planes[pid].specials)
        for pid, program in sorted(programs.items())
        if program.maneuver == ROCKETS
        and work.planes[pid].status == "flying"
        and work.planes[pid].rockets > 0
    }


def fire_rockets(work: Turn) -> None:
    """After the second maneuver's moves: the attacks that are still legal go off."""
    flying = work.flying()
    for pid, specials in sorted(work.rocket_runs.items()):
        plane = work.planes[pid]
        if plane.status != "flying":
            continue
        target = None if len(plane.specials) > specials else _rocket_target(work, plane, flying)
        if target is None:
            work.event("rockets-held", secret_for=plane.side, plane=pid)
            continue
        batches = plane.rockets
        work.update(pid, rockets=0)
        if target not in work.objectives or work.objectives[target].kind != "balloon":
            cards = [work.draw(ROCKET_DECK, None)[1] for _ in range(batches)]
            rocket_targets.hit(work, pid, target, cards)
            continue
        work.event("rockets-fired", plane=pid, objective=target, batches=batches)
        for _ in range(batches):
            if work.objectives[target].destroyed:
                break
            _, card = work.draw(ROCKET_DECK, None)
            work.damage_balloon(target, card.value, card.special, pid)


def _rocket_target(work: Turn, plane: PlaneState, flying: list[PlaneState]) -> str | None:
    guns = work.catalog.planes[plane.type].guns
    front = next((gun for gun in guns if gun.crew == "pilot"), None)
    if front is None:
        return None
    rail = front.model_copy(update={"name": ROCKETS, "deck": ROCKET_DECK})
    balloon = _balloon_target(work, plane, rail, flying)
    # Balloons first; else a ground target (rocket_targets).
    return balloon or rocket_targets.ground_target(work, plane, rail, flying)


def _balloon_target(
    work: Turn, plane: PlaneState, rail: Gun, flying: list[PlaneState]
) -> str | None:
    best: tuple[float, str] | None = None
    for balloon in sorted(work.objectives.values(), key=lambda o: o.id):
        if balloon.kind != "balloon" or balloon.destroyed or balloon.side == plane.side:
            continue
        if balloon.hauled_down:
            continue  # seed A.IV.i.3: on the ground, out of the fight
        if not 0 <= plane.level - balloon.level <= 1:
            continue  # seed A.IV.j.2: at the balloon's level or one above
        check = check_at_ground(
            work.catalog, plane, rail, balloon.x, balloon.y, flying, level=balloon.level
        )
        if check.ok and (best is None or (check.distance, balloon.id) < best):
            best = (check.distance, balloon.id)
    return best[1] if best else None

"""Cloud cover (seed B.V, a scenario switch the players agree on).

The cover is a layer, the level just above the game ceiling (4 with the floor at 0, then
6, 8, 11, 14 as the floor moves up: the seed's table). There is no hidden map: what is
hidden is where a plane in the clouds has gone. A plane that climbs past the game ceiling,
its own ceiling allowing, enters the layer instead of over-climbing: its base stays where
it went in, the rest of its turn's cards and every later program are written down instead
of flown, and it takes no part in firing, collisions, tailing or anything else on the
table. A program with a dive card or a Split-S brings it out: before the turn's first card
is shown, every card written down is flown (moves only: inside the layer it neither climbs
nor sinks) and shown to all, then the turn runs as usual from the cloud level.

Secrecy: the cards written down (``cloud_cards``) are the plane's side's secret until it
comes out; so is the last of them, which the next program's legality depends on. The
programs of a plane in the clouds, or at their edge (one climb counter short of going in
during the turn and writing down its last cards), reach the seam as sealed tokens
(``engine.rulesets.wings``) under the plane's secret salt (``cloud_salt``), so the
end-of-turn opening of the orders shows nothing either; the cards a plane flies on the
table are shown as it flies them.

Authored: the layer follows the floor's row at the moment of entry and a plane stays in
it whatever the floor does later; a seriously wounded pilot whose window runs out in the
clouds comes out before he goes down; the mission's end brings every plane out so the
last board is true.
"""

from __future__ import annotations

import engine.rulesets.wings.ceiling as ceiling
import engine.rulesets.wings.exits as exits
import engine.rulesets.wings.geometry as geo
from engine.rulesets.wings.catalog import Catalog
from engine.rulesets.wings.state import PlaneState, Program
from engine.rulesets.wings.work import Turn

SPLIT_S = "split_s"  # seed B.V: a Split-S or a dive takes a plane out of the cover


def may_enter(work: Turn, plane: PlaneState, level: int) -> bool:
    """A climb from the game ceiling goes into the layer when the plane can fly that high."""
    if not work.mission.rules.cloud_cover:
        return False
    top = ceiling.game_ceiling(work)
    return level == top and work.catalog.planes[plane.type].ceiling > top


def _salt(work: Turn, pid: str) -> str:
    return f"{work.rng.stream(f'cloud:{work.where()}:{pid}').getrandbits(64):016x}"


def enter(work: Turn, pid: str, program: Program, level: int) -> None:
    """Into the layer at the end of this card: the rest of the program is written down, and
    whoever had it in their sights (or on their tail) loses it (seed B.V)."""
    work.update(
        pid,
        in_cloud=True,
        cloud_cards=tuple(program.cards[work.phase :]),
        cloud_salt=work.planes[pid].cloud_salt or _salt(work, pid),
        aim={},
        spin=False,
    )
    for other in work.ids():
        aims = work.planes[other].aim
        if pid in aims.values():
            kept = {gun: target for gun, target in aims.items() if target != pid}
            work.update(other, aim=kept)
    work.event("entered-clouds", plane=pid, level=level)


def comes_out(catalog: Catalog, plane: PlaneState, program: Program) -> bool:
    """Seed B.V: a program with a dive card or a Split-S leaves the cover."""
    if program.maneuver == SPLIT_S:
        return True
    deck = catalog.maneuver_decks[catalog.planes[plane.type].deck]
    cards = [deck.card(code) for code in program.cards]
    return any(card is not None and card.kind == "dive" for card in cards)


def before_turn(work: Turn, programs: dict[str, Program]) -> None:
    """At the turn's start: a plane in the clouds writes its program down, or, diving out,
    flies everything written so far before the turn's first card is shown."""
    for pid in work.ids():
        plane = work.planes[pid]
        program = programs.get(pid)
        if not plane.in_cloud or plane.status != "flying" or program is None:
            continue
        if comes_out(work.catalog, plane, program):
            emerge(work, pid)
            continue
        deck = work.catalog.maneuver_decks[work.catalog.planes[plane.type].deck]
        last = deck.card(program.cards[-1])
        work.update(
            pid,
            cloud_cards=(*plane.cloud_cards, *program.cards),
            last_card=program.cards[-1],
            last_steep=bool(last and last.steep),
        )


def emerge(work: Turn, pid: str) -> None:
    """Out of the layer: the cards written down are flown one by one from where the plane
    went in, and shown; off the table on the way, it has left."""
    plane = work.planes[pid]
    plane_type = work.catalog.planes[plane.type]
    width, height = work.mission.table
    x, y, heading = plane.x, plane.y, plane.heading
    flown: list[str] = []
    left = False
    before = (x, y)
    for code in plane.cloud_cards:
        before = (x, y)
        x, y, heading = geo.apply_move(x, y, heading, work.catalog.move(plane_type, code))
        flown.append(code)
        if not (0 <= x <= width and 0 <= y <= height):
            left = True
            break
    work.update(
        pid, x=x, y=y, heading=heading, in_cloud=False, cloud_cards=(), cloud_salt=""
    )  # fmt: skip
    work.event(
        "left-clouds", plane=pid, cards=flown, x=round(x, 3), y=round(y, 3),
        heading=round(heading, 1),
    )  # fmt: skip
    if left:
        exits.mark_left(work, pid, before)


def at_mission_end(work: Turn) -> None:
    """The mission is over: every plane still in the clouds comes out where it really is."""
    for pid in work.ids():
        if work.planes[pid].in_cloud and work.planes[pid].status == "flying":
            emerge(work, pid)


def seal_the_edge(work: Turn) -> None:
    """At a turn's end: a plane that could climb into the layer next turn (at the game
    ceiling one counter short of the next level, able to go higher) has its next program
    sealed too, so the cards it would
    write down after going in are not opened with the turn's orders. Its salt, drawn now,
    serves while it stays at the edge or in the clouds."""
    if not work.mission.rules.cloud_cover:
        return
    for plane in work.aloft():
        # A climb counter a turn at most (seed A.III.a): only one counter short can go in.
        short = plane.counters >= work.catalog.planes[plane.type].climb - 1
        edge = short and may_enter(work, plane, plane.level)
        if plane.in_cloud or (edge and plane.cloud_salt):
            continue
        salt = _salt(work, plane.id) if edge else ""
        if salt != plane.cloud_salt:
            work.update(plane.id, cloud_salt=salt)

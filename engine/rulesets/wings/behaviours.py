"""The once-a-game behaviour powers that need more than a card added to a shot (seed D.VI):
the Knight of the Air's capture, the Guardian Angel's help, the Rammer's collision and the
Artist's dodge, with the VP bonus of every behaviour.

The seed plays the Knight's and the Artist's choices at the table, the moment a pilot
dies or a shot is declared. A play-by-post turn has no round there, so each is a standing
order set on the panel with the programs (the spec's own suggestion for real-time
interrupts): secret like a program, kept from turn to turn until changed, and what a
missed deadline leaves in force. Authored readings (docs/wings-data.md, "Behaviour powers"):

- Knight: "dies under the Knight's bullets" is a pilot dead (below 0 LP, or blown up) in a
  plane the Knight brought down, whatever killed the pilot in the end (the wound, the crash
  or the explosion). Spared, the pilot lives on at 0 LP, a prisoner of the Knight's side:
  the campaign marks him captured, which only a rescue mission undoes. The order defaults
  to sparing: the Knight's character, and a capture is never worse for his squadron.
- Guardian Angel: a teammate is visibly in trouble with 3 damage cards or more, smoke or
  fire: what the enemy sees too. The seed also names a wounded pilot and a hit engine, but
  those cards lie face down here (told to their side only), and the Angel's extra card,
  fired in public, would tell the enemy of them. The enemy pursuing him is the one tailing
  him (A.IV.d, as the last turn ended) or one that fired at him in the last maneuver. The
  power works without an order: it only ever adds a card, on the first shot it can.
- Rammer: every collision (B.III) of the Rammer with an enemy plane is his ramming attempt;
  the power is used on the first one, without an order (it only ever helps him).
- Artist: the cancelled shot is an enemy aircraft's (ground guns are not "enemy shots" of
  a duel); of several shots matching his order in one maneuver, the one with most cards.
"""

from __future__ import annotations

from engine.ruleset import Option
from engine.rulesets.wings.catalog import SideName
from engine.rulesets.wings.state import Decision, MissionState, PlaneState
from engine.rulesets.wings.work import Shot, Turn

KNIGHT, GUARDIAN, RAMMER, ARTIST = "knight", "guardian_angel", "rammer", "artist"
SPARE, KILL = "spare", "kill"  # the Knight's orders
OFF, ANY, SHORT, HEAVY = "off", "any", "short", "heavy"  # the Artist's orders
ORDERS: dict[str, tuple[str, ...]] = {KNIGHT: (SPARE, KILL), ARTIST: (OFF, ANY, SHORT, HEAVY)}
DEFAULT_ORDER = {KNIGHT: SPARE, ARTIST: OFF}
HEAVY_CARDS = 3  # authored: a "heavy" shot draws 3 cards or more (short range and a bonus)
TROUBLE_CARDS = 3  # seed D.VI: "3 damage cards or more"
SPARED_LP = 0  # a spared pilot lives, seriously wounded (seed D.V: 0 to 2 LP)
ORDER_PREFIX = "order:"  # the engine field of a plane's standing order


# --- standing orders (the panel) --------------------------------------------------------


def takes_orders(plane: PlaneState) -> bool:
    """A flying Knight or Artist whose power is still unused has an order to give."""
    return plane.behaviour in ORDERS and not plane.power_used and plane.status == "flying"


def order_of(mission: MissionState, plane: PlaneState) -> str:
    behaviour = plane.behaviour or ""
    return mission.orders.get(plane.id, DEFAULT_ORDER.get(behaviour, OFF))


def order_decisions(mission: MissionState) -> list[Decision]:
    """One decision per plane that may give a standing order; its default is the order in
    force (so a missed deadline keeps it)."""
    result = []
    for pid in sorted(mission.planes):
        plane = mission.planes[pid]
        if not takes_orders(plane) or plane.in_cloud:
            continue
        behaviour = plane.behaviour or ""
        result.append(
            Decision(
                side=plane.side,
                field=f"{ORDER_PREFIX}{pid}",
                kind="order",
                options=tuple(Option(id=o, label=o, detail=behaviour) for o in ORDERS[behaviour]),
                default=order_of(mission, plane),
                detail=f"{behaviour} standing order",
            )
        )
    return result


def with_orders(mission: MissionState, orders: dict[str, str]) -> MissionState:
    if not orders:
        return mission
    return mission.model_copy(update={"orders": {**mission.orders, **orders}})


# --- Knight of the Air ------------------------------------------------------------------


def spare(work: Turn) -> None:
    """Seed D.VI Knight: an enemy pilot dead in a plane the Knight brought down this turn
    is spared and captured, if the Knight's order says so and his power is unused."""
    for pid in work.ids():
        victim = work.planes[pid]
        knight = work.planes.get(victim.destroyed_by or "")
        if (
            knight is None
            or knight.behaviour != KNIGHT
            or knight.power_used
            or knight.side == victim.side
            or victim.status not in ("shot_down", "exploded", "crashed")
            or victim.destroyed_turn != work.turn
            or victim.pilot_lp >= 0
            or victim.pilot is None
            or victim.captured_by is not None
            or order_of(work.mission, knight) != SPARE
        ):
            continue
        work.update(knight.id, power_used=True, power_target=pid)
        work.update(pid, pilot_lp=SPARED_LP, captured_by=knight.id)
        work.event("pilot-spared", plane=knight.id, target=pid)


def captures(plane: PlaneState, planes: dict[str, PlaneState]) -> int:
    """Enemy pilots this Knight captured: spared by his power, or alive where the plane he
    shot down came to earth on his side of the lines (seed B.VIII)."""
    count = 0
    for victim_id in plane.kills:
        victim = planes[victim_id]
        spared = victim.captured_by == plane.id
        landed = victim.captured_by is None and victim.crash_zone == "enemy"
        if spared or (landed and victim.pilot_lp >= 0):
            count += 1
    return count


# --- Guardian Angel ---------------------------------------------------------------------


def in_trouble(plane: PlaneState) -> bool:
    """Seed D.VI, as the enemy sees it: 3 damage cards or more (counted on the table),
    smoking or burning."""
    return plane.status == "flying" and (
        len(plane.cards) >= TROUBLE_CARDS or plane.smoke > 0 or plane.fire > 0
    )


def pursues(work: Turn, enemy: PlaneState, mate: PlaneState) -> bool:
    """The enemy tailed the teammate as the last turn ended, or fired at him last maneuver."""
    return work.mission.pursuits.get(enemy.id) == mate.id or mate.id in enemy.aim.values()


def guards(work: Turn, angel: PlaneState, target: PlaneState) -> bool:
    """Whether the Guardian Angel's shot at ``target`` helps a teammate in trouble."""
    if angel.behaviour != GUARDIAN or angel.power_used:
        return False
    return any(
        mate.side == angel.side and mate.id != angel.id and in_trouble(mate)
        for mate in work.planes.values()
        if pursues(work, target, mate)
    )


# --- Rammer -----------------------------------------------------------------------------


def rammer_in(work: Turn, first: str, second: str) -> tuple[str, str] | None:
    """(rammer, rammed) when one plane of a colliding pair is a Rammer with his power unused
    and the other an enemy; the lower id first if both are."""
    for rammer, rammed in ((first, second), (second, first)):
        plane, other = work.planes[rammer], work.planes[rammed]
        if plane.behaviour == RAMMER and not plane.power_used and plane.side != other.side:
            return rammer, rammed
    return None


def ram(work: Turn, rammer: str, rammed: str, letter: str) -> None:
    """Seed D.VI Rammer: of his two collision cards one, drawn at random, goes to the rammed
    enemy, who takes 3 cards; points and explosions count, as in any collision (B.III)."""
    stream = work.rng.stream(f"rammer:{work.where()}:{rammer}:{rammed}")
    mine = [work.draw(letter, rammer) for _ in range(2)]
    given = stream.randrange(2)
    given_id, given_card = mine[given]
    held = list(work.planes[rammer].cards)
    held.remove((letter, given_id))
    work.update(rammer, cards=tuple(held), power_used=True, power_target=rammed)
    work.update(rammed, cards=(*work.planes[rammed].cards, (letter, given_id)))
    work.event("rammed", plane=rammer, target=rammed)
    theirs = [work.draw(letter, rammed)[1] for _ in range(2)]
    for pid, cards in ((rammer, [mine[1 - given][1]]), (rammed, [given_card, *theirs])):
        for card in cards:
            if card.special == "explosion":
                work.shoot_down(pid, "exploded", None)
            else:
                work.add_damage(pid, card.value, None)
    if work.planes[rammed].status != "flying":
        work.update(rammer, power_downed=True)


# --- Artist -----------------------------------------------------------------------------


def dodged(work: Turn, shots: list[Shot]) -> dict[int, str]:
    """Seed D.VI Artist: the shots his standing order cancels this maneuver (index -> the
    Artist), one per Artist, whose power is then spent."""
    cancelled: dict[int, str] = {}
    for pid in work.ids():
        artist = work.planes[pid]
        if artist.behaviour != ARTIST or artist.power_used or artist.status != "flying":
            continue
        order = order_of(work.mission, artist)
        if order == OFF:
            continue
        best: tuple[int, int] | None = None
        for index, shot in enumerate(shots):
            shooter = work.planes.get(shot.shooter)
            if shot.target != pid or shooter is None or shooter.side == artist.side:
                continue
            if order == SHORT and not shot.short:
                continue
            if order == HEAVY and shot.cards < HEAVY_CARDS:
                continue
            if best is None or shot.cards > best[0]:
                best = (shot.cards, index)
        if best is not None:
            cancelled[best[1]] = pid
            work.update(pid, power_used=True, power_target=shots[best[1]].shooter)
    return cancelled


# --- VP (seed D.VI) ---------------------------------------------------------------------


def vp_bonus(plane: PlaneState, planes: dict[str, PlaneState]) -> int:
    """The behaviour's VP at the debrief: Soldier and Opportunist when the plane their power
    hit goes down, the Guardian Angel when he shot it down himself, the Rammer when his
    collision downed it, the Hothead per kill while wounded, the Knight per capture."""
    target = planes.get(plane.power_target or "")
    down = target is not None and target.status in ("shot_down", "exploded", "crashed")
    if plane.behaviour in ("soldier", "opportunist"):
        return 1 if down else 0
    if plane.behaviour == GUARDIAN:
        return 1 if down and target is not None and target.id in plane.kills else 0
    if plane.behaviour == RAMMER:
        return 1 if plane.power_downed else 0
    if plane.behaviour == "hothead":
        return plane.kills_wounded
    if plane.behaviour == KNIGHT:
        return captures(plane, planes)
    return 0


def side_of(mission: MissionState, field: str) -> SideName:
    """The side owning an engine field of the flying round (a plane, its order, or a flak
    battery's order: "flak:c-F1")."""
    if field.startswith("flak:"):
        return mission.ground[field.removeprefix("flak:")].side
    if field.startswith("winch:"):  # seed A.IV.i.3: a side's winch order, "winch:central"
        return "entente" if field == "winch:entente" else "central"
    return mission.planes[field.removeprefix(ORDER_PREFIX)].side

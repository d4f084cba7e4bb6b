"""Winching a balloon down at its owner's wish (seed A.IV.i.3).

A side with a balloon up is asked each turn, with its programs and as secretly, whether to
keep its balloons flying (the default: a missed deadline changes nothing) or to haul some
down. The order is carried out when the turn flies, at its start, with the burning balloons'
winching: from then on the balloon comes down one climb counter a turn (three a level). A
balloon that reaches level 0 (the ground, as for the planes) is down on its winch: it is out
of the fight (nobody fires at it, no cable, collision or net of it catches a plane, its fire
no longer draws) and stays down for the rest of the mission.

Authored readings (docs/wings-data.md, "Winching, the ring and nets bought"):

- An order stands: a balloon being hauled down cannot be sent back up in the same mission
  (the seed says "hauled down" and gives no rate for going up; a crew raising a balloon
  again under attack is not in it). Its own side's later menus no longer offer it.
- A burning balloon is already winched a counter a turn (seed A.IV.i); an order adds
  nothing to that (one counter a turn, never two).
- Scoring: a balloon on the ground before it was destroyed gives its shooter no victory
  (no pilot VP), but its squadron keeps the mission award of what was done to it: burning,
  the "on fire" award and the objective achieved (it burns on the ground); damaged, the
  "damaged" award (the defender the "damaged" one); untouched, the defender's "intact".
- The field is asked of the balloon owner's side every turn of a mission while it has a
  balloon up (whether or not it may still order any down), so its presence tells the enemy
  nothing the board does not.
"""

from __future__ import annotations

from itertools import combinations

from engine.ruleset import Option
from engine.rulesets.wings.catalog import SideName
from engine.rulesets.wings.state import Decision, MissionState, Objective
from engine.rulesets.wings.work import Turn

PREFIX = "winch:"  # the engine field of a side's winch order: "winch:central"
KEEP = "keep"
DOWN = "winch:"  # an option hauling balloons down: "winch:c-B1+c-B2"
JOIN = "+"
MAX_OPTIONS = 25  # a Discord select


def up(balloon: Objective) -> bool:
    """A balloon still in the fight: neither destroyed nor down on its winch."""
    return balloon.kind == "balloon" and not balloon.destroyed and not balloon.hauled_down


def balloons_up(mission: MissionState, side: SideName) -> list[Objective]:
    return [
        mission.objectives[oid]
        for oid in sorted(mission.objectives)
        if mission.objectives[oid].side == side and up(mission.objectives[oid])
    ]


def option_id(oids: tuple[str, ...]) -> str:
    return DOWN + JOIN.join(oids)


def ordered(value: str) -> tuple[str, ...]:
    """The balloons an option hauls down (none for ``keep``)."""
    if not value.startswith(DOWN):
        return ()
    return tuple(value.removeprefix(DOWN).split(JOIN))


def decisions(mission: MissionState) -> list[Decision]:
    """One decision a side with a balloon up: keep flying, or haul down a set of its
    balloons not already coming down (every set, up to a select's 25 options; beyond, each
    balloon alone and all of them)."""
    result = []
    for side in sorted({o.side for o in mission.objectives.values() if up(o)}):
        free = tuple(b.id for b in balloons_up(mission, side) if not b.winching)
        sets: list[tuple[str, ...]] = [
            group for size in range(1, len(free) + 1) for group in combinations(free, size)
        ]
        if len(sets) + 1 > MAX_OPTIONS:
            sets = [*((oid,) for oid in free), free]
        options = (
            Option(id=KEEP, label="keep flying"),
            *(Option(id=option_id(g), label="winch down " + ", ".join(g)) for g in sets),
        )
        result.append(
            Decision(side=side, field=PREFIX + side, kind="winch", options=options, default=KEEP)
        )
    return result


def with_orders(mission: MissionState, chosen: dict[str, str]) -> MissionState:
    """This turn's orders (side -> option), sealed in the mission until the turn flies."""
    orders = tuple(sorted(oid for value in chosen.values() for oid in ordered(value)))
    return mission.model_copy(update={"winch_orders": orders})


def haul(work: Turn) -> None:
    """At the start of a turn, after the burning balloons drew and came down: the orders
    given with this turn's programs take effect, then every balloon being hauled and not
    burning comes down a counter; one at level 0 is on the ground."""
    per_level = work.catalog.rules.objectives.balloon_counters_per_level
    for oid in work.mission.winch_orders:
        balloon = work.objectives.get(oid)
        if balloon is None or not up(balloon) or balloon.winching:
            continue
        work.objectives[oid] = balloon.model_copy(update={"winching": True})
        work.event("winch-ordered", objective=oid, side=balloon.side)
    for oid in sorted(work.objectives):
        balloon = work.objectives[oid]
        if not up(balloon):
            continue
        if balloon.winching and balloon.fire <= 0 and balloon.level > 0:
            level, counters = balloon.level, balloon.counters - 1
            if counters < 0:
                level, counters = level - 1, per_level - 1
            balloon = balloon.model_copy(update={"level": level, "counters": counters})
            work.objectives[oid] = balloon
            work.event("balloon-winched", objective=oid, level=level)
        if balloon.level <= 0 and (balloon.winching or balloon.fire > 0):
            work.objectives[oid] = balloon.model_copy(
                update={"hauled_down": True, "level": 0, "counters": 0}
            )
            work.event("balloon-hauled-down", objective=oid, burning=balloon.fire > 0)

"""In-mission reinforcements (seed E.IV).

A side keeps the Mission Points its forces did not use (its reserve, E.II.b) and may spend
them during the mission:

- a plane shot down: after the two full turns following its loss, its player may send a
  new aircraft at its MP cost, flown by the same pilot if he came down unhurt enough on his
  own side, else by a new pilot (whose status is paid too);
- a damaged plane that fled over its own zone: after two full turns, a sound aircraft of
  its type for half its cost (a single-seater, rounded up) or 2 MP (a two-seater), the same
  pilot at the stick;
- whatever is left is lost when the mission ends.

Authored choices (the seed leaves them open), all in ``docs/wings-data.md``:

- the order is a sealed decision on the downed plane's own panel field, offered from the
  last of the two waiting turns on (its plane stands on the table once that turn is over and
  flies from the next), default "no", never on the mission's last turn;
- the new plane stands half a ruler in from its side's own edge, facing the enemy, at the
  starting level, on the table's middle line or slid across until half a ruler clear of
  every plane in the air (E.I.b's deployment), over the balloons' net while one hangs
  (``net_entry``);
- in a campaign the plane, its pilot and its sortie of fuel and ammunition come from the
  squadron: a type is offered while the stock holds one more of it than the mission already
  uses, a new pilot is a fit squadron pilot not flying this mission (roster order), and
  the MP are the only price (Campaign Points were spent when the stock was bought, F.I);
- orders a side can no longer afford as the turn ends (two ordered at once) are carried
  out in plane order while the reserve, the stock and the pilots last; the rest are told to
  that side only;
- a reinforcement arrives only while the mission goes on: a mission that ended with the
  turn (a side left without a plane in a patrol) ends as before.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import engine.rulesets.wings.exits as exits
import engine.rulesets.wings.net_entry as net_entry
import engine.rulesets.wings.relief as relief
from engine.ruleset import Excluded, Option
from engine.rulesets.wings.catalog import Catalog, SideName
from engine.rulesets.wings.generator import clear_spot, sortie_cost
from engine.rulesets.wings.pilots import can_fly, flying_skills, state_from_lp, tokens
from engine.rulesets.wings.state import (
    SIDES,
    CampaignState,
    Decision,
    Event,
    MissionState,
    Pilot,
    PlaneState,
)

NO = "no-reinforcement"
PREFIX = "reinforce:"  # an option id: the type key follows
WAIT = 2  # seed E.IV: the two full turns following the loss
DOWN = ("shot_down", "exploded", "crashed")
TWO_SEATER_SWAP = 2  # seed E.IV: a sound two-seater costs 2 MP


def option_id(plane_type: str) -> str:
    return f"{PREFIX}{plane_type}"


def plane_cost(catalog: Catalog, plane_type: str, date: str) -> int:
    """Seed E.II.b: the aircraft alone, by its service class (as the forces are bought)."""
    deployment = catalog.rules.campaign.deployment
    plane = catalog.planes[plane_type]
    if plane.two_seater:
        return deployment["two_seater"]
    service = plane.service_class(date)
    return deployment["advanced" if service == "future" else service]


def spent(catalog: Catalog, state: CampaignState, mission: MissionState, side: SideName) -> int:
    """What the side's forces cost at the briefing (E.II.b): each sortie, and each fighter's
    bomb or rocket batches."""
    price = catalog.rules.campaign.deployment["fighter_bomb"]
    total = 0
    for plane in mission.planes.values():
        if plane.side != side or plane.pilot is None:
            continue
        total += sortie_cost(catalog, state.pilots[plane.pilot], state.date)
        if not catalog.planes[plane.type].two_seater and (plane.bombs or plane.rockets):
            total += price
    return total


def reserves(
    catalog: Catalog,
    state: CampaignState,
    mission: MissionState,
    budgets: Mapping[SideName, int],
) -> dict[str, int]:
    """Seed E.II.b: the MP left unspent once the opposition is set, never below zero (a
    side always flies one plane even when it costs more than its points)."""
    return {side: max(0, budgets[side] - spent(catalog, state, mission, side)) for side in SIDES}


def lost_turn(plane: PlaneState) -> int | None:
    """The turn the plane dropped out: shot down, or fled over its own zone."""
    if plane.status in DOWN:
        return plane.destroyed_turn
    if plane.status == "left":
        return plane.left_turn
    return None


def fled_damaged(mission: MissionState, plane: PlaneState) -> bool:
    """Seed E.IV: a damaged aircraft back in its own zone counts as fleeing: here one that
    left the table over its own zone (authored)."""
    return (
        plane.status == "left"
        and plane.damage > 0
        and plane.exit_at is not None
        and exits.over_own_zone(mission, plane.side, plane.exit_at[0])
    )


def may_reinforce(mission: MissionState, pid: str) -> bool:
    """Whether the player of this downed or fleeing plane may order its reinforcement now:
    the waiting turns gone by (the order's turn is the last of them), the mission not in
    its last turn, and no plane sent for it yet."""
    plane = mission.planes[pid]
    turn = lost_turn(plane)
    if turn is None or not mission.reserve.get(plane.side, 0):
        return False
    if plane.status == "left" and not fled_damaged(mission, plane):
        return False
    if any(other.replaces == pid for other in mission.planes.values()):
        return False
    return mission.turn >= turn + WAIT and mission.turn < mission.max_turns


def same_pilot_flies(catalog: Catalog, plane: PlaneState) -> bool:
    """The pilot takes off again himself when he is fit to (not seriously wounded nor
    dead) and came down on his own side, or fled home (authored)."""
    if plane.pilot is None or state_from_lp(catalog, plane.pilot_lp) not in ("active", "wounded"):
        return False
    return plane.status == "left" or plane.crash_zone == "friendly"


def spare_pilots(state: CampaignState, mission: MissionState, side: SideName) -> list[Pilot]:
    """Fit squadron pilots of the side who fly no plane in this mission, in roster order."""
    flying = {plane.pilot for plane in mission.planes.values()}
    return [
        pilot
        for pid, pilot in sorted(state.pilots.items())
        if pilot.side == side and can_fly(pilot) and pid not in flying
    ]


def spare_planes(state: CampaignState, mission: MissionState, side: SideName) -> dict[str, int]:
    """Aircraft of each type the squadron has beyond those already in this mission (a
    downed one still counts: it leaves the stock at the debrief)."""
    stock = state.squadrons[side].stock
    used: dict[str, int] = {}
    for plane in mission.planes.values():
        if plane.side == side:
            used[plane.type] = used.get(plane.type, 0) + 1
    return {
        key.removeprefix("plane:"): count - used.get(key.removeprefix("plane:"), 0)
        for key, count in sorted(stock.items())
        if key.startswith("plane:") and count - used.get(key.removeprefix("plane:"), 0) > 0
    }


def pilot_for(
    catalog: Catalog, state: CampaignState, mission: MissionState, pid: str
) -> Pilot | None:
    """Who would fly the reinforcement of this plane: its own pilot if he can, else the
    first spare one (a fleeing plane's swap keeps its pilot, seed E.IV)."""
    plane = mission.planes[pid]
    if same_pilot_flies(catalog, plane) and plane.pilot is not None:
        return state.pilots[plane.pilot]
    if plane.status == "left":
        return None
    spare = spare_pilots(state, mission, plane.side)
    return spare[0] if spare else None


def cost(catalog: Catalog, state: CampaignState, mission: MissionState, pid: str, kind: str) -> int:
    """Seed E.IV: a fleeing plane's sound twin for half its cost (rounded up, authored) or
    2 MP for a two-seater; a shot-down one's new aircraft at its cost, and a new pilot's."""
    plane = mission.planes[pid]
    if plane.status == "left":
        if catalog.planes[kind].two_seater:
            return TWO_SEATER_SWAP
        return math.ceil(plane_cost(catalog, kind, state.date) / 2)
    price = plane_cost(catalog, kind, state.date)
    pilot = pilot_for(catalog, state, mission, pid)
    if pilot is not None and pilot.id != plane.pilot:
        price += catalog.rules.campaign.deployment[pilot.status]
    return price


def decisions(catalog: Catalog, state: CampaignState, mission: MissionState) -> list[Decision]:
    """One decision per plane whose side may send a reinforcement for it now: "no" (the
    default) or a type from the squadron's stock it can afford."""
    result = []
    for pid in sorted(mission.planes):
        if not may_reinforce(mission, pid):
            continue
        plane = mission.planes[pid]
        if pilot_for(catalog, state, mission, pid) is None:
            continue
        spare = spare_planes(state, mission, plane.side)
        kinds = [plane.type] if plane.status == "left" else sorted(spare)
        reserve = mission.reserve.get(plane.side, 0)
        options, excluded = [], []
        for kind in kinds:
            if spare.get(kind, 0) <= 0:
                continue
            price = cost(catalog, state, mission, pid, kind)
            label = f"{catalog.planes[kind].name} ({price} MP)"
            if price > reserve:
                excluded.append(Excluded(id=option_id(kind), label=label, reason="reserve-short"))
            else:
                options.append(Option(id=option_id(kind), label=label, detail=str(price)))
        if not options:
            continue
        result.append(
            Decision(
                side=plane.side,
                field=pid,
                kind="reinforce",
                options=(Option(id=NO, label="no reinforcement"), *options),
                excluded=tuple(excluded),
                default=NO,
            )
        )
    return result


def _plane_id(mission: MissionState, pilot: str) -> str:
    """The pilot's id, or his id and a number for his second plane this mission ("P1-2")."""
    if pilot not in mission.planes:
        return pilot
    number = 2
    while f"{pilot}-{number}" in mission.planes:
        number += 1
    return f"{pilot}-{number}"


def _spot(catalog: Catalog, mission: MissionState, side: SideName) -> tuple[float, float, float]:
    """Seed E.I.b deployment: half a ruler in from the side's own edge, facing the enemy,
    on the middle line or slid across clear of the planes in the air (authored)."""
    width, height = mission.table
    edge = catalog.rules.units.ruler / 2
    x = edge if side == "entente" else width - edge
    taken = [(p.x, p.y) for p in mission.planes.values() if p.status in ("flying", "landed")]
    return x, clear_spot(catalog, x, height / 2, taken), 0.0 if side == "entente" else 180.0


def _ammunition(
    catalog: Catalog, mission: MissionState, plane: PlaneState
) -> tuple[PlaneState, MissionState]:
    """Seed B.II: the new plane's guns get their face-down cards from the top of the piles
    (already in random order), as many as a gun had at the start, fewer if short."""
    if not mission.rules.ammunition:
        return plane, mission
    fire = catalog.rules.fire
    decks = dict(mission.decks)
    ammo: dict[str, tuple[int, ...]] = {}
    for gun in catalog.planes[plane.type].guns:
        deck = decks[gun.deck]
        cards = catalog.damage_decks[gun.deck].expanded
        usable = [c for c in deck.pile if cards[c % len(cards)].value in fire.ammo_values]
        taken = tuple(usable[: fire.ammo_cards])
        ammo[gun.name] = taken
        decks[gun.deck] = deck.model_copy(
            update={"pile": tuple(c for c in deck.pile if c not in taken)}
        )
    plane = plane.model_copy(update={"ammo": dict(sorted(ammo.items()))})
    return plane, mission.model_copy(update={"decks": decks})


def _new_plane(
    catalog: Catalog, mission: MissionState, old: PlaneState, pilot: Pilot, kind: str
) -> PlaneState:
    x, y, heading = _spot(catalog, mission, old.side)
    # Seed A.IV.i.2: over the net while one hangs, as the flight came in.
    level, counters = net_entry.entry_height(catalog, mission, old.side, kind)
    common = {
        "id": _plane_id(mission, pilot.id),
        "type": kind,
        "side": old.side,
        "pilot": pilot.id,
        "x": x,
        "y": y,
        "heading": heading,
        "level": level,
        "counters": counters,
        "replaces": old.id,
        "observer_lp": catalog.rules.pilot.life_points if catalog.planes[kind].two_seater else None,
    }
    if pilot.id == old.pilot:
        # The same man: his wounds, skill tokens and once-a-game powers go with him.
        carried = {
            key: getattr(old, key)
            for key in (
                "skills",
                "behaviour",
                "tokens",
                "pilot_lp",
                "wounded",
                "power_used",
                "ultimate_uses",
                "swaps",
                "swap_turn",
                "genius_turn",
            )
        }
        return PlaneState(**common, **carried)
    return PlaneState(
        **common,
        skills=flying_skills(pilot),
        behaviour=pilot.behaviour,
        tokens=tokens(catalog, pilot),
        pilot_lp=pilot.lp,
    )


def launch(
    catalog: Catalog, state: CampaignState, mission: MissionState
) -> tuple[CampaignState, MissionState, list[Event]]:
    """At the end of the turn the orders were given: each ordered plane stands on the
    table, its MP off the reserve, its sortie of fuel and ammunition off the stock (J 18).
    The turn is already counted on, so the new plane is programmed in the next one."""
    orders = mission.reinforcing
    mission = mission.model_copy(update={"reinforcing": {}})
    events: list[Event] = []
    if not orders:
        return state, mission, events
    squadrons = dict(state.squadrons)
    reserve = dict(mission.reserve)
    turn = mission.turn - 1
    for pid in sorted(orders):
        old = mission.planes[pid]
        side, kind = old.side, orders[pid]
        pilot = pilot_for(catalog, state, mission, pid)
        price = cost(catalog, state, mission, pid, kind)
        stock = squadrons[side].stock
        short = (
            "reserve-short"
            if price > reserve.get(side, 0)
            else "no-pilot"
            if pilot is None
            else "no-plane"
            if spare_planes(state, mission, side).get(kind, 0) <= 0
            else "no-sortie"
            if min(stock.get("fuel", 0), stock.get("ammunition", 0)) <= 0
            else None
        )
        if short is not None or pilot is None:
            events.append(
                Event(
                    kind="reinforcement-short",
                    turn=turn,
                    data={"plane": pid, "type": kind, "reason": short},
                    secret_for=side,
                )
            )
            continue
        new = _new_plane(catalog, mission, old, pilot, kind)
        new, mission = _ammunition(catalog, mission, new)
        new, rock = relief.put_above(catalog, mission, new)  # seed F.V: never into the rock
        mission = mission.model_copy(update={"planes": {**mission.planes, new.id: new}})
        reserve[side] = reserve.get(side, 0) - price
        mission = mission.model_copy(update={"reserve": reserve})
        stock = dict(stock)
        stock["fuel"] = stock.get("fuel", 0) - 1
        stock["ammunition"] = stock.get("ammunition", 0) - 1
        squadrons[side] = squadrons[side].model_copy(update={"stock": stock})
        state = state.model_copy(update={"squadrons": squadrons})
        events.append(
            Event(
                kind="reinforcement",
                turn=turn,
                data={
                    "plane": new.id,
                    "replaces": pid,
                    "type": kind,
                    "name": catalog.planes[kind].name,
                    "pilot": pilot.name,
                    "x": round(new.x, 3),
                    "y": round(new.y, 3),
                },
            )
        )
        if rock is not None:
            lifted = {"plane": new.id, "relief": rock.id, "floor": rock.floor, "level": new.level}
            events.append(Event(kind=relief.LIFTED, turn=turn, data=lifted))
        events.append(
            Event(
                kind="reserve-spent",
                turn=turn,
                data={"side": side, "points": price, "left": reserve[side]},
                secret_for=side,
            )
        )
    return state, mission, events


def lost_at_end(mission: MissionState) -> list[Event]:
    """Seed E.IV: MP not spent on reinforcements are lost when the mission ends; each side
    is told its own."""
    return [
        Event(
            kind="reserve-lost",
            turn=0,
            data={"side": side, "points": mission.reserve[side]},
            secret_for=side,
        )
        for side in SIDES
        if mission.reserve.get(side, 0) > 0
    ]


def crews(planes: Mapping[str, PlaneState]) -> list[PlaneState]:
    """One plane per pilot for the debrief: the last he flew, holding the kills of every
    plane he flew this mission (a pilot who took off again flew two)."""
    flown: dict[str, list[PlaneState]] = {}
    for plane in planes.values():  # the mission's order, which the debrief keeps
        if plane.pilot is not None:
            flown.setdefault(plane.pilot, []).append(plane)
    result = []
    for own in flown.values():
        replaced = {p.replaces for p in own}
        last = next(p for p in own if p.id not in replaced)
        if len(own) > 1:
            last = last.model_copy(
                update={
                    "kills": tuple(k for p in own for k in p.kills),
                    "kills_wounded": sum(p.kills_wounded for p in own),
                }
            )
        result.append(last)
    return result

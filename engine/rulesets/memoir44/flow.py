"""The air turn, step by step: start, Command, Flight, the other side's Reaction, then the
battle and the end-of-turn draws.

Each step takes a checked order (``orders``), changes the state and returns public events.
A turn is one player's turn of the table game; the sides alternate, the first one chosen
at setup.

Their Finest Hour (IV): the rulebook gives two orders for its end-of-turn card. Section II
says each player draws, then both decks are reshuffled; section IV says the decks are
reshuffled with their discards, then each side draws. We follow section IV, the more
detailed one (as the digest advises): reshuffle, then each side draws one, the side whose
turn it is first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import engine.rulesets.memoir44.orders as orders
from engine.rng import Rng
from engine.ruleset import Event
from engine.rulesets.memoir44.battle import resolve_battle
from engine.rulesets.memoir44.catalog import Catalog, PlaneType, SideId, card_key
from engine.rulesets.memoir44.deck import Refused, draw, play, reshuffle, told, with_side
from engine.rulesets.memoir44.state import GameState, Plan, Plane, TurnRecord, other

OrderT = TypeVar("OrderT")


def begin_turn(catalog: Catalog, state: GameState) -> tuple[GameState, list[Event]]:
    """Start of a turn (III.d, III.j): the per-turn card limits start afresh, a plane that
    landed last turn is rearmed, and one with no ammunition left must withdraw."""
    events: list[Event] = []
    sides = {
        side: mine.model_copy(update={"card_own": False, "card_opp": False, "withdrew": False})
        for side, mine in state.sides.items()
    }
    state = state.model_copy(update={"sides": sides, "phase": "command"})
    side = state.active
    plane = state.side(side).plane
    if plane is not None and plane.refill:
        load = catalog.types[plane.type]
        plane = plane.model_copy(update={"mg": load.mg, "bombs": load.bombs, "refill": False})
        state = with_side(state, side, plane=plane)
        events.append(told(state, "m44-rearmed", side=side, model=plane.model))
    if plane is not None and plane.status == "airborne" and plane.ammunition == 0:
        state = with_side(state, side, plane=None, withdrew=True)
        events.append(told(state, "m44-withdrawn", side=side, model=plane.model, forced=True))
    return state, events


def give_command(
    catalog: Catalog, state: GameState, order: orders.CommandOrder, rng: Rng
) -> tuple[GameState, list[Event]]:
    if state.phase != "command":
        raise Refused("not-now")
    orders.check_command(catalog, state, order)
    side = state.active
    if order.command == orders.VICTORY:
        state = state.model_copy(
            update={"finished": True, "winner": side, "phase": "over", "plan": None}
        )
        return state, [told(state, "m44-victory", side=side)]
    events: list[Event] = []
    action = order.action
    deploy: PlaneType | None = None
    if action.startswith("deploy-"):
        deploy = action.removeprefix("deploy-")  # type: ignore[assignment]
        action = "deploy"
    mine = state.side(side)
    plan = Plan(
        side=side,
        command=order.command,
        action=action,
        deploy=deploy,
        start=mine.plane.hex if mine.plane is not None and action == "fly" else None,
        shots=order.shots,
        refused=order.refused,
    )
    events.append(
        told(
            state,
            "m44-command",
            side=side,
            command=order.command,
            action=action,
            type=deploy or "",
        )
    )
    if order.card:
        state, instance = play(state, side, order.card, own_turn=True)
        card = catalog.card(order.card)
        plane_type = deploy or (mine.plane.type if mine.plane is not None else None)
        if card.timing == "attack":
            in_force = action in ("fly", "deploy") and card.icon == plane_type
        else:
            in_force = action != "deploy"  # a deployment ticket's own effect is ignored
        plan = plan.model_copy(update={"card": instance, "effect": card.key if in_force else None})
        events.append(
            told(state, "m44-card", side=side, card=card.key, when="own", in_force=in_force)
        )
        if in_force and card.restore:
            state, more = _restore(catalog, state, side, card.restore)
            events += more
    if action == "withdraw":
        plane = state.side(side).plane
        assert plane is not None
        state = with_side(state, side, plane=None, withdrew=True)
        events.append(told(state, "m44-withdrawn", side=side, model=plane.model, forced=False))
    state = state.model_copy(update={"plan": plan})
    if action in ("fly", "deploy"):
        return state.model_copy(update={"phase": "flight"}), events
    state, more = _after_orders(catalog, state, rng)
    return state, events + more


def _restore(
    catalog: Catalog, state: GameState, side: SideId, count: int
) -> tuple[GameState, list[Event]]:
    """Rearm and Refuel (authored): up to ``count`` tokens back, bombs first, never above
    the type's load at deployment."""
    plane = state.side(side).plane
    assert plane is not None
    load = catalog.types[plane.type]
    bombs = min(load.bombs, plane.bombs + count)
    mg = min(load.mg, plane.mg + count - (bombs - plane.bombs))
    state = with_side(state, side, plane=plane.model_copy(update={"mg": mg, "bombs": bombs}))
    return state, [
        told(state, "m44-restored", side=side, mg=mg - plane.mg, bombs=bombs - plane.bombs)
    ]


def _checked(
    catalog: Catalog,
    state: GameState,
    phase: str,
    check: Callable[[Catalog, GameState, OrderT], None],
    order: OrderT,
) -> Plan:
    """The turn's plan, once the turn stands at ``phase`` and ``check`` allows ``order``."""
    if state.phase != phase:
        raise Refused("not-now")
    check(catalog, state, order)
    assert state.plan is not None
    return state.plan


def fly(
    catalog: Catalog, state: GameState, order: orders.FlightOrder, rng: Rng
) -> tuple[GameState, list[Event]]:
    plan = _checked(catalog, state, "flight", orders.check_flight, order)
    side = plan.side
    events: list[Event] = []
    mine = state.side(side)
    if plan.action == "deploy":
        assert plan.deploy is not None
        load = catalog.types[plan.deploy]
        plane = Plane(
            type=plan.deploy,
            model=mine.trio[plan.deploy],
            hex=order.path[0],
            mg=load.mg,
            bombs=load.bombs,
        )
        events.append(
            told(
                state, "m44-deployed", side=side, model=plane.model, type=plane.type, hex=plane.hex
            )
        )
    else:
        assert mine.plane is not None
        plane = mine.plane.model_copy(update={"status": "airborne", "refill": False})
    spent_mg = sum(t.kind == "mg" for t in order.tokens)
    spent_bombs = sum(t.kind == "bomb" for t in order.tokens) + (order.finish == "bombing")
    plane = plane.model_copy(
        update={
            "hex": order.path[-1],
            "mg": plane.mg - spent_mg,
            "bombs": plane.bombs - spent_bombs,
        }
    )
    state = with_side(state, side, plane=plane)
    plan = plan.model_copy(
        update={
            "path": order.path,
            "tokens": order.tokens,
            "finish": order.finish,
            "markers": order.markers,
        }
    )
    state = state.model_copy(update={"plan": plan})
    events.append(
        told(
            state,
            "m44-flew",
            side=side,
            model=plane.model,
            path=list(order.path),
            tokens=[f"{t.hex} {t.kind} {t.target}" for t in order.tokens],
            finish=order.finish,
            **({"markers": order.markers} if order.markers else {}),
        )
    )
    state, more = _after_orders(catalog, state, rng)
    return state, events + more


def _after_orders(catalog: Catalog, state: GameState, rng: Rng) -> tuple[GameState, list[Event]]:
    """The other side gets its say if the orders gave it something to answer; else the
    battle is fought and the turn ends."""
    if orders.reaction_triggers(state):
        return state.model_copy(update={"phase": "reaction"}), []
    return _battle_and_end(catalog, state, rng)


def react(
    catalog: Catalog, state: GameState, order: orders.Reaction, rng: Rng
) -> tuple[GameState, list[Event]]:
    plan = _checked(catalog, state, "reaction", orders.check_reaction, order)
    side = other(plan.side)
    events: list[Event] = []
    update: dict[str, object] = {}
    if order.ambush:
        update.update(ambush=order.ambush, ambush_unit=order.ambush_unit)
        events.append(
            told(state, "m44-ambush", side=side, token=order.ambush, unit=order.ambush_unit)
        )
    if order.card:
        state, instance = play(state, side, order.card, own_turn=False)
        update.update(reaction=instance, reaction_token=order.card_token)
        events.append(
            told(
                state,
                "m44-card",
                side=side,
                card=order.card,
                when="opponent",
                in_force=True,
                **({"token": order.card_token} if order.card_token else {}),
            )
        )
    if not events:
        events.append(told(state, "m44-no-reaction", side=side))
    state = state.model_copy(update={"plan": plan.model_copy(update=update)})
    state, more = _battle_and_end(catalog, state, rng)
    return state, events + more


def _battle_and_end(catalog: Catalog, state: GameState, rng: Rng) -> tuple[GameState, list[Event]]:
    state, events = resolve_battle(catalog, state, rng)
    state, more = end_turn(catalog, state, rng)
    return state, events + more


def end_turn(catalog: Catalog, state: GameState, rng: Rng) -> tuple[GameState, list[Event]]:
    """The draws the turn earned (Recon, Air Reconnaissance, Their Finest Hour), then the
    next side's turn begins."""
    plan = state.plan
    assert plan is not None
    side = plan.side
    events: list[Event] = []
    command = catalog.command(plan.command)
    if command.air == "recon":
        state, more = draw(state, rng, side, 1, "recon")
        events += more
    if plan.effect is not None:
        card = catalog.card(plan.effect)
        if card.draw:
            state, more = draw(state, rng, side, card.draw, card.key)
            events += more
    if command.air == "finest-hour":
        state, more = reshuffle(state, rng, "finest-hour")
        events += more
        for who in (side, other(side)):
            state, more = draw(state, rng, who, 1, "finest-hour")
            events += more
    record = TurnRecord(
        turn=state.turn,
        plan=plan,
        rolls=state.rolled,
        drawn=state.drawn,
        fallen=state.fallen,
    )
    state = state.model_copy(
        update={
            "history": (*state.history, record),
            "plan": None,
            "rolled": (),
            "fallen": (),
            "drawn": {},
            "turn": state.turn + 1,
        }
    )
    if state.turn > state.turns:
        state = state.model_copy(update={"finished": True, "phase": "over"})
        events.append(Event(kind="m44-ended", turn=state.turn - 1, data={"why": "turns"}))
        return state, events
    state, more = begin_turn(catalog, state)
    return state, events + more


def hand_cards(state: GameState, side: SideId) -> list[str]:
    return [card_key(card) for card in state.side(side).hand]

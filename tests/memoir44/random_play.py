"""A random player of the air war, for properties: it tries random orders and keeps the
first the rules accept, so a game runs through every kind of order and refusal."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.rng import Rng
from engine.ruleset import Event
from engine.rulesets.memoir44 import board
from engine.rulesets.memoir44.catalog import Catalog
from engine.rulesets.memoir44.deck import Refused
from engine.rulesets.memoir44.flow import fly, give_command, hand_cards, react
from engine.rulesets.memoir44.orders import (
    ACTIONS,
    CommandOrder,
    FlightOrder,
    Reaction,
    move_allowance,
    parse_shots,
)
from engine.rulesets.memoir44.state import GameState, Token, other

FINISHES = ("none", "none", "bombing", "dogfight", "airfield", "carrier")
TARGETS = ("infantry", "armour", "artillery", "other")
Step = Callable[[GameState], tuple[GameState, list[Event]]]


def _try(
    pick: random.Random, tries: list[Step], fallback: Step, state: GameState
) -> tuple[GameState, list[Event]]:
    for attempt in tries:
        try:
            return attempt(state)
        except Refused:
            continue
    return fallback(state)


def command_step(catalog: Catalog, pick: random.Random, rng: Rng) -> Step:
    def step(state: GameState) -> tuple[GameState, list[Event]]:
        side = state.active
        hand = hand_cards(state, side)
        enemy = state.side(other(side)).plane
        attempts: list[Step] = []
        for _ in range(12):
            cmd = pick.choice(catalog.commands).key
            card = pick.choice([None, *hand]) if hand else None
            action = pick.choice(ACTIONS)
            shots = ()
            if enemy is not None and pick.random() < 0.5:
                text = pick.choice(["inf", "art", "inf, arm", "inf+", "inf 2", "sunk"])
                try:
                    shots = parse_shots(text, enemy.status == "airborne", cmd == "close-assault")
                except Refused:
                    shots = ()
            order = CommandOrder(cmd, card, action, shots)
            attempts.append(lambda s, o=order: give_command(catalog, s, o, rng))
        plain = CommandOrder("probe-left")
        return _try(pick, attempts, lambda s: give_command(catalog, s, plain, rng), state)

    return step


def _walk(pick: random.Random, start: str, steps: int, avoid: set[str]) -> list[str]:
    path: list[str] = []
    here = start
    seen = {start}
    for _ in range(steps):
        options = [h for h in board.neighbours(here) if h not in seen and h not in avoid]
        if not options:
            break
        here = pick.choice(options)
        seen.add(here)
        path.append(here)
    return path


def flight_step(catalog: Catalog, pick: random.Random, rng: Rng) -> Step:
    def step(state: GameState) -> tuple[GameState, list[Event]]:
        plan = state.plan
        assert plan is not None
        side = plan.side
        enemy = state.side(other(side)).plane
        avoid = {enemy.hex} if enemy is not None and enemy.status == "airborne" else set()
        kind = plan.deploy or state.side(side).plane.type  # type: ignore[union-attr]
        most = move_allowance(catalog, plan.effect)
        attempts: list[Step] = []
        sections = catalog.command(plan.command).sections
        entries = [h for h in board.every_hex() if board.in_sections(h, side, sections)]
        entries = [h for h in entries if h not in avoid]
        for _ in range(12):
            if plan.action == "deploy":
                entry = pick.choice(entries)
                path = [entry, *_walk(pick, entry, pick.randint(1, most - 1), avoid)]
            else:
                here = state.side(side).plane.hex  # type: ignore[union-attr]
                path = _walk(pick, here, pick.randint(1, most), avoid)
            if not path:
                continue
            finish = pick.choice(FINISHES)
            if enemy is not None and pick.random() < 0.5:
                # Aim: a random walk rarely ends beside the enemy plane by chance.
                for _ in range(40):
                    if board.adjacent(path[-1], enemy.hex):
                        finish = "dogfight"
                        break
                    here = path[0] if plan.action == "deploy" else state.side(side).plane.hex  # type: ignore[union-attr]
                    path = (
                        [here, *_walk(pick, here, most - 1, avoid)]
                        if plan.action == "deploy"
                        else _walk(pick, here, most, avoid)
                    )
                    if not path:
                        break
                if not path:
                    continue
            first = pick.randrange(len(path))
            count = pick.randint(0, 3)
            tokens = tuple(
                Token(
                    hex=path[i],
                    kind=pick.choice(["mg", "bomb"])
                    if kind == "fighter_bomber"
                    else ("mg" if kind == "fighter" else "bomb"),
                    target=pick.choice(TARGETS),
                )
                for i in range(first, min(first + count, len(path) - 1))
            )
            order = FlightOrder(tuple(path), tokens, finish, 0)  # type: ignore[arg-type]
            attempts.append(lambda s, o=order: fly(catalog, s, o, rng))

        def fallback(s: GameState) -> tuple[GameState, list[Event]]:
            for _ in range(50):
                if plan.action == "deploy":
                    entry = pick.choice(entries)
                    path = [entry, *_walk(pick, entry, 1, avoid)]
                else:
                    path = _walk(pick, s.side(side).plane.hex, 1, avoid)  # type: ignore[union-attr]
                try:
                    return fly(catalog, s, FlightOrder(tuple(path)), rng)
                except Refused:
                    continue
            raise AssertionError("no legal flight found")

        return _try(pick, attempts, fallback, state)

    return step


def reaction_step(catalog: Catalog, pick: random.Random, rng: Rng) -> Step:
    def step(state: GameState) -> tuple[GameState, list[Event]]:
        plan = state.plan
        assert plan is not None
        hand = hand_cards(state, other(plan.side))
        tokens = len(plan.tokens)
        attempts: list[Step] = []
        for _ in range(8):
            ambush = pick.randint(0, tokens) if tokens and pick.random() < 0.4 else 0
            unit = pick.choice(["infantry", "armour", "artillery"]) if ambush else None
            card = pick.choice([None, *hand]) if hand else None
            order = Reaction(ambush, unit, card, pick.randint(1, tokens) if tokens else 0)  # type: ignore[arg-type]
            attempts.append(lambda s, o=order: react(catalog, s, o, rng))
        return _try(pick, attempts, lambda s: react(catalog, s, Reaction(), rng), state)

    return step


def play(
    catalog: Catalog,
    state: GameState,
    seed: int,
    turns: int,
    watch: Callable[[GameState, GameState, list[Event]], None] | None = None,
) -> tuple[GameState, list[Event]]:
    pick = random.Random(seed)
    history: list[Event] = []
    while not state.finished and state.turn <= turns:
        rng = Rng(f"seed-{seed}", state.turn, state.phase)
        step = {
            "command": command_step,
            "flight": flight_step,
            "reaction": reaction_step,
        }[state.phase](catalog, pick, rng)
        before = state
        state, events = step(state)
        history += events
        if watch is not None:
            watch(before, state, events)
    return state, history

"""The carrier odds preview: the coming turn played many times from one side's knowledge.

Pure and deterministic. Each sample copies the state, puts a random legal value in place
of every value of the other side that the asking side has not seen yet (the doctrine
between the orders reveal and the strikes), draws every pick still to be made at random
among its legal options (the other side's, and the asker's own fields left unpicked),
then plays the rest of the turn with the ruleset's own ``resolve``.

Its randomness comes from the ``seed`` the caller builds from public data, never from the
campaign's seed: that one is secret until the end and would tell the real draws to come.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Mapping, Sequence

from engine.campaign import pending
from engine.catalog import Catalog
from engine.orders import DOCTRINE_PRESETS
from engine.rng import Rng
from engine.ruleset import Decision, Event, Odds, TargetOdds
from engine.state import State
from engine.types import RoundKind, Side

Resolve = Callable[[State, Mapping[str, Mapping[str, str]], Rng], tuple[State, list[Event]]]

# The fields a carrier state keeps for a side after their round is resolved, with every
# value they may take. Only the doctrine is both kept and still closed to the other side.
KEPT: dict[str, tuple[str, ...]] = {"doctrine": tuple(DOCTRINE_PRESETS)}


def _stream(seed: str) -> random.Random:
    digest = hashlib.sha256(f"sortie-odds|{seed}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def _masked(state: State, foe: Side, hidden: Sequence[str], draw: random.Random) -> State:
    """The state with the other side's unseen kept values replaced by random legal ones."""
    update = {name: draw.choice(KEPT[name]) for name in hidden if name in KEPT}
    if not update:
        return state
    sides = dict(state.sides)
    sides[foe] = sides[foe].model_copy(update=update)
    return state.model_copy(update={"sides": sides})


def _choices(
    decisions: Sequence[Decision], me: Side, own: Mapping[str, str], draw: random.Random
) -> dict[str, dict[str, str]]:
    """One value per pending field: the asker's own pick where it made one, else a draw."""
    result: dict[str, dict[str, str]] = {}
    for decision in decisions:
        picked = own.get(decision.field) if decision.side == me else None
        if picked is None:
            picked = draw.choice(decision.options).id
        result.setdefault(decision.side, {})[decision.field] = picked
    return result


def preview(
    catalog: Catalog,
    resolve: Resolve,
    state: State,
    side: str,
    picks: Mapping[str, str],
    hidden: Sequence[str],
    *,
    samples: int,
    seed: str,
) -> Odds | None:
    """``samples`` plays of the rest of this turn for ``side`` (None once it is over)."""
    if state.finished or samples < 1:
        return None
    me = Side(side)
    foe = me.enemy
    now = pending(catalog, state)
    mine = {d.field: d for d in now if d.side == me}
    # A draft that is no longer legal (the panel changed under it) counts as no pick.
    own = {f: v for f, v in picks.items() if f in mine and mine[f].allows(v)}
    sampled = [f for f in mine if f not in own]
    if state.round is RoundKind.ORDERS:
        sampled.append("resource")  # picked next round, after the orders are seen
    scenario = catalog.scenarios[state.scenario]
    places = scenario.places
    before = {place.key: state.tracks[place.key].boxes for place in places}
    totals = {place.key: 0 for place in places}
    hits = {place.key: 0 for place in places}
    win = draw_count = loss = 0
    draw = _stream(seed)
    # In the orders round ``resolve`` overwrites every order field, so one masked copy
    # serves all samples (and keeps the decision lists' memo warm); after the orders
    # reveal each sample draws its own value for what the other side keeps unseen.
    once = _masked(state, foe, hidden, draw) if state.round is RoundKind.ORDERS else None
    # The orders reveal draws nothing: the same orders give the same revealed state, so
    # each set of orders is resolved once and its resource round's decisions listed once.
    revealed: dict[tuple[tuple[str, str, str], ...], tuple[State, list[Decision]]] = {}
    for index in range(samples):
        rng_seed = f"odds|{seed}|{index}"
        current = once if once is not None else _masked(state, foe, hidden, draw)
        decisions = now
        if current.round is RoundKind.ORDERS:
            choices = _choices(decisions, me, own, draw)
            orders = tuple(
                (side_key, field, value)
                for side_key, fields in choices.items()
                for field, value in fields.items()
            )
            known = revealed.get(orders)
            if known is None:
                after, _ = resolve(current, choices, Rng(rng_seed, current.turn, "orders"))
                known = revealed[orders] = (after, pending(catalog, after))
            current, decisions = known
            after_own: Mapping[str, str] = {}
        else:
            after_own = own
        choices = _choices(decisions, me, after_own, draw)
        current, _ = resolve(current, choices, Rng(rng_seed, current.turn, "resource"))
        mine_ticked = theirs_ticked = 0
        for place in places:
            ticked = current.tracks[place.key].boxes - before[place.key]
            totals[place.key] += ticked
            hits[place.key] += ticked > 0
            if place.side is me:
                mine_ticked += ticked
            else:
                theirs_ticked += ticked
        if theirs_ticked > mine_ticked:
            win += 1
        elif theirs_ticked == mine_ticked:
            draw_count += 1
        else:
            loss += 1
    targets = tuple(
        TargetOdds(
            place=place.key,
            name=place.name,
            side=place.side.value,
            boxes=totals[place.key] / samples,
            hit=hits[place.key] / samples,
        )
        for place in places
    )
    return Odds(
        side=me.value,
        samples=samples,
        win=win,
        draw=draw_count,
        loss=loss,
        targets=targets,
        sampled=tuple(sampled),
    )

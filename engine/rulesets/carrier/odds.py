"""The carrier odds preview: the coming turn played many times from one side's knowledge.

Pure and deterministic. Each sample copies the state, puts a random legal value in place
of every value of the other side that the asking side has not seen yet (the doctrine
between the orders reveal and the strikes), draws every pick still to be made at random
among its legal options (the other side's, and the asker's own fields left unpicked),
then plays the rest of the turn with the ruleset's own ``resolve``. Every draw is made
first (``plan``), in sample order; the plays themselves (``play``) draw nothing more of
this stream, so they may be shared out over processes without moving a figure.

Its randomness comes from the ``seed`` the caller builds from public data, never from the
campaign's seed: that one is secret until the end and would tell the real draws to come.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from engine.rng import Rng
from engine.ruleset import Decision, Event, Odds, Spread, TargetOdds
from engine.rulesets.carrier.campaign import pending, resolve, resource_tracks
from engine.rulesets.carrier.state import State, TrackState
from engine.zero.catalog import Catalog
from engine.zero.orders import DOCTRINE_PRESETS
from engine.zero.types import RoundKind, Side

Resolve = Callable[[State, Mapping[str, Mapping[str, str]], Rng], tuple[State, list[Event]]]
# One play of a resource round: the damage tracks it leaves (``campaign.resource_tracks``).
Sample = Callable[[State, dict[str, dict[str, str]], Rng], Mapping[str, TrackState]]

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


@dataclass(frozen=True)
class Plays:
    """Resource rounds to play: each sample's starting state (by index), choices and seed.

    Everything a sample draws at random is drawn while planning, in sample order, so the
    plays themselves may run in any order, anywhere, and tally to the same figures.
    """

    starts: tuple[State, ...]
    samples: tuple[tuple[int, dict[str, dict[str, str]], str], ...]
    places: tuple[str, ...]
    mine: tuple[bool, ...]  # per place: does it belong to the asking side


@dataclass(frozen=True)
class Tally:
    """Sums over some samples: boxes ticked and turns with a hit per place, outcomes."""

    totals: tuple[int, ...]
    hits: tuple[int, ...]
    win: int
    draw: int
    loss: int


def sampler(catalog: Catalog) -> Sample:
    """One play of a resource round with ``catalog``'s rules, read for its tracks only."""

    def sample(
        state: State, choices: dict[str, dict[str, str]], rng: Rng
    ) -> Mapping[str, TrackState]:
        by_side = {Side(side): choice for side, choice in choices.items()}
        return resource_tracks(catalog, state, by_side, rng)

    return sample


def play(sample: Sample, plays: Plays) -> Tally:
    """Play every sample of ``plays``'s resource round and sum what the tracks show."""
    width = len(plays.places)
    before = [[s.tracks[key].boxes for key in plays.places] for s in plays.starts]
    totals = [0] * width
    hits = [0] * width
    win = draw = loss = 0
    for start_index, choices, rng_seed in plays.samples:
        start = plays.starts[start_index]
        tracks = sample(start, choices, Rng(rng_seed, start.turn, "resource"))
        was = before[start_index]
        mine_ticked = theirs_ticked = 0
        for index, key in enumerate(plays.places):
            ticked = tracks[key].boxes - was[index]
            totals[index] += ticked
            hits[index] += ticked > 0
            if plays.mine[index]:
                mine_ticked += ticked
            else:
                theirs_ticked += ticked
        if theirs_ticked > mine_ticked:
            win += 1
        elif theirs_ticked == mine_ticked:
            draw += 1
        else:
            loss += 1
    return Tally(tuple(totals), tuple(hits), win, draw, loss)


@dataclass(frozen=True)
class Question:
    """What one side asks: the state as it stands, its own drafts of the open round
    (``picks``), the fields of the other side it has not seen yet (``hidden``), how many
    plays, and the public seed they draw from."""

    state: State
    side: str
    picks: Mapping[str, str]
    hidden: Sequence[str]
    samples: int
    seed: str


def plan(
    catalog: Catalog, resolve: Resolve, question: Question
) -> tuple[Plays, tuple[str, ...]] | None:
    """Every sample's draws, in order, and the fields sampled (None once the turn is over)."""
    state, hidden, samples = question.state, question.hidden, question.samples
    if state.finished or samples < 1:
        return None
    if state.history:
        # No rule of the turn reads the past turns: a state without them copies for free.
        state = state.model_copy(update={"history": ()})
    me = Side(question.side)
    foe = me.enemy
    now = pending(catalog, state)
    mine = {d.field: d for d in now if d.side == me}
    # A draft that is no longer legal (the panel changed under it) counts as no pick.
    own = {f: v for f, v in question.picks.items() if f in mine and mine[f].allows(v)}
    sampled = [f for f in mine if f not in own]
    if state.round is RoundKind.ORDERS:
        sampled.append("resource")  # picked next round, after the orders are seen
    places = catalog.scenarios[state.scenario].places
    draw = _stream(question.seed)
    starts: list[State] = []
    start_of: dict[object, int] = {}

    def start_index(key: object, start: State) -> int:
        index = start_of.get(key)
        if index is None:
            index = start_of[key] = len(starts)
            starts.append(start)
        return index

    # In the orders round ``resolve`` overwrites every order field, so one masked copy
    # serves all samples; after the orders reveal each sample draws its own value for
    # what the other side keeps unseen.
    once = _masked(state, foe, hidden, draw) if state.round is RoundKind.ORDERS else None
    # The orders reveal draws nothing: the same orders give the same revealed state, so
    # each set of orders is resolved once and its resource round's decisions listed once.
    revealed: dict[tuple[tuple[str, str, str], ...], tuple[int, list[Decision]]] = {}
    planned: list[tuple[int, dict[str, dict[str, str]], str]] = []
    for index in range(samples):
        rng_seed = f"odds|{question.seed}|{index}"
        if once is not None:
            choices = _choices(now, me, own, draw)
            orders = tuple(
                (side_key, field, value)
                for side_key, fields in choices.items()
                for field, value in fields.items()
            )
            known = revealed.get(orders)
            if known is None:
                after, _ = resolve(once, choices, Rng(rng_seed, once.turn, "orders"))
                known = revealed[orders] = (
                    start_index(orders, after),
                    pending(catalog, after),
                )
            at, decisions = known
            after_own: Mapping[str, str] = {}
        else:
            masked = _masked(state, foe, hidden, draw)
            kept = tuple(getattr(masked.sides[foe], name) for name in hidden if name in KEPT)
            at = start_index(kept, masked)
            decisions, after_own = now, own
        planned.append((at, _choices(decisions, me, after_own, draw), rng_seed))
    plays = Plays(
        starts=tuple(starts),
        samples=tuple(planned),
        places=tuple(place.key for place in places),
        mine=tuple(place.side is me for place in places),
    )
    return plays, tuple(sampled)


def chunks(plays: Plays, parts: int) -> list[Plays]:
    """``plays`` cut into at most ``parts`` runs of consecutive samples, each carrying only
    the starting states its samples use (they travel to another process)."""
    size = -(-len(plays.samples) // max(1, parts))
    out: list[Plays] = []
    for first in range(0, len(plays.samples), size):
        renumbered: dict[int, int] = {}
        samples = []
        for start, choices, seed in plays.samples[first : first + size]:
            index = renumbered.setdefault(start, len(renumbered))
            samples.append((index, choices, seed))
        starts = tuple(plays.starts[start] for start in renumbered)
        out.append(Plays(starts, tuple(samples), plays.places, plays.mine))
    return out


def preview(
    catalog: Catalog,
    resolve: Resolve,
    question: Question,
    spread: Spread | None = None,
    parts: int = 1,
) -> Odds | None:
    """The question's plays of the rest of this turn (None once it is over).

    ``spread`` (a ``map``) may play ``parts`` runs of them elsewhere, other processes say:
    the draws are all made here first, so the figures are the same to the last digit.
    With one part the whole preview goes there, draws included: the question is a few
    hundred bytes, where the plays' starting states of an orders round are a hundred KiB.
    """
    if spread is not None and parts <= 1:
        return spread(_preview_default, [question])[0]  # type: ignore[no-any-return]
    planned = plan(catalog, resolve, question)
    samples = question.samples
    if planned is None:
        return None
    plays, sampled = planned
    if spread is None:
        tallies = [play(sampler(catalog), plays)]
    else:
        tallies = spread(_play_default, chunks(plays, parts))
    places = catalog.scenarios[question.state.scenario].places
    totals = [sum(t.totals[i] for t in tallies) for i in range(len(places))]
    hits = [sum(t.hits[i] for t in tallies) for i in range(len(places))]
    targets = tuple(
        TargetOdds(
            place=place.key,
            name=place.name,
            side=place.side.value,
            boxes=totals[index] / samples,
            hit=hits[index] / samples,
        )
        for index, place in enumerate(places)
    )
    return Odds(
        side=Side(question.side).value,
        samples=samples,
        win=sum(t.win for t in tallies),
        draw=sum(t.draw for t in tallies),
        loss=sum(t.loss for t in tallies),
        targets=targets,
        sampled=sampled,
    )


def _packaged() -> tuple[Catalog, Resolve]:
    """The packaged catalog and its rules' ``resolve``: what a worker process plays with
    (it can import this module by name; the caller spreads only previews of that catalog)."""
    from engine.zero.loader import default_catalog

    catalog = default_catalog()

    def by_side(
        state: State, choices: Mapping[str, Mapping[str, str]], rng: Rng
    ) -> tuple[State, list[Event]]:
        sides = {Side(side): dict(choice) for side, choice in choices.items()}
        return resolve(catalog, state, sides, rng)

    return catalog, by_side


def _play_default(plays: Plays) -> Tally:
    """``play`` with the packaged catalog's rules: what a worker process runs for a run
    of samples."""
    return play(sampler(_packaged()[0]), plays)


def _preview_default(question: Question) -> Odds | None:
    """``preview`` with the packaged catalog's rules, played where it is called: what a
    worker process runs for a preview handed over whole."""
    return preview(*_packaged(), question)

"""Campaigns that play themselves through the service, and an open-loop load over them.

An ``Actor`` is one campaign's two commanders. Each ``step`` is one service call, the
calls a commander's clicks make: read the panel, draft one field (a random legal option),
lock; the second lock of a round also resolves it. ``open_loop`` issues calls at Poisson
arrival times whatever the latency of earlier calls (open loop: a slow answer does not slow
the arrivals), each on a random campaign that has no call in flight, and times every call
from its *scheduled* arrival to its answer, so waiting behind earlier calls counts.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.service import CampaignService
from bot.service_model import Pace, ServiceError
from engine.zero.types import Side

SIDES = (Side.JAPANESE, Side.ALLIED)


@dataclass(frozen=True)
class Seen:
    """What a player's Discord client shows of a panel, all a commander's next click needs.
    Kept instead of the ``PanelData`` (which holds the side's whole view): the clients'
    screens live in Discord, not in the bot's process, and 1,000 views kept here made each
    of the bot's full garbage collections walk 270,000 more objects."""

    round_id: int
    turn: int
    locked: bool
    missing: tuple[str, ...]
    options: dict[str, tuple[str, ...]]  # field -> legal option ids

    @classmethod
    def of(cls, panel: Any) -> Seen:
        return cls(
            panel.round_id,
            panel.turn,
            panel.locked,
            tuple(panel.missing),
            {d.field: tuple(o.id for o in d.options) for d in panel.decisions},
        )


@dataclass
class Actor:
    campaign_id: int
    users: dict[Side, int]
    rng: random.Random
    side: int = 0  # index in SIDES of the side acting now
    panel: Seen | None = None  # what that side's panel shows, once read
    finished: bool = False
    busy: asyncio.Lock = field(default_factory=asyncio.Lock)
    # After a resolution, a player looks at the new board (``/status``'s service work) before
    # the next panel: ``bench/capacity.py`` puts it in the mix, ``bench/service.py`` does not.
    status_after_resolve: bool = False
    look: bool = False  # a /status is due

    async def step(self, service: CampaignService) -> str:
        """One service call; returns its kind (status, panel, draft, lock, resolve, refused,
        over)."""
        side = list(self.users)[self.side]  # the sides in the order they joined
        user = self.users[side]
        try:
            if self.look:
                self.look = False
                await service.status(self.campaign_id)
                return "status"
            if self.panel is None:
                self.panel = Seen.of(await service.panel(self.campaign_id, user))
                if self.panel.locked:  # locked already (a default, a retry): the other side
                    self.side, self.panel = 1 - self.side, None
                return "panel"
            missing = self.panel.missing
            if missing:
                choice = self.rng.choice(self.panel.options[missing[0]])
                self.panel = Seen.of(
                    await service.draft(
                        self.campaign_id, user, self.panel.round_id, missing[0], choice
                    )
                )
                return "draft"
            result = await service.lock(self.campaign_id, user, self.panel.round_id)
        except ServiceError:
            if self.panel is None:
                self.finished = True  # no open round: the campaign is over
                return "over"
            self.panel = None
            return "refused"
        self.panel = None
        self.side = 0 if result.resolved else 1 - self.side
        self.look = result.resolved and self.status_after_resolve
        return "resolve" if result.resolved else "lock"


async def create_actors(
    service: CampaignService, count: int, *, first: int = 0, scenario: str | None = None
) -> list[Actor]:
    """``count`` started campaigns (one per channel), alternating the scenarios."""
    default = service.rulesets.get(service.rulesets.default).rules  # the default game's
    scenarios = [scenario] if scenario else sorted(default.scenarios())
    actors = []
    for index in range(first, first + count):
        gm = 1_000_000 + index
        info = await service.create_campaign(
            1, 10_000_000 + index, gm, scenarios[index % len(scenarios)], Pace(), seed=f"b{index}"
        )
        users = {Side.JAPANESE: 2 * index + 1, Side.ALLIED: 2 * index + 2}
        for side, user in users.items():
            await service.join(info.id, user, side)
        await service.start(info.id, gm)
        actors.append(Actor(info.id, users, random.Random(index)))
    return actors


@dataclass
class LoadResult:
    rate: float
    issued: int = 0
    latencies: dict[str, list[float]] = field(default_factory=dict)
    wall: float = 0.0
    saturated: bool = False

    def all(self) -> list[float]:
        return [x for values in self.latencies.values() for x in values]


def _pick(actors: list[Actor], rng: random.Random) -> Actor | None:
    """A random campaign still playing, one with no call in flight if a few tries find one."""
    fallback = None
    for _ in range(32):
        actor = rng.choice(actors)
        if actor.finished:
            continue
        if not actor.busy.locked():
            return actor
        fallback = actor
    if fallback is None:
        live = [a for a in actors if not a.finished]
        return rng.choice(live) if live else None
    return fallback


async def open_loop(
    service: CampaignService,
    actors: list[Actor],
    rate: float,
    calls: int,
    *,
    seed: int = 1,
    give_up_after: float = 5.0,
    stop: asyncio.Event | None = None,
) -> LoadResult:
    """Issue ``calls`` calls at ``rate``/s (Poisson); stop early once a call waits
    ``give_up_after`` seconds (the rate is past saturation) or when ``stop`` is set."""
    rng = random.Random(seed)
    result = LoadResult(rate)
    loop = asyncio.get_running_loop()
    tasks: set[asyncio.Task[None]] = set()
    oldest: dict[asyncio.Task[None], float] = {}

    async def one(actor: Actor, scheduled: float) -> None:
        async with actor.busy:
            kind = await actor.step(service)
        result.latencies.setdefault(kind, []).append(time.perf_counter() - scheduled)

    start = time.perf_counter()
    due = start
    for _ in range(calls):
        if stop is not None and stop.is_set():
            break
        due += rng.expovariate(rate)
        # Always yield (sleep(0) when behind), so calls in flight progress while arrivals go on.
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        if oldest and time.perf_counter() - min(oldest.values()) > give_up_after:
            result.saturated = True  # a call has waited that long: past saturation, stop
            break
        actor = _pick(actors, rng)
        if actor is None:
            break
        task = loop.create_task(one(actor, due))
        tasks.add(task)
        oldest[task] = due
        task.add_done_callback(lambda t: (tasks.discard(t), oldest.pop(t, None)))
        result.issued += 1
    if tasks:
        await asyncio.gather(*tasks)
    result.wall = time.perf_counter() - start
    return result


async def rates_met(
    rates: list[float],
    refine: int,
    p99_target_ms: float,
    measure: Callable[[float], Awaitable[tuple[LoadResult, float]]],
) -> tuple[list[float], list[float]]:
    """Offers each rate in turn through ``measure`` (its result and p99 in ms), stopping
    past saturation, then bisects ``refine`` times between the best rate that met the p99
    target and the first above it that did not: the rates that met it, and the others."""
    passing: list[float] = []
    failing: list[float] = []
    for rate in rates:
        result, p99 = await measure(rate)
        if p99 <= p99_target_ms and not result.saturated:
            passing.append(rate)
        else:
            failing.append(rate)
            if result.saturated or len(result.all()) / result.wall < 0.9 * rate:
                print(f"{'':>9} (past saturation: the higher rates are not tried)")
                break
    for _ in range(refine):
        above = [rate for rate in failing if passing and rate > max(passing)]
        if not above:
            break
        rate = round((max(passing) + min(above)) / 2)
        if rate in passing or rate in failing:
            break
        result, p99 = await measure(rate)
        (passing if p99 <= p99_target_ms and not result.saturated else failing).append(rate)
    return passing, failing

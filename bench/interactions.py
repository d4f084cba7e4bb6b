"""Interaction latency through simcord, as ratios to a no-op slash command in the same run.

The real bot runs in simcord (the in-memory Discord of the end-to-end tests) with simcord's
idle poll at its useful minimum: simcord's settlement waits ``idle`` seconds (default
50 ms, ``simcord.env.Env._settle_internal``) between checks of the bot's pending work, so
with the default every figure would include up to 50 ms of the harness. The poll is set to
``--idle`` (default 1 ms). It has no lower bound, but it is not free: each check costs CPU
that the bot's threads (drawing) then lack. Below 1 ms the no-op gains a fraction of a
millisecond while Lock and /status get slower (on 2 cores, 0.01 ms doubled /status);
``--idle 0.001,0.01`` alternates two settings sample by sample to show the effect.

Each round of samples times, interleaved so all four see the same load: a no-op slash
command (the floor), a DM select (drafting an order on the panel), Lock (then an untimed
Unlock, so the next sample locks again) and ``/status`` in the campaign's channel. Each
sample is timed twice from the interaction: to its last answer (the reply sent or the
panel edited: what the clicking player waits for), and to the end of the bot's work
(simcord settled), which includes what the bot does after answering (the round message it
edits in the channel, the pump). Both are printed with their own no-op floor and targets.
Samples rotate over ``--foreground`` campaigns.

Two settings: 1 live campaign (just the foreground), and ``--live`` campaigns (default
1,000) of which all but the foreground play in the background at ``--rate`` calls/s
(Poisson arrivals; reading panels, drafting, locking and resolving rounds through the
service, as ``bench/service.py`` does) for the whole time the samples are taken. The
background campaigns' announcements are delivered by a null sender, which marks them
delivered without drawing them: their database work counts, their pictures do not; the
bot's pump (the 30 s loop in production) runs every second of real time meanwhile, and a
timed Lock's own pump delivers whatever is due at that moment, as in production. The
default rate, 20 calls/s, is far above what 1,000 play-by-post campaigns make on average
(a few dozen calls per campaign a day) and below the service's capacity on the
development machine (``bench/service.py``): past that capacity the figures would measure
the background's queue, not the interaction.

Targets (issue 13): DM select, Lock and /status each <= 3x the no-op (medians) and p99 <=
50 ms, with 1,000 live campaigns acting in the background.

    python bench/interactions.py [--samples 200] [--live 1000] [--rate 20] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord
import simcord
import simcord.env
import simcord.http.router
from discord import app_commands
from discord.ext import commands

from bench.common import machine, median, percentile, verdict
from bench.load import Actor, create_actors, open_loop
from bot.announce import Announcement
from bot.client import SortieBot
from bot.demo import SeededTokens
from bot.outbox import OutboxWorker, Target
from bot.runtime import FuncClock, open_services
from engine.zero.types import Side

EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
COGS = ("cogs.about", "cogs.campaign", "cogs.orders", "cogs.status")
RATIO_TARGET = 3.0
P99_TARGET_MS = 50.0
PUMP_SECONDS = 1.0
ACTIONS = ("noop", "select", "lock", "status")
# Each sample is timed twice: to the interaction's last answer (what the player waits for)
# and to the end of the bot's work (simcord settled: the round message, the pump).
MEASURES = ("answered", "settled", "cpu")
# simcord's settlement polls the bot's pending work every `idle` seconds, and every
# interaction helper settles with this default (50 ms): the benchmark sets the default.
DEFAULTS = simcord.env.Env._settle_internal.__kwdefaults__ or {}
assert "idle" in DEFAULTS, "simcord's idle poll moved"


class Noop(commands.Cog):
    @app_commands.command(name="noop", description="does nothing")
    async def noop(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("ok", ephemeral=True)


class BenchBot(SortieBot):
    """The real bot plus /noop; background campaigns' announcements skip the drawing."""

    background: frozenset[int] = frozenset()

    async def setup_hook(self) -> None:
        await self.add_cog(Noop())
        await super().setup_hook()
        outbox = self.services.outbox
        assert outbox is not None
        real_build, real_sender = outbox._build(), outbox.sender
        background = self.background

        class Build:
            """The background campaigns' rows stand-ins; the others built by the bot's
            builder, in one batch as the bot builds them (one read for all of them)."""

            async def __call__(self, row: Any) -> Announcement | None:
                # A worker from before batches (a tree compared with this one) asks row
                # by row, of a builder that is then a function too.
                if row.campaign_id in background:
                    return Announcement(kind=row.kind, text=row.kind)
                return await real_build(row)  # type: ignore[operator]

            async def build_all(self, rows: Any) -> list[Any]:
                mine = [row for row in rows if row.campaign_id not in background]
                made = await real_build.build_all(mine)  # type: ignore[union-attr]
                theirs = iter(made)
                return [
                    Announcement(kind=row.kind, text=row.kind)
                    if row.campaign_id in background
                    else next(theirs)
                    for row in rows
                ]

        class Split:
            next_id = 10**15

            async def send(
                self, target: Target, announcement: Any, *, edit_message_id: int | None
            ) -> int | None:
                if target.campaign_id in background:
                    Split.next_id += 1
                    return edit_message_id or Split.next_id
                return await real_sender.send(target, announcement, edit_message_id=edit_message_id)

        outbox._builder = Build()
        outbox.sender = Split()


class NullSender:
    next_id = 1

    async def send(self, target: Any, announcement: Any, *, edit_message_id: int | None) -> int:
        NullSender.next_id += 1
        return edit_message_id or NullSender.next_id


async def drain(services: Any) -> None:
    async def build(row: Any) -> Announcement:
        return Announcement(kind=row.kind, text=row.kind)

    worker = OutboxWorker(services.repo, NullSender(), services.clock, builder=build, batch=1000)
    while (await worker.deliver_due()).delivered:
        pass


def _component(message: discord.Message, suffix: str) -> Any:
    for row in message.components:
        for child in getattr(row, "children", ()):
            if (getattr(child, "custom_id", None) or "").endswith(suffix) or (
                getattr(child, "custom_id", None) or ""
            ).startswith(suffix):
                return child
    raise LookupError(suffix)


class Foreground:
    """One campaign played through simcord: its channel, commanders and panel message."""

    def __init__(self, env: simcord.Env, guild: Any, index: int) -> None:
        self.env = env
        self.j_user = env.create_user(f"j{index}")
        self.a_user = env.create_user(f"a{index}")
        self.japanese = guild.add_member(self.j_user)
        guild.add_member(self.a_user)
        self.channel = guild.create_text_channel(f"c-{index}")
        self.panel_id = 0
        self.flip = 0

    async def start(self, bot: SortieBot, svc: Any, gm: Any, guild: Any) -> None:
        info = await svc.create_campaign(guild.id, self.channel.id, gm.id, "coral-sea")
        await svc.join(info.id, self.japanese.id, Side.JAPANESE)
        await svc.join(info.id, self.a_user.id, Side.ALLIED)
        await svc.start(info.id, gm.id)
        await bot.pump()
        await self.env.settle()
        # Draft every field (untimed), so Lock is accepted.
        panel = await svc.panel(info.id, self.japanese.id)
        for field in panel.missing:
            decision = next(d for d in panel.decisions if d.field == field)
            await svc.draft(info.id, self.japanese.id, panel.round_id, field, decision.default)
        self.panel_id = [m for m in self.j_user.dm_channel.history() if m.components][-1].id

    def panel(self) -> discord.Message:
        return next(m for m in self.j_user.dm_channel.history() if m.id == self.panel_id)

    def select(self) -> Any:
        panel = self.panel()
        select = _component(panel, ":fleet_tactic")
        self.flip += 1
        value = select.options[self.flip % len(select.options)].value
        return self.j_user.select(panel, [value], custom_id=select.custom_id)

    def lock(self) -> Any:
        panel = self.panel()
        return self.j_user.click(panel, custom_id=_component(panel, "sortie:lock:").custom_id)

    def unlock(self) -> Any:
        panel = self.panel()
        return self.j_user.click(panel, custom_id=_component(panel, "sortie:unlock:").custom_id)


async def pump_loop(bot: SortieBot, stop: asyncio.Event) -> None:
    """The bot's pump (every 30 s in production; simcord's clock stands still here), every
    PUMP_SECONDS of real time, so the background's announcements do not pile up for the
    timed Lock's own pump to deliver."""
    while not stop.is_set():
        await bot.pump()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), PUMP_SECONDS)


# When the bot last answered an interaction (a response, an edit of it, a follow-up): what
# the clicking player sees. Work after it (the round message in the channel, the outbox's
# pump) is the rest of "settled".
ANSWERED: list[float] = [0.0]
# When the bot first acknowledged it (a deferral counts: what Discord's three seconds and
# the click's spinner wait for); ``None`` until then. Reset by ``timed``.
ACKNOWLEDGED: list[float | None] = [None]


def _stamped(owner: Any, name: str, *, last: bool = True) -> None:
    real = getattr(owner, name)

    async def answer(*args: Any, **kwargs: Any) -> Any:
        try:
            return await real(*args, **kwargs)
        finally:
            now = time.perf_counter()
            if last:
                ANSWERED[0] = now
            if ACKNOWLEDGED[0] is None:
                ACKNOWLEDGED[0] = now

    setattr(owner, name, answer)


for _owner, _name in (
    (discord.InteractionResponse, "send_message"),
    (discord.InteractionResponse, "edit_message"),
    (discord.Interaction, "edit_original_response"),
    (discord.Webhook, "send"),
):
    _stamped(_owner, _name)
_stamped(discord.InteractionResponse, "defer", last=False)


# What each action costs, counted rather than timed: the requests the bot makes to Discord
# (simcord's route table) and its write transactions, durable (waiting for the disk) or
# lazy (the outbox's bookkeeping). Counted from the click to settled, so the Lock's pump
# is in it; with the background acting, its transactions would be too (not printed then).
COUNTING: list[str | None] = [None]
COUNTS: dict[str, Counter[str]] = {name: Counter() for name in ACTIONS}
_dispatch = simcord.http.router.dispatch


def _counted_dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
    if COUNTING[0] is not None:
        COUNTS[COUNTING[0]]["Discord requests"] += 1
    return _dispatch(backend, method, path, **kwargs)


simcord.http.router.dispatch = _counted_dispatch


def count_writes(repo: Any) -> None:
    """Count the repository's write transactions by kind, while an action is timed."""
    for name, label in (("transaction", "durable writes"), ("lazy_transaction", "lazy writes")):
        real = getattr(repo, name)

        def counted(*args: Any, real: Any = real, label: str = label, **kwargs: Any) -> Any:
            if COUNTING[0] is not None:
                COUNTS[COUNTING[0]][label] += 1
            return real(*args, **kwargs)

        setattr(repo, name, counted)


async def timed(call: Any, env: simcord.Env, name: str | None = None) -> tuple[float, float, float]:
    """Seconds from the interaction to its last answer (what the player waits for), to the
    bot's work done (simcord settled), and the process's CPU seconds meanwhile (bot and
    harness, every thread: steadier than wall time on a shared machine)."""
    cpu = time.process_time()
    start = ANSWERED[0] = time.perf_counter()
    ACKNOWLEDGED[0] = None
    COUNTING[0] = name
    try:
        await call
        await env.settle(idle=DEFAULTS["idle"])
    finally:
        COUNTING[0] = None
    settled = time.perf_counter()
    return ANSWERED[0] - start, settled - start, time.process_time() - cpu


async def run(live: int, rate: float, samples: int, foreground: int, idles: list[float]) -> None:
    holder: list[Any] = []
    clock = FuncClock(lambda: holder[0].now() if holder else EPOCH)
    with tempfile.TemporaryDirectory() as folder:
        services = await open_services(Path(folder) / "bench.db", clock, seeds=SeededTokens(1))
        try:
            count_writes(services.repo)
            for counts in COUNTS.values():
                counts.clear()
            svc = services.campaigns
            background: list[Actor] = []
            if live > foreground:
                background = await create_actors(svc, live - foreground)
            await drain(services)
            BenchBot.background = frozenset(actor.campaign_id for actor in background)
            bot = BenchBot(services=services, cogs=COGS)
            async with simcord.run(bot) as env:
                holder.append(env)
                guild = env.create_guild()
                gm = guild.add_member(env.create_user("gm"))
                games = [Foreground(env, guild, index) for index in range(foreground)]
                for game in games:
                    await game.start(bot, svc, gm, guild)
                stop = asyncio.Event()
                load = pumping = None
                if background and rate > 0:
                    load = asyncio.create_task(
                        open_loop(svc, background, rate, 10**9, stop=stop, give_up_after=1e9)
                    )
                    pumping = asyncio.create_task(pump_loop(bot, stop))
                timings: dict[float, dict[str, dict[str, list[float]]]] = {
                    idle: {measure: {name: [] for name in ACTIONS} for measure in MEASURES}
                    for idle in idles
                }
                started = time.perf_counter()
                for index in range(samples * len(idles)):
                    # The poll settings alternate sample by sample, so they share the same load.
                    idle = idles[index % len(idles)]
                    DEFAULTS["idle"] = idle
                    game = games[(index // len(idles)) % len(games)]
                    out = timings[idle]

                    def keep(name: str, times: tuple[float, float, float], out: Any = out) -> None:
                        for measure, value in zip(MEASURES, times, strict=True):
                            out[measure][name].append(value)

                    keep(
                        "noop", await timed(game.japanese.slash(game.channel, "noop"), env, "noop")
                    )
                    keep("select", await timed(game.select(), env, "select"))
                    keep("lock", await timed(game.lock(), env, "lock"))
                    await game.unlock()
                    await env.settle()
                    keep(
                        "status",
                        await timed(game.japanese.slash(game.channel, "status"), env, "status"),
                    )
                wall = time.perf_counter() - started
                result = None
                if load is not None and pumping is not None:
                    stop.set()
                    result = await load
                    await pumping
        finally:
            # Closed on an error too: its connection thread would keep Python from exiting.
            await services.close()
    for idle in idles:
        report(live, rate, samples, foreground, idle, timings[idle], result, wall)
        result = None  # the background figures once
    if not background:
        print("-- counted per sample, from the click to settled (the background's would mix in)")
        for name in ACTIONS:
            counts = ", ".join(
                f"{label} {COUNTS[name][label] / (samples * len(idles)):.2f}"
                for label in ("Discord requests", "durable writes", "lazy writes")
            )
            print(f"{name:<10}{counts}")


def _p99(values: list[float]) -> str:
    try:
        return f"{percentile(values, 0.99) * 1000:.1f}"
    except ValueError:
        return "-"


def report(
    live: int,
    rate: float,
    samples: int,
    foreground: int,
    idle: float,
    timings: dict[str, dict[str, list[float]]],
    background: Any,
    wall: float,
) -> None:
    acting = (
        f"{live - foreground} acting in the background at {rate:g} calls/s offered"
        if live > foreground and rate > 0
        else "none acting in the background"
    )
    print(
        f"\n== {live} live campaign(s), {acting}; simcord poll {idle * 1000:g} ms; "
        f"{samples} samples per action"
    )
    if background is not None:
        every = background.all()
        kinds = ", ".join(f"{k} {len(v)}" for k, v in sorted(background.latencies.items()))
        print(
            f"background: {len(every)} calls in {wall:.0f} s = {len(every) / wall:.0f}/s "
            f"({kinds}); their latency p50 {median(every) * 1000:.1f} ms, p99 {_p99(every)} ms"
        )
    for measure in MEASURES:
        _table(measure, timings[measure])


def _table(measure: str, timings: dict[str, list[float]]) -> None:
    if measure == "answered":
        print("-- to the last answer the player sees (the panel edited, the reply sent)")
    elif measure == "settled":
        print("-- to the bot's work done (simcord settled: the round message edited, the pump)")
    else:
        print("-- CPU time of the process to settled (bot and harness; for A/B runs, no target)")
        noop = median(timings["noop"])
        for name in ACTIONS:
            values = timings[name]
            print(
                f"{name:<10}{len(values):>5}{median(values) * 1000:>9.2f}{_p99(values):>9}"
                f"{median(values) / noop:>9.2f}"
            )
        return
    noop = median(timings["noop"])
    print(f"{'action':<10}{'n':>5}{'p50 ms':>9}{'p99 ms':>9}{'x no-op':>9}  targets")
    for name in ACTIONS:
        values = timings[name]
        p50 = median(values)
        ratio = p50 / noop
        if name == "noop":
            verdicts = "the floor"
        else:
            try:
                p99_ok = verdict(percentile(values, 0.99) * 1000, P99_TARGET_MS)
            except ValueError:
                p99_ok = "p99 needs 100 samples"
            verdicts = (
                f"x <= {RATIO_TARGET:g}: {verdict(ratio, RATIO_TARGET)}; "
                f"p99 <= {P99_TARGET_MS:g} ms: {p99_ok}"
            )
        print(
            f"{name:<10}{len(values):>5}{p50 * 1000:>9.1f}{_p99(values):>9}{ratio:>9.2f}  "
            f"{verdicts}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--samples", type=int, default=200, help="samples per action")
    parser.add_argument("--live", type=int, default=1000, help="live campaigns, second run")
    parser.add_argument("--rate", type=float, default=20.0, help="background calls/s")
    parser.add_argument("--foreground", type=int, default=10, help="campaigns sampled")
    parser.add_argument(
        "--idle", default="0.001", help="simcord's idle poll, s; several (0.001,0.01) alternate"
    )
    parser.add_argument("--quick", action="store_true", help="smoke run: tiny sizes")
    args = parser.parse_args(argv)
    if args.quick:
        args.samples, args.live, args.rate, args.foreground = 4, 6, 20.0, 2
    idles = [float(idle) for idle in str(args.idle).split(",")]
    print(f"machine: {machine()}")
    print(
        f"simcord idle poll: {', '.join(f'{i * 1000:g}' for i in idles)} ms "
        f"(simcord's default {DEFAULTS['idle'] * 1000:g} ms)"
    )
    asyncio.run(run(args.foreground, 0.0, args.samples, args.foreground, idles))
    asyncio.run(run(args.live, args.rate, args.samples, args.foreground, idles))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""One bot process of the kill test (``tests/db/killtest.py``); SIGKILLed and restarted.

Run as ``python -m tests.db.kill_worker CONFIG.json SHARD`` from the repository root.
Like a bot process given ``SHARD_IDS=SHARD``, it acts only for the campaigns whose
server falls on its shard (``(guild_id >> 22) % shards``): there the commanders draft and
lock, as their clicks would reach this process. Like every process, it also fires what is
due and delivers the outbox, for every campaign. Nothing is kept between runs: a restarted
process picks up from the database, as a restarted bot does.

Each lock the service acknowledged (the receipt a commander would see) is appended to
``acks`` before the next call, so the test can check that no acknowledged lock is lost.
The clock runs ``speed`` times faster than the wall clock, the same in every process, so
deadlines and outbox leases come due within the run. Announcements are plain text naming
the row (no rendering): what is under test is who delivers which row, and how often.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.announce import Announcement
from bot.clock import epoch
from bot.outbox import OutboxWorker
from bot.runtime import Services, open_services
from bot.service_model import ServiceError
from db.repository import OutboxRow
from tests.db.fake_discord import FakeDiscord


class ScaledClock:
    """``start`` at wall time ``wall``, then ``speed`` seconds per real second."""

    def __init__(self, start: int, wall: float, speed: float) -> None:
        self.start, self.wall, self.speed = start, wall, speed

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.start + (time.time() - self.wall) * self.speed, UTC)

    def seconds(self) -> int:
        return epoch(self.now())


@dataclass(frozen=True)
class Config:
    url: str
    folder: str
    shards: int
    start: int
    wall: float
    speed: float
    rounds: int  # rounds each campaign plays before its commanders stop
    window: int  # the fake Discord's nonce window, in the clock's seconds
    # campaign id -> (guild id, japanese commander, allied commander, allied is away in round 1)
    campaigns: dict[str, tuple[int, int, int, bool]]

    @classmethod
    def load(cls, path: str) -> Config:
        return cls(**json.loads(Path(path).read_text()))


async def plain(row: OutboxRow) -> Announcement:
    return Announcement(kind=row.kind, text=f"{row.id} {row.kind} {row.payload.get('round_id')}")


class Process:
    def __init__(self, config: Config, shard: int, services: Services, clock: ScaledClock):
        self.config = config
        self.shard = shard
        self.services = services
        self.clock = clock
        folder = Path(config.folder)
        sender = FakeDiscord(folder, clock.seconds, window=config.window)
        # Small claims, so that the processes share the work out (and a kill strands few).
        self.outbox = OutboxWorker(services.repo, sender, clock, builder=plain, batch=4)
        self.acks = os.open(folder / "acks", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self.rng = random.Random(os.getpid())
        self.mine = [
            int(cid)
            for cid, (guild, *_) in config.campaigns.items()
            if (guild >> 22) % config.shards == shard
        ]

    async def pump(self, stop: asyncio.Event) -> None:
        # SIGTERM ends the loop between two rounds of work, not inside a delivery: a
        # process stopped (not killed) leaves nothing posted and unrecorded.
        while not stop.is_set():
            tick = await self.services.campaigns.tick()
            if tick.failures:
                print("tick failures:", tick.failures, file=sys.stderr, flush=True)
            await self.outbox.deliver_due()
            await asyncio.sleep(0.03)

    async def commanders(self) -> None:
        """Play this shard's campaigns round after round, a few at a time."""
        waiting = list(self.mine)
        while waiting:
            self.rng.shuffle(waiting)
            batch, waiting = waiting[:4], waiting[4:]
            done = await asyncio.gather(*(self.play(cid) for cid in batch))
            waiting += [cid for cid, finished in zip(batch, done, strict=True) if not finished]
            await asyncio.sleep(0.01)
        os.write(self.acks, f"finished {self.shard} {os.getpid()}\n".encode())

    async def play(self, campaign_id: int) -> bool:
        """Lock the open round's sides that are at their keyboard; True once done."""
        _, japanese, allied, away = self.config.campaigns[str(campaign_id)]
        async with self.services.repo.read() as tx:
            rounds = await tx.rounds(campaign_id)
        if sum(r.status == "resolved" for r in rounds) >= self.config.rounds:
            return True
        live = next((r for r in rounds if r.status == "open"), None)
        if live is None:
            return False  # resolving: a moment
        first_round = live.id == rounds[0].id
        for user in (japanese, allied):
            if user == allied and away and first_round:
                continue  # away: the deadline gives this side its default
            try:
                panel = await self.services.campaigns.panel(campaign_id, user)
                if panel.locked or panel.round_id != live.id:
                    continue
                for decision in panel.decisions:
                    if decision.field not in panel.drafts:
                        option = self.rng.choice(decision.options)
                        await self.services.campaigns.draft(
                            campaign_id, user, panel.round_id, decision.field, option.id
                        )
                result = await self.services.campaigns.lock(campaign_id, user, panel.round_id)
            except ServiceError:
                continue  # the deadline closed the round meanwhile: the next round
            line = (
                f"lock {campaign_id} {result.round_id} {result.side} {result.receipt}"
                f" {self.shard}\n"
            )
            os.write(self.acks, line.encode())
        return False


async def main(config_path: str, shard: int) -> None:
    config = Config.load(config_path)
    clock = ScaledClock(config.start, config.wall, config.speed)
    services = await open_services(config.url, clock)
    process = Process(config, shard, services, clock)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    pump = asyncio.create_task(process.pump(stop))
    tasks = [pump, asyncio.create_task(process.commanders())]
    for task in tasks:
        # A task that dies (not one that finishes its campaigns) ends the process, loudly.
        task.add_done_callback(lambda t: t.cancelled() or t.exception() is None or stop.set())
    print("ready", flush=True)
    try:
        await stop.wait()
        await asyncio.wait_for(asyncio.shield(pump), timeout=60)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await services.close()
    for task in tasks:
        if not task.cancelled() and task.exception() is not None:
            raise SystemExit(f"worker task failed: {task.exception()!r}")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))

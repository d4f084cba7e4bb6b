"""Stopping the bot (SIGTERM from systemd or docker) lets a delivery in progress finish,
so that no message is left posted but not recorded, to be handed to Discord again."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from bot.client import SortieBot


@dataclass
class SlowTick:
    started: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)
    finished: bool = False

    async def tick(self) -> None:
        self.started.set()
        await self.release.wait()  # a delivery on its way to Discord
        self.finished = True


@dataclass
class Services:
    campaigns: SlowTick
    outbox: None = None


async def test_close_waits_for_the_pump_in_progress() -> None:
    tick = SlowTick()
    bot = SortieBot(cogs=(), services=Services(tick))
    pump = asyncio.create_task(bot.pump())
    await tick.started.wait()
    closing = asyncio.create_task(bot.close())
    await asyncio.sleep(0.05)
    assert not closing.done(), "closed in the middle of a delivery"
    tick.release.set()
    await closing
    assert tick.finished and pump.done()


async def test_close_without_a_pump_is_immediate() -> None:
    bot = SortieBot(cogs=(), services=Services(SlowTick()))
    await asyncio.wait_for(bot.close(), timeout=5)


@dataclass
class CountingOutbox:
    deliveries: int = 0

    async def deliver_due(self) -> None:
        self.deliveries += 1


@dataclass
class BusyServices:
    campaigns: SlowTick
    outbox: CountingOutbox


async def test_a_long_tick_does_not_hold_messages_back() -> None:
    # A wave of deadlines resolving many rounds takes a while; meanwhile a player's Lock
    # (which pumps) and the loop still deliver what is queued.
    tick, outbox = SlowTick(), CountingOutbox()
    bot = SortieBot(cogs=(), services=BusyServices(tick, outbox))
    first = asyncio.create_task(bot.pump())
    await tick.started.wait()
    await asyncio.wait_for(bot.pump(), timeout=5)
    assert outbox.deliveries > 0 and not tick.finished
    tick.release.set()
    await first
    assert tick.finished


async def test_closing_waits_for_the_next_rounds_panels_being_prepared(
    tmp_path: Any, monkeypatch: Any, caplog: Any
) -> None:
    """A resolution hands the next round's panels to a background task; closing the
    services waits for it instead of pulling the database from under its read."""
    import logging

    from bot import service_core
    from bot.clock import ManualClock
    from bot.runtime import open_services
    from tests.service.support import CHANNEL, GM, GUILD, pace

    real = service_core.prepare_round
    prepared: list[int] = []

    async def slow_prepare(tx: Any, rules: Any, campaign_id: int) -> None:
        await asyncio.sleep(0.05)  # still reading when the bot is told to stop
        await real(tx, rules, campaign_id)
        prepared.append(campaign_id)

    monkeypatch.setattr(service_core, "prepare_round", slow_prepare)
    clock = ManualClock()
    services = await open_services(tmp_path / "stop.db", clock)
    svc = services.campaigns
    info = await svc.create_campaign(GUILD, CHANNEL, GM, "coral-sea", pace(), seed="stop")
    await svc.join(info.id, 11, "japanese")
    await svc.join(info.id, 22, "allied")
    await svc.start(info.id, GM)
    for user in (11, 22):
        panel = await svc.panel(info.id, user)
        for decision in panel.decisions:
            await svc.draft(info.id, user, panel.round_id, decision.field, decision.default)
        await svc.lock(info.id, user, panel.round_id)
    with caplog.at_level(logging.ERROR):
        await services.close()
    assert prepared == [info.id]
    assert not [r for r in caplog.records if "preparing campaign" in r.getMessage()]

"""The running bot's services, opened once in ``setup_hook`` and closed at shutdown.

Tests build ``Services`` themselves (a temporary SQLite file, a clock that follows
simcord's virtual time) and hand them to ``SortieBot``; production opens them from the
settings. Either way the cogs reach everything through ``bot.services``.
"""

from __future__ import annotations

import gc
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from bot import preload
from bot.clock import Clock
from bot.outbox import OutboxWorker, Sender
from bot.rulesets import Registry
from bot.service import CampaignService
from bot.service_model import SeedSource
from db.backend import open_repository
from db.repository import Repository
from rendering import i18n, rulebook


def freeze_start_up() -> None:
    """Put what start-up made (modules, the games' data, schemas, the cogs) out of the garbage
    collector's reach, once the bot is ready.

    A full collection walks every tracked object, and pauses the event loop while it does:
    with 1,000 campaigns that was 35 to 65 ms, enough to lift a busy minute's p99 past 50 ms
    (bench/service.py prints the worst pause). Start-up objects live as long as the process,
    so walking them again finds nothing; frozen, they cost a full pass about half as much.
    The garbage made before is collected first so it is not kept for good. Once per
    process: a test run starts many bots, and what later ones hold is not start-up's.
    """
    global _frozen
    if _frozen:
        return
    _frozen = True
    # The words and the rules digests are read on first use, which would be inside some
    # player's click; read now, they are start-up's and frozen with it.
    i18n.warm()
    rulebook.warm()
    gc.collect()
    gc.freeze()


_frozen = False


class FuncClock:
    """A clock read from a function: simcord's virtual time in the end-to-end tests."""

    def __init__(self, source: Callable[[], datetime]) -> None:
        self.source = source

    def now(self) -> datetime:
        return self.source()


@dataclass
class Services:
    repo: Repository
    campaigns: CampaignService
    clock: Clock
    outbox: OutboxWorker | None = None

    def attach_sender(self, sender: Sender) -> OutboxWorker:
        from bot.announce import AnnouncementBuilder

        self.outbox = OutboxWorker(
            self.repo,
            sender,
            self.clock,
            builder=AnnouncementBuilder(self.repo, self.clock, rulesets=self.campaigns.rulesets),
        )
        return self.outbox

    async def close(self) -> None:
        try:
            await self.campaigns.settle()  # a next round's panels still being prepared
        finally:
            await self.repo.close()


async def open_services(
    database: Path | str,
    clock: Clock,
    *,
    default_locale: str = "en",
    seeds: SeedSource = secrets,
) -> Services:
    # Every game's data loaded now, not on a first click: the one the start-up built and
    # its worker processes share, when it did (``bot.processes.share_start_up``).
    rulesets = preload.built() or Registry()
    repo = await open_repository(database, now=clock.now())  # sqlite:///, a path, postgresql://
    try:
        campaigns = CampaignService(
            repo, clock, rng_seed_source=seeds, default_locale=default_locale, rulesets=rulesets
        )
    except BaseException:
        await repo.close()  # nobody else holds it yet
        raise
    return Services(repo=repo, campaigns=campaigns, clock=clock)

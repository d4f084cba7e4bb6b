"""Test helpers: a real campaign store (SQLite file or PostgreSQL schema), a service, restarts."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import service_states
from bot.announce import Announcement, AnnouncementBuilder
from bot.clock import ManualClock
from bot.demo import SeededTokens
from bot.outbox import OutboxWorker, RecipientUnavailable, Target
from bot.service import CampaignService
from bot.service_model import Pace
from db.backend import open_repository
from db.repository import Repository
from engine.zero.catalog import Catalog
from engine.zero.types import Side

GUILD, CHANNEL, GM = 1, 500, 9
JAP, ALL = 11, 22
COMMANDERS = {Side.JAPANESE: JAP, Side.ALLIED: ALL}


@dataclass
class RecordingSender:
    """Keeps what it was asked to post; can fail on demand."""

    sent: list[tuple[Target, Announcement, int | None]] = field(default_factory=list)
    fail_times: int = 0
    closed_dms: set[int] = field(default_factory=set)
    return_none: bool = False
    next_id: int = 10_000

    async def send(
        self, target: Target, announcement: Announcement, *, edit_message_id: int | None
    ) -> int | None:
        if target.kind == "dm" and target.id in self.closed_dms:
            raise RecipientUnavailable("Cannot send messages to this user (50007)")
        if self.fail_times > 0:
            self.fail_times -= 1
            raise ConnectionError("Discord is unreachable")
        if self.return_none:
            return None
        self.sent.append((target, announcement, edit_message_id))
        if edit_message_id is not None:
            return edit_message_id
        self.next_id += 1
        return self.next_id

    def kinds(self) -> list[str]:
        return [a.kind for _, a, _ in self.sent]


class Env:
    """A service on a store that can be closed and reopened like a restarted bot.

    ``path``: a SQLite file, or a ``sqlite:///`` / ``postgresql://`` URL.
    """

    def __init__(
        self, path: Path | str, catalog: Catalog, clock: ManualClock, tokens: SeededTokens
    ):
        self.path = path
        self.catalog = catalog
        self.clock = clock
        self.tokens = tokens
        self.repo: Repository
        self.svc: CampaignService
        self.sender = RecordingSender()

    async def open(self) -> Env:
        self.repo = await open_repository(self.path, now=self.clock.now())
        self.svc = CampaignService(self.repo, self.clock, rng_seed_source=self.tokens)
        return self

    async def close(self) -> None:
        await self.repo.close()

    async def restart(self) -> None:
        await self.close()
        await self.open()
        await self.svc.recover()

    def worker(self) -> OutboxWorker:
        return OutboxWorker(
            self.repo,
            self.sender,
            self.clock,
            builder=AnnouncementBuilder(self.repo, self.clock),
        )

    def bots_worker(self) -> OutboxWorker:
        """The outbox's worker as the bot makes it: its announcer shares the service's
        plugins, so the states, views and decisions it reads are the ones the service keeps."""
        builder = AnnouncementBuilder(self.repo, self.clock, rulesets=self.svc.rulesets)
        return OutboxWorker(self.repo, self.sender, self.clock, builder=builder)

    async def campaign(
        self,
        scenario: str = "coral-sea",
        pace: Pace | None = None,
        *,
        start: bool = True,
        ruleset: str | None = None,
        seed: str = "test-seed",
        seats: Sequence[tuple[int, str]] = ((JAP, Side.JAPANESE), (ALL, Side.ALLIED)),
    ) -> int:
        """A campaign in the test channel with each (user, side) of ``seats`` joined, started
        by the GM unless asked not to; its id."""
        info = await self.svc.create_campaign(
            GUILD, CHANNEL, GM, scenario, pace or Pace(), seed=seed, ruleset=ruleset
        )
        for user, side in seats:
            await self.svc.join(info.id, user, side)
        if start:
            await self.svc.start(info.id, GM)
        return info.id

    async def fill(self, cid: int, user: int, rng: random.Random | None = None) -> int:
        """Draft a legal option for every field of the user's side; return the round id."""
        panel = await self.svc.panel(cid, user)
        for decision in panel.decisions:
            option = rng.choice(decision.options) if rng else decision.options[0]
            await self.svc.draft(cid, user, panel.round_id, decision.field, option.id)
        return panel.round_id

    async def cold_before_last_lock(self, cid: int, rng: random.Random) -> int:
        """Both sides drafted, the Japanese locked, the parsed states and their views
        forgotten (cold, as a bot serving many campaigns): the round's id, for the Lock
        that resolves it."""
        await self.fill(cid, JAP, rng)
        round_id = await self.fill(cid, ALL, rng)
        await self.svc.lock(cid, JAP, round_id)
        service_states._states._items.clear()
        service_states._memo._items.clear()
        return round_id

    async def play_round(self, cid: int, rng: random.Random | None = None) -> None:
        for user in (JAP, ALL):
            round_id = await self.fill(cid, user, rng)
            await self.svc.lock(cid, user, round_id)

    async def played_to_history(self, rounds: int, seed: int = 4) -> tuple[int, Any]:
        """A campaign played round by round (at most ``rounds``) until its current snapshot
        holds a history record: its id and campaign row."""
        cid = await self.campaign()
        rng = random.Random(seed)
        for _ in range(rounds):
            await self.play_round(cid, rng)
            await self.svc.settle()
            async with self.repo.read() as tx:
                campaign = await tx.campaign(cid)
                assert campaign is not None and campaign.snapshot_id is not None
                row = await tx.snapshot(campaign.snapshot_id)
            assert row is not None
            if row.history_len:
                return cid, campaign
        raise AssertionError(f"no history record in {rounds} rounds")

    async def close_range_turn(self, cid: int) -> None:
        """Turn 1 played with the Japanese at Close Range (no flight ops, a balanced
        doctrine) and the Allies on their first options, then both resources: turn 2 opens,
        where Long Range is not allowed after Close Range."""
        rid = (await self.svc.panel(cid, JAP)).round_id
        for name, value in (
            ("fleet_tactic", "close"),
            ("flight_ops", "none"),
            ("doctrine", "balanced"),
        ):
            await self.svc.draft(cid, JAP, rid, name, value)
        await self.svc.lock(cid, JAP, rid)
        await self.svc.lock(cid, ALL, await self.fill(cid, ALL))
        await self.play_round(cid)

    async def engine_events(self, cid: int, round_id: int) -> list[Any]:
        async with self.repo.read() as tx:
            return [e for e in await tx.events(cid, round_id=round_id) if e.source == "engine"]

    async def outbox_kinds(self, cid: int) -> list[str]:
        async with self.repo.read() as tx:
            return [row.kind for row in await tx.outbox(cid)]


def receipt_without_choice(canonical: str, salt: str) -> str:
    """A lock's receipt computed without its choice: two runs that differ only by a secret
    choice then post the same receipts (the real one differs by design), so whatever else
    differs between them is a leak."""
    data = json.loads(canonical)
    data.pop("choice")
    return hashlib.sha256((json.dumps(data, sort_keys=True) + salt).encode()).hexdigest()


def pace(**changes: Any) -> Pace:
    base: dict[str, Any] = {"round_seconds": 86_400, "reminder_offsets": (6 * 3600,)}
    base.update(changes)
    return Pace(**base)


def sides(values: Sequence[str]) -> list[str]:
    return sorted(values)

"""One small campaign played through the real service, exported: what the replay tests read.

Played once per test session (``conftest.py``) without the outbox (drawing the channel's
messages is the slow part and the page draws its own), with a manual clock and seeded
salts, so the same call gives the same export.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.clock import ManualClock
from bot.demo import SeededTokens
from bot.service import CampaignService
from bot.service_model import Pace, ServiceError
from db.sqlite import SqliteRepository

START = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
GUILD, CHANNEL, GM = 1, 77, 5


async def play(
    path: Path,
    ruleset: str = "carrier",
    scenario: str = "coral-sea",
    *,
    seed: int = 3,
    rounds: int | None = None,
    locale: str = "en",
    rollback: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """Play ``rounds`` rounds (all, by default) with random legal picks; the export. With
    ``rollback`` (after how many rounds, to which turn) the GM takes the game back once."""
    clock = ManualClock(START)
    picks = random.Random(seed)
    repo = await SqliteRepository.open(path, now=clock.now())
    service = CampaignService(repo, clock, rng_seed_source=SeededTokens(seed))
    try:
        rules = service.rulesets.get(ruleset).rules
        users = {side: 100 + i for i, side in enumerate(rules.side_ids)}
        info = await service.create_campaign(
            GUILD,
            CHANNEL,
            GM,
            scenario,
            Pace(),
            seed=f"replay-{seed}",
            ruleset=ruleset,
            locale=locale,
        )
        for side, user in users.items():
            await service.join(info.id, user, side)
        await service.start(info.id, GM)
        played = 0
        while rounds is None or played < rounds:
            status = await service.status(info.id)
            if status.campaign.status == "finished" or status.round is None:
                break
            played += 1
            if rollback is not None and played == rollback[0] + 1:
                await service.rollback(info.id, GM, rollback[1], "a <b>misread</b> card")
                continue
            for user in users.values():
                # The round may have closed on an earlier side's lock (a game where one side
                # moves a turn): the clock moves only while the round is still open, and only
                # for a side with something to decide, a few hours at a time: a turn's later
                # rounds (Memoir '44's flight and reaction) keep its first round's deadline.
                now = await service.status(info.id)
                if now.round is None or now.round.id != status.round.id:
                    break
                panel = await service.panel(info.id, user)
                if panel.decisions:
                    clock.advance(hours=picks.randint(1, 3))
                await _lock_some_choice(service, info.id, user, panel, picks)
        return await service.export(info.id)
    finally:
        await service.settle()
        await repo.close()


async def _lock_some_choice(
    service: CampaignService, campaign: int, user: int, panel: Any, picks: random.Random
) -> None:
    """Random picks, drawn again while the rules refuse them whole at Lock (a Memoir '44
    deployment with no card); the defaults at last, which the rules always take."""
    for attempt in range(12):
        for decision in panel.decisions:
            option = picks.choice(decision.options) if attempt < 11 else None
            value = option.id if option is not None else decision.default
            await service.draft(campaign, user, panel.round_id, decision.field, value)
        try:
            await service.lock(campaign, user, panel.round_id)
            return
        except ServiceError as refused:
            if refused.code != "refused-choice":
                raise
    raise AssertionError("the rules refused the defaults too")

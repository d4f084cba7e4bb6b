"""Deadlines and reminders: rows in the ``timers`` table, fired by ``tick()``.

Nothing is held in memory between ticks, so "re-arming at start" is simply the first tick
after a restart: whatever came due while the bot was down fires then (a reminder whose
round is already over is dropped, a deadline resolves its round). The Discord client calls
``CampaignService.tick()`` from a ``tasks.loop(seconds=30)``; tests move a ``ManualClock``
and call it themselves.

A reminder goes to the sides with no standing lock in the ``locks`` table, read in the same
transaction that marks the reminder done: the very rows the resolver will use, so a side
that has locked is never reminded.

Several bot processes may tick on one PostgreSQL database at once (one per shard group).
No process-local lock is relied on: every write transaction takes the database's writer
lock (``db/postgres.py``), the timer and the round's status are read again inside it, and
the schema keeps one live round per campaign. So a deadline fires once and a round resolves
once whichever processes see it due; ``tests/db/killtest.py`` checks it with processes
killed at random.
"""

from __future__ import annotations

import logging

from bot.service_core import ServiceCore
from bot.service_model import TickResult
from bot.service_notify import notify
from bot.service_rounds import close_with_defaults
from db.repository import TimerRow, Transaction

log = logging.getLogger(__name__)


async def run_due(service: ServiceCore, *, retry_all: bool = False) -> TickResult:
    """Fire due timers, then resolve what they closed and retry stuck rounds.

    Stuck rounds are retried with a growing delay after each failure, except at start
    (``retry_all``): a restart is when a fix usually arrives.
    """
    now = service._now()
    async with service.repo.read() as tx:
        due = await tx.due_timers(now)
    reminders = deadlines = resolved = 0
    failures: list[str] = []
    to_resolve: list[int] = []
    for timer in due:
        try:
            async with service.repo.transaction() as tx:
                if timer.kind == "reminder":
                    reminders += await _reminder(service, tx, timer)
                else:
                    round_id = await _deadline(service, tx, timer)
                    if round_id is not None:
                        deadlines += 1
                        to_resolve.append(round_id)
        except Exception as exc:  # one bad row must not stop the others
            log.exception("timer %s (%s) failed", timer.id, timer.kind)
            failures.append(f"timer {timer.id}: {exc}")
    # Resolve what the deadlines closed, then anything left "resolving" by a crash.
    async with service.repo.read() as tx:
        stuck = [
            r.id
            for r in await tx.rounds_with_status("resolving")
            if retry_all or await service.retry_due(tx, r.campaign_id, r.id)
        ]
    for round_id in dict.fromkeys([*to_resolve, *stuck]):
        if await service._resolve(round_id):
            resolved += 1
        else:
            async with service.repo.read() as tx:
                row = await tx.round(round_id)
            if row is not None and row.status == "resolving":
                failures.append(f"round {round_id}: resolution failed")
    return TickResult(reminders, deadlines, resolved, tuple(failures))


async def _reminder(service: ServiceCore, tx: Transaction, timer: TimerRow) -> int:
    fresh = next((t for t in await tx.round_timers(timer.round_id) if t.id == timer.id), None)
    if fresh is None or fresh.due_at > service._now():
        return 0  # fired by another tick, or moved by an extension since it was read
    campaign = await tx.campaign(timer.campaign_id)
    round_row = await tx.round(timer.round_id)
    if campaign is None or round_row is None:
        await tx.finish_timer(timer.id)
        return 0
    if campaign.status == "paused":
        return 0  # stays due; resume moves it later
    await tx.finish_timer(timer.id)
    if campaign.status != "active" or round_row.status != "open":
        return 0
    standing = await tx.standing_locks(round_row.id)
    players = await tx.players(campaign.id)
    sent = 0
    for side in service.rulesets.get(campaign.ruleset).rules.side_ids:
        if side in standing:
            continue
        commander = next((p for p in players if p.side == side and p.commander), None)
        if commander is None:
            continue
        payload = {
            "round_id": round_row.id,
            "side": side,
            "user_id": commander.user_id,
            "offset": timer.offset_s,
        }
        await notify(
            tx,
            campaign,
            "reminder",
            payload,
            service._now(),
            # A player whose DMs are closed is reminded in the channel, by mention.
            dm_user=commander.user_id if commander.dm_ok else None,
            dedupe_key=f"reminder:{timer.id}:{side}",
        )
        sent += 1
    return sent


async def _deadline(service: ServiceCore, tx: Transaction, timer: TimerRow) -> int | None:
    """Close the round: missing sides get their default, the GM is told. Returns the round."""
    fresh = next((t for t in await tx.round_timers(timer.round_id) if t.id == timer.id), None)
    if fresh is None or fresh.due_at > service._now():
        return None
    campaign = await tx.campaign(timer.campaign_id)
    round_row = await tx.round(timer.round_id)
    if campaign is None or round_row is None:
        await tx.finish_timer(timer.id)
        return None
    if campaign.status == "paused":
        return None
    await tx.finish_timer(timer.id)
    if campaign.status != "active" or round_row.status != "open":
        return None
    ctx = service._ctx()
    await close_with_defaults(tx, ctx, campaign, round_row, "deadline")
    return round_row.id

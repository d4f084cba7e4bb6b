"""Planning a round's resolution: the engine's job, sent off the event loop, and its answer
gathered into a ``Resolution`` for ``bot.service_resolve.apply_resolution`` to write.

Two ways in: ``plan_resolution`` reads a ``resolving`` round and sends its job (the
scheduler's deadline, a retry, a GM's command), and ``start_resolution`` sends the job of
the round a Lock has just completed from inside that Lock's transaction, so the engine
runs while the Lock's COMMIT waits for the disk. Both build the job with ``_job``: a head
start sends what a plan would. Nothing here writes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, replace
from typing import Any

from bot import resolver
from bot.service_model import choice_of
from bot.service_rounds import Ctx
from bot.service_states import kept_pending, load_state, pending_of, snapshot_row
from db.repository import CampaignRow, LockRow, RoundRow, SnapshotRow, Transaction
from engine.ruleset import Decision

log = logging.getLogger(__name__)

# Whether a resolution's worker sends back the new round's views (``bot.round_views``) for
# the bot to keep instead of making them. Off: measured in the same run, alternating per
# resolution (``bench/capacity.py --serial 4000``), a resolution cost the bot's process 0.3
# to 0.5 ms MORE with it on, for every game: unpickling the views (pydantic models, 16 to 30
# KiB for a round) costs about what making them from the snapshot and a record does, and
# a game whose views read every record (``Rules.view_records`` None) has most of its views
# left out: the worker, resolving from the snapshot alone, holds only the round's records.
# The views it sends are the bot's own, byte for byte (``tests/test_round_views.py``): turn
# it on once a view travels for less than it costs to make.
VIEWS_FROM_WORKER = False


@dataclass(frozen=True)
class Resolution:
    """A round's outcome computed from a read, to be written by ``apply_resolution``."""

    round_row: RoundRow
    campaign: CampaignRow
    lock_ids: frozenset[int]
    decisions: Sequence[Decision]
    outcome: resolver.Outcome


async def plan_resolution(tx: Transaction, ctx: Ctx, round_id: int) -> Resolution | None:
    """The engine's resolution of a ``resolving`` round, from any transaction (a read will
    do: nothing is written); None when the round is not resolving."""
    round_row = await tx.round(round_id)
    if round_row is None or round_row.status != "resolving":
        return None
    campaign = await tx.campaign(round_row.campaign_id)
    if campaign is None:
        return None
    plugin = ctx.plugin(campaign)
    rules = plugin.rules
    row = await snapshot_row(tx, round_row.snapshot_before_id)
    standing = await tx.standing_locks(round_id)
    job = _job(ctx, campaign, round_row, row, standing, packs=tx.packs)
    # The engine, and the parsing and writing of the state around it, run off the event
    # loop (``bot.resolver``): in a worker process, which takes the snapshot's text, or
    # else in a thread, from the state parsed here. Either way the state other requests
    # may hold is never written under them: the engine builds a new one.
    if resolver.in_workers(plugin):
        decisions = kept_pending(rules, row)
        outcome = await resolver.resolve(plugin, replace(job, decisions=decisions is None))
        if outcome is None:
            outcome = await _with_history(tx, plugin, job, row, decisions)
    else:
        # From the snapshot alone when the ruleset's rounds read no history (issue 29):
        # the history is nearly all of a late state, and parsing it made every round cost
        # more than the one before.
        state = await load_state(tx, rules, row, history=False)
        if not rules.resolves_from_snapshot(state):
            # Its history whole (``records`` not None; ``play`` reads the state given).
            state, job = await load_state(tx, rules, row), replace(job, records=())
        decisions = pending_of(rules, state)
        outcome = await resolver.resolve(plugin, job, state)
    return _resolution(round_row, campaign, standing, decisions, outcome)


def _job(
    ctx: Ctx,
    campaign: CampaignRow,
    round_row: RoundRow,
    row: SnapshotRow,
    standing: Mapping[str, LockRow],
    *,
    packs: bool,
) -> resolver.Job:
    """The engine's job for a round every side has locked: one function for the plan and
    the head start (``start_resolution``), so both send the worker the same job."""
    missing = [side for side in ctx.plugin(campaign).rules.side_ids if side not in standing]
    if missing:
        raise RuntimeError(f"round {round_row.id} is resolving without locks for {missing}")
    return resolver.Job(
        ruleset=campaign.ruleset,
        scenario=campaign.scenario,
        current=row.state,
        records=None,
        stored_len=row.history_len,
        choices={side: choice_of(lock.canonical) for side, lock in standing.items()},
        seed=campaign.seed,
        turn=round_row.turn,
        kind=round_row.kind,
        decisions=False,
        views=VIEWS_FROM_WORKER,
        pack=packs,
    )


async def _with_history(
    tx: Transaction,
    plugin: Any,
    job: resolver.Job,
    row: SnapshotRow,
    decisions: Sequence[Decision] | None,
) -> resolver.Outcome | None:
    """The job sent again with the branch's records, whole: for a game whose rounds read
    the history (the worker answered None to the snapshot alone)."""
    records = tuple(await tx.history(row.campaign_id, row.branch, row.history_len))
    return await resolver.resolve(
        plugin, replace(job, records=records, decisions=decisions is None)
    )


def _resolution(
    round_row: RoundRow,
    campaign: CampaignRow,
    standing: Mapping[str, LockRow],
    decisions: Sequence[Decision] | None,
    outcome: resolver.Outcome | None,
) -> Resolution:
    if outcome is None:
        raise RuntimeError(f"round {round_row.id} was refused its history")
    if decisions is None:
        decisions = list(outcome.decisions or ())
    lock_ids = frozenset(lock.id for lock in standing.values())
    return Resolution(round_row, campaign, lock_ids, decisions, outcome)


@dataclass(frozen=True)
class Started:
    """A resolution whose engine job went to a worker from inside the transaction of the
    Lock that completed the round, before that transaction's COMMIT: the job runs while the
    COMMIT waits for the disk. What the job was made from is what the plan would read
    once the Lock is stored; ``apply_resolution`` checks it still is before writing."""

    round_row: RoundRow
    campaign: CampaignRow
    row: SnapshotRow
    standing: Mapping[str, LockRow]
    decisions: Sequence[Decision] | None
    job: resolver.Job
    answer: asyncio.Future[resolver.Outcome | None]

    async def plan(
        self, ctx: Ctx, read: Callable[[], AbstractAsyncContextManager[Transaction]]
    ) -> Resolution:
        """The resolution, once the Lock's transaction is stored; ``read`` opens a read for
        a game whose rounds read the history (the job is then sent again, with it)."""
        outcome = await self.answer
        if outcome is None:
            async with read() as tx:
                outcome = await _with_history(
                    tx, ctx.plugin(self.campaign), self.job, self.row, self.decisions
                )
        return _resolution(self.round_row, self.campaign, self.standing, self.decisions, outcome)


def _consume(answer: asyncio.Future[Any]) -> None:
    # A job whose Lock was not stored is never awaited: its error is read here, so asyncio
    # does not log it as never retrieved (a caller that awaits it still gets it).
    if not answer.cancelled():
        answer.exception()


def start_resolution(
    tx: Transaction,
    ctx: Ctx,
    campaign: CampaignRow,
    round_row: RoundRow,
    row: SnapshotRow,
    standing: Mapping[str, LockRow],
) -> Started | None:
    """Send the engine the round the Lock in ``tx`` just completed (``round_row`` marked
    resolving, ``standing`` every side's lock, this one's included), without waiting: the
    job runs in a worker while ``tx`` commits. None when rounds do not resolve in workers
    (a thread resolves from a parsed state, which the plan then reads)."""
    plugin = ctx.plugin(campaign)
    if not resolver.in_workers(plugin):
        return None
    try:
        decisions = kept_pending(plugin.rules, row)
        job = _job(ctx, campaign, round_row, row, standing, packs=tx.packs)
        answer = resolver.start(plugin, replace(job, decisions=decisions is None))
    except Exception:
        # Only a head start: the Lock is stored all the same, and the round is planned
        # after it, with the resolution's own handling of failures and retries.
        log.exception("round %s: no head start for its engine", round_row.id)
        return None
    answer.add_done_callback(_consume)
    return Started(round_row, campaign, row, dict(standing), decisions, job, answer)

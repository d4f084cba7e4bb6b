"""A round's life: opened (row, timers, panels), resolved (the engine off the event loop,
then its outcome written), and followed by the next round or the campaign's end.

Opening and resolving need each other (a resolution opens the next round, and a round
nobody decides in resolves as soon as it opens), so they live together. Every function
runs inside the caller's transaction and writes its announcements to the outbox there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot import resolver, secrecy
from bot.service_model import (
    idle_lock,
)
from bot.service_notify import (
    commanders,
    notify,
    refresh_card,
    refresh_panels,
    refresh_round_message,
    send_panel,
)
from bot.service_plan import Resolution, plan_resolution
from bot.service_reveal import announce_reveal
from bot.service_rounds import Ctx, lock_idle_sides
from bot.service_states import (
    forget_snapshot,
    forget_superseded,
    keep_pending,
    keep_state,
    keep_views,
    pending_of,
    state_of,
    store_stored,
)
from db.packing import packed_ahead
from db.repository import (
    CampaignRow,
    NewEvent,
    SnapshotRow,
    Transaction,
)
from engine.ruleset import Decision, LogDetail, Progress, Rules

AnyRules = Rules[Any, Any]


async def open_round(
    tx: Transaction,
    ctx: Ctx,
    campaign: CampaignRow,
    state: Any,
    snapshot_id: int,
    *,
    progress: Progress | None = None,
    decisions: Sequence[Decision] | None = None,
    chain: bool = True,
) -> int:
    """Open the round the state waits for: row, deadline and reminder timers, announcements.
    ``progress`` and ``decisions``: the state's, when the caller has them (a resolution
    does): ``state`` is then not read and may be None. ``chain`` False: a round nobody
    decides in is left ``resolving`` for the caller to resolve once ``tx`` is stored."""
    rules = ctx.plugin(campaign).rules
    if progress is None:
        progress = rules.progress(state)
    spec = rules.round_spec(progress.round)
    seconds = campaign.round_seconds
    if spec is not None and spec.reaction and spec.reaction_seconds > 0:
        # A reaction (an ambush) waits a short while of its own on the one side asked.
        seconds = min(seconds, spec.reaction_seconds)
    deadline = ctx.now + seconds
    round_id = await tx.insert_round(
        campaign.id,
        campaign.branch,
        progress.turn,
        progress.round,
        ctx.now,
        deadline,
        snapshot_id,
    )
    await tx.insert_timer(campaign.id, round_id, "deadline", deadline)
    for offset in sorted(set(campaign.reminder_offsets), reverse=True):
        due = deadline - offset
        if due > ctx.now:  # a reminder that would be due at once is noise
            await tx.insert_timer(campaign.id, round_id, "reminder", due, offset)
    await tx.update_campaign(campaign.id, snapshot_id=snapshot_id, round_message_id=None)
    await tx.append_events(
        campaign.id,
        round_id,
        campaign.branch,
        [
            NewEvent(
                "round-opened",
                progress.turn,
                {"round": progress.round, "deadline": deadline},
            )
        ],
        ctx.now,
    )
    if decisions is None:
        decisions = pending_of(rules, state)
    idle = await lock_idle_sides(tx, ctx, campaign, decisions, round_id)
    nobody_decides = len(idle) == len(ctx.plugin(campaign).rules.side_ids)
    if not nobody_decides:  # a round nobody decides in is not announced as open
        await refresh_round_message(tx, campaign, round_id, ctx.now)
    for side, user_id in sorted((await commanders(tx, campaign.id)).items()):
        if side not in idle:  # a side asked nothing gets no DM: the round message says so
            await send_panel(tx, campaign, round_id, user_id, side, ctx.now)
    if nobody_decides:
        # Nobody has anything to decide: the round plays at once, and the game moves on to
        # the next round (which opens in turn, and may itself play at once).
        await tx.update_round(round_id, status="resolving")
        if not chain:
            return round_id
        await resolve_round(tx, ctx, round_id)
        live = await tx.live_round(campaign.id)
        if live is not None:
            return live.id
    return round_id


async def resolve_round(tx: Transaction, ctx: Ctx, round_id: int) -> bool:
    """Resolve a round marked ``resolving``; False when there is nothing (left) to do.

    Re-checks the status inside the transaction: however many callers race here (the last
    lock-in, the deadline, a retry after a crash), one of them resolves, the others see
    ``resolved`` and return.
    """
    plan = await plan_resolution(tx, ctx, round_id)
    return plan is not None and bool(await apply_resolution(tx, ctx, plan))


async def apply_resolution(
    tx: Transaction, ctx: Ctx, plan: Resolution, *, chain: bool = True
) -> bool | None:
    """Write a planned resolution in the write transaction ``tx``: True once written, False
    when the round is no longer resolving (someone else resolved it), None when what the
    plan was computed from has changed since (plan again). ``chain`` False: a next round
    nobody decides in is opened ``resolving``, not resolved here (see ``open_round``)."""
    round_id = plan.round_row.id
    round_row = await tx.round(round_id)
    if round_row is None or round_row.status != "resolving":
        return False
    campaign = await tx.campaign(round_row.campaign_id)
    standing = await tx.standing_locks(round_id)
    if (
        campaign is None
        or (round_row.branch, round_row.snapshot_before_id)
        != (plan.round_row.branch, plan.round_row.snapshot_before_id)
        or (campaign.branch, campaign.status, campaign.ruleset)
        != (plan.campaign.branch, plan.campaign.status, plan.campaign.ruleset)
        or frozenset(lock.id for lock in standing.values()) != plan.lock_ids
    ):
        return None
    rules = ctx.plugin(campaign).rules
    decisions, outcome = plan.decisions, plan.outcome
    progress, ends_turn, events = outcome.progress, outcome.ends_turn, outcome.events
    await tx.append_events(
        campaign.id,
        round_id,
        round_row.branch,
        with_detail(
            [
                NewEvent(e.kind, e.turn, e.data, source="engine")
                for e in secrecy.published(rules, events)
            ],
            # What the log tells of a turn beyond its events goes public with the turn's
            # end (the strikes a turn flew, for one), when its last round resolves.
            outcome.details,
        ),
        ctx.now,
    )
    before = await tx.snapshot(round_row.snapshot_before_id)
    if before is None or before.branch != campaign.branch:
        raise RuntimeError(f"round {round_id} does not start from its campaign's branch")
    if before.history_len < outcome.base:
        raise RuntimeError(f"round {round_id}'s snapshot lost history records")
    # What the resolution packed for the store (off the event loop), for it to take.
    packed_ahead(resolver.packed_values(outcome), outcome.zlib_version)
    after_id = await store_stored(
        tx, campaign, outcome.stored, progress, ctx.now, before.history_len, outcome.base
    )
    after_len = outcome.base + outcome.stored.length
    # A round nobody decided in (every lock the round's own) had no message and no panel.
    quiet = all(idle_lock(lock) for lock in standing.values())
    if quiet:
        # Resolved right after the round before it (a round the game adds when a turn's
        # orders need nothing more), whose message and panels are still to be composed
        # from the snapshot that round resolved from: only this round's own snapshot goes.
        forget_snapshot(campaign.id, (before.branch, before.history_len, before.state))
    else:
        forget_superseded(
            campaign.id,
            [
                (before.branch, before.history_len, before.state),
                (campaign.branch, after_len, outcome.stored.current),
            ],
        )
    if outcome.next_decisions is not None:
        # Worked out with the resolution, from the state as parsed back from what was just
        # stored: the new round's idle sides, its locks and first panels read them here.
        after = SnapshotRow(
            after_id,
            campaign.id,
            campaign.branch,
            progress.turn,
            progress.round,
            outcome.stored.current,
            ctx.now,
            history_len=after_len,
        )
        keep_pending(rules, after, outcome.next_decisions)
        # And its views, made from the same text and records as ``view_at`` reads here.
        keep_views(rules, after, outcome.views)
        if outcome.bare is not None:
            keep_state(rules, after, outcome.bare)
    await tx.update_round(
        round_id,
        status="resolved",
        resolved_at=ctx.now,
        snapshot_after_id=after_id,
        # What nobody may read yet goes beside the round, for the export at the end.
        sealed=secrecy.sealed_json(rules, events),
    )
    await tx.finish_round_timers(round_id)
    await tx.update_campaign(campaign.id, snapshot_id=after_id)
    # A quiet round resolves without a word: what it opens goes with the turn's summary.
    if not quiet:
        await refresh_round_message(tx, campaign, round_id, ctx.now)
        # The round's DM panels say it is over and lose their controls, so a panel left
        # open in someone's DMs never looks as if it still took orders.
        await refresh_panels(tx, campaign, round_id, ctx.now)

    opened = await announce_reveal(
        tx, ctx, campaign, round_row, decisions, standing, after_id, ends_turn, quiet=quiet
    )
    if ends_turn:
        if outcome.shows_length:
            # A game whose length is its missions': the card says how long this one lasted.
            await refresh_card(tx, campaign, ctx.now)
        for index in range(outcome.reports):
            await notify(
                tx,
                campaign,
                "report",
                {
                    "round_id": round_id,
                    "turn": round_row.turn,
                    "snapshot_id": after_id,
                    "index": index,
                },
                ctx.now,
                dedupe_key=f"report:{round_id}:{index}",
            )
        await notify(
            tx,
            campaign,
            "turn-summary",
            {
                "round_id": round_id,
                "turn": round_row.turn,
                "snapshot_id": after_id,
                **({"opened": opened} if opened else {}),
            },
            ctx.now,
            dedupe_key=f"turn-summary:{round_id}",
        )

    if progress.finished:
        await finish_campaign(
            tx, ctx, campaign, after_id, reason="completed", by=None, progress=progress
        )
    else:
        await open_round(
            tx,
            ctx,
            campaign,
            None,
            after_id,
            progress=progress,
            decisions=outcome.next_decisions,
            chain=chain,
        )
    return True


async def finish_campaign(
    tx: Transaction,
    ctx: Ctx,
    campaign: CampaignRow,
    snapshot_id: int,
    *,
    reason: str,
    by: int | None,
    progress: Progress | None = None,
) -> None:
    """End the campaign and reveal its seed: every draw can now be checked. ``progress``:
    the snapshot's, when the caller has it (the state just resolved)."""
    rules = ctx.plugin(campaign).rules
    if progress is None:
        progress = rules.progress(await state_of(tx, rules, snapshot_id, history=False))
    await tx.update_campaign(
        campaign.id,
        status="finished",
        ended_at=ctx.now,
        end_reason=reason,
        seed_revealed=True,
        paused_at=None,
        snapshot_id=snapshot_id,
    )
    winner = progress.winner
    await tx.append_events(
        campaign.id,
        None,
        campaign.branch,
        [
            NewEvent(
                "campaign-finished",
                progress.turn,
                {"reason": reason, "winner": winner, "by": by},
            ),
            NewEvent(
                "seed-revealed",
                progress.turn,
                {"seed": campaign.seed, "commitment": campaign.seed_commitment},
            ),
        ],
        ctx.now,
    )
    await notify(
        tx,
        campaign,
        "campaign-ended",
        {
            "snapshot_id": snapshot_id,
            "reason": reason,
            "winner": winner,
            "vp": {side: progress.vp.get(side, 0) for side in rules.side_ids},
            "seed": campaign.seed,
            "seed_commitment": campaign.seed_commitment,
        },
        ctx.now,
        dedupe_key=f"campaign-ended:{campaign.id}",
    )
    refreshed = await tx.campaign(campaign.id)
    await refresh_card(tx, refreshed or campaign, ctx.now)


def with_detail(engine_events: Sequence[NewEvent], details: Sequence[LogDetail]) -> list[NewEvent]:
    """The round's engine events with each detail's events (the service's own) right after
    the event it tells of, the details nothing announced at the end."""
    pending = list(details)
    out: list[NewEvent] = []
    for event in engine_events:
        out.append(event)
        for detail in list(pending):
            if event.kind == detail.under and event.data.get(detail.key) == detail.value:
                out.extend(NewEvent(e.kind, e.turn, e.data) for e in detail.events)
                pending.remove(detail)
    for detail in pending:
        out.extend(NewEvent(e.kind, e.turn, e.data) for e in detail.events)
    return out

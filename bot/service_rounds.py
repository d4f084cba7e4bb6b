"""The round machinery under ``CampaignService``: lock a side's choice, lock the sides a
round asks nothing, fill missing choices with defaults.

Every function here runs inside a transaction the caller opened, and writes its
announcements to the outbox in that same transaction: whatever is posted afterwards
describes a state that was committed. Nothing here sends anything. Opening and resolving a
round are in ``bot.service_resolve``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.rulesets import Plugin, Registry
from bot.service_model import (
    SeedSource,
    canonical_choice,
    receipt_of,
)
from bot.service_notify import gm_notice
from bot.service_panels import side_decisions
from bot.service_states import state_of
from db.repository import (
    CampaignRow,
    NewEvent,
    NewLock,
    RoundRow,
    Transaction,
)
from engine.ruleset import Decision, Rules

log = logging.getLogger(__name__)

AnyRules = Rules[Any, Any]


@dataclass(frozen=True)
class Ctx:
    """What the round functions need besides the transaction."""

    rulesets: Registry
    seeds: SeedSource
    now: int

    def plugin(self, campaign: CampaignRow) -> Plugin[Any, Any]:
        return self.rulesets.get(campaign.ruleset)


async def lock_idle_sides(
    tx: Transaction, ctx: Ctx, campaign: CampaignRow, decisions: Sequence[Decision], round_id: int
) -> list[str]:
    """Lock, with an empty choice, each side the round asks nothing of (a raid's defenders,
    whose guns follow a standing order): a lock click that decides nothing is a
    chore, and a side away for a day would hold the round up for nothing."""
    rules = ctx.plugin(campaign).rules
    asked = {decision.side for decision in decisions}
    idle = [side for side in rules.side_ids if side not in asked]
    if not idle:
        return idle
    round_row = await tx.round(round_id)
    assert round_row is not None
    for side in idle:
        await lock_side(tx, ctx, campaign, round_row, side, {}, by_user=None, idle=True)
    return idle


async def lock_side(
    tx: Transaction,
    ctx: Ctx,
    campaign: CampaignRow,
    round_row: RoundRow,
    side: str,
    choice: Mapping[str, str],
    *,
    by_user: int | None,
    defaulted: bool = False,
    idle: bool = False,
) -> str:
    canonical = canonical_choice(
        campaign.id, round_row.branch, round_row.turn, round_row.kind, side, choice, by=by_user
    )
    # A public round has nothing to hide: no salt (its receipt is the bare choice's hash,
    # so verify checks it as any other), and nothing about it says "sealed".
    public = ctx.plugin(campaign).rules.public_round(round_row.kind)
    salt = "" if public else ctx.seeds.token_hex(16)
    receipt = receipt_of(canonical, salt)
    await tx.insert_lock(
        NewLock(
            round_id=round_row.id,
            side=side,
            canonical=canonical,
            salt=salt,
            receipt=receipt,
            locked_at=ctx.now,
            by_user=by_user,
            defaulted=defaulted,
        )
    )
    await tx.append_events(
        campaign.id,
        round_row.id,
        round_row.branch,
        [
            NewEvent(
                "side-locked",
                round_row.turn,
                {
                    "side": side,
                    "receipt": receipt,
                    "defaulted": defaulted,
                    **({"idle": True} if idle else {}),
                },
            )
        ],
        ctx.now,
    )
    return receipt


async def close_with_defaults(
    tx: Transaction, ctx: Ctx, campaign: CampaignRow, round_row: RoundRow, why: str
) -> list[str]:
    """Lock a choice for every side that has not locked, per the campaign's policy, and
    mark the round for resolution; the GM is told which sides got their defaults and
    ``why`` (the deadline, the GM's resolve-now). The sides defaulted, in order."""
    rules = ctx.plugin(campaign).rules
    state = await state_of(tx, rules, round_row.snapshot_before_id, history=False)
    standing = await tx.standing_locks(round_row.id)
    filled: list[str] = []
    for side in rules.side_ids:
        if side in standing:
            continue
        decisions = side_decisions(rules, state, side)
        drafts = await tx.drafts(round_row.id, side)
        choice: dict[str, str] = {}
        for decision in decisions:
            drafted = drafts.get(decision.field)
            use_draft = (
                campaign.missing_policy == "drafts"
                and drafted is not None
                and rules.accept(state, decision, drafted) is None
            )
            choice[decision.field] = drafted if use_draft and drafted else decision.default
        if rules.check_choice(state, side, choice) is not None:
            # Drafts mixed with defaults the rules refuse together: the defaults alone, as
            # the policy "default" would have locked them.
            choice = {decision.field: decision.default for decision in decisions}
        await lock_side(tx, ctx, campaign, round_row, side, choice, by_user=None, defaulted=True)
        filled.append(side)
    if filled:
        await tx.append_events(
            campaign.id,
            round_row.id,
            round_row.branch,
            [
                NewEvent(
                    "defaults-applied",
                    round_row.turn,
                    {
                        "sides": list(filled),
                        "why": why,
                        "policy": campaign.missing_policy,
                    },
                )
            ],
            ctx.now,
        )
    await tx.update_round(round_row.id, status="resolving")
    if filled:
        await gm_notice(
            tx,
            campaign,
            "defaults",
            ctx.now,
            turn=round_row.turn,
            round=round_row.kind,
            sides=list(filled),
            why=why,
        )
    return filled

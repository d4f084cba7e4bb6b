"""What a round asks and shows: its decisions per side, a player's order panel, and the
views worked out ahead of a round's first clicks.

Only views leave here: a side's panel carries that side's view, from the secrecy gate.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot import secrecy
from bot.clock import from_epoch
from bot.round_views import viewer_of
from bot.service_model import (
    PanelData,
    StepsDraft,
    builds_of,
    choices_of,
    idle_lock,
)
from bot.service_states import (
    holds_history,
    kept_pending,
    load_state,
    pending_of,
    side_pending_of,
    snapshot_row,
    view_at,
    view_of,
)
from db.repository import (
    CampaignRow,
    PlayerRow,
    RoundRow,
    SnapshotRow,
    Transaction,
)
from engine.ruleset import Decision, Rules

AnyRules = Rules[Any, Any]


@dataclass(frozen=True)
class Prepared:
    """An open round's views worked out ahead (``prepare_round``), for drawing ahead."""

    round: RoundRow
    public: Any
    views: Mapping[str, Any]  # side -> its view, for the sides the round asks something
    locked: frozenset[str]  # the sides locked already (those it asks nothing)


async def prepare_round(tx: Transaction, rules: AnyRules, campaign_id: int) -> Prepared | None:
    """Work out the open round's decisions and every side's view (and the public one) ahead
    of the first panel: run after a resolution, outside the write lock, so the players'
    first clicks on the new round find them ready."""
    live = await tx.live_round(campaign_id)
    if live is None or live.status != "open":
        return None
    row = await snapshot_row(tx, live.snapshot_before_id)
    # The decisions and views its resolution worked out are kept (``apply_resolution``):
    # nothing is parsed or made again here, only what it left out.
    decisions = kept_pending(rules, row)
    if decisions is None:
        decisions = pending_of(rules, await load_state(tx, rules, row, history=False))
    asked = {d.side for d in decisions}
    views: dict[str, Any] = {}
    public = None
    for side in (*rules.side_ids, None):
        if side is not None and side not in asked:
            continue
        view = await view_at(tx, rules, row.id, viewer_of(side), row=row)
        if side is None:
            public = view
        else:
            views[side] = view
    locked = frozenset(await tx.standing_locks(live.id))
    return Prepared(live, public, views, locked)


def side_decisions(rules: AnyRules, state: Any, side: str) -> tuple[Decision, ...]:
    return tuple(side_pending_of(rules, state, side))


def option_label(decisions: Sequence[Decision], field: str, value: str) -> str:
    for decision in decisions:
        if decision.field != field:
            continue
        for option in decision.options:
            if option.id == value:
                return option.label
        for excluded in decision.excluded:
            if excluded.id == value:
                return excluded.label
    return value


async def panel_data(
    tx: Transaction,
    rules: AnyRules,
    campaign: CampaignRow,
    player: PlayerRow,
    live: RoundRow,
    state: Any,
    now: int,
    *,
    locks: Mapping[str, Any] | None = None,
    drafts: Mapping[str, str] | None = None,
    snapshot: SnapshotRow | None = None,
) -> PanelData:
    """What a player's order panel shows for round ``live``: their side's view, only.

    ``state`` is the round's state, whole or from its snapshot alone (``load_state``);
    ``locks``, ``drafts`` (the side's) and ``snapshot`` (the round's): rows the caller
    already has as they stand now, so they are not read again.
    """
    side = player.side
    viewer = secrecy.Viewer.player(side)
    if holds_history(state):
        view = view_of(rules, state, viewer)
    else:
        # From its snapshot alone, or no longer known (gone from the cache): the view is
        # made from the whole state, never from one that may lack its history.
        view = await view_at(tx, rules, live.snapshot_before_id, viewer, row=snapshot)
    lock = (locks if locks is not None else await tx.standing_locks(live.id)).get(side)
    before_deadline = live.deadline_at is None or now < live.deadline_at
    decisions = side_decisions(rules, state, side)
    rows = dict(drafts) if drafts is not None else await tx.drafts(live.id, side)
    drafted = choices_of(rows)
    return PanelData(
        campaign_id=campaign.id,
        round_id=live.id,
        turn=live.turn,
        kind=live.kind,
        side=side,
        status=live.status,
        paused=campaign.status == "paused",
        deadline=from_epoch(live.deadline_at) if live.deadline_at is not None else None,
        decisions=decisions,
        drafts=drafted,
        locked=lock is not None,
        receipt=lock.receipt if lock is not None else None,
        is_commander=player.commander,
        can_unlock=(
            campaign.allow_unlock
            and lock is not None
            and not lock.defaulted
            and not idle_lock(lock)  # the round's own lock on a side it asks nothing
            and player.commander
            and live.status == "open"
            and campaign.status == "active"
            and before_deadline
        ),
        view=view,
        written={
            d.field: rules.text_of(state, d, drafted[d.field])
            for d in decisions
            if d.written and d.field in drafted
        },
        public=rules.public_round(live.kind),
        steps={
            d.field: steps_draft(rules, state, d, drafted, builds_of(rows))
            for d in decisions
            if d.input == "steps"
        },
    )


def steps_draft(
    rules: AnyRules,
    state: Any,
    decision: Decision,
    drafted: Mapping[str, str],
    builds: Mapping[str, tuple[str, ...]],
) -> StepsDraft:
    """A choice built in steps as its side's panel shows it: the picks still being built,
    else those of the whole choice drafted (none when it was written otherwise), and the
    menu of every step up to the next one."""
    picks = builds.get(decision.field)
    if picks is None:
        value = drafted.get(decision.field)
        picks = rules.steps_of(state, decision, value) if value is not None else ()
    menus = []
    for index in range(min(len(picks) + 1, decision.steps)):
        step = rules.next_step(state, decision, picks[:index])
        if step is None:
            break
        menus.append(step)
    whole = len(menus) == len(picks) and decision.field in drafted
    return StepsDraft(picks=picks, menus=tuple(menus), whole=whole)

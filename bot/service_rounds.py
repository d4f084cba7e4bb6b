"""The round machinery under ``CampaignService``: open a round, fill missing choices, resolve.

Every function here runs inside a transaction the caller opened, and writes its
announcements to the outbox in that same transaction: whatever is posted afterwards
describes a state that was committed. Nothing here sends anything.

The game is the campaign's ruleset (``bot.rulesets``); what a reveal may show and which
salts it opens is the secrecy gate's answer (``bot.secrecy``), from the fields' declared
opening: a doctrine, for one, is committed with the orders but opens at turn end.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot import resolver, secrecy
from bot.clock import from_epoch
from bot.rulesets import Plugin, Registry
from bot.service_cache import SizedLru, budget_bytes
from bot.service_model import (
    PanelData,
    SeedSource,
    StepsDraft,
    builds_of,
    canonical_choice,
    choice_of,
    choices_of,
    receipt_of,
)
from db.repository import (
    CampaignRow,
    NewEvent,
    NewLock,
    NewOutbox,
    PlayerRow,
    RoundRow,
    SnapshotRow,
    Transaction,
)
from engine.ruleset import Decision, LogDetail, Progress, Rules, Stored

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


# ------------------------------------------------------------------------------ helpers


# What a parsed state holds of its history: none (``BARE``: decisions only), the latest
# records its views read (``RECENT``, ``Rules.view_records``), or every record (``WHOLE``).
BARE, RECENT, WHOLE = 0, 1, 2

# (rules, campaign, branch, history length, snapshot text, kind): ``kind`` is one of the
# three above (see ``load_state``).
_StateKey = tuple[int, int, int, int, str, int]


# Bytes a parsed state takes per character of its stored text (snapshot plus history
# rows): 5.6 to 8.8 measured with tracemalloc on Coral Sea and Midway states, turns 0 to 6.
STATE_BYTES_PER_CHAR = 9
# Bytes one memoised engine result takes, from its state's snapshot text (``part_bytes``),
# measured with tracemalloc over 400 campaigns at rounds 8 to 20 (bench/memory.py): a
# round's pending decisions 3 to 30 KiB (one game's 16 KiB whatever its snapshot), a
# side's view 1 to 165 KiB, 10 bytes per snapshot character for a game whose views copy
# their state; a view that shares most of its objects with its state keeps that state
# alive once the state is evicted. A flat 24 KiB per result put the caches at 0.62 of
# what they held, and RSS past 200 MB.
PART_BYTES = 8 * 1024
PENDING_BYTES = 12 * 1024
PENDING_BYTES_PER_CHAR = 4
VIEW_BYTES_PER_CHAR = 11


def part_bytes(part: str, snapshot_chars: int) -> int:
    """The estimated bytes of a memoised result (``_Memo``): ``part`` is "pending" or a
    view's, ``snapshot_chars`` the length of the snapshot its state was parsed from."""
    if part == "pending":
        return PENDING_BYTES + PENDING_BYTES_PER_CHAR * snapshot_chars
    return PART_BYTES + VIEW_BYTES_PER_CHAR * snapshot_chars


class _States:
    """Rebuilt states, bounded by their estimated memory, oldest out: a state is parsed
    once however often read.

    Keyed by the rules' identity and the snapshot's campaign, branch, history length and
    text (not the row id, which a rolled-back insert can hand out again): a branch's history
    rows are append-only, so the same key always rebuilds the same state. States are frozen,
    so sharing them is safe. ``key_of`` gives a cached state's key back, so results derived
    from it are memoised by what it is, not by which object holds it.
    """

    def __init__(self, budget: int) -> None:
        self._items: SizedLru[_StateKey, tuple[AnyRules, Any]] = SizedLru(budget, self._gone)
        self._keys: dict[int, _StateKey] = {}

    def _gone(self, key: _StateKey, item: tuple[AnyRules, Any]) -> None:
        self._keys.pop(id(item[1]), None)

    def get(self, rules: AnyRules, key: _StateKey) -> Any | None:
        hit = self._items.get(key)
        if hit is None or hit[0] is not rules:
            return None
        return hit[1]

    def put(self, rules: AnyRules, key: _StateKey, state: Any, chars: int) -> None:
        self._items.put(key, (rules, state), STATE_BYTES_PER_CHAR * chars)
        if self._items.get(key) is not None:
            self._keys[id(state)] = key

    def key_of(self, state: Any) -> _StateKey | None:
        return self._keys.get(id(state))


_states = _States(budget_bytes(1 / 4))


def _key(rules: AnyRules, row: SnapshotRow, kind: int) -> _StateKey:
    return (id(rules), row.campaign_id, row.branch, row.history_len, row.state, kind)


# Snapshot-only states (``load_state(history=False)``) by identity, held weakly: they are
# never viewed, however the caches come and go.
_bare: weakref.WeakValueDictionary[int, Any] = weakref.WeakValueDictionary()


def _mark_bare(state: Any) -> None:
    _bare[id(state)] = state  # every ruleset's state is a pydantic model: weakly referable


async def load_state(
    tx: Transaction, rules: AnyRules, row: SnapshotRow, *, history: bool = True
) -> Any:
    """A snapshot's whole state: its text plus its branch's first ``history_len`` records.

    With ``history=False``, the state from its snapshot alone (its history empty): what a
    round's decisions are read from, since no ruleset's ``pending`` reads the history
    (``tests/service/test_bare_state.py``). A late state's history is over 99 % of it
    (5 KiB parsed against 1 MiB at turn 6): drafts, locks and panels parse none of it. Such
    a state gives no view (``view_of`` refuses it): views go through ``view_at``.

    On a cache hit neither the history rows are read nor anything parsed.
    """
    return await _load(tx, rules, row, WHOLE if history else BARE)


async def load_view_state(tx: Transaction, rules: AnyRules, row: SnapshotRow) -> Any:
    """A snapshot's state with the latest history records its views read
    (``Rules.view_records``): every view, panel, board and report of a running campaign
    is made from it, so a late round's views parse what an early round's do (issue 29).
    Only views: the state lacks the older records a resolution or an export would need."""
    return await _load(tx, rules, row, RECENT)


async def _load(tx: Transaction, rules: AnyRules, row: SnapshotRow, kind: int) -> Any:
    if row.history_len == 0:
        kind = WHOLE  # before its first record the snapshot is the whole state: one copy
    key = _key(rules, row, kind)
    state = _states.get(rules, key)
    if state is not None:
        return state
    if kind == BARE:
        state = rules.load_stored(row.state, ())
        _states.put(rules, key, state, len(row.state))
        _mark_bare(state)
        return state
    start = 0
    # The snapshot parsed alone, when kept, carries the history read on top of it: a view's
    # state then parses only its records (some games' states are nearly all snapshot).
    bare = _states.get(rules, _key(rules, row, BARE)) if row.history_len else None
    if kind == RECENT:
        bare = await _load(tx, rules, row, BARE)
        wanted = rules.view_records(bare)
        if wanted is None or wanted >= row.history_len:
            return await _load(tx, rules, row, WHOLE)
        start = row.history_len - wanted
    records = await tx.history(row.campaign_id, row.branch, row.history_len, start=start)
    if len(records) != row.history_len - start:
        raise RuntimeError(
            f"snapshot {row.id} needs history records {start} to {row.history_len - 1},"
            f" found {len(records)}"
        )
    if bare is not None and records:
        state = rules.load_records(bare, records)
    else:
        state = rules.load_stored(row.state, records)
    _states.put(rules, key, state, len(row.state) + sum(len(r) for r in records))
    return state


async def store_state(
    tx: Transaction,
    rules: AnyRules,
    campaign: CampaignRow,
    state: Any,
    now: int,
    *,
    stored_len: int = 0,
    base: int = 0,
) -> int:
    """Write ``state`` as a new snapshot of the campaign's branch; its id.

    Only the history records past ``stored_len`` (what the branch already holds, from the
    snapshot the state was resolved from) are appended, in the caller's transaction, so a
    round costs its own records, never the whole history again. ``base``: how many of the
    branch's records ``state``'s own history leaves out (a state resolved from its snapshot
    alone holds only the records its round added: ``base`` is then ``stored_len``).
    """
    stored = rules.dump_stored(state, since=stored_len - base)
    return await store_stored(tx, campaign, stored, rules.progress(state), now, stored_len, base)


async def store_stored(
    tx: Transaction,
    campaign: CampaignRow,
    stored: Stored,
    progress: Progress,
    now: int,
    stored_len: int,
    base: int,
) -> int:
    """``store_state`` for a state already cut for storage (``Rules.dump_stored`` with
    ``since=stored_len - base``), as a resolution's worker hands it back; its id."""
    await tx.append_history(campaign.id, campaign.branch, stored_len, stored.records)
    snapshot_id = await tx.insert_snapshot(
        campaign.id,
        campaign.branch,
        progress.turn,
        progress.round,
        stored.current,
        now,
        history_len=base + stored.length,
    )
    # Not cached here: the next round plays from the state as parsed back from storage, as
    # after a restart, so a bot that kept running and one that restarted play alike.
    return snapshot_id


class _Memo:
    """Per-state results of the engine (pending decisions, views), bounded by their
    estimated memory, oldest out.

    Keyed by the state's storage key (``_States.key_of``), so a result outlives the parsed
    state it came from: a panel needs no state parsed again while its results are here. A
    state not from storage (just resolved, say) has no key: its results are not kept.
    """

    def __init__(self, budget: int) -> None:
        # Each value is kept with its rules object: the key holds only the rules' id, which a
        # later rules object may reuse once the first is gone (tests make many).
        self._items: SizedLru[tuple[_StateKey, str], tuple[AnyRules, Any]] = SizedLru(budget)

    def peek(self, rules: AnyRules, key: _StateKey, part: str) -> Any | None:
        hit = self._items.get((key, part))
        return hit[1] if hit is not None and hit[0] is rules else None

    def get(self, rules: AnyRules, state: Any, part: str, make: Callable[[], Any]) -> Any:
        if part != "pending" and _bare.get(id(state)) is state:
            # Checked on the object itself, not through the cache's keys: a snapshot-only
            # state evicted from (or never kept in) the cache must still give no view.
            raise RuntimeError(f"{part} needs the whole state, history and all")
        key = _states.key_of(state)
        if key is None or key[0] != id(rules):
            return make()
        if part == "pending":
            key = (*key[:5], BARE)  # the same decisions with or without the history
        hit = self.peek(rules, key, part)
        if hit is not None:
            return hit
        value = make()
        self.put(rules, key, part, value)
        return value

    def put(self, rules: AnyRules, key: _StateKey, part: str, value: Any) -> None:
        self._items.put((key, part), (rules, value), part_bytes(part, len(key[4])))


_memo = _Memo(budget_bytes(3 / 4))


def pending_of(rules: AnyRules, state: Any) -> list[Decision]:
    return list(_memo.get(rules, state, "pending", lambda: rules.pending(state)))


def keep_state(rules: AnyRules, row: SnapshotRow, state: Any) -> None:
    """Keep ``state``, parsed from ``row``'s text alone, as ``load_state(row,
    history=False)`` would have."""
    kind = WHOLE if row.history_len == 0 else BARE
    _states.put(rules, _key(rules, row, kind), state, len(row.state))
    if kind == BARE:
        _mark_bare(state)


def kept_pending(rules: AnyRules, row: SnapshotRow) -> list[Decision] | None:
    """The snapshot's decisions if they are kept, without parsing anything."""
    kept = _memo.peek(rules, _key(rules, row, BARE), "pending")
    return None if kept is None else list(kept)


def keep_pending(rules: AnyRules, row: SnapshotRow, decisions: Sequence[Decision]) -> None:
    """Keep a snapshot's decisions worked out elsewhere (by a resolution, from the state as
    parsed back from ``row``'s text), so its first reader does not work them out again."""
    _memo.put(rules, _key(rules, row, BARE), "pending", list(decisions))


def _view_part(viewer: secrecy.Viewer) -> str:
    return f"view:{viewer.side or 'public'}"


def view_of(rules: AnyRules, state: Any, viewer: secrecy.Viewer) -> Any:
    """A viewer's view of a whole state, through the secrecy gate, memoised per state."""
    part = _view_part(viewer)
    return _memo.get(rules, state, part, lambda: secrecy.view_for(rules, state, viewer))


async def snapshot_row(tx: Transaction, snapshot_id: int | None) -> SnapshotRow:
    """The snapshot's row; a missing one is a broken database, not a user's mistake."""
    if snapshot_id is None:
        raise RuntimeError("campaign without a snapshot")
    row = await tx.snapshot(snapshot_id)
    if row is None:
        raise RuntimeError(f"snapshot {snapshot_id} is missing")
    return row


async def state_of(
    tx: Transaction, rules: AnyRules, snapshot_id: int | None, *, history: bool = True
) -> Any:
    return await load_state(tx, rules, await snapshot_row(tx, snapshot_id), history=history)


async def view_at(
    tx: Transaction,
    rules: AnyRules,
    snapshot_id: int | None,
    viewer: secrecy.Viewer,
    *,
    row: SnapshotRow | None = None,
) -> Any:
    """A viewer's view of a snapshot; its state is parsed only if no view is kept.
    ``row``: the snapshot's row, when the caller has it."""
    if row is None or row.id != snapshot_id:
        row = await snapshot_row(tx, snapshot_id)
    for kind in (RECENT, WHOLE):
        kept = _memo.peek(rules, _key(rules, row, kind), _view_part(viewer))
        if kept is not None:
            return kept
    return view_of(rules, await load_view_state(tx, rules, row), viewer)


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
    bare = await state_of(tx, rules, live.snapshot_before_id, history=False)
    pending_of(rules, bare)
    views: dict[str, Any] = {}
    public = None
    for side in (*rules.side_ids, None):
        viewer = secrecy.Viewer.public() if side is None else secrecy.Viewer.player(side)
        view = await view_at(tx, rules, live.snapshot_before_id, viewer)
        if side is None:
            public = view
        elif side_decisions(rules, bare, side):
            views[side] = view
    locked = frozenset(await tx.standing_locks(live.id))
    return Prepared(live, public, views, locked)


def side_decisions(rules: AnyRules, state: Any, side: str) -> tuple[Decision, ...]:
    return tuple(d for d in pending_of(rules, state) if d.side == side)


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
    key = _states.key_of(state)
    if key is not None and key[5] != BARE:
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


async def notify(
    tx: Transaction,
    campaign: CampaignRow,
    kind: str,
    payload: Mapping[str, Any],
    now: int,
    *,
    dm_user: int | None = None,
    message_key: str | None = None,
    dedupe_key: str | None = None,
    coalesce: bool = False,
) -> None:
    """Queue one announcement for the campaign's channel, or a user's DMs."""
    await tx.enqueue(
        campaign.id,
        NewOutbox(
            kind=kind,
            target_kind="dm" if dm_user is not None else "channel",
            target_id=dm_user if dm_user is not None else campaign.channel_id,
            payload={"campaign_id": campaign.id, **payload},
            message_key=message_key,
            dedupe_key=dedupe_key,
            coalesce=coalesce,
        ),
        now,
    )


async def refresh_round_message(
    tx: Transaction, campaign: CampaignRow, round_id: int, now: int
) -> None:
    # The round message is rebuilt from the database when it is delivered, so one pending
    # update is enough however many locks happen before the worker runs.
    await notify(
        tx,
        campaign,
        "round-message",
        {"round_id": round_id},
        now,
        message_key=f"round:{round_id}",
        coalesce=True,
    )


async def refresh_card(tx: Transaction, campaign: CampaignRow, now: int) -> None:
    await notify(tx, campaign, "campaign-card", {}, now, message_key="card", coalesce=True)


async def gm_notice(
    tx: Transaction, campaign: CampaignRow, notice: str, now: int, **params: Any
) -> None:
    await notify(
        tx,
        campaign,
        "gm-notice",
        {"notice": notice, "params": params, "gm_id": campaign.gm_id},
        now,
    )


async def commanders(tx: Transaction, campaign_id: int) -> dict[str, int]:
    return {p.side: p.user_id for p in await tx.players(campaign_id) if p.commander}


async def send_panel(
    tx: Transaction, campaign: CampaignRow, round_id: int, user_id: int, side: str, now: int
) -> None:
    """A DM panel, or for a player known to have closed DMs a pointer to /orders."""
    player = await tx.player(campaign.id, user_id)
    if player is not None and not player.dm_ok:
        await gm_notice(tx, campaign, "use-orders", now, user=user_id, side=side)
        return
    # One DM per round and player, edited whenever what it shows changes (a pause, a new
    # deadline, the round's end): queued updates coalesce like the round message's.
    await notify(
        tx,
        campaign,
        "dm-panel",
        {"round_id": round_id, "user_id": user_id, "side": side},
        now,
        dm_user=user_id,
        message_key=f"panel:{round_id}:{user_id}",
        coalesce=True,
    )


async def refresh_panels(tx: Transaction, campaign: CampaignRow, round_id: int, now: int) -> None:
    """Redraw the commanders' DM panels of a round (pause, resume, deadline, end)."""
    locks = await tx.standing_locks(round_id)
    for side, user_id in sorted((await commanders(tx, campaign.id)).items()):
        if side in locks and idle_lock(locks[side]):
            continue  # asked nothing, sent no panel: nothing to redraw
        player = await tx.player(campaign.id, user_id)
        if player is not None and player.dm_ok:
            await send_panel(tx, campaign, round_id, user_id, side, now)


# ------------------------------------------------------------------------------ rounds


async def open_round(
    tx: Transaction,
    ctx: Ctx,
    campaign: CampaignRow,
    state: Any,
    snapshot_id: int,
    *,
    progress: Progress | None = None,
    decisions: Sequence[Decision] | None = None,
) -> int:
    """Open the round the state waits for: row, deadline and reminder timers, announcements.
    ``progress`` and ``decisions``: the state's, when the caller has them (a resolution
    does): ``state`` is then not read and may be None."""
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
    idle = await _lock_idle_sides(tx, ctx, campaign, decisions, round_id)
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
        await resolve_round(tx, ctx, round_id)
        live = await tx.live_round(campaign.id)
        if live is not None:
            return live.id
    return round_id


def idle_lock(lock: Any) -> bool:
    """A lock the round made itself for a side it asked nothing (no user, no default)."""
    return lock.by_user is None and not lock.defaulted


async def _lock_idle_sides(
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


async def resolve_round(tx: Transaction, ctx: Ctx, round_id: int) -> bool:
    """Resolve a round marked ``resolving``; False when there is nothing (left) to do.

    Re-checks the status inside the transaction: however many callers race here (the last
    lock-in, the deadline, a retry after a crash), one of them resolves, the others see
    ``resolved`` and return.
    """
    plan = await plan_resolution(tx, ctx, round_id)
    return plan is not None and bool(await apply_resolution(tx, ctx, plan))


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
    missing = [side for side in rules.side_ids if side not in standing]
    if missing:
        raise RuntimeError(f"round {round_id} is resolving without locks for {missing}")
    job = resolver.Job(
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
    )
    # The engine, and the parsing and writing of the state around it, run off the event
    # loop (``bot.resolver``): in a worker process, which takes the snapshot's text, or
    # else in a thread, from the state parsed here. Either way the state other requests
    # may hold is never written under them: the engine builds a new one.
    if resolver.in_workers(plugin):
        decisions = kept_pending(rules, row)
        outcome = await resolver.resolve(plugin, replace(job, decisions=decisions is None))
        if outcome is None:  # a round whose rules read the history: sent it, whole
            records = tuple(await tx.history(campaign.id, row.branch, row.history_len))
            outcome = await resolver.resolve(
                plugin, replace(job, records=records, decisions=decisions is None)
            )
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
    if outcome is None:
        raise RuntimeError(f"round {round_id} was refused its history")
    if decisions is None:
        decisions = list(outcome.decisions or ())
    lock_ids = frozenset(lock.id for lock in standing.values())
    return Resolution(round_row, campaign, lock_ids, decisions, outcome)


async def apply_resolution(tx: Transaction, ctx: Ctx, plan: Resolution) -> bool | None:
    """Write a planned resolution in the write transaction ``tx``: True once written, False
    when the round is no longer resolving (someone else resolved it), None when what the
    plan was computed from has changed since (plan again)."""
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
    after_id = await store_stored(
        tx, campaign, outcome.stored, progress, ctx.now, before.history_len, outcome.base
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
            history_len=outcome.base + outcome.stored.length,
        )
        keep_pending(rules, after, outcome.next_decisions)
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
    # A round nobody decided in (every lock the round's own) had no message and no panel:
    # it resolves without a word, and what it opens goes with the turn's summary.
    quiet = all(idle_lock(lock) for lock in standing.values())
    if not quiet:
        await refresh_round_message(tx, campaign, round_id, ctx.now)
        # The round's DM panels say it is over and lose their controls, so a panel left
        # open in someone's DMs never looks as if it still took orders.
        await refresh_panels(tx, campaign, round_id, ctx.now)

    opened = await _announce_reveal(
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
        )
    return True


async def _announce_reveal(
    tx: Transaction,
    ctx: Ctx,
    campaign: CampaignRow,
    round_row: RoundRow,
    decisions: Sequence[Decision],
    standing: Mapping[str, Any],
    after_id: int,
    ends_turn: bool,
    *,
    quiet: bool = False,
) -> list[dict[str, Any]]:
    """Queue the round's reveal. A quiet round (nobody decided) has none, nor has a round
    whose choices all stay sealed until the turn ends: the receipts it opens are returned
    for the turn's summary to carry, or, if it does not end the turn, still revealed on
    their own."""
    rules = ctx.plugin(campaign).rules
    sides: list[dict[str, Any]] = []
    for side in rules.side_ids:
        lock = standing[side]
        own = [d for d in decisions if d.side == side]
        choice = choice_of(lock.canonical)
        labels = {d.field: d.label for d in own if d.label}
        shown = {
            field: {
                "id": value,
                "label": option_label(own, field, value),
                # A per-unit field is named by its unit's public words (a pilot, a tank).
                **({"field_label": labels[field]} if field in labels else {}),
            }
            for field, value in secrecy.shown_at_reveal(rules, choice).items()
        }
        sides.append(
            {
                "side": side,
                "fields": shown,
                "receipt": lock.receipt,
                "defaulted": lock.defaulted,
                # Whether the side chose something the reveal may not show yet: the round
                # message already told everyone whether it had anything to decide.
                "sealed": len(choice) > len(shown),
            }
        )
    opened: list[dict[str, Any]] = []
    rounds = [r for r in await tx.rounds(campaign.id) if r.status in ("resolved", "resolving")]
    resolved = next(r for r in rounds if r.id == round_row.id)
    for other in secrecy.opened_by(rules, resolved, rounds, ends_turn):
        assert isinstance(other, RoundRow)
        locks = standing if other.id == round_row.id else await tx.standing_locks(other.id)
        for side in rules.side_ids:
            lock = locks.get(side)
            if quiet and other.id == round_row.id:
                continue  # an empty choice nobody made: nothing to check (/receipt has it)
            if lock is not None and secrecy.opens_before_the_end(rules, choice_of(lock.canonical)):
                opened.append(
                    {
                        "round_id": other.id,
                        "round": other.kind,
                        "side": side,
                        "canonical": lock.canonical,
                        "salt": lock.salt,
                        "receipt": lock.receipt,
                    }
                )
            elif lock is not None and ends_turn:
                # Its receipt commits to a choice that stays secret until the campaign ends
                # (a purchase): the turn's end says so, without its salt or choice.
                opened.append(
                    {"round_id": other.id, "round": other.kind, "side": side, "held": True}
                )
    # A reveal that would show nothing (every choice sealed until the turn ends, as a flight
    # program is) is not posted either: "revealed" with nothing in it is noise, and the
    # turn's end shows what was chosen with its receipts.
    shows_nothing = not any(side["fields"] for side in sides)
    # A game that shows each turn flown shows its choices there: the round closing the
    # turn has no reveal of its own (a pursuer's reorder, a raid's night pick).
    told = ends_turn and ctx.plugin(campaign).presenter.tells_turns
    if (quiet or shows_nothing or told) and (ends_turn or not _opening(opened)):
        return opened
    payload: dict[str, Any] = {
        "round_id": round_row.id,
        "turn": round_row.turn,
        "round": round_row.kind,
        "snapshot_id": after_id,
        "sides": sides,
        "opened": opened,
    }
    if rules.public_round(round_row.kind):
        # Nothing was sealed: one short line says what was done, no receipts, no image.
        payload.update(sides=[s for s in sides if s["fields"]], opened=[], public=True)
    await notify(
        tx,
        campaign,
        "reveal",
        payload,
        ctx.now,
        dedupe_key=f"reveal:{round_row.id}",
    )
    return []


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


def _opening(items: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The receipts a resolution opens, without those it says stay sealed to the end."""
    return [item for item in items if not item.get("held")]


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

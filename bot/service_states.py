"""Parsed states and the engine's results on them, kept between requests.

A campaign's state is parsed from its stored snapshot and history once however often it
is read (``load_state``), and its pending decisions and views are worked out once per
state (``pending_of``, ``view_of``), both bounded by their estimated memory
(``bot.service_cache``). Everything the service reads of a state goes through here.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

from bot import secrecy
from bot.round_views import BARE, RECENT, SIDE, WHOLE, SentView, span, state_for, viewer_of
from bot.service_cache import SizedLru, budget_bytes
from db.repository import (
    CampaignRow,
    SnapshotRow,
    Transaction,
)
from engine.compact import share_fields_sets
from engine.ruleset import Decision, Progress, Rules, Stored

AnyRules = Rules[Any, Any]


# What a parsed state holds of its history: ``bot.round_views`` (BARE, RECENT, WHOLE, SIDE).

# (rules, campaign, branch, history length, snapshot text, kind): ``kind`` is one of the
# four above (see ``load_state``).
_StateKey = tuple[int, int, int, int, str, int]


def part_bytes(rules: AnyRules, part: str, snapshot_chars: int) -> int:
    """The bytes a memoised result (``_Memo``) is charged: what its game measured it to
    hold (``Rules.held``); ``part`` is "pending" or a view's, ``snapshot_chars`` the length
    of the snapshot its state was parsed from."""
    return rules.held.result(part, snapshot_chars)


def _campaign_of(key: _StateKey) -> int:
    return key[1]


def _result_campaign(key: tuple[_StateKey, str]) -> int:
    return key[0][1]


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
        self._items: SizedLru[_StateKey, tuple[AnyRules, Any]] = SizedLru(
            budget, self._gone, group=_campaign_of
        )
        self._keys: dict[int, _StateKey] = {}

    def _gone(self, key: _StateKey, item: tuple[AnyRules, Any]) -> None:
        self._keys.pop(id(item[1]), None)

    def get(self, rules: AnyRules, key: _StateKey) -> Any | None:
        hit = self._items.get(key)
        if hit is None or hit[0] is not rules:
            return None
        return hit[1]

    def put(self, rules: AnyRules, key: _StateKey, state: Any, chars: int) -> None:
        share_fields_sets(state)  # kept for long: no fields-set per model (engine.compact)
        self._items.put(key, (rules, state), int(rules.held.state * chars))
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
# States loaded for a side's view (``SIDE``), by identity, held weakly: they may lack the
# records the public's view reads, so only a side's player is shown a view of them.
_side_only: weakref.WeakValueDictionary[int, Any] = weakref.WeakValueDictionary()


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


async def load_view_state(
    tx: Transaction, rules: AnyRules, row: SnapshotRow, viewer: secrecy.Viewer | None = None
) -> Any:
    """A snapshot's state with the latest history records its views read
    (``Rules.view_records``): every view, panel, board and report of a running campaign
    is made from it, so a late round's views parse what an early round's do (issue 29).
    Only views: the state lacks the older records a resolution or an export would need.
    For a side's player (``viewer``), only the records that side's view reads
    (``Rules.side_view_records``): such a state gives no other viewer a view."""
    return await _load(tx, rules, row, SIDE if _sides_own(viewer) else RECENT)


def _sides_own(viewer: secrecy.Viewer | None) -> bool:
    """Whether ``viewer`` is a side's player, who sees that side's view."""
    return viewer is not None and viewer == secrecy.Viewer.player(viewer.side or "")


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
    if kind in (RECENT, SIDE):
        bare = await _load(tx, rules, row, BARE)
        spanned, start = span(rules, bare, row.history_len, own_side=kind == SIDE)
        if spanned != kind:  # the public's state serves a side, or the whole state
            return await _load(tx, rules, row, spanned)
    records: list[str] = []
    if kind == WHOLE or start < row.history_len:  # a side's view may read no record
        records = await tx.history(row.campaign_id, row.branch, row.history_len, start=start)
    if len(records) != row.history_len - start:
        raise RuntimeError(
            f"snapshot {row.id} needs history records {start} to {row.history_len - 1},"
            f" found {len(records)}"
        )
    state = state_for(rules, row.state, bare, records, kind)
    _states.put(rules, key, state, len(row.state) + sum(len(r) for r in records))
    if kind == SIDE or (kind == RECENT and not records):
        # The snapshot's own state copied (no record read) is marked as before.
        _side_only[id(state)] = state
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
        self._items: SizedLru[tuple[_StateKey, str], tuple[AnyRules, Any]] = SizedLru(
            budget, group=_result_campaign
        )

    def peek(self, rules: AnyRules, key: _StateKey, part: str) -> Any | None:
        hit = self._items.get((key, part))
        return hit[1] if hit is not None and hit[0] is rules else None

    def get(self, rules: AnyRules, state: Any, part: str, make: Callable[[], Any]) -> Any:
        if not part.startswith("pending") and _bare.get(id(state)) is state:
            # Checked on the object itself, not through the cache's keys: a snapshot-only
            # state evicted from (or never kept in) the cache must still give no view.
            raise RuntimeError(f"{part} needs the whole state, history and all")
        if part in _PUBLIC_PARTS and _side_only.get(id(state)) is state:
            raise RuntimeError(f"{part} may need records a side's state left out")
        key = _states.key_of(state)
        if key is None or key[0] != id(rules):
            return make()
        if part == "pending" or part.startswith(_SIDE_PENDING):
            key = (*key[:5], BARE)  # the same decisions with or without the history
        hit = self.peek(rules, key, part)
        if hit is not None:
            return hit
        value = make()
        self.put(rules, key, part, value)
        return value

    def put(self, rules: AnyRules, key: _StateKey, part: str, value: Any) -> None:
        share_fields_sets(value)
        self._items.put((key, part), (rules, value), part_bytes(rules, part, len(key[4])))


_memo = _Memo(budget_bytes(3 / 4))


# A snapshot as the caches' keys name it: (branch, history length, text).
Kept = tuple[int, int, str]


def forget_superseded(campaign_id: int, kept: Sequence[Kept]) -> int:
    """Forget every state and result kept for the campaign's snapshots but ``kept``; how
    many entries went.

    Called when a round resolves, with the snapshot it resolved from (the resolved round's
    message and panels are drawn from it once more) and the new one: the snapshots before
    are never read again by a running campaign (a rollback or an export parses what it
    needs), yet they stayed in the caches until the budget pushed them out, in place of
    states and results still asked for (17 % of the entries with 1,000 campaigns, issue
    29)."""
    wanted = set(kept)
    return _forget(campaign_id, lambda snapshot: snapshot not in wanted)


def forget_snapshot(campaign_id: int, snapshot: Kept) -> int:
    """Forget every state and result kept for one of the campaign's snapshots; how many
    entries went. For a round nobody decided in (``apply_resolution``): the snapshot it
    resolved from is drawn from by nobody, while the one the round before it resolved from
    still is (that round's message and panels are composed after both have resolved)."""
    return _forget(campaign_id, lambda kept: kept == snapshot)


def _forget(campaign_id: int, goes: Callable[[Kept], bool]) -> int:
    gone = 0
    for key in _states._items.keys_of(campaign_id):
        if goes((key[2], key[3], key[4])):
            _states._items.drop(key)
            gone += 1
    for result in _memo._items.keys_of(campaign_id):
        key = result[0]
        if goes((key[2], key[3], key[4])):
            _memo._items.drop(result)
            gone += 1
    return gone


def pending_of(rules: AnyRules, state: Any) -> list[Decision]:
    return list(_memo.get(rules, state, "pending", lambda: rules.pending(state)))


# A side's own decisions (``Rules.side_pending``), memoised under a part of their own.
_SIDE_PENDING = "pending:"


def side_pending_of(rules: AnyRules, state: Any, side: str) -> list[Decision]:
    """``side``'s decisions of the round, in order: the round's whole decisions filtered
    when they are kept (a resolution's worker sent them, or the round was opened or
    prepared here), else only that side's worked out (``Rules.side_pending``) and kept
    under a part of their own. A cold panel, draft or Lock of one side then works out none
    of the other side's decisions (in a game of many planes, half their legal programs)."""
    if type(rules).side_pending is Rules.side_pending:
        # A game whose side's decisions are its whole round's filtered: the whole, worked
        # out once for both sides, as before.
        return [d for d in pending_of(rules, state) if d.side == side]
    key = _states.key_of(state)
    if key is not None and key[0] == id(rules):
        whole = _memo.peek(rules, (*key[:5], BARE), "pending")
        if whole is not None:
            return [d for d in whole if d.side == side]
    part = f"{_SIDE_PENDING}{side}"
    return list(_memo.get(rules, state, part, lambda: rules.side_pending(state, side)))


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


def keep_views(rules: AnyRules, row: SnapshotRow, views: Sequence[SentView]) -> None:
    """Keep a snapshot's views worked out with its resolution (``bot.round_views``), each
    under the part and the state kind ``view_at`` looks it up by, so the new round's panels
    and ``/status`` make none of them again. A side's view goes under that side's part
    only: no other viewer is ever given it."""
    for side, kind, view in views:
        _memo.put(rules, _key(rules, row, kind), _view_part(viewer_of(side)), view)


def _view_part(viewer: secrecy.Viewer) -> str:
    return f"view:{viewer.side or 'public'}"


# The memo's parts that are not a side's own view (a GM's or a spectator's is the public's).
_PUBLIC_PARTS = frozenset({_view_part(secrecy.Viewer.public())})


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
    for kind in (SIDE, RECENT, WHOLE) if _sides_own(viewer) else (RECENT, WHOLE):
        kept = _memo.peek(rules, _key(rules, row, kind), _view_part(viewer))
        if kept is not None:
            return kept
    return view_of(rules, await load_view_state(tx, rules, row, viewer), viewer)


def holds_history(state: Any) -> bool:
    """Whether ``state`` is a kept state parsed with its history (recent or whole, or the
    records a side's view reads, which only a side's player is shown): one a view may be
    made from directly. False for a snapshot-only state, or one no longer kept."""
    key = _states.key_of(state)
    return key is not None and key[5] != BARE

"""The storage interface the services use: records and a transaction in game words.

Belongs here: the row records (frozen dataclasses), and the abstract ``Repository`` /
``Transaction`` pair. No SQL: ``db.sql`` implements the transaction once for both SQL
dialects, ``db.sqlite`` and ``db.postgres`` what SQLite and PostgreSQL do apart (and their
connections), ``db.backend.open_repository`` picks one from ``DATABASE_URL``, and
``tests/db/test_contract.py`` runs the same checks on both.

The contract that makes the turn service safe:

- every service step runs inside ``async with repo.transaction() as tx``: the body sees one
  consistent database, its writes are stored together at the end, or not at all if it raises;
- write transactions never interleave (one writer at a time, across every process sharing
  the database), so "read, check, write" inside one transaction cannot race another
  lock-in, deadline or GM action;
- ``repo.read()`` gives the same interface for read-only work (status, export);
  ``repo.glance()`` too, for a read of one statement (``panel_rows``) or of rows that never
  change once written (snapshots, history): a backend may run each statement on its own.

Times are integer UNIX seconds (UTC); JSON columns come back decoded.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class StorageError(Exception):
    """A database problem the caller cannot fix by changing its input.

    ``key`` and ``params``, when given, let the command line say it in the operator's
    language (``service.storage.<key>``); the message itself is English, for the log.
    """

    def __init__(self, message: str = "", *, key: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


class ConstraintError(StorageError):
    """The database refused a write that breaks a constraint (unique, foreign key, check).

    Every backend raises this one class, so the services can tell "another request got
    there first" (a partial unique index caught a race) apart from a broken database.
    """


# ------------------------------------------------------------------------------ records


@dataclass(frozen=True)
class NewCampaign:
    guild_id: int
    channel_id: int
    gm_id: int
    ruleset: str
    scenario: str
    locale: str
    seed: str
    seed_commitment: str
    round_seconds: int
    reminder_offsets: tuple[int, ...]
    missing_policy: str
    gm_sees_secrets: bool
    allow_unlock: bool
    created_at: int


@dataclass(frozen=True)
class CampaignRow:
    id: int
    guild_id: int
    channel_id: int
    gm_id: int
    ruleset: str
    scenario: str
    locale: str
    seed: str
    seed_commitment: str
    seed_revealed: bool
    round_seconds: int
    reminder_offsets: tuple[int, ...]
    missing_policy: str
    gm_sees_secrets: bool
    allow_unlock: bool
    status: str  # setup / active / paused / finished
    branch: int
    snapshot_id: int | None
    round_message_id: int | None
    card_message_id: int | None
    paused_at: int | None
    created_at: int
    started_at: int | None
    ended_at: int | None
    end_reason: str | None


@dataclass(frozen=True)
class PlayerRow:
    campaign_id: int
    user_id: int
    side: str
    commander: bool
    dm_ok: bool
    joined_at: int
    last_active: int
    left_at: int | None


@dataclass(frozen=True)
class SnapshotRow:
    id: int
    campaign_id: int
    branch: int
    turn: int
    round_kind: str
    state: str  # the ruleset's state JSON, its history left out (``Rules.dump_stored``)
    created_at: int
    history_len: int = 0  # how many history rows of its branch the state is rebuilt with


@dataclass(frozen=True)
class RoundRow:
    id: int
    campaign_id: int
    branch: int
    turn: int
    kind: str  # orders / resource
    status: str  # open / resolving / resolved / void
    opened_at: int
    deadline_at: int | None
    resolved_at: int | None
    message_id: int | None
    snapshot_before_id: int
    snapshot_after_id: int | None
    # The round's sealed events as JSON (a list), opened with the campaign's end; None: none.
    sealed: str | None = None


@dataclass(frozen=True)
class DraftRow:
    round_id: int
    side: str
    field: str
    value: str
    by_user: int
    updated_at: int


@dataclass(frozen=True)
class NewLock:
    round_id: int
    side: str
    canonical: str
    salt: str
    receipt: str
    locked_at: int
    by_user: int | None
    defaulted: bool = False


@dataclass(frozen=True)
class LockRow:
    id: int
    round_id: int
    side: str
    canonical: str
    salt: str
    receipt: str
    locked_at: int
    by_user: int | None
    defaulted: bool
    withdrawn_at: int | None


@dataclass(frozen=True)
class PanelRows:
    """Everything a player's order panel is made from, read at one moment: the campaign,
    the player, the live round (open or resolving), the snapshot it opened on, its
    standing locks and the player's side's drafts (by field, in byte order)."""

    campaign: CampaignRow | None
    player: PlayerRow | None = None
    live: RoundRow | None = None
    snapshot: SnapshotRow | None = None
    locks: dict[str, LockRow] = field(default_factory=dict)
    drafts: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class NewEvent:
    kind: str
    turn: int
    data: Mapping[str, Any] = field(default_factory=dict)
    source: str = "service"  # engine / service


@dataclass(frozen=True)
class EventRow:
    seq: int
    campaign_id: int
    round_id: int | None
    branch: int
    source: str
    kind: str
    turn: int
    data: dict[str, Any]
    void: bool
    created_at: int


@dataclass(frozen=True)
class TimerRow:
    id: int
    campaign_id: int
    round_id: int
    kind: str  # deadline / reminder
    due_at: int
    offset_s: int
    done: bool


@dataclass(frozen=True)
class NewOutbox:
    kind: str
    target_kind: str  # channel / dm
    target_id: int
    payload: Mapping[str, Any]
    message_key: str | None = None
    dedupe_key: str | None = None
    # A message edited in place (round message, card) needs one pending delivery at most:
    # with ``coalesce`` a pending row with the same key absorbs the new payload.
    coalesce: bool = False


@dataclass(frozen=True)
class OutboxRow:
    id: int
    campaign_id: int | None
    kind: str
    target_kind: str
    target_id: int
    message_key: str | None
    payload: dict[str, Any]
    status: str  # pending / delivered / failed
    attempts: int
    next_attempt_at: int
    last_error: str | None
    delivered_id: int | None
    delivered_at: int | None
    dedupe_key: str | None
    created_at: int


@dataclass(frozen=True)
class AuditRow:
    id: int
    campaign_id: int | None
    guild_id: int | None
    who: int
    what: str
    why: str
    data: dict[str, Any]
    at: int


# ------------------------------------------------------------------------------ interface


class Transaction(abc.ABC):
    """Everything the services read and write, inside one transaction."""

    #: Whether this backend stores its large texts packed (``db.packing.pack``): a caller
    #: may then have them packed ahead elsewhere (``db.packing.packed_ahead``).
    packs = False

    @property
    def raw(self) -> Any:
        """The driver's connection inside this transaction: for ``db.transfer``, never services."""
        raise NotImplementedError

    # guild settings
    @abc.abstractmethod
    async def set_gm_role(self, guild_id: int, role_id: int | None, now: int) -> None: ...

    @abc.abstractmethod
    async def gm_role(self, guild_id: int) -> int | None: ...

    @abc.abstractmethod
    async def set_creators(self, guild_id: int, who: str, now: int) -> None: ...

    @abc.abstractmethod
    async def creators(self, guild_id: int) -> str:
        """Who may create campaigns on the server: "gm" (default) or "everyone"."""

    # campaigns
    @abc.abstractmethod
    async def insert_campaign(self, new: NewCampaign) -> int: ...

    @abc.abstractmethod
    async def campaign(self, campaign_id: int) -> CampaignRow | None: ...

    @abc.abstractmethod
    async def live_campaign_in_channel(self, channel_id: int) -> CampaignRow | None: ...

    @abc.abstractmethod
    async def campaigns(self, statuses: Sequence[str] = ()) -> list[CampaignRow]: ...

    @abc.abstractmethod
    async def latest_campaign_in_channel(self, channel_id: int) -> CampaignRow | None:
        """The channel's live campaign, else its most recently created finished one."""

    @abc.abstractmethod
    async def guild_campaigns(
        self, guild_id: int, *, limit: int = 25, offset: int = 0
    ) -> list[CampaignRow]:
        """A server's campaigns, running and finished, newest first."""

    @abc.abstractmethod
    async def count_guild_campaigns(self, guild_id: int) -> int: ...

    @abc.abstractmethod
    async def update_campaign(self, campaign_id: int, **fields: Any) -> None: ...

    # players
    @abc.abstractmethod
    async def player(self, campaign_id: int, user_id: int) -> PlayerRow | None: ...

    @abc.abstractmethod
    async def players(self, campaign_id: int, *, include_left: bool = False) -> list[PlayerRow]: ...

    @abc.abstractmethod
    async def upsert_player(self, row: PlayerRow) -> None: ...

    @abc.abstractmethod
    async def update_player(self, campaign_id: int, user_id: int, **fields: Any) -> None: ...

    # snapshots
    @abc.abstractmethod
    async def insert_snapshot(
        self,
        campaign_id: int,
        branch: int,
        turn: int,
        round_kind: str,
        state: str,
        now: int,
        *,
        history_len: int = 0,
    ) -> int: ...

    @abc.abstractmethod
    async def snapshot(self, snapshot_id: int) -> SnapshotRow | None: ...

    # history: append-only rows, one per record of a state's history, per branch
    @abc.abstractmethod
    async def append_history(
        self, campaign_id: int, branch: int, first_seq: int, records: Sequence[str]
    ) -> None:
        """Store ``records`` as the branch's entries ``first_seq``, ``first_seq + 1``...

        An index the branch already holds is refused (``ConstraintError``): rows are never
        rewritten.
        """

    @abc.abstractmethod
    async def history(
        self, campaign_id: int, branch: int, length: int, start: int = 0
    ) -> list[str]:
        """The branch's records ``start`` to ``length - 1`` (its first ``length`` ones from
        ``start`` on), in order."""

    @abc.abstractmethod
    async def copy_history(
        self, campaign_id: int, from_branch: int, to_branch: int, length: int
    ) -> int:
        """Give ``to_branch`` the first ``length`` records of ``from_branch`` (a rollback's
        new branch starts from them); the number copied."""

    # rounds
    @abc.abstractmethod
    async def insert_round(
        self,
        campaign_id: int,
        branch: int,
        turn: int,
        kind: str,
        opened_at: int,
        deadline_at: int | None,
        snapshot_before_id: int,
    ) -> int: ...

    @abc.abstractmethod
    async def round(self, round_id: int) -> RoundRow | None: ...

    @abc.abstractmethod
    async def live_round(self, campaign_id: int) -> RoundRow | None:
        """The campaign's open or resolving round, if any."""

    @abc.abstractmethod
    async def rounds(self, campaign_id: int) -> list[RoundRow]: ...

    @abc.abstractmethod
    async def turn_rounds(self, campaign_id: int, branch: int, turn: int) -> list[RoundRow]:
        """The rounds of one turn on one branch, oldest first: what a reveal or a turn's
        summary reads, as many rows at a campaign's hundredth round as at its first."""

    @abc.abstractmethod
    async def rounds_with_status(self, status: str) -> list[RoundRow]: ...

    @abc.abstractmethod
    async def update_round(self, round_id: int, **fields: Any) -> None: ...

    # drafts and locks
    @abc.abstractmethod
    async def set_draft(
        self, round_id: int, side: str, field: str, value: str, by_user: int, now: int
    ) -> None: ...

    @abc.abstractmethod
    async def record_draft(
        self,
        campaign_id: int,
        round_id: int,
        side: str,
        field: str,
        value: str,
        by_user: int,
        now: int,
    ) -> None:
        """``set_draft``, and the player who drafted it was active ``now``: one statement
        where the backend can."""

    @abc.abstractmethod
    async def drafts(self, round_id: int, side: str) -> dict[str, str]: ...

    @abc.abstractmethod
    async def clear_draft(self, round_id: int, side: str, field: str) -> None:
        """Forget one field's draft: a choice built in steps whose earlier step changed is
        no longer whole."""

    @abc.abstractmethod
    async def insert_lock(self, lock: NewLock) -> int: ...

    @abc.abstractmethod
    async def standing_locks(self, round_id: int) -> dict[str, LockRow]:
        """The side -> lock of a round that have not been withdrawn."""

    @abc.abstractmethod
    async def withdraw_lock(self, round_id: int, side: str, now: int) -> None: ...

    async def panel_rows(self, campaign_id: int, user_id: int) -> PanelRows:
        """The rows of ``user_id``'s panel in one campaign, as of one moment.

        A backend may answer it with one statement; this one reads them one by one, which
        is the same moment inside a transaction.
        """
        campaign = await self.campaign(campaign_id)
        if campaign is None:
            return PanelRows(None)
        player = await self.player(campaign_id, user_id)
        live = await self.live_round(campaign_id)
        if live is None:
            return PanelRows(campaign, player)
        return PanelRows(
            campaign,
            player,
            live,
            await self.snapshot(live.snapshot_before_id),
            await self.standing_locks(live.id),
            await self.drafts(live.id, player.side) if player is not None else {},
        )

    @abc.abstractmethod
    async def campaign_locks(self, campaign_id: int) -> list[LockRow]:
        """Every lock of a campaign, withdrawn ones included, oldest first."""

    # events
    @abc.abstractmethod
    async def append_events(
        self,
        campaign_id: int,
        round_id: int | None,
        branch: int,
        events: Sequence[NewEvent],
        now: int,
    ) -> list[int]: ...

    @abc.abstractmethod
    async def events(
        self,
        campaign_id: int,
        *,
        turn: int | None = None,
        round_id: int | None = None,
        newest_first: bool = False,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[EventRow]: ...

    @abc.abstractmethod
    async def count_events(self, campaign_id: int, *, turn: int | None = None) -> int: ...

    @abc.abstractmethod
    async def void_events(self, campaign_id: int, round_ids: Sequence[int]) -> int: ...

    # timers
    @abc.abstractmethod
    async def insert_timer(
        self, campaign_id: int, round_id: int, kind: str, due_at: int, offset_s: int = 0
    ) -> int: ...

    @abc.abstractmethod
    async def due_timers(self, now: int) -> list[TimerRow]: ...

    @abc.abstractmethod
    async def round_timers(self, round_id: int, *, pending_only: bool = True) -> list[TimerRow]: ...

    @abc.abstractmethod
    async def finish_timer(self, timer_id: int) -> None: ...

    @abc.abstractmethod
    async def finish_round_timers(self, round_id: int) -> None: ...

    @abc.abstractmethod
    async def shift_round_timers(self, round_id: int, seconds: int) -> None: ...

    # outbox
    @abc.abstractmethod
    async def enqueue(self, campaign_id: int | None, item: NewOutbox, now: int) -> int | None:
        """Queue a delivery; None when the dedupe key or a coalescing row already holds it."""

    async def queue(self, campaign_id: int | None, item: NewOutbox, now: int) -> None:
        """``enqueue`` without its answer, so a backend may hold the row until the
        transaction's end (or its next statement on the outbox) and write a batch at once;
        whatever it holds goes with the transaction, as the rows it announces do."""
        await self.enqueue(campaign_id, item, now)

    async def send_queued(self) -> None:
        """Write what ``queue`` holds; the repository calls it before it commits."""
        return None  # ``queue`` here holds nothing: each item went in as it came

    @abc.abstractmethod
    async def pending_outbox(self, limit: int = 100) -> list[OutboxRow]: ...

    @abc.abstractmethod
    async def claim_outbox(self, now: int, lease_until: int, limit: int = 100) -> list[OutboxRow]:
        """Claim the rows to deliver now, oldest first, for one worker until ``lease_until``.

        A row is deliverable when it is pending, due (``next_attempt_at <= now``) and no
        earlier pending row of the same destination is waiting (backing off, or claimed by
        another worker): a destination's messages go out in queue order. Claiming moves
        ``next_attempt_at`` to ``lease_until``, so no other worker (another process on the
        same database) takes the row while this one delivers it; a worker that dies leaves
        the row to be claimed again once the lease has run out. The rows come back with the
        values they had before the claim. Claims are write transactions, which never
        interleave, so two workers never claim the same row.
        """

    @abc.abstractmethod
    async def release_outbox(self, rows: Sequence[OutboxRow], lease_until: int) -> None:
        """Give back claimed rows that were not attempted (their claim is still ours)."""

    @abc.abstractmethod
    async def outbox(self, campaign_id: int | None = None) -> list[OutboxRow]: ...

    @abc.abstractmethod
    async def outbox_item(self, item_id: int) -> OutboxRow | None: ...

    @abc.abstractmethod
    async def mark_delivered(self, item_id: int, message_id: int, now: int) -> None: ...

    @abc.abstractmethod
    async def mark_retry(self, item_id: int, error: str, next_attempt_at: int) -> None: ...

    @abc.abstractmethod
    async def redeliver(self, campaign_id: int, now: int) -> int:
        """Make the campaign's undelivered announcements due now (pending ones waiting for a
        retry, and any marked failed for a reason other than being obsolete or unreachable);
        their count. A row not tried yet may be claimed by a worker right now: left alone."""

    @abc.abstractmethod
    async def mark_failed(self, item_id: int, error: str) -> None: ...

    @abc.abstractmethod
    async def message_ref(self, campaign_id: int, key: str) -> int | None: ...

    @abc.abstractmethod
    async def message_refs(self, campaign_id: int, keys: Sequence[str]) -> dict[str, int]:
        """The messages posted under ``keys`` (those posted so far), in one read."""

    @abc.abstractmethod
    async def set_message_ref(
        self, campaign_id: int, key: str, target_id: int, message_id: int
    ) -> None: ...

    # audit
    @abc.abstractmethod
    async def add_audit(
        self,
        campaign_id: int | None,
        guild_id: int | None,
        who: int,
        what: str,
        why: str,
        data: Mapping[str, Any],
        now: int,
    ) -> int: ...

    @abc.abstractmethod
    async def audit(self, campaign_id: int) -> list[AuditRow]: ...


class Repository(abc.ABC):
    """A campaign store: transactions, plus the operations on the store itself."""

    # Which SQL the store speaks ("sqlite", "postgresql"): tools that copy raw rows between
    # stores (``db.transfer``) ask this instead of importing every backend.
    dialect: str = ""

    @abc.abstractmethod
    def transaction(self, campaign: int | None = None) -> AbstractAsyncContextManager[Transaction]:
        """A write transaction: exclusive, committed on exit, rolled back on an exception.

        ``campaign``: the transaction reads and writes that campaign's rows only (and
        appends to the shared sequences), so a backend may run it beside writers of other
        campaigns; it still excludes every other writer of that campaign and every writer
        that passes no campaign. A backend with a single writer may ignore it.
        """

    def lazy_transaction(
        self, campaign: int | None = None
    ) -> AbstractAsyncContextManager[Transaction]:
        """A write transaction whose exit does not wait for its commit to be durable.

        For bookkeeping that a crash may lose because it is redone (an outbox lease, a
        delivery's mark and the reference of the message it posted: the row is sent again,
        with its nonce, and Discord answers with the same message). Later write
        transactions see it at once; reads may not until it is durable, so ``flushed`` is
        awaited before anyone reads it. It may share its commit with writes that wait for
        the disk and read what they wrote before that commit: anything it read is acted on
        outside the store only after ``flushed``. A backend without group commit runs an
        ordinary transaction.
        """
        return self.transaction(campaign)

    def working_transaction(
        self, campaign: int | None = None
    ) -> AbstractAsyncContextManager[Transaction]:
        """A write transaction for a side's working notes (its drafts, never a Lock), which
        the machine's own crash (a power cut, not the bot's) may take back without harm.

        Its exit waits for the disk only when it joined a group of writes that waits for it
        anyway; otherwise it is committed at once, readable by everyone, durable with the
        next write that waits (a Lock, a resolution). A backend without group commit runs
        an ordinary transaction.
        """
        return self.transaction(campaign)

    async def flushed(self) -> None:
        """Return once every write transaction ended so far is durable (and readable)."""
        return  # every transaction of a backend without lazy ones was durable on exit

    @abc.abstractmethod
    def read(self) -> AbstractAsyncContextManager[Transaction]:
        """A consistent read-only view (writes through it are a programming error)."""

    def glance(self) -> AbstractAsyncContextManager[Transaction]:
        """A read-only view in which only each statement is sure to be consistent: for a
        read made of one statement (``panel_rows``) plus rows that never change once
        written (a snapshot, its branch's history). A backend may spare it the
        transaction; this one gives a whole ``read``."""
        return self.read()

    @abc.abstractmethod
    async def close(self) -> None: ...

    @abc.abstractmethod
    async def migrate(self) -> int:
        """Apply the pending migrations of this backend's dialect; the number applied."""

    @abc.abstractmethod
    async def schema_version(self) -> int: ...

    @abc.abstractmethod
    async def backup(self, destination: Path) -> None:
        """A consistent copy of the whole store as a SQLite file at ``destination``."""

    @abc.abstractmethod
    async def size_bytes(self) -> int: ...

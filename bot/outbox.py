"""Delivering the outbox: every announcement the services queued, retried until it lands.

The services only ever *queue* (in the transaction that made the change); this worker
turns queued rows into posts through a ``Sender`` (Discord in production, files in the
demo, a list in tests). A row is marked delivered only when the sender returned the id of
the message it posted, so a crash between "posted" and "marked" resends, never loses.

Payload kinds (``outbox.kind``; the payload always has ``campaign_id``):

- ``campaign-card``   channel, edited in place (key ``card``): scenario, sides and players,
                      pace, the seed commitment (and the seed once revealed).
- ``round-message``   channel, one per round edited as it progresses (key ``round:<id>``):
                      ``round_id``; opened / who has locked with short receipts / deadline.
                      Built from the database at delivery, so queued updates coalesce.
- ``dm-panel``        DM to a commander: ``round_id``, ``user_id``, ``side``; the order
                      panel text and image, composed with its controls (``bot.panel``).
- ``reminder``        DM (or channel mention if DMs are closed): ``round_id``, ``side``,
                      ``user_id``, ``offset``; dropped at delivery if the side has locked since.
- ``reveal``          channel: ``round_id``, ``turn``, ``round``, ``sides`` (public fields,
                      receipt, defaulted), ``opened`` (canonical + salt + receipt per lock,
                      at the end of a turn).
- ``report``          channel, one per report of a turn-closing resolution (a strike,
                      a mission): ``round_id``, ``turn``, ``snapshot_id``, ``index``
                      (``strike-report`` in rows queued by earlier versions).
- ``turn-summary``    channel: ``round_id``, ``turn``, ``snapshot_id``.
- ``campaign-ended``  channel: ``snapshot_id``, ``reason``, ``winner``, ``vp``, ``seed``,
                      ``seed_commitment``.
- ``gm-notice``       channel: ``notice`` (defaults, rollback, closed-dm, use-orders,
                      no-commander), ``params``, ``gm_id``.

Ordering: rows for one destination go out in the order they were queued; a row waiting
for a retry holds back the later rows of the same destination (a strike report never
overtakes its reveal), other destinations are not held up.

Several bot processes on one database (PostgreSQL): each batch is *claimed* with a lease
(``claim_outbox``), so two workers never deliver the same row, and a destination's rows
stay with the worker that holds its oldest. A worker killed mid-batch leaves its rows to
be claimed again when the lease runs out: a row it had posted but not yet marked is then
handed to the sender again (at least once). The Discord sender passes the row's nonce
with ``enforce_nonce``, so Discord returns the message it already made instead of a second
one: exactly once for the players, provided the repeat comes within Discord's nonce window
("the past few minutes"). Hence a short lease (a repeat normally comes within a lease and a
pump period of the post, about 90 s), renewed while a live worker is still sending.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple, Protocol, cast

from bot.announce import Announcement
from bot.clock import Clock, epoch
from bot.service_notify import gm_notice, notify
from db.repository import OutboxRow, Repository, Transaction

log = logging.getLogger(__name__)

BASE_DELAY = 15  # seconds before the first retry
MAX_DELAY = 3600  # then hourly, without end: a reveal or its salts are never dropped
STUCK_ATTEMPTS = 8  # about an hour of failures: the GM is told by DM (the channel may be down)
# How long a claimed batch is this worker's alone. A worker that dies mid-batch leaves its
# rows to be claimed again after it, so it bounds how late a repeat comes (see above); a
# live worker renews it before each send once half of it has gone (``_renew``).
LEASE_SECONDS = 60


class RecipientUnavailable(Exception):
    """The recipient cannot receive this message (closed DMs, left the server).

    Retrying will not help: the worker marks the row failed, records the player as not
    reachable by DM and tells the channel.
    """


@dataclass(frozen=True)
class Target:
    kind: str  # channel / dm
    id: int
    campaign_id: int | None
    outbox_id: int | None = None  # lets a sender make a re-send of the same row idempotent


class Sender(Protocol):
    async def send(
        self, target: Target, announcement: Announcement, *, edit_message_id: int | None
    ) -> int | None:
        """Post ``announcement`` (or edit message ``edit_message_id``); return the message id.

        Raise ``RecipientUnavailable`` for a closed DM; any other exception is retried.
        """
        ...


Builder = Callable[[OutboxRow], Awaitable[Announcement | None]]
Built = Announcement | BaseException | None  # None: no longer to be sent


class Mark(NamedTuple):
    """A row sent: its id, the message it went to, when; ``names`` for a row whose message
    is new to the store (a new round's message, a new panel): the row and the key its
    later edits look the message up by, written with the mark."""

    row_id: int
    message_id: int
    at: int
    names: tuple[OutboxRow, str] | None = None


class BatchBuilder(Protocol):
    async def build_all(self, rows: Sequence[OutboxRow]) -> list[Built]:
        """Each row's announcement, in order; a row that failed gives its exception."""
        ...


@dataclass(frozen=True)
class DeliveryReport:
    delivered: int = 0
    retried: int = 0
    failed: int = 0
    dropped: int = 0


def backoff(attempts: int) -> int:
    """Seconds before the next try after ``attempts`` failures: 15 s, 30 s, 1 min ... 1 h."""
    return int(min(MAX_DELAY, BASE_DELAY * 2 ** max(0, attempts - 1)))


class OutboxWorker:
    def __init__(
        self,
        repo: Repository,
        sender: Sender,
        clock: Clock,
        *,
        builder: Builder | BatchBuilder | None = None,
        batch: int = 100,
        parallel_builds: int = 1,
    ) -> None:
        self.repo = repo
        self.sender = sender
        self.clock = clock
        self._builder = builder
        self.batch = batch
        self.parallel_builds = parallel_builds

    def _build(self) -> Builder | BatchBuilder:
        if self._builder is None:
            from bot.announce import AnnouncementBuilder

            self._builder = AnnouncementBuilder(self.repo, self.clock)
        return self._builder

    async def deliver_due(self) -> DeliveryReport:
        """Send every row that is due now, in queue order per destination."""
        build = self._build()
        now = epoch(self.clock.now())
        lease_until = now + LEASE_SECONDS
        # A claim, not a read: another bot process on the same database leaves these rows
        # (and the later rows of their destinations) alone until the lease ends. Lazy: no
        # wait for the disk; a lease lost in a crash only frees the rows for the next
        # worker, which sends them again with their nonces.
        async with self.repo.lazy_transaction() as tx:
            rows = await tx.claim_outbox(now, lease_until, self.batch)
        if rows:
            # The claim waits for no disk, and may have shared its commit with a write that
            # does (``Repository.lazy_transaction``), reading the rows that write queued
            # before they were committed: nothing is posted until they are stored for good.
            await self.repo.flushed()
        try:
            return await self._deliver_claimed(rows, now, lease_until, build)
        finally:
            # One wait for the disk per batch, not one per row: when this returns, every
            # lease and mark of the batch is durable, and readable by anyone.
            await self.repo.flushed()

    async def _deliver_claimed(
        self, rows: list[OutboxRow], now: int, lease_until: int, build: Builder | BatchBuilder
    ) -> DeliveryReport:
        waiting: set[tuple[str, int]] = set()
        candidates: list[OutboxRow] = []
        for row in rows:
            destination = (row.target_kind, row.target_id)
            if destination in waiting:
                continue
            if row.next_attempt_at > now:
                waiting.add(destination)  # an earlier row backs off: later ones wait for it
                continue
            candidates.append(row)
        built = await self._build_all(candidates, build)
        # Where the rows that edit a message in place find it: read once for the batch, then
        # kept as this worker posts (a row's new message is where a later row's edit goes).
        # No other worker posts under these keys meanwhile: they are its destinations'.
        refs = await self._message_refs(candidates, built)
        superseded = _superseded(candidates, built, refs)
        delivered = retried = failed = dropped = 0
        held: set[tuple[str, int]] = set()
        unsent: list[OutboxRow] = []
        marks: list[Mark] = []
        try:
            for index, (row, announcement) in enumerate(zip(candidates, built, strict=True)):
                destination = (row.target_kind, row.target_id)
                if destination in held:
                    unsent.append(row)
                    continue
                if index:
                    # Each row sent in a turn of the event loop of its own: a resolution's
                    # dozen requests (built by discord.py) never hold up every other
                    # player's click for all of them at once (issue 29: no callback over
                    # 20 ms).
                    await asyncio.sleep(0)
                lease_until = await self._renew(candidates[index:], lease_until, marks)
                if index in superseded:
                    # A later row of the batch rewrites this message whole: editing it now
                    # too would only flash a state that is already past (a flown turn's
                    # message read "revealed" a moment before it read "flown").
                    marks.append(Mark(row.id, superseded[index], epoch(self.clock.now())))
                    delivered += 1
                    continue
                outcome = await self._deliver(row, announcement, refs, marks)
                if outcome == "delivered":
                    delivered += 1
                elif outcome == "dropped":
                    dropped += 1
                elif outcome == "failed":
                    failed += 1
                else:
                    retried += 1
                    held.add(destination)
        finally:
            await self._mark(marks)
        if unsent:
            # Behind a row that will be retried: give them back at once rather than when
            # the lease runs out, so they follow it as soon as it is through.
            async with self.repo.transaction() as tx:
                await tx.release_outbox(unsent, lease_until)
        return DeliveryReport(delivered, retried, failed, dropped)

    async def _build_all(self, rows: list[OutboxRow], build: Builder | BatchBuilder) -> list[Built]:
        """The rows' announcements, in order. A batch builder reads every row's facts in one
        read transaction (``AnnouncementBuilder.build_all``); a row-by-row one (tests, the
        benchmarks' stand-ins) builds them side by side, ``parallel_builds`` at a time."""
        build_all = getattr(build, "build_all", None)
        if build_all is not None:
            built: list[Built] = await build_all(rows)
            for row, announcement in zip(rows, built, strict=True):
                if isinstance(announcement, BaseException):
                    log.error(
                        "building outbox row %s (%s) failed",
                        row.id,
                        row.kind,
                        exc_info=announcement,
                    )
            return built
        gate = asyncio.Semaphore(self.parallel_builds)
        one = cast(Builder, build)

        async def prepare(row: OutboxRow) -> Built:
            async with gate:
                try:
                    return await one(row)
                except Exception as exc:
                    log.exception("building outbox row %s (%s) failed", row.id, row.kind)
                    return exc

        return list(await asyncio.gather(*(prepare(row) for row in rows)))

    async def _message_refs(
        self, rows: list[OutboxRow], built: list[Built]
    ) -> dict[tuple[int, str], int]:
        """The messages the batch's in-place edits go to, as stored: one read, one
        statement per campaign."""
        keys: dict[int, set[str]] = {}
        for row, announcement in zip(rows, built, strict=True):
            if not isinstance(announcement, Announcement) or row.campaign_id is None:
                continue
            if announcement.edit_of is not None:
                keys.setdefault(row.campaign_id, set()).add(announcement.edit_of)
        refs: dict[tuple[int, str], int] = {}
        if not keys:
            return refs
        async with self.repo.read() as tx:
            for campaign_id, wanted in keys.items():
                found = await tx.message_refs(campaign_id, sorted(wanted))
                refs.update(((campaign_id, key), message) for key, message in found.items())
        return refs

    async def _renew(self, rows: list[OutboxRow], lease_until: int, marks: list[Mark]) -> int:
        """Extend the lease on the rows not yet sent once half of it has gone; the new end.

        Only rows still holding this worker's lease are extended: a row whose lease ran
        out and was claimed by another worker keeps that worker's lease. The rows sent and
        not yet marked (``marks``) are marked first, while their lease still holds.
        """
        now = epoch(self.clock.now())
        if now < lease_until - LEASE_SECONDS // 2:
            return lease_until
        await self._mark(marks)
        renewed = now + LEASE_SECONDS
        async with self.repo.transaction() as tx:
            # release_outbox sets each row's next_attempt_at where it still equals the old
            # lease end: given the new end, it renews rather than releases.
            await tx.release_outbox(
                [replace(row, next_attempt_at=renewed) for row in rows], lease_until
            )
        return renewed

    async def _deliver(
        self,
        row: OutboxRow,
        announcement: Built,
        refs: dict[tuple[int, str], int],
        marks: list[Mark],
    ) -> str:
        now = epoch(self.clock.now())
        if isinstance(announcement, BaseException):
            return await self._retry(row, f"build: {announcement!r}")
        if announcement is None:
            # Obsolete by now (a reminder to a side that has since locked): not sent.
            async with self.repo.lazy_transaction() as tx:
                await tx.mark_failed(row.id, "obsolete")
            return "dropped"
        edit_id: int | None = None
        if announcement.edit_of is not None and row.campaign_id is not None:
            edit_id = refs.get((row.campaign_id, announcement.edit_of))
        target = Target(row.target_kind, row.target_id, row.campaign_id, row.id)
        try:
            message_id = await self.sender.send(target, announcement, edit_message_id=edit_id)
        except RecipientUnavailable as exc:
            await self._unreachable(row, str(exc))
            return "failed"
        except Exception as exc:
            log.warning("delivery of outbox row %s (%s) failed: %r", row.id, row.kind, exc)
            return await self._retry(row, repr(exc))
        if message_id is None:
            return await self._retry(row, "sender returned no message id")
        names = None
        if announcement.edit_of is not None and message_id != edit_id:
            # A message new to the store: the batch's later edits of it go to it from here
            # on, and its reference is stored with the row's mark.
            names = (row, announcement.edit_of)
            if row.campaign_id is not None:
                refs[(row.campaign_id, announcement.edit_of)] = message_id
        # Marked with the batch's other rows in one lazy transaction (``_mark``), on disk
        # before the batch ends (``deliver_due``). A mark lost in a crash sends the row
        # again, with its nonce: the same message (an edit made again changes nothing).
        marks.append(Mark(row.id, message_id, now, names))
        return "delivered"

    async def _mark(self, marks: list[Mark]) -> None:
        """Mark the rows sent (``_deliver``) delivered, and store the messages new to the
        store under their keys, all in one lazy transaction: a resolution's dozen rows cost
        one write, not one each (its new round message and panels one each, before)."""
        if not marks:
            return
        async with self.repo.lazy_transaction() as tx:
            for mark in marks:
                await tx.mark_delivered(mark.row_id, mark.message_id, mark.at)
                if mark.names is not None:
                    await _keep_reference(tx, *mark.names, mark.message_id)
        marks.clear()

    async def _retry(self, row: OutboxRow, error: str) -> str:
        attempts = row.attempts + 1
        now = epoch(self.clock.now())
        async with self.repo.transaction() as tx:
            await tx.mark_retry(row.id, error, now + backoff(attempts))
            if attempts == STUCK_ATTEMPTS and row.campaign_id is not None:
                log.error("outbox row %s (%s) still failing: %s", row.id, row.kind, error)
                campaign = await tx.campaign(row.campaign_id)
                if campaign is not None and not (
                    row.target_kind == "dm" and row.target_id == campaign.gm_id
                ):
                    await notify(
                        tx,
                        campaign,
                        "gm-notice",
                        {
                            "notice": "delivery-stuck",
                            "params": {"what": row.kind, "error": error[:200]},
                            "gm_id": campaign.gm_id,
                        },
                        now,
                        dm_user=campaign.gm_id,
                        dedupe_key=f"delivery-stuck:{row.id}",
                    )
        return "retry"

    async def _unreachable(self, row: OutboxRow, error: str) -> None:
        async with self.repo.transaction() as tx:
            await tx.mark_failed(row.id, f"recipient unavailable: {error}")
            if row.target_kind != "dm" or row.campaign_id is None:
                return
            campaign = await tx.campaign(row.campaign_id)
            player = await tx.player(row.campaign_id, row.target_id)
            if campaign is None or player is None:
                return
            if player.dm_ok:
                await tx.update_player(row.campaign_id, row.target_id, dm_ok=False)
            await gm_notice(
                tx,
                campaign,
                "closed-dm",
                epoch(self.clock.now()),
                user=row.target_id,
                side=player.side,
                what=row.kind,
            )


async def _keep_reference(tx: Transaction, row: OutboxRow, key: str, message_id: int) -> None:
    """Where the message ``row`` posted is found from now on: under its key, and on the
    campaign or round that names its card or round message."""
    if row.campaign_id is None:
        return
    await tx.set_message_ref(row.campaign_id, key, row.target_id, message_id)
    if row.kind == "campaign-card":
        await tx.update_campaign(row.campaign_id, card_message_id=message_id)
    elif row.kind == "round-message":
        round_id = int(row.payload.get("round_id", 0))
        await tx.update_round(round_id, message_id=message_id)
        live = await tx.live_round(row.campaign_id)
        if live is not None and live.id == round_id:
            await tx.update_campaign(row.campaign_id, round_message_id=message_id)


def _superseded(
    rows: list[OutboxRow], built: list[Built], refs: dict[tuple[int, str], int]
) -> dict[int, int]:
    """The rows (by index) whose edit a later row of the same batch makes again, each with
    the message it edits. Only edits of a message already posted: a row that would post
    one is sent, since the later edits need it. The later row carries the whole message
    (text, images), so the earlier edit adds nothing a player would still see."""
    later: set[tuple[str, int, int, str]] = set()
    superseded: dict[int, int] = {}
    for index in range(len(rows) - 1, -1, -1):
        row, announcement = rows[index], built[index]
        if not isinstance(announcement, Announcement) or row.campaign_id is None:
            continue
        if announcement.edit_of is None:
            continue
        message = refs.get((row.campaign_id, announcement.edit_of))
        if message is None:
            continue
        key = (row.target_kind, row.target_id, row.campaign_id, announcement.edit_of)
        if key in later:
            superseded[index] = message
        later.add(key)
    return superseded

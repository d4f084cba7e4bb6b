"""The outbox items one write transaction queues, written together before it commits.

A resolution queues a dozen announcements (the old round's message and panels, the reveal,
the new round's message and panels, a turn's reports and summary). Written one at a time,
each coalescing one looked its row up and each insert was a statement of its own; queued
here, they coalesce among themselves in memory, the rows already pending are looked up in
one statement, and the new ones go in one multi-row INSERT. Still inside the transaction:
nothing is announced of a state that was not committed, and a rollback takes them too.

What they end as is what ``Transaction.enqueue``, called for each in turn, would have
left: the same rows, in the same order, with the same payloads.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from db.repository import NewOutbox


@dataclass
class Queued:
    campaign_id: int | None
    item: NewOutbox
    now: int


class OutboxQueue:
    """Items queued in one transaction, in the order their rows will be inserted."""

    def __init__(self) -> None:
        self.items: list[Queued] = []

    def __bool__(self) -> bool:
        return bool(self.items)

    def add(self, campaign_id: int | None, item: NewOutbox, now: int) -> bool:
        """Queue ``item``; False when it must wait for the queue to be written first (it
        coalesces with an item whose own insert may yet be refused by its dedupe key)."""
        if item.coalesce and item.message_key is not None:
            for queued in reversed(self.items):
                if (queued.campaign_id, queued.item.message_key, queued.item.kind) != (
                    campaign_id,
                    item.message_key,
                    item.kind,
                ):
                    continue
                if queued.item.dedupe_key is not None:
                    return False  # whether that row will exist is the database's to say
                # The newest pending row of that message takes the new payload, as a
                # coalescing enqueue updates it; the row keeps its place and its target.
                queued.item = replace(queued.item, payload=item.payload)
                return True
        if item.dedupe_key is not None and any(
            queued.item.dedupe_key == item.dedupe_key for queued in self.items
        ):
            return True  # already queued under that key: ON CONFLICT DO NOTHING's answer
        self.items.append(Queued(campaign_id, item, now))
        return True

    def take(self) -> list[Queued]:
        items, self.items = self.items, []
        return items

"""One bot process for ``test_processes.py``: ticks the scheduler and delivers the outbox.

Run as ``python -m tests.db.process_worker URL NOW SENT_FILE`` from the repository root.
The clock stands at NOW (UNIX seconds); the sender appends one line per message to
SENT_FILE (``O_APPEND``: lines from several processes never mix), the line being what the
test counts. Announcements are plain text built from the row (no rendering): what is under
test is who delivers which row, not what it looks like. Prints the scheduler's totals as
``ticked REMINDERS DEADLINES RESOLVED`` and exits once it has found nothing to do a few
times in a row.
"""

from __future__ import annotations

import asyncio
import os
import sys
from datetime import UTC, datetime

from bot.announce import Announcement
from bot.clock import ManualClock
from bot.outbox import OutboxWorker, Target
from bot.runtime import open_services
from db.repository import OutboxRow


class FileSender:
    def __init__(self, path: str) -> None:
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self.count = 0

    async def send(
        self, target: Target, announcement: Announcement, *, edit_message_id: int | None
    ) -> int | None:
        await asyncio.sleep(0.005)  # a network call: gives the other processes their turn
        os.write(self.fd, f"{os.getpid()} {target.kind}:{target.id} {announcement.text}\n".encode())
        self.count += 1
        return os.getpid() * 1_000_000 + self.count


async def plain(row: OutboxRow) -> Announcement:
    return Announcement(kind=row.kind, text=str(row.id))


async def main(url: str, now: int, sent: str) -> None:
    clock = ManualClock(datetime.fromtimestamp(now, UTC))
    services = await open_services(url, clock)
    # Small claims (batch=3), so the processes share the work out.
    worker = OutboxWorker(services.repo, FileSender(sent), clock, builder=plain, batch=3)
    totals = [0, 0, 0]
    idle = 0
    try:
        while idle < 5:
            tick = await services.campaigns.tick()
            report = await worker.deliver_due()
            assert not tick.failures, tick.failures
            totals = [
                totals[0] + tick.reminders,
                totals[1] + tick.deadlines,
                totals[2] + tick.resolved,
            ]
            busy = (
                tick.reminders + tick.deadlines + tick.resolved + report.delivered + report.retried
            )
            idle = 0 if busy else idle + 1
            await asyncio.sleep(0.02)
    finally:
        await services.close()
    print("ticked", *totals)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))

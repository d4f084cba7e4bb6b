"""The outbox items of a resolution written one at a time or together (issue 29: capacity).

    python bench/outbox_queue.py [--rounds 12] [--transactions 100]

A resolution queues about eight announcements: DM panels and the round message (each
coalescing with a pending row of its message), a reveal, a report and a summary (each with
a dedupe key). Each write transaction here queues those eight, either with ``enqueue``
(a look-up and a statement each, as before) or with ``queue`` (written together before
the transaction commits: one look-up, one INSERT). The floor is an empty write
transaction. The three alternate, ``--rounds`` times ``--transactions`` each, on a SQLite
file with ``synchronous = OFF`` (the disk's wait is not what is compared); the outbox is
emptied between rounds. Prints CPU time per transaction, its median over the rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import machine, median
from db.repository import NewOutbox, Transaction
from db.sqlite import SqliteRepository


def announcements(round_no: int) -> list[NewOutbox]:
    """A resolution's announcements, as ``bot.service_notify`` queues them."""
    panels = [
        NewOutbox(
            "dm-panel",
            "dm",
            1000 + user,
            {"round_id": round_no, "user_id": 1000 + user, "side": "allied"},
            message_key=f"panel:{round_no}:{user}",
            coalesce=True,
        )
        for user in range(4)
    ]
    return [
        *panels,
        NewOutbox(
            "round-message", "channel", 5, {"round_id": round_no}, f"round:{round_no}", None, True
        ),
        NewOutbox("reveal", "channel", 5, {"round_id": round_no}, dedupe_key=f"reveal:{round_no}"),
        NewOutbox("report", "channel", 5, {"round_id": round_no}, dedupe_key=f"report:{round_no}"),
        NewOutbox(
            "turn-summary", "channel", 5, {"round_id": round_no}, dedupe_key=f"sum:{round_no}"
        ),
    ]


async def one_way(tx: Transaction, how: str, round_no: int) -> None:
    for item in announcements(round_no) if how != "floor" else ():
        if how == "enqueue":
            await tx.enqueue(None, item, 0)
        else:
            await tx.queue(None, item, 0)


async def run(rounds: int, transactions: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        repo = await SqliteRepository.open(Path(folder) / "outbox.db")
        repo.set_synchronous("OFF")
        cpu: dict[str, list[float]] = {"floor": [], "enqueue": [], "queue": []}
        round_no = 0
        for _ in range(rounds):
            for how in cpu:
                start = time.process_time()
                for _ in range(transactions):
                    round_no += 1
                    async with repo.transaction() as tx:
                        await one_way(tx, how, round_no)
                cpu[how].append((time.process_time() - start) / transactions * 1000)
                async with repo.transaction() as tx:
                    await tx._write("DELETE FROM outbox")  # type: ignore[attr-defined]
        await repo.close()
    floor = median(cpu["floor"])
    for how, values in cpu.items():
        print(
            f"{how:>8}: {median(values):.3f} ms CPU per write transaction of 8 items"
            f" (median of {rounds} rounds of {transactions}; x{median(values) / floor:.2f} the"
            " empty transaction)"
            if how != "floor"
            else f"   floor: {floor:.3f} ms CPU per empty write transaction"
        )
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--transactions", type=int, default=100)
    parser.add_argument("--quick", action="store_true", help="smoke run: tiny sizes")
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds, args.transactions = 2, 5
    print(f"machine: {machine()}")
    asyncio.run(run(args.rounds, args.transactions))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

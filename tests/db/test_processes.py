"""Three bot processes on one store: every round resolves once, every message goes out once.

Real OS processes (``process_worker.py``), not tasks: each has its own connections and
its own idea of what is due, as separate bot processes would. Thirty campaigns reach their
deadline at the same instant; all three processes tick and deliver at once. Counted where
the processes hand messages over (the shared file): each outbox row is sent exactly once,
and a destination's messages (the two commanders' DMs are shared by every campaign) go
out in queue order even when different processes send them. The second test kills one
process with SIGKILL in the middle of the work and starts a fresh one after the outbox
lease has run out: still every round resolves once and no lock is lost; every message is
delivered, and the only repeats are the few the killed process had posted but not yet
marked (at least once, see ``bot/outbox.py``), still in queue order.

The third is the kill test of ``killtest.py`` at the size CI affords (the full 200
campaigns and 20 kills: ``python -m tests.db.killtest``): one process per shard, locks
arriving at each, one SIGKILLed and restarted at random moments, then rounds, messages
(counted at a fake Discord all processes share) and acknowledged locks are checked.
"""

from __future__ import annotations

import asyncio
import random
import signal
import sys
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path

from bot.clock import ManualClock, epoch
from bot.demo import SeededTokens
from bot.outbox import LEASE_SECONDS
from db.backend import open_repository
from db.repository import OutboxRow
from engine.zero.loader import default_catalog
from engine.zero.types import Side
from tests.db import killtest
from tests.service.support import ALL, GM, JAP, Env, pace

ROOT = Path(__file__).resolve().parents[2]
CAMPAIGNS = 30
PROCESSES = 3


async def campaigns(db_url: str) -> int:
    """Thirty campaigns whose first deadline passes at the same instant; that instant."""
    clock = ManualClock(datetime(2025, 6, 1, 12, 0, tzinfo=UTC))
    env = await Env(db_url, default_catalog(), clock, SeededTokens(5)).open()
    try:
        for n in range(CAMPAIGNS):
            info = await env.svc.create_campaign(
                1, 1000 + n, GM, "coral-sea", pace(round_seconds=3600, reminder_offsets=(600,))
            )
            await env.svc.join(info.id, JAP, Side.JAPANESE)
            await env.svc.join(info.id, ALL, Side.ALLIED)
            await env.svc.start(info.id, GM)
            if n % 3 == 0:  # some sides lock: they get no reminder and no default
                await env.svc.lock(info.id, JAP, await env.fill(info.id, JAP))
    finally:
        await env.close()
    return epoch(clock.now()) + 2 * 3600


async def spawn(db_url: str, now: int, sent: Path) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.db.process_worker",
        db_url,
        str(now),
        str(sent),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def finish(worker: asyncio.subprocess.Process) -> list[int]:
    """Wait for a worker; its reminder, deadline and resolution counts."""
    out, err = await asyncio.wait_for(worker.communicate(), timeout=300)
    assert worker.returncode == 0, err.decode()[-3000:]
    line = out.decode().strip().splitlines()[-1].split()
    assert line[0] == "ticked"
    return [int(x) for x in line[1:]]


def sent_lines(sent: Path) -> list[tuple[str, str, int]]:
    return [(p, d, int(t)) for p, d, t in (line.split() for line in sent.read_text().splitlines())]


def in_queue_order(lines: list[tuple[str, str, int]]) -> None:
    """Each destination's rows, first hand-overs only, come in queue order. A repeat is the
    same row handed over again after a crash: its nonce makes Discord return the message
    it first made, so players see the first hand-over's place, not the repeat's."""
    by_destination: dict[str, list[int]] = defaultdict(list)
    seen: set[int] = set()
    for _, destination, row_id in lines:
        if row_id not in seen:
            seen.add(row_id)
            by_destination[destination].append(row_id)
    for destination, ids in by_destination.items():
        assert ids == sorted(ids), destination


async def check_store(db_url: str, sent_ids: list[int]) -> list[OutboxRow]:
    """Every round resolved once, every lock kept, every row delivered; the outbox."""
    repo = await open_repository(db_url)
    try:
        async with repo.read() as tx:
            rows = await tx.outbox()
            assert [r.id for r in rows if r.status != "delivered"] == []
            assert sorted(set(sent_ids)) == [r.id for r in rows]
            for n, campaign in enumerate(await tx.campaigns()):
                rounds = await tx.rounds(campaign.id)
                assert [r.status for r in rounds] == ["resolved", "open"], campaign.id
                locks = await tx.standing_locks(rounds[0].id)
                assert sorted(locks) == ["allied", "japanese"]
                # the lock made before the deadline is the one resolved, not a default
                assert locks["japanese"].defaulted is (n % 3 != 0)
                assert locks["allied"].defaulted is True
    finally:
        await repo.close()
    return rows


async def test_three_processes_resolve_once_and_deliver_once(db_url: str, tmp_path: Path) -> None:
    after_deadline = await campaigns(db_url)
    sent = tmp_path / "sent.txt"
    workers = [await spawn(db_url, after_deadline, sent) for _ in range(PROCESSES)]
    totals = [0, 0, 0]
    for worker in workers:
        totals = [a + b for a, b in zip(totals, await finish(worker), strict=True)]
    reminders, deadlines, resolved = totals
    assert deadlines == CAMPAIGNS and resolved == CAMPAIGNS  # once each, across processes

    lines = sent_lines(sent)
    row_ids = [row_id for _, _, row_id in lines]
    assert len(row_ids) == len(set(row_ids)), Counter(row_ids).most_common(3)
    assert len({pid for pid, _, _ in lines}) >= 2, "the work was not shared out"
    in_queue_order(lines)
    rows = await check_store(db_url, row_ids)
    assert sum(r.kind == "reminder" for r in rows) == reminders


async def test_a_process_killed_mid_way_loses_nothing(db_url: str, tmp_path: Path) -> None:
    after_deadline = await campaigns(db_url)
    sent = tmp_path / "sent.txt"
    workers = [await spawn(db_url, after_deadline, sent) for _ in range(PROCESSES)]
    # Somewhere in the work: once a random number of the ~300 messages have gone out.
    point = random.randint(1, 150)
    victim = random.choice(workers)
    for _ in range(3000):
        if victim.returncode is not None or (sent.exists() and len(sent_lines(sent)) >= point):
            break
        await asyncio.sleep(0.01)
    assert victim.returncode is None, "the victim had already finished: nothing was tested"
    victim.send_signal(signal.SIGKILL)
    await victim.wait()
    for worker in workers:
        if worker is not victim:
            await finish(worker)
    # A fresh process after the killed one's lease: it takes over what was left behind.
    await finish(await spawn(db_url, after_deadline + LEASE_SECONDS + 1, sent))

    lines = sent_lines(sent)
    row_ids = [row_id for _, _, row_id in lines]
    repeats = [row_id for row_id, n in Counter(row_ids).items() if n > 1]
    # Only the victim's claimed batch (3 rows) can have been posted and not marked; a row
    # a live process handed over is never handed over again.
    assert len(repeats) <= 3, repeats
    first_by = {row_id: pid for pid, _, row_id in reversed(lines)}
    assert all(first_by[row_id] == str(victim.pid) for row_id in repeats), (repeats, victim.pid)
    in_queue_order(lines)
    await check_store(db_url, row_ids)


async def test_kill_and_restart_loses_nothing_and_repeats_nothing(
    pg_url: str, tmp_path: Path
) -> None:
    campaigns, kills = 30, 5  # about a minute on a CI machine
    args = killtest.parse(
        f"--campaigns {campaigns} --kills {kills} --rounds 2 --kill-every 1.5".split()
    )
    report = await killtest.run(pg_url, args, tmp_path)
    assert report.problems == [], "\n".join(report.lines())
    assert report.kills == kills
    # Locks arrived at every process, and the deadlines did their part too.
    assert len(report.locks_by_process) == 3 and min(report.locks_by_process) > 0
    assert report.deadline_rounds == campaigns // 5
    assert report.rounds_resolved >= 2 * campaigns
    # One message per queued row: hand-overs repeated by the kills made no second message.
    assert report.messages_created == report.outbox_rows > 0
    assert report.longest_repeat_gap <= args.window

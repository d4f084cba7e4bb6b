"""Three bot processes on one store: every round resolves once, every message goes out once.

Real OS processes (``process_worker.py``), not tasks: each has its own connections and
its own idea of what is due, as separate bot processes would. Thirty campaigns reach their
deadline at the same instant; all three processes tick and deliver at once. Counted where
the processes hand messages over (the shared file): each outbox row is sent exactly once,
and a destination's messages (the two commanders' DMs are shared by every campaign) go
out in queue order even when different processes send them. No process is killed here:
a kill mid-delivery can repost (see ``bot/outbox.py``).
"""

from __future__ import annotations

import asyncio
import sys
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path

from bot.clock import ManualClock, epoch
from bot.demo import SeededTokens
from db.backend import open_repository
from engine.loader import default_catalog
from engine.types import Side
from tests.service.support import ALL, GM, JAP, Env, pace

ROOT = Path(__file__).resolve().parents[2]
CAMPAIGNS = 30
PROCESSES = 3


async def test_three_processes_resolve_once_and_deliver_once(db_url: str, tmp_path: Path) -> None:
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

    sent = tmp_path / "sent.txt"
    after_deadline = epoch(clock.now()) + 2 * 3600
    workers = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.db.process_worker",
            db_url,
            str(after_deadline),
            str(sent),
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for _ in range(PROCESSES)
    ]
    outputs = [await asyncio.wait_for(w.communicate(), timeout=300) for w in workers]
    for worker, (_, err) in zip(workers, outputs, strict=True):
        assert worker.returncode == 0, err.decode()[-3000:]
    totals = [0, 0, 0]
    for out, _ in outputs:
        line = out.decode().strip().splitlines()[-1].split()
        assert line[0] == "ticked"
        totals = [a + int(b) for a, b in zip(totals, line[1:], strict=True)]
    reminders, deadlines, resolved = totals
    assert deadlines == CAMPAIGNS and resolved == CAMPAIGNS  # once each, across processes

    lines = [line.split() for line in sent.read_text().splitlines()]
    row_ids = [int(text) for _, _, text in lines]
    assert len(row_ids) == len(set(row_ids)), Counter(row_ids).most_common(3)
    assert len({pid for pid, _, _ in lines}) >= 2, "the work was not shared out"
    by_destination: dict[str, list[int]] = defaultdict(list)
    for _, destination, text in lines:
        by_destination[destination].append(int(text))
    for destination, ids in by_destination.items():
        assert ids == sorted(ids), destination  # queue order within each destination

    repo = await open_repository(db_url)
    try:
        async with repo.read() as tx:
            rows = await tx.outbox()
            assert [r.id for r in rows if r.status != "delivered"] == []
            assert sorted(row_ids) == [r.id for r in rows]
            assert sum(r.kind == "reminder" for r in rows) == reminders
            for campaign in await tx.campaigns():
                rounds = await tx.rounds(campaign.id)
                assert [r.status for r in rounds] == ["resolved", "open"], campaign.id
    finally:
        await repo.close()

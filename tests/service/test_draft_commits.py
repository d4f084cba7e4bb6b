"""A draft is a working note (issue 29: a third of a draft's CPU was its own COMMIT on the
disk): on SQLite it commits as its transaction ends, on the event loop, without an fsync,
and a read right after its answer finds it; a Lock still waits for the disk. Counted in
commits and where they ran, never timed."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.demo import SeededTokens
from db.sqlite import SqliteRepository
from engine.zero.catalog import Catalog
from tests.service.support import ALL, JAP, Env


async def test_a_draft_waits_for_no_disk_and_a_lock_still_does(
    tmp_path: Path, catalog: Catalog, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = await Env(tmp_path / "drafts.db", catalog, clock, SeededTokens(7)).open()
    try:
        cid = await env.campaign()
        repo = env.repo
        assert isinstance(repo, SqliteRepository)
        commits: list[tuple[int, bool]] = []  # (synchronous: 1 NORMAL, 2 FULL; on the loop)
        commit = repo._commit

        def watched() -> None:
            sync = repo._writer.execute("PRAGMA synchronous").fetchone()[0]
            commits.append((sync, threading.current_thread() is threading.main_thread()))
            commit()

        monkeypatch.setattr(repo, "_commit", watched)
        panel = await env.svc.panel(cid, JAP)
        first = panel.decisions[0]
        await env.svc.draft(cid, JAP, panel.round_id, first.field, first.options[-1].id)
        assert commits == [(1, True)]
        # Read back at once, by a read of its own: the draft is there.
        assert (await env.svc.panel(cid, JAP)).drafts[first.field] == first.options[-1].id

        round_id = await env.fill(cid, JAP, random.Random(3))
        await env.fill(cid, ALL, random.Random(4))
        assert commits and all(c == (1, True) for c in commits)
        commits.clear()
        await env.svc.lock(cid, JAP, round_id)
        assert commits and commits[0] == (2, False)  # the Lock: FULL, on the writer's thread
    finally:
        await env.close()

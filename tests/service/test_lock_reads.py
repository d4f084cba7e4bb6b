"""What a Lock reads (issue 29: CPU per call): every row it checks before it writes is read
once, in one ``panel_rows`` (one statement on PostgreSQL), and the panel it answers with
is made from those rows; the round's locks, once its own is written, are those it read
with its own added, which tell whether the round is complete."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from bot.service_model import LockResult
from db.sql import SqlTransaction
from engine.zero.types import Side
from tests.service.support import JAP, Env


async def _lock_counting_reads(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, LockResult, Counter[str]]:
    """The first side's Lock on a new campaign: its round, its result, and the reads it
    made, by statement."""
    cid = await env.campaign()
    round_id = await env.fill(cid, JAP)
    reads: Counter[str] = Counter()
    real = SqlTransaction._all

    async def counted(self: SqlTransaction, sql: str, params: Any = ()) -> list[Any]:
        if sql.lstrip().upper().startswith(("SELECT", "WITH")):
            reads[sql] += 1
        return await real(self, sql, params)

    monkeypatch.setattr(SqlTransaction, "_all", counted)
    result = await env.svc.lock(cid, JAP, round_id)
    monkeypatch.undo()
    assert not result.resolved and result.panel is not None and result.panel.locked
    return round_id, result, reads


async def test_a_lock_reads_each_row_once(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    _, _, reads = await _lock_counting_reads(env, monkeypatch)
    again = {sql: n for sql, n in reads.items() if n > 1}
    assert again == {}


async def test_a_lock_knows_the_rounds_locks_after_writing_its_own(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The round's locks read once: the one it writes is added to them as read (the same
    row a second read would give: the panel it answers with and whether the round is
    complete both follow from it)."""
    round_id, result, reads = await _lock_counting_reads(env, monkeypatch)
    assert sum(n for sql, n in reads.items() if "FROM locks" in sql) == 1
    async with env.repo.read() as tx:
        stored = await tx.standing_locks(round_id)
    assert result.panel is not None
    assert result.panel.receipt == stored[Side.JAPANESE].receipt

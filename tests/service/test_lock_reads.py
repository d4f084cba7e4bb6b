"""What a Lock reads (issue 29: CPU per call): every row it checks before it writes is read
once, in one ``panel_rows`` (one statement on PostgreSQL), and the panel it answers with
is made from those rows; only the round's locks are read again, after its own lock is
written, to tell whether the round is complete."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from db.sql import SqlTransaction
from tests.service.support import JAP, Env


async def test_a_lock_reads_each_row_once(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
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
    again = {sql: n for sql, n in reads.items() if n > 1}
    assert len(again) <= 1, again
    assert all("FROM locks" in sql and n == 2 for sql, n in again.items()), again

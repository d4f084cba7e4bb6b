"""A round's resolution reads and parses no more at the campaign's end than at its start.

Counted in work done, never timed (issue 29): the history rows a resolving Lock reads
from the database and the stored text it parses. A campaign's history grows with every
round; the resolution works from the round's snapshot alone (``Rules.resolves_from_snapshot``)
and appends the records it adds, so neither count grows with the history. The next
round's snapshot is parsed back once with the resolution (its decisions, ``bot.resolver``);
its views, worked out after the Lock has answered, are not counted here.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from bot.service_model import Pace
from db.sql import SqlTransaction
from engine.zero.types import Side
from tests.service.support import ALL, CHANNEL, GM, GUILD, JAP, Env


class Work:
    def __init__(self) -> None:
        self.on = False
        self.rows = 0
        self.records = 0
        self.chars = 0
        self.round_rows = 0  # rows read from the rounds table, whatever the statement


@contextmanager
def counted(env: Env, rules: Any, classes: set[type]) -> Iterator[Work]:
    work = Work()
    real_load = rules.load_stored

    def load_stored(current: str, records: Any) -> Any:
        if work.on:
            work.records += len(records)
            work.chars += len(current) + sum(len(r) for r in records)
        return real_load(current, records)

    real_records = rules.load_records

    def load_records(bare: Any, records: Any) -> Any:
        # The history parsed on top of a snapshot already parsed alone.
        if work.on:
            work.records += len(records)
            work.chars += sum(len(r) for r in records)
        return real_records(bare, records)

    reals = {cls: cls.history for cls in classes}
    real_all = SqlTransaction._all

    async def all_rows(self: SqlTransaction, sql: str, params: Any = ()) -> list[Any]:
        rows = await real_all(self, sql, params)
        if work.on and " FROM rounds" in sql:
            work.round_rows += len(rows)
        return rows

    def history_of(cls: type) -> Any:
        async def history(self: Any, *args: Any, **kwargs: Any) -> Any:
            rows = await reals[cls](self, *args, **kwargs)
            if work.on:
                work.rows += len(rows)
            return rows

        return history

    rules.load_stored = load_stored
    rules.load_records = load_records
    for cls in classes:
        cls.history = history_of(cls)  # type: ignore[attr-defined]
    SqlTransaction._all = all_rows  # type: ignore[method-assign]
    try:
        yield work
    finally:
        SqlTransaction._all = real_all  # type: ignore[method-assign]
        rules.load_stored = real_load
        rules.load_records = real_records
        for cls, real in reals.items():
            cls.history = real  # type: ignore[attr-defined]


async def _transaction_classes(env: Env) -> set[type]:
    classes: set[type] = set()
    for opener in (env.repo.read, env.repo.glance, env.repo.transaction):
        async with opener() as tx:
            classes.add(type(tx))
    return classes


@pytest.mark.parametrize(
    ("ruleset", "scenario"), [("carrier", "coral-sea"), ("land", "malaya-all")]
)
async def test_a_resolution_reads_no_history_however_long(
    env: Env, ruleset: str, scenario: str
) -> None:
    info = await env.svc.create_campaign(
        GUILD, CHANNEL, GM, scenario, Pace(), seed="flat", ruleset=ruleset
    )
    await env.svc.join(info.id, JAP, Side.JAPANESE)
    await env.svc.join(info.id, ALL, Side.ALLIED)
    await env.svc.start(info.id, GM)
    cid = info.id
    rules = env.svc.rulesets.get(ruleset).rules
    classes = await _transaction_classes(env)
    rng = random.Random(5)
    # History length, rows, records, chars, the snapshot's text, the next snapshot's text.
    seen: list[tuple[int, int, int, int, int, int]] = []
    # Per resolution: the rounds the campaign had, the rounds of the resolved round's turn,
    # the round rows the resolving Lock read.
    round_reads: list[tuple[int, int, int]] = []
    with counted(env, rules, classes) as work:
        for _round in range(40):
            async with env.repo.read() as tx:
                live = await tx.live_round(cid)
                if live is None:
                    break
                before = await tx.snapshot(live.snapshot_before_id)
            assert before is not None
            round_id = await env.cold_before_last_lock(cid, rng)
            work.on = True
            result = await env.svc.lock(cid, ALL, round_id)
            work.on = False
            assert result.resolved
            async with env.repo.read() as tx:
                campaign = await tx.campaign(cid)
                assert campaign is not None and campaign.snapshot_id is not None
                after = await tx.snapshot(campaign.snapshot_id)
            assert after is not None
            seen.append(
                (
                    before.history_len,
                    work.rows,
                    work.records,
                    work.chars,
                    len(before.state),
                    len(after.state),
                )
            )
            async with env.repo.read() as tx:
                played = await tx.rounds(cid)
            turn = next(r.turn for r in played if r.id == round_id)
            same_turn = sum(r.turn == turn for r in played)
            round_reads.append((len(played), same_turn, work.round_rows))
            work.rows = work.records = work.chars = work.round_rows = 0
            await env.svc.settle()
    assert len(seen) >= 6 and seen[-1][0] >= 5, seen  # a history long enough to matter
    async with env.repo.read() as tx:
        campaign = await tx.campaign(cid)
        assert campaign is not None
        records = await tx.history(cid, campaign.branch, 10**6)
    largest = max(len(r) for r in records)
    for history_len, rows, parsed, chars, text, after in seen:
        # At most the record the locker's panel view reads (``Rules.view_records``), the
        # round's snapshot and the next one's: the same at the last round as at the first.
        assert rows <= 1 and parsed <= 1, (history_len, seen)
        assert chars <= 2 * text + after + largest, (history_len, seen)
    assert round_reads[-1][0] >= 3 * max(turn for _, turn, _ in round_reads), round_reads
    for _played, turn, rows in round_reads:
        # The live round's look-ups and the resolved round's turn (its reveal opens that
        # turn's receipts, ``secrecy.opened_by``), never every round played so far.
        assert rows <= turn + 6, round_reads

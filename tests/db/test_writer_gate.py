"""The in-process queue of PostgreSQL writers (``db.writer_gate``), without a server: who
may run beside whom, in what order, and that a cancelled waiter leaves no trace."""

from __future__ import annotations

import asyncio

import pytest

from db.writer_gate import SCHEMA, WriterGate


async def _hold(gate: WriterGate, scope: int | None, log: list[str], leave: asyncio.Event) -> None:
    async with gate.enter(scope):
        log.append(f"in {scope}")
        await leave.wait()
        log.append(f"out {scope}")


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_writers_of_two_campaigns_run_together_and_of_one_take_turns() -> None:
    gate, log, leave = WriterGate(8), [], asyncio.Event()
    tasks = [asyncio.create_task(_hold(gate, c, log, leave)) for c in (1, 2, 1)]
    await _settle()
    assert sorted(gate.busy(), key=str) == [1, 2]  # the second writer of campaign 1 waits
    leave.set()
    await asyncio.gather(*tasks)
    assert log.index("in 1", 1) > log.index("out 1")  # ...until the first one left


async def test_a_schema_wide_writer_waits_for_all_and_holds_back_later_arrivals() -> None:
    gate, log = WriterGate(8), []
    first, everyone, late = asyncio.Event(), asyncio.Event(), asyncio.Event()
    a = asyncio.create_task(_hold(gate, 1, log, first))
    await _settle()
    e = asyncio.create_task(_hold(gate, SCHEMA, log, everyone))
    await _settle()
    b = asyncio.create_task(_hold(gate, 2, log, late))
    await _settle()
    assert gate.busy() == [1]  # campaign 2 does not pass the queued schema-wide writer
    first.set()
    await _settle()
    assert gate.busy() == [SCHEMA]
    everyone.set()
    await _settle()
    assert gate.busy() == [2]
    late.set()
    await asyncio.gather(a, e, b)


async def test_a_cancelled_waiter_leaves_the_queue() -> None:
    gate, log, leave = WriterGate(8), [], asyncio.Event()
    holder = asyncio.create_task(_hold(gate, 1, log, leave))
    await _settle()
    waiters = [asyncio.create_task(_hold(gate, s, log, leave)) for s in (1, SCHEMA)]
    await _settle()
    for task in waiters:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    leave.set()
    await holder
    assert gate.busy() == []
    async with gate.enter(SCHEMA):  # nothing stale in the way
        assert gate.busy() == [SCHEMA]


async def test_no_more_writers_run_at_once_than_the_cap() -> None:
    gate, log, leave = WriterGate(2), [], asyncio.Event()
    tasks = [asyncio.create_task(_hold(gate, c, log, leave)) for c in (1, 2, 3)]
    await _settle()
    assert gate.busy() == [1, 2]  # campaign 3 waits for a free place, not for a campaign
    leave.set()
    await asyncio.gather(*tasks)
    assert log.index("in 3") > log.index("out 1")

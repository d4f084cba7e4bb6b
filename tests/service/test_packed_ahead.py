"""A resolution's new state and history records packed by its worker, not on the event loop.

SQLite stores them deflated at level 9 with a dictionary (``db.packing``), which cost the
bot's event loop 0.2 to 0.4 ms a resolution. The worker packs them with the resolution;
the bot's ``pack`` takes each value it was handed instead of deflating the text again.
Counted in work done: the deflates the event loop's thread makes with the state's and the
history's dictionaries while the rounds resolve.
"""

from __future__ import annotations

import random
import threading
import zlib
from typing import Any

import pytest

from bot import resolver
from db import packing
from db.packing import HISTORY_1, STATE_1, pack, packed_ahead
from tests.service.support import ALL, JAP, Env

# Long enough to be packed.
TEXT = '{"planes": [' + ", ".join(f'{{"id": "P{i}", "alt": {i % 7}}}' for i in range(60)) + "]}"


class _CountingZlib:
    """``zlib`` for ``db.packing``, counting the event loop thread's deflates by mark."""

    def __init__(self) -> None:
        self.deflates: dict[int, int] = {}
        self._marks = {packing._dictionary(m): m for m in (STATE_1, HISTORY_1)}

    def compressobj(self, *args: Any, **kwargs: Any) -> Any:
        mark = self._marks.get(kwargs.get("zdict", b""))
        if mark is not None and threading.current_thread() is threading.main_thread():
            self.deflates[mark] = self.deflates.get(mark, 0) + 1
        return zlib.compressobj(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(zlib, name)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> _CountingZlib:
    counting = _CountingZlib()
    monkeypatch.setattr(packing, "zlib", counting)
    monkeypatch.setattr(packing, "_AHEAD", {})
    return counting


def test_a_value_packed_ahead_is_taken_once_and_is_packs_own(counted: _CountingZlib) -> None:
    made = pack(TEXT, STATE_1)
    assert counted.deflates == {STATE_1: 1}
    packed_ahead([(STATE_1, TEXT, made)], zlib.ZLIB_RUNTIME_VERSION)
    assert pack(TEXT, STATE_1) == made
    assert counted.deflates == {STATE_1: 1}  # taken, not deflated again
    assert pack(TEXT, STATE_1) == made
    assert counted.deflates == {STATE_1: 2}  # taken once only
    # Only for the mark it was packed with.
    packed_ahead([(STATE_1, TEXT, made)], zlib.ZLIB_RUNTIME_VERSION)
    assert pack(TEXT, HISTORY_1) != made
    assert counted.deflates == {STATE_1: 2, HISTORY_1: 1}


def test_values_from_another_zlib_are_refused_and_abandoned_ones_dropped(
    counted: _CountingZlib,
) -> None:
    packed_ahead([(STATE_1, TEXT, b"\x05forged")], "0.0.0")
    assert pack(TEXT, STATE_1) != b"\x05forged"
    for index in range(packing.AHEAD_KEPT + 10):
        packed_ahead([(STATE_1, f"{TEXT}{index}", b"x")], zlib.ZLIB_RUNTIME_VERSION)
    assert len(packing._AHEAD) == packing.AHEAD_KEPT
    assert (STATE_1, f"{TEXT}0") not in packing._AHEAD  # the oldest went first


@pytest.mark.parametrize("workers", ["process", "thread"])
async def test_resolutions_pack_their_state_and_records_off_the_event_loop(
    env: Env,
    counted: _CountingZlib,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
    workers: str,
) -> None:
    if workers == "process":
        request.getfixturevalue("resolver_pool")
    outcomes: list[resolver.Outcome] = []
    resolve = resolver.resolve

    async def recorded(*args: Any, **kwargs: Any) -> Any:
        outcome = await resolve(*args, **kwargs)
        outcomes.append(outcome)
        return outcome

    start = resolver.start

    def started(*args: Any, **kwargs: Any) -> Any:
        # The Lock that completes a round sends its job this way (``start_resolution``).
        answer = start(*args, **kwargs)
        answer.add_done_callback(lambda done: outcomes.append(done.result()))
        return answer

    monkeypatch.setattr(resolver, "resolve", recorded)
    monkeypatch.setattr(resolver, "start", started)
    cid = await env.campaign()
    rng = random.Random(5)
    counted.deflates.clear()  # the first snapshot, stored by start
    for _ in range(4):
        for user in (JAP, ALL):
            round_id = await env.fill(cid, user, rng)
            result = await env.svc.lock(cid, user, round_id)
        assert result.resolved
        await env.svc.settle()
    # While the rounds resolved, the event loop deflated no state and no record.
    assert counted.deflates == {}
    assert len(outcomes) == 4
    assert sum(len(o.stored.records) for o in outcomes) > 0
    assert packing._AHEAD == {}  # each value handed over was taken
    async with env.repo.read() as tx:
        packs = tx.packs
    if not packs:  # PostgreSQL stores TEXT: nothing to pack, nothing asked
        assert all(o.packed == () for o in outcomes)
        return
    # Every value the worker packed is the one this process packs for the same text.
    for outcome in outcomes:
        assert len(outcome.packed) == 1 + len(outcome.stored.records)
        for mark, text, value in resolver.packed_values(outcome):
            assert value == pack(text, mark)

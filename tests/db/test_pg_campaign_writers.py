"""Writers of one campaign on PostgreSQL (``transaction(campaign)``), on the real server:
two campaigns are written side by side, one campaign's writers take turns, and a
schema-wide writer still runs alone. Each case runs within one process (one repository:
its in-process queue) and across two (two repositories: only the advisory locks)."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator

import asyncpg
import pytest

from db.postgres import PostgresRepository

SETTLE = 0.3  # long enough for a writer that could get in to have got in
_ROWS = itertools.count(1000)
_STARTED: list[Writer] = []


@pytest.fixture(params=["one process", "two processes"])
async def repos(
    request: pytest.FixtureRequest, pg_url: str
) -> AsyncIterator[tuple[PostgresRepository, PostgresRepository]]:
    first = await PostgresRepository.open(pg_url)
    second = first if request.param == "one process" else await PostgresRepository.open(pg_url)
    try:
        yield first, second
    finally:
        # A failed assertion leaves writers inside: let them out before closing the pools.
        for writer in _STARTED:
            writer.leave.set()
            writer.task.cancel()
        await asyncio.gather(*(w.task for w in _STARTED), return_exceptions=True)
        _STARTED.clear()
        await first.close()
        await second.close()


class Writer:
    """A writer that enters its transaction and stays in it until told to leave."""

    def __init__(self, repo: PostgresRepository, campaign: int | None) -> None:
        self.entered = asyncio.Event()
        self.leave = asyncio.Event()
        self.task = asyncio.create_task(self._run(repo, campaign))
        _STARTED.append(self)

    async def _run(self, repo: PostgresRepository, campaign: int | None) -> None:
        async with repo.transaction(campaign) as tx:
            # A real write, inside the locks, to a row no other writer touches (a row lock
            # must not be what keeps two writers apart).
            await tx.set_gm_role(next(_ROWS), 1, 0)
            self.entered.set()
            await self.leave.wait()

    async def inside(self) -> bool:
        try:
            await asyncio.wait_for(asyncio.shield(self.entered.wait()), SETTLE)
        except TimeoutError:
            return False
        return True

    async def finish(self) -> None:
        self.leave.set()
        await asyncio.wait_for(self.task, 10)


async def first_in(repo: PostgresRepository, campaign: int | None) -> Writer:
    """A writer of ``campaign`` (None: the whole schema) that gets in at once."""
    writer = Writer(repo, campaign)
    assert await writer.inside()
    return writer


async def kept_out(repo: PostgresRepository, campaign: int | None, why: str) -> Writer:
    """A writer of ``campaign`` that must wait (``why`` it would be wrong to get in)."""
    writer = Writer(repo, campaign)
    assert not await writer.inside(), why
    return writer


async def hand_over(done: Writer, waiting: Writer) -> None:
    """``done`` finishes, and ``waiting``, kept out until then, gets in."""
    await done.finish()
    assert await waiting.inside()


# Every campaign these tests write as.
CAMPAIGNS = (1, 2, 3, 7)


async def advisory_locks(repo: PostgresRepository) -> int:
    """The writer locks on this test's keys, held or awaited by any session: the schema's
    and its campaigns'. Other users of the server (a benchmark, another test run) hold
    advisory locks of their own, under other keys (each schema has its keys).

    A 64-bit key is shown in ``pg_locks`` as its high half in ``classid``, its low half in
    ``objid``, with ``objsubid`` 1; the shift puts the halves back together, sign and all.
    """
    keys = [repo._write_key, *(repo._campaign_key(campaign) for campaign in CAMPAIGNS)]
    async with repo.connection() as conn:
        found = await conn.fetchval(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1"
            " AND ((classid::bigint << 32) | objid::bigint) = ANY($1::bigint[])",
            keys,
        )
    return int(found)


async def test_two_campaigns_are_written_side_by_side(
    repos: tuple[PostgresRepository, PostgresRepository],
) -> None:
    a = await first_in(repos[0], 1)
    b = Writer(repos[1], 2)
    assert await b.inside(), "campaign 2's writer waited for campaign 1's"
    await b.finish()
    await a.finish()


async def test_one_campaigns_writers_take_turns(
    repos: tuple[PostgresRepository, PostgresRepository],
) -> None:
    a = await first_in(repos[0], 1)
    b = await kept_out(repos[1], 1, "two writers of campaign 1 ran at once")
    await hand_over(a, b)
    await b.finish()


async def test_a_schema_wide_writer_runs_alone(
    repos: tuple[PostgresRepository, PostgresRepository],
) -> None:
    a = await first_in(repos[0], 1)
    everyone = await kept_out(repos[1], None, "a schema-wide writer ran beside a campaign's")
    # Queued behind the schema-wide writer: a campaign writer arriving now waits for it,
    # so a stream of campaign writers cannot starve it.
    late = await kept_out(repos[0], 2, "a campaign's writer overtook a schema-wide writer")
    await hand_over(a, everyone)
    assert not await late.inside(), "a campaign's writer ran beside a schema-wide writer"
    await hand_over(everyone, late)
    await late.finish()


async def test_read_check_write_on_one_campaign_never_loses_an_update(
    repos: tuple[PostgresRepository, PostgresRepository],
) -> None:
    # Each writer reads the counter, yields, and writes it back plus one: with writers
    # of the same campaign overlapping, increments would be lost.
    async def bump(repo: PostgresRepository) -> None:
        async with repo.transaction(7) as tx:
            now = await tx.gm_role(7) or 0
            await asyncio.sleep(0.005)
            await tx.set_gm_role(7, now + 1, 0)

    await asyncio.gather(*(bump(repos[n % 2]) for n in range(24)))
    async with repos[0].read() as tx:
        assert await tx.gm_role(7) == 24


async def test_a_writer_cancelled_while_waiting_leaves_nothing_behind(
    repos: tuple[PostgresRepository, PostgresRepository],
) -> None:
    a = await first_in(repos[0], 1)
    # The count sees a writer's locks: the schema's, shared, and its campaign's.
    assert await advisory_locks(repos[0]) == 2
    stuck = [Writer(repos[1], 1), Writer(repos[1], None)]
    for writer in stuck:
        assert not await writer.inside()
        writer.task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await writer.task
    await a.finish()
    assert await advisory_locks(repos[0]) == 0
    for repo in repos:
        for campaign in (1, None):
            again = Writer(repo, campaign)  # nothing left queued or locked in the way
            assert await again.inside()
            await again.finish()
    async with repos[1].connection() as conn:
        assert not conn.is_in_transaction()


async def test_a_failed_campaign_writer_rolls_back(
    repos: tuple[PostgresRepository, PostgresRepository],
) -> None:
    with pytest.raises(asyncpg.PostgresError):
        async with repos[0].transaction(3) as tx:
            await tx.set_gm_role(3, 9, 0)
            assert await advisory_locks(repos[1]) == 2  # held until the rollback
            await tx.events(3, limit=-1)  # LIMIT must not be negative
    async with repos[1].read() as tx:
        assert await tx.gm_role(3) is None
    assert await advisory_locks(repos[0]) == 0

"""``panel_rows`` (a panel's rows at one moment; on PostgreSQL one statement) gives what
the rows read one by one give, on every backend, through ``glance`` as inside a writer; and
on PostgreSQL the pool, which no longer resets a connection after every call, still hands
out connections with nothing left over: no open transaction, no session setting or lock."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from db.postgres import PostgresRepository, PostgresTransaction
from db.repository import ConstraintError, NewLock, PanelRows, PlayerRow, Repository, Transaction
from tests.db.test_contract import new_campaign

JAP, ALL, TEAMMATE, LEFT = 11, 22, 33, 44


async def _one_by_one(tx: Transaction, cid: int, user: int) -> PanelRows:
    campaign = await tx.campaign(cid)
    player = await tx.player(cid, user)
    live = await tx.live_round(cid)
    if campaign is None or live is None:
        return PanelRows(campaign, player if campaign is not None else None)
    return PanelRows(
        campaign,
        player,
        live,
        await tx.snapshot(live.snapshot_before_id),
        await tx.standing_locks(live.id),
        await tx.drafts(live.id, player.side) if player is not None else {},
    )


async def _played(store: Repository) -> tuple[int, int]:
    """A campaign whose open round has drafts of both sides and locks, one withdrawn."""
    async with store.transaction() as tx:
        cid = await tx.insert_campaign(new_campaign())
        for user, side, commander, left in (
            (JAP, "japanese", True, None),
            (ALL, "allied", True, None),
            (TEAMMATE, "allied", False, None),
            (LEFT, "allied", False, 7),
        ):
            await tx.upsert_player(PlayerRow(cid, user, side, commander, True, 1, 1, left))
        first = await tx.insert_snapshot(cid, 1, 1, "orders", '{"turn": 1}', 10)
        old = await tx.insert_round(cid, 1, 1, "orders", 10, None, first)
        await tx.set_draft(old, "allied", "old", "x", ALL, 10)
        second = await tx.insert_snapshot(cid, 1, 2, "orders", '{"turn": 2, "é": "ü"}', 20)
        await tx.update_round(old, status="resolved", resolved_at=20, snapshot_after_id=second)
        rid = await tx.insert_round(cid, 1, 2, "orders", 20, 2000, second)
        for field, value in (("tactic", "b"), ("Zulu", "z"), ("ébauche", "é"), ("a b", "c")):
            await tx.set_draft(rid, "allied", field, value, ALL, 21)
        await tx.set_draft(rid, "japanese", "tactic", "secret", JAP, 21)
        await tx.insert_lock(NewLock(rid, "japanese", '{"t":"s"}', "salt", "r1", 22, JAP))
        await tx.insert_lock(NewLock(rid, "allied", "{}", "s2", "r2", 23, ALL))
        await tx.withdraw_lock(rid, "allied", 24)
    return cid, rid


async def test_the_rows_are_those_read_one_by_one(store: Repository) -> None:
    cid, rid = await _played(store)
    for user in (JAP, ALL, TEAMMATE, LEFT, 999):
        async with store.read() as tx:
            expected = await _one_by_one(tx, cid, user)
        async with store.glance() as tx:
            assert await tx.panel_rows(cid, user) == expected
        async with store.transaction(cid) as tx:
            assert await tx.panel_rows(cid, user) == expected
    async with store.glance() as tx:
        allied = await tx.panel_rows(cid, ALL)
        japanese = await tx.panel_rows(cid, JAP)
        stranger = await tx.panel_rows(cid, 999)
    assert allied.live is not None and allied.live.id == rid
    assert allied.snapshot is not None and allied.snapshot.state == '{"turn": 2, "é": "ü"}'
    # the side's own drafts only, in byte order; the withdrawn lock is gone
    assert list(allied.drafts.items()) == [
        ("Zulu", "z"),
        ("a b", "c"),
        ("tactic", "b"),
        ("ébauche", "é"),
    ]
    assert japanese.drafts == {"tactic": "secret"}
    assert sorted(allied.locks) == ["japanese"] and allied.locks["japanese"].receipt == "r1"
    assert stranger.player is None and stranger.drafts == {}


async def test_no_live_round_or_no_campaign(store: Repository) -> None:
    cid, rid = await _played(store)
    async with store.transaction() as tx:
        await tx.update_round(rid, status="resolving")
    async with store.glance() as tx:
        resolving = await tx.panel_rows(cid, ALL)
    assert resolving.live is not None and resolving.live.status == "resolving"
    async with store.transaction() as tx:
        await tx.update_round(rid, status="resolved")
    async with store.glance() as tx:
        rows = await tx.panel_rows(cid, ALL)
        assert await tx.panel_rows(cid + 1000, ALL) == PanelRows(None)
    assert rows.campaign is not None and rows.player is not None
    assert (rows.live, rows.snapshot, rows.locks, rows.drafts) == (None, None, {}, {})


async def test_a_glance_sees_what_was_committed_not_a_writer_at_work(store: Repository) -> None:
    cid, rid = await _played(store)
    inside = asyncio.Event()
    leave = asyncio.Event()

    async def writer() -> None:
        async with store.transaction(cid) as tx:
            await tx.set_draft(rid, "allied", "tactic", "uncommitted", ALL, 30)
            inside.set()
            await leave.wait()

    task = asyncio.create_task(writer())
    try:
        await asyncio.wait_for(inside.wait(), 5)
        if store.dialect == "postgresql":  # SQLite's one writer shares its connection
            async with store.glance() as tx:
                rows = await asyncio.wait_for(tx.panel_rows(cid, ALL), 5)
            assert rows.drafts["tactic"] == "b"
    finally:
        leave.set()
        await task
    async with store.glance() as tx:
        assert (await tx.panel_rows(cid, ALL)).drafts["tactic"] == "uncommitted"


# -- PostgreSQL's pool: connections come back clean without the RESET round trip


async def test_a_raw_connection_leaves_no_setting_or_session_lock(pg_url: str) -> None:
    repo = await PostgresRepository.open(pg_url, pool_size=1)  # one connection, reused
    try:
        async with repo.connection() as conn:
            await conn.execute("SET statement_timeout = 4321")
            await conn.execute("SELECT pg_advisory_lock(987654)")
        async with repo.glance() as tx:
            assert await tx.raw.fetchval("SHOW statement_timeout") == "0"
            held = await tx.raw.fetchval(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
                " AND pid = pg_backend_pid()"
            )
            assert held == 0
    finally:
        await repo.close()


@pytest.mark.parametrize("where", ["writer", "read"])
async def test_a_cancelled_call_leaves_its_connection_outside_any_transaction(
    pg_url: str, where: str
) -> None:
    """What a player could meet after a call cut mid-statement: the same pooled connection
    handed to the next call inside a half-done transaction, the cut write kept, or the
    campaign's writer lock still held. This checks that outcome, not who prevents it: the
    writer's own ROLLBACK on cancel and asyncpg's ROLLBACK when the pool takes a connection
    back both do, so taking out either one alone leaves this test green."""
    repo = await PostgresRepository.open(pg_url, pool_size=1)
    try:
        async with repo.transaction() as tx:
            cid = await tx.insert_campaign(new_campaign())
        started = asyncio.Event()

        pids: list[int] = []  # the server process of the connection the call was cut on

        async def stuck() -> None:
            if where == "writer":
                async with repo.transaction(cid) as tx:
                    await tx.update_campaign(cid, status="paused")
                    pids.append(tx.raw.get_server_pid())
                    started.set()
                    await tx.raw.execute("SELECT pg_sleep(30)")
            else:
                async with repo.read() as tx:
                    await tx.campaign(cid)
                    pids.append(tx.raw.get_server_pid())
                    started.set()
                    await tx.raw.execute("SELECT pg_sleep(30)")

        task = asyncio.create_task(stuck())
        await asyncio.wait_for(started.wait(), 5)
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        async with repo.glance() as tx:
            assert not tx.raw.is_in_transaction()
            campaign = await tx.campaign(cid)
            assert campaign is not None and campaign.status == "setup"
            # That connection only: other tests share the server, and theirs may be caught
            # between two statements of a transaction at this moment.
            idle_in_transaction = await tx.raw.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = $1"
                " AND state LIKE 'idle in transaction%'",
                pids[0],
            )
            assert idle_in_transaction == 0
        # the campaign's writer lock went with the rollback: another writer gets it at once
        async with asyncio.timeout(5), repo.transaction(cid) as tx:
            await tx.update_campaign(cid, status="active")
    finally:
        await repo.close()


async def test_a_recorded_draft_marks_its_player_active(store: Repository) -> None:
    cid, rid = await _played(store)
    async with store.transaction(cid) as tx:
        await tx.record_draft(cid, rid, "allied", "tactic", "new", TEAMMATE, 50)
        await tx.record_draft(cid, rid, "allied", "Zulu", "y", TEAMMATE, 51)
    async with store.glance() as tx:
        rows = await tx.panel_rows(cid, TEAMMATE)
        others = await tx.panel_rows(cid, ALL)
    assert rows.drafts == {"Zulu": "y", "a b": "c", "tactic": "new", "ébauche": "é"}
    assert rows.player is not None and rows.player.last_active == 51
    assert others.player is not None and others.player.last_active == 1
    with pytest.raises(ConstraintError):
        async with store.transaction(cid) as tx:
            await tx.record_draft(cid, rid + 1000, "allied", "tactic", "x", ALL, 60)
    async with store.glance() as tx:
        assert (await tx.panel_rows(cid, ALL)).drafts["tactic"] == "new"


async def test_connections_open_at_start_and_one_the_server_drops_is_opened_again(
    pg_url: str,
) -> None:
    name = "sortie_pool_test"
    repo = await PostgresRepository.open(f"{pg_url}&application_name={name}", pool_size=3)
    admin = await asyncpg.connect(pg_url)
    try:
        who = "SELECT pid FROM pg_stat_activity WHERE application_name = $1"
        first = {row["pid"] for row in await admin.fetch(who, name)}
        assert len(first) == 3  # all opened by open(), before any call
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
            name,
        )
        await asyncio.sleep(0.3)
        for _ in range(4):
            async with repo.glance() as tx:
                assert await tx.campaign(1) is None
        after = {row["pid"] for row in await admin.fetch(who, name)}
        assert after and not after & first
    finally:
        await admin.close()
        await repo.close()


async def test_every_connection_is_ready_for_a_panel_when_the_store_opens(pg_url: str) -> None:
    """No panel waits for asyncpg to ask the server about the row types it returns."""
    repo = await PostgresRepository.open(pg_url, pool_size=2)
    try:
        async with repo.transaction() as tx:
            cid = await tx.insert_campaign(new_campaign())
        async with repo.connection() as first, repo.connection() as second:
            for conn in (first, second):
                sent: list[str] = []
                conn.add_query_logger(lambda record, sent=sent: sent.append(record.query))
                rows = await PostgresTransaction(conn, writable=False).panel_rows(cid, JAP)
                assert rows.campaign is not None and rows.campaign.id == cid
                # asyncpg logs its own queries, not ours: had it to learn the row types
                # now, it would have asked the server (about pg_type, with jit off)
                assert not [query for query in sent if "pg_type" in query or "jit" in query]
    finally:
        await repo.close()

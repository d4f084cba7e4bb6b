"""The repository contract, run on every backend: a SQLite file and a real PostgreSQL schema.

Each test drives the ``Repository`` / ``Transaction`` interface only, with the values the
services write, and checks what comes back: the same test must pass on both backends, so
a difference in SQL dialect (types, NULL comparison, ordering, conflict handling) shows
up here rather than in a campaign.
"""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest

from db.backend import open_repository
from db.migrate import MIGRATIONS_DIR, available
from db.migrate_pg import MIGRATIONS_DIR as PG_MIGRATIONS_DIR
from db.repository import (
    ConstraintError,
    NewCampaign,
    NewEvent,
    NewLock,
    NewOutbox,
    PlayerRow,
    Repository,
    StorageError,
    Transaction,
)
from db.sqlite import SqliteRepository

# A Discord snowflake is a 64-bit integer: it must round-trip on every backend.
BIG = 1_234_567_890_123_456_789


def new_campaign(channel: int = 500, **changes: object) -> NewCampaign:
    base: dict[str, object] = {
        "guild_id": BIG,
        "channel_id": channel,
        "gm_id": BIG + 1,
        "ruleset": "carrier",
        "scenario": "coral-sea",
        "locale": "fr",
        "seed": "seed",
        "seed_commitment": "commit",
        "round_seconds": 86_400,
        "reminder_offsets": (3600, 600),
        "missing_policy": "default",
        "gm_sees_secrets": True,
        "allow_unlock": False,
        "created_at": 1_700_000_000,
    }
    base.update(changes)
    return NewCampaign(**base)  # type: ignore[arg-type]


async def campaign_with_round(tx: Transaction, kind: str = "orders") -> tuple[int, int, int]:
    """A campaign, its first snapshot and an open round: (campaign, snapshot, round)."""
    cid = await tx.insert_campaign(new_campaign())
    sid = await tx.insert_snapshot(cid, 1, 1, kind, '{"turn": 1}', 10)
    rid = await tx.insert_round(cid, 1, 1, kind, 10, 1000, sid)
    return cid, sid, rid


async def test_fresh_store_is_migrated_and_empty(store: Repository) -> None:
    shipped = MIGRATIONS_DIR if isinstance(store, SqliteRepository) else PG_MIGRATIONS_DIR
    assert await store.schema_version() == len(available(shipped))
    assert await store.migrate() == 0  # nothing pending
    async with store.read() as tx:
        assert await tx.campaigns() == []
        assert await tx.pending_outbox() == []
        assert await tx.due_timers(10**12) == []


async def test_guild_settings(store: Repository) -> None:
    async with store.transaction() as tx:
        assert await tx.gm_role(BIG) is None
        await tx.set_gm_role(BIG, BIG + 7, 1)
        assert await tx.gm_role(BIG) == BIG + 7
        await tx.set_gm_role(BIG, None, 2)  # cleared, the row stays
        assert await tx.gm_role(BIG) is None


async def test_campaign_round_trip_and_updates(store: Repository) -> None:
    async with store.transaction() as tx:
        cid = await tx.insert_campaign(new_campaign())
        row = await tx.campaign(cid)
        assert row is not None
        assert (row.guild_id, row.gm_id, row.locale) == (BIG, BIG + 1, "fr")
        assert row.reminder_offsets == (3600, 600)
        assert row.gm_sees_secrets is True and row.allow_unlock is False
        assert row.seed_revealed is False
        assert (row.status, row.branch, row.snapshot_id, row.started_at) == ("setup", 1, None, None)
        await tx.update_campaign(
            cid,
            status="active",
            seed_revealed=True,
            reminder_offsets=(60,),
            allow_unlock=1,  # the services may pass 0/1 for flags
            round_message_id=BIG + 2,
            started_at=5,
        )
        row = await tx.campaign(cid)
        assert row is not None
        assert (row.status, row.seed_revealed, row.reminder_offsets) == ("active", True, (60,))
        assert (row.allow_unlock, row.round_message_id, row.started_at) == (True, BIG + 2, 5)
        with pytest.raises(StorageError):
            await tx.update_campaign(cid, seed="changed")  # not an updatable column
        assert await tx.campaign(cid + 1000) is None


async def test_campaign_listing_and_one_live_campaign_per_channel(store: Repository) -> None:
    async with store.transaction() as tx:
        first = await tx.insert_campaign(new_campaign(channel=1))
        second = await tx.insert_campaign(new_campaign(channel=2))
        await tx.update_campaign(second, status="finished")
        third = await tx.insert_campaign(new_campaign(channel=2))
    async with store.read() as tx:
        assert [c.id for c in await tx.campaigns()] == [first, second, third]
        assert [c.id for c in await tx.campaigns(("finished",))] == [second]
        assert [c.id for c in await tx.campaigns(("setup", "paused"))] == [first, third]
        live = await tx.live_campaign_in_channel(2)
        assert live is not None and live.id == third
        assert await tx.live_campaign_in_channel(3) is None
    # The partial unique index refuses a second live campaign in a channel, as the same
    # exception on every backend, and the failed transaction leaves nothing behind.
    with pytest.raises(ConstraintError):
        async with store.transaction() as tx:
            await tx.set_gm_role(1, 2, 3)
            await tx.insert_campaign(new_campaign(channel=1))
    async with store.read() as tx:
        assert len(await tx.campaigns()) == 3
        assert await tx.gm_role(1) is None


async def test_players(store: Repository) -> None:
    async with store.transaction() as tx:
        cid = await tx.insert_campaign(new_campaign())
        a = PlayerRow(cid, BIG + 10, "japanese", True, True, 5, 5, None)
        b = PlayerRow(cid, 22, "allied", True, False, 5, 6, None)
        c = PlayerRow(cid, 33, "allied", False, True, 7, 7, None)
        for row in (c, a, b):
            await tx.upsert_player(row)
        # joined_at, then user id
        assert [p.user_id for p in await tx.players(cid)] == [22, BIG + 10, 33]
        assert await tx.player(cid, 22) == b
        assert await tx.player(cid, 99) is None
        await tx.update_player(cid, 33, left_at=9, commander=1)
        assert [p.user_id for p in await tx.players(cid)] == [22, BIG + 10]
        left = await tx.player(cid, 33)
        assert left is not None and left.left_at == 9 and left.commander is True
        assert len(await tx.players(cid, include_left=True)) == 3
        # upsert replaces the row (a substitute rejoining on another side)
        await tx.upsert_player(PlayerRow(cid, 33, "japanese", False, False, 8, 8, None))
        again = await tx.player(cid, 33)
        assert again is not None and (again.side, again.dm_ok, again.left_at) == (
            "japanese",
            False,
            None,
        )
        with pytest.raises(StorageError):
            await tx.update_player(cid, 33, joined_at=1)  # not updatable


async def test_snapshots_and_rounds(store: Repository) -> None:
    async with store.transaction() as tx:
        cid, sid, rid = await campaign_with_round(tx)
        snap = await tx.snapshot(sid)
        assert snap is not None and (snap.state, snap.round_kind, snap.turn) == (
            '{"turn": 1}',
            "orders",
            1,
        )
        assert await tx.snapshot(sid + 100) is None
        live = await tx.live_round(cid)
        assert live is not None and live.id == rid and live.status == "open"
        assert (live.deadline_at, live.snapshot_before_id, live.snapshot_after_id) == (
            1000,
            sid,
            None,
        )
    # a second live round in the campaign breaks the partial unique index
    with pytest.raises(ConstraintError):
        async with store.transaction() as tx:
            await tx.insert_round(cid, 1, 1, "resource", 11, None, sid)
    async with store.transaction() as tx:
        after = await tx.insert_snapshot(cid, 1, 1, "resource", "{}", 20)
        await tx.update_round(rid, status="resolved", resolved_at=20, snapshot_after_id=after)
        assert await tx.live_round(cid) is None
        second = await tx.insert_round(cid, 1, 1, "resource", 20, None, after)
        await tx.update_round(second, message_id=BIG)
        assert [r.id for r in await tx.rounds(cid)] == [rid, second]
        assert [r.id for r in await tx.rounds_with_status("resolved")] == [rid]
        assert [r.id for r in await tx.rounds_with_status("open")] == [second]
        row = await tx.round(second)
        assert row is not None and row.message_id == BIG and row.deadline_at is None
        assert await tx.round(second + 100) is None
        with pytest.raises(StorageError):
            await tx.update_round(second, kind="orders")


async def test_history_rows_append_per_branch_and_a_rollback_copies_a_prefix(
    store: Repository,
) -> None:
    records = ['{"turn": 1, "note": "é"}', '{"turn": 2}', '{"turn": 3}']
    async with store.transaction() as tx:
        cid, _sid, _rid = await campaign_with_round(tx)
        await tx.append_history(cid, 1, 0, records[:1])
        await tx.append_history(cid, 1, 1, records[1:])
        await tx.append_history(cid, 1, 3, [])  # a round without a record writes nothing
        sid = await tx.insert_snapshot(cid, 1, 4, "orders", "{}", 30, history_len=3)
        snap = await tx.snapshot(sid)
        assert snap is not None and snap.history_len == 3
        assert await tx.history(cid, 1, 3) == records
        assert await tx.history(cid, 1, 2) == records[:2]  # an older snapshot's view
        assert await tx.history(cid, 1, 0) == []
        # a rollback to the state after the first record: branch 2 gets that record only
        assert await tx.copy_history(cid, 1, 2, 1) == 1
        assert await tx.history(cid, 2, 10) == records[:1]
        await tx.append_history(cid, 2, 1, ['{"turn": 2, "branch": 2}'])
        assert await tx.history(cid, 2, 10) == [records[0], '{"turn": 2, "branch": 2}']
        assert await tx.history(cid, 1, 10) == records  # the old branch is untouched
        plain = await tx.insert_snapshot(cid, 2, 1, "orders", "{}", 31)
        assert (await tx.snapshot(plain)).history_len == 0  # type: ignore[union-attr]
    # rows are never rewritten: an index the branch holds is refused, and nothing lands
    with pytest.raises(ConstraintError):
        async with store.transaction() as tx:
            await tx.append_history(cid, 1, 2, ['{"turn": 99}'])
    async with store.read() as tx:
        assert await tx.history(cid, 1, 10) == records


async def test_any_text_is_a_round_kind_and_a_side(store: Repository) -> None:
    # The schema is ruleset-agnostic: kinds and sides are the rulesets' business.
    async with store.transaction() as tx:
        cid, _, _ = await campaign_with_round(tx, kind="bombardment")
        await tx.upsert_player(PlayerRow(cid, 1, "soviet-union", True, True, 1, 1, None))
        live = await tx.live_round(cid)
        assert live is not None and live.kind == "bombardment"
        player = await tx.player(cid, 1)
        assert player is not None and player.side == "soviet-union"


async def test_drafts_and_locks(store: Repository) -> None:
    async with store.transaction() as tx:
        cid, _, rid = await campaign_with_round(tx)
        await tx.set_draft(rid, "allied", "tactic", "a", 22, 1)
        await tx.set_draft(rid, "allied", "Zulu", "z", 22, 1)
        await tx.set_draft(rid, "allied", "tactic", "b", 22, 2)  # replaces
        await tx.set_draft(rid, "japanese", "tactic", "c", 11, 2)
        drafts = await tx.drafts(rid, "allied")
        assert drafts == {"tactic": "b", "Zulu": "z"}
        assert list(drafts) == ["Zulu", "tactic"]  # byte order, as SQLite sorts
        assert await tx.drafts(rid, "nobody") == {}

        lock = NewLock(rid, "allied", '{"t":"b"}', "salt", "receipt", 3, 22)
        first = await tx.insert_lock(lock)
    with pytest.raises(ConstraintError):
        async with store.transaction() as tx:
            await tx.insert_lock(lock)  # one standing lock per side and round
    async with store.transaction() as tx:
        japanese = await tx.insert_lock(
            NewLock(rid, "japanese", "{}", "s2", "r2", 4, None, defaulted=True)
        )
        standing = await tx.standing_locks(rid)
        assert sorted(standing) == ["allied", "japanese"]
        assert standing["allied"].id == first and standing["allied"].by_user == 22
        assert standing["japanese"].defaulted is True and standing["japanese"].by_user is None
        await tx.withdraw_lock(rid, "allied", 5)
        assert sorted(await tx.standing_locks(rid)) == ["japanese"]
        again = await tx.insert_lock(NewLock(rid, "allied", "{}", "s3", "r3", 6, 22))
        history = await tx.campaign_locks(cid)
        assert [lk.id for lk in history] == [first, japanese, again]
        assert history[0].withdrawn_at == 5 and history[2].withdrawn_at is None


async def test_events(store: Repository) -> None:
    async with store.transaction() as tx:
        cid, _, rid = await campaign_with_round(tx)
        assert await tx.append_events(cid, rid, 1, [], 1) == []
        seqs = await tx.append_events(
            cid,
            rid,
            1,
            [
                NewEvent("a", 1, {"x": 1, "é": "ü"}),
                NewEvent("b", 1, {}, source="engine"),
                NewEvent("c", 2, {"nested": [1, {"k": None}]}),
            ],
            100,
        )
        assert len(seqs) == 3 and seqs == sorted(seqs)
        more = await tx.append_events(cid, None, 1, [NewEvent("d", 2)], 101)
        assert more[0] > seqs[-1]
    async with store.read() as tx:
        events = await tx.events(cid)
        assert [e.kind for e in events] == ["a", "b", "c", "d"]
        assert [e.seq for e in events] == [*seqs, *more]
        assert events[0].data == {"x": 1, "é": "ü"} and events[1].source == "engine"
        assert events[2].data == {"nested": [1, {"k": None}]}
        assert events[3].round_id is None and events[3].created_at == 101
        assert [e.kind for e in await tx.events(cid, turn=2)] == ["c", "d"]
        assert [e.kind for e in await tx.events(cid, round_id=rid)] == ["a", "b", "c"]
        assert [e.kind for e in await tx.events(cid, newest_first=True, limit=2)] == ["d", "c"]
        assert [e.kind for e in await tx.events(cid, newest_first=True, limit=2, offset=2)] == [
            "b",
            "a",
        ]
        assert await tx.count_events(cid) == 4
        assert await tx.count_events(cid, turn=1) == 2
        assert await tx.count_events(cid + 1) == 0
    async with store.transaction() as tx:
        assert await tx.void_events(cid, []) == 0
        assert await tx.void_events(cid, [rid]) == 3
        assert await tx.void_events(cid, [rid]) == 0  # already void
        assert [e.void for e in await tx.events(cid)] == [True, True, True, False]


async def test_timers(store: Repository) -> None:
    async with store.transaction() as tx:
        cid, _, rid = await campaign_with_round(tx)
        deadline = await tx.insert_timer(cid, rid, "deadline", 1000)
        reminder = await tx.insert_timer(cid, rid, "reminder", 1000, offset_s=0)
        early = await tx.insert_timer(cid, rid, "reminder", 400, offset_s=600)
        assert await tx.due_timers(399) == []
        # reminders before a deadline due at the same instant
        assert [t.id for t in await tx.due_timers(1000)] == [early, reminder, deadline]
        assert [t.offset_s for t in await tx.round_timers(rid)] == [600, 0, 0]
        await tx.finish_timer(early)
        assert [t.id for t in await tx.round_timers(rid)] == [deadline, reminder]
        assert len(await tx.round_timers(rid, pending_only=False)) == 3
        await tx.shift_round_timers(rid, 500)
        assert [t.due_at for t in await tx.round_timers(rid)] == [1500, 1500]
        assert (await tx.round_timers(rid, pending_only=False))[0].due_at == 400  # done: kept
        await tx.finish_round_timers(rid)
        assert await tx.round_timers(rid) == []
        assert all(t.done for t in await tx.round_timers(rid, pending_only=False))


async def test_outbox(store: Repository) -> None:
    async with store.transaction() as tx:
        cid, _, _ = await campaign_with_round(tx)
        card = NewOutbox("campaign-card", "channel", BIG, {"v": 1}, "card", coalesce=True)
        first = await tx.enqueue(cid, card, 10)
        assert first is not None
        # a pending row with the same key absorbs the new payload
        assert (
            await tx.enqueue(cid, NewOutbox(**{**card.__dict__, "payload": {"v": 2}}), 11) is None
        )
        dm = NewOutbox("dm-panel", "dm", 22, {"p": 1}, dedupe_key="panel:1:22")
        second = await tx.enqueue(cid, dm, 12)
        assert second is not None
        assert await tx.enqueue(cid, dm, 13) is None  # dedupe key already queued
        # no campaign: coalescing compares NULL campaign ids as equal
        loose = NewOutbox("gm-notice", "channel", 5, {"n": 1}, "notice", coalesce=True)
        third = await tx.enqueue(None, loose, 14)
        assert third is not None and await tx.enqueue(None, loose, 15) is None
        pending = await tx.pending_outbox()
        assert [r.id for r in pending] == [first, second, third]
        assert pending[0].payload == {"v": 2} and pending[0].target_id == BIG
        assert pending[0].next_attempt_at == 10 and pending[0].attempts == 0
        assert [r.id for r in await tx.pending_outbox(limit=1)] == [first]

        await tx.mark_retry(second, "x" * 900, 100)
        retried = await tx.outbox_item(second)
        assert retried is not None
        assert (retried.attempts, retried.next_attempt_at, len(retried.last_error or "")) == (
            1,
            100,
            500,
        )
        await tx.mark_delivered(first, BIG + 5, 20)
        delivered = await tx.outbox_item(first)
        assert delivered is not None
        assert (delivered.status, delivered.delivered_id, delivered.delivered_at) == (
            "delivered",
            BIG + 5,
            20,
        )
        await tx.mark_failed(second, "gone")
        failed = await tx.outbox_item(second)
        assert failed is not None and (failed.status, failed.attempts, failed.last_error) == (
            "failed",
            2,
            "gone",
        )
        assert [r.id for r in await tx.pending_outbox()] == [third]
        assert [r.id for r in await tx.outbox(cid)] == [first, second]
        assert [r.id for r in await tx.outbox()] == [first, second, third]
        assert await tx.outbox_item(10_000) is None
        # a delivered row no longer coalesces: the next update is a new row
        assert await tx.enqueue(cid, card, 30) is not None


async def test_message_refs(store: Repository) -> None:
    async with store.transaction() as tx:
        cid, _, _ = await campaign_with_round(tx)
        assert await tx.message_ref(cid, "card") is None
        await tx.set_message_ref(cid, "card", 500, BIG)
        assert await tx.message_ref(cid, "card") == BIG
        await tx.set_message_ref(cid, "card", 500, BIG + 1)
        assert await tx.message_ref(cid, "card") == BIG + 1


async def test_audit(store: Repository) -> None:
    async with store.transaction() as tx:
        cid, _, _ = await campaign_with_round(tx)
        one = await tx.add_audit(cid, BIG, BIG + 1, "rollback", "typo", {"turn": 2}, 50)
        two = await tx.add_audit(cid, None, 9, "extend", "", {}, 51)
        await tx.add_audit(None, BIG, 9, "gm-role", "", {}, 52)
        rows = await tx.audit(cid)
        assert [r.id for r in rows] == [one, two]
        assert (rows[0].guild_id, rows[0].who, rows[0].data, rows[0].at) == (
            BIG,
            BIG + 1,
            {"turn": 2},
            50,
        )


async def test_a_failed_transaction_writes_nothing(store: Repository) -> None:
    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            await tx.insert_campaign(new_campaign())
            raise RuntimeError("the service changed its mind")
    async with store.read() as tx:
        assert await tx.campaigns() == []


async def test_a_constraint_error_spoils_the_whole_transaction(store: Repository) -> None:
    # PostgreSQL aborts a transaction at its first error; SQLite would carry on. The
    # contract is PostgreSQL's on both: a caller that catches the error and goes on gets
    # it again at the end of the block, and nothing of the transaction is written.
    async with store.transaction() as tx:
        cid = await tx.insert_campaign(new_campaign(channel=1))
    with pytest.raises(ConstraintError):
        async with store.transaction() as tx:
            await tx.set_gm_role(1, 2, 3)
            with pytest.raises(ConstraintError):
                await tx.insert_campaign(new_campaign(channel=1))
    async with store.read() as tx:
        assert [c.id for c in await tx.campaigns()] == [cid]
        assert await tx.gm_role(1) is None


async def test_reads_cannot_write(store: Repository) -> None:
    async with store.read() as tx:
        with pytest.raises(StorageError):
            await tx.insert_campaign(new_campaign())


async def test_writers_never_interleave(store: Repository) -> None:
    # "Read, check, write" in one transaction must not race: 20 concurrent increments of a
    # counter kept in a row all land. With interleaved writers some would read the same
    # value and the final count would be short.
    async with store.transaction() as tx:
        cid = await tx.insert_campaign(new_campaign())

    async def bump() -> None:
        async with store.transaction() as tx:
            row = await tx.campaign(cid)
            assert row is not None
            await asyncio.sleep(0)  # give another writer every chance to slip in
            await tx.update_campaign(cid, branch=row.branch + 1)

    await asyncio.gather(*(bump() for _ in range(20)))
    async with store.read() as tx:
        row = await tx.campaign(cid)
        assert row is not None and row.branch == 21


async def test_size_and_backup(store: Repository, tmp_path: Path) -> None:
    async with store.transaction() as tx:
        cid, _, rid = await campaign_with_round(tx)
        await tx.append_events(cid, rid, 1, [NewEvent("a", 1, {"x": "y" * 1000})], 1)
        await tx.insert_lock(NewLock(rid, "allied", "{}", "s", "r", 3, 22))
    assert await store.size_bytes() > 0
    target = tmp_path / "backups" / "copy.db"
    await store.backup(target)
    copy = await SqliteRepository.open(target)
    try:
        async with copy.read() as tx:
            assert [c.id for c in await tx.campaigns()] == [cid]
            assert len(await tx.campaign_locks(cid)) == 1
            assert (await tx.events(cid))[0].data == {"x": "y" * 1000}
    finally:
        await copy.close()


async def queue(store: Repository, *destinations: int) -> list[int]:
    """One channel message per destination given, in that order; their ids."""
    ids: list[int] = []
    async with store.transaction() as tx:
        cid, _, _ = await campaign_with_round(tx)
        for n, target in enumerate(destinations):
            new = await tx.enqueue(cid, NewOutbox("reveal", "channel", target, {"n": n}), 10)
            assert new is not None
            ids.append(new)
    return ids


async def test_outbox_claims_keep_destination_order_and_expire(store: Repository) -> None:
    x1, x2, y1, x3 = await queue(store, 1, 1, 2, 1)
    async with store.transaction() as tx:
        await tx.mark_retry(x1, "timeout", 50)  # x1 backs off until 50: x2, x3 wait for it
        claimed = await tx.claim_outbox(now=20, lease_until=80)
    assert [r.id for r in claimed] == [y1]
    assert claimed[0].next_attempt_at == 10  # the row as it was before the claim
    async with store.transaction() as tx:
        assert await tx.claim_outbox(now=30, lease_until=90) == []  # y1 is leased
        # x1 due again; the destination's rows come in queue order, limit respected
        assert [r.id for r in await tx.claim_outbox(now=50, lease_until=110, limit=2)] == [x1, x2]
        # x3 waits behind its claimed elders
        assert await tx.claim_outbox(now=60, lease_until=120) == []
        # the worker that claimed y1 died: once its lease runs out, y1 is claimed again
        assert [r.id for r in await tx.claim_outbox(now=80, lease_until=140)] == [y1]
        await tx.mark_delivered(x1, 1, 61)
        x2_row = await tx.outbox_item(x2)
        assert x2_row is not None
        # x2 was claimed but not attempted: given back as it was, x2 and x3 are due again
        await tx.release_outbox([dataclasses.replace(x2_row, next_attempt_at=10)], 110)
        assert [r.id for r in await tx.claim_outbox(now=81, lease_until=141)] == [x2, x3]


async def test_two_workers_never_claim_the_same_row(db_url: str) -> None:
    # Two repositories on one store stand for two bot processes: each has its own
    # connections. Claiming at the same time, they share the rows out without overlap.
    first = await open_repository(db_url)
    second = await open_repository(db_url)
    try:
        ids = await queue(first, *range(100, 160))

        async def claim(repo: Repository) -> list[int]:
            got: list[int] = []
            for _ in range(15):
                async with repo.transaction() as tx:
                    got += [r.id for r in await tx.claim_outbox(20, 500, limit=3)]
                await asyncio.sleep(0)
            return got

        mine, theirs = await asyncio.gather(claim(first), claim(second))
        assert not set(mine) & set(theirs)
        assert sorted(mine + theirs) == ids
        assert mine and theirs  # both did take part
    finally:
        await first.close()
        await second.close()

"""Linear storage: what each turn of a campaign adds to the file, before and after issue 13.

Plays ``--campaigns`` Coral Sea campaigns through the service in lockstep, one whole turn
each at a time, with random legal orders, on one SQLite file. After every turn it counts
the bytes the turn added per campaign in the two storage shapes, from the same campaigns:

- after (this release): the new snapshots (current state only) plus the new history rows,
  as stored (deflated, ``db.packing``);
- before (schema 4): the new snapshots holding the whole state, history included (the
  text the old code stored: the ruleset's ``dump`` of the rebuilt state).

At the end the same file is converted to the old shape (history put back into every
snapshot, the history table dropped, every JSON column as text again), both files are
VACUUMed and their size per campaign is printed beside the issue's target (a 6-turn
campaign's share <= 60 KiB). "Flat" means the last turn adds at most 1.5x what the first
added; the old shape grows with the turn.

Last, the memory a parsed state takes at the final turn (tracemalloc, the median of 200
parses): the whole state, and the snapshot alone (what a reader that needs no history
would parse).

    python bench/storage.py [--campaigns 20] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sqlite3
import sys
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import line, machine, median, verdict
from bot.clock import ManualClock
from bot.demo import SeededTokens
from bot.service import CampaignService
from bot.service_model import Pace
from bot.service_states import load_state
from db.packing import HISTORY_1, STATE_1, pack, unpack
from db.repository import Transaction
from db.sqlite import SqliteRepository
from tests.service.old_shape import schema_4_rows

TARGET_KIB = 60.0  # issue 13: a 6-turn campaign's share of the file
FLAT = 1.5  # the last turn may add at most this times the first turn's bytes
GM, JAP, ALL = 9, 11, 22
PACKED = (("events", "data"), ("outbox", "payload"), ("audit", "data"), ("locks", "canonical"))


async def _snapshots(tx: Transaction, cid: int) -> set[int]:
    ids: set[int] = set()
    for row in await tx.rounds(cid):
        ids.add(row.snapshot_before_id)
        if row.snapshot_after_id is not None:
            ids.add(row.snapshot_after_id)
    return ids


async def _bytes(svc: CampaignService, cid: int, seen: set[int]) -> tuple[int, int]:
    """(after, before) bytes of the snapshots and records not counted yet; marks them seen."""
    rules = svc.rulesets.get("carrier").rules
    after = before = 0
    async with svc.repo.read() as tx:
        fresh = sorted(await _snapshots(tx, cid) - seen)
        for snapshot_id in fresh:
            row = await tx.snapshot(snapshot_id)
            assert row is not None
            whole = await load_state(tx, rules, row)
            previous = max((s for s in seen if s < snapshot_id), default=None)
            earlier = await tx.snapshot(previous) if previous is not None else None
            stored_before = earlier.history_len if earlier is not None else 0
            new_records = await tx.history(cid, row.branch, row.history_len)
            after += _stored(row.state, STATE_1) + sum(
                _stored(r, HISTORY_1) for r in new_records[stored_before:]
            )
            before += len(rules.dump(whole).encode())
            seen.add(snapshot_id)
    return after, before


async def _play_round(svc: CampaignService, cid: int, rng: random.Random) -> None:
    for user in (JAP, ALL):
        panel = await svc.panel(cid, user)
        for decision in panel.decisions:
            await svc.draft(
                cid, user, panel.round_id, decision.field, rng.choice(decision.options).id
            )
        await svc.lock(cid, user, panel.round_id)


async def _turn(svc: CampaignService, cid: int, rng: random.Random) -> bool:
    """Play rounds until the campaign's turn moves on; False once it is finished."""
    status = await svc.status(cid)
    if status.campaign.status == "finished" or status.round is None:
        return False
    turn = status.round.turn
    while True:
        await _play_round(svc, cid, rng)
        status = await svc.status(cid)
        if status.campaign.status == "finished" or status.round is None:
            return True
        if status.round.turn != turn:
            return True


def _stored(text: str, mark: int) -> int:
    """The bytes the SQLite store keeps for ``text`` (deflated when that is smaller)."""
    value = pack(text, mark)
    return len(value) if isinstance(value, bytes) else len(value.encode())


def _old_shape(source: Path, target: Path, whole: dict[int, str]) -> None:
    shutil.copy(source, target)
    conn = sqlite3.connect(target)
    conn.row_factory = sqlite3.Row
    conn.create_function("unpack", 1, unpack, deterministic=True)
    try:
        # Schema 4 kept every JSON column as text, and each event in a row of its own.
        for table, column in PACKED:
            conn.execute(f"UPDATE {table} SET {column} = unpack({column})")
        schema_4_rows(conn, whole)
        conn.commit()
        conn.execute("VACUUM")
    finally:
        conn.close()


def _vacuumed_size(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("VACUUM")
    finally:
        conn.close()
    return path.stat().st_size


def _largest_tables(path: Path, count: int = 5) -> list[tuple[str, int]]:
    """The biggest tables and indexes by pages (SQLite's dbstat), where the file goes."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(
            "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT ?",
            (count,),
        ).fetchall()
    except sqlite3.OperationalError:  # built without dbstat
        return []
    finally:
        conn.close()
    return [(str(name), int(size)) for name, size in rows]


def _event_rows(path: Path) -> tuple[int, int]:
    """(rows, events) of the events table: a run written together is one row (db.bundles)."""
    conn = sqlite3.connect(path)
    try:
        rows, events = conn.execute("SELECT COUNT(*), SUM(lines) FROM events").fetchone()
    finally:
        conn.close()
    return int(rows), int(events)


def _parse_kib(rules: Any, current: str, records: list[str], samples: int) -> float:
    sizes = []
    for _ in range(samples):
        tracemalloc.start()
        state = rules.load_stored(current, records)
        size, _peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        del state
        sizes.append(size / 1024)
    return median(sizes)


async def run(args: argparse.Namespace, folder: Path) -> None:
    path = folder / "storage.db"
    repo = await SqliteRepository.open(path)
    try:
        svc = CampaignService(repo, ManualClock(), rng_seed_source=SeededTokens(3))
        rng = random.Random(13)
        cids = []
        for index in range(args.campaigns):
            info = await svc.create_campaign(
                1, 1000 + index, GM, "coral-sea", Pace(), seed=f"s{index}"
            )
            await svc.join(info.id, JAP, "japanese")
            await svc.join(info.id, ALL, "allied")
            await svc.start(info.id, GM)
            cids.append(info.id)
        seen: dict[int, set[int]] = {cid: set() for cid in cids}
        for cid in cids:
            await _bytes(svc, cid, seen[cid])  # the starting snapshot: not a turn's
        n = len(cids)
        print(f"coral-sea, {n} campaigns played in lockstep, bytes each turn adds per campaign")
        print(f"{'turn':>4} {'after (KiB)':>12} {'before (KiB)':>13}")
        per_turn: list[tuple[float, float]] = []
        turn = 0
        while True:
            moved = [await _turn(svc, cid, rng) for cid in cids]
            if not any(moved):
                break
            turn += 1
            after = before = 0
            for cid in cids:
                a, b = await _bytes(svc, cid, seen[cid])
                after += a
                before += b
            per_turn.append((after / n / 1024, before / n / 1024))
            print(f"{turn:>4} {per_turn[-1][0]:>12.1f} {per_turn[-1][1]:>13.1f}")
            if turn >= args.turns:
                break
        rules = svc.rulesets.get("carrier").rules
        whole: dict[int, str] = {}
        async with repo.read() as tx:
            for cid in cids:
                for snapshot_id in await _snapshots(tx, cid):
                    row = await tx.snapshot(snapshot_id)
                    assert row is not None
                    whole[snapshot_id] = rules.dump(await load_state(tx, rules, row))
            last_cid = cids[0]
            campaign = await tx.campaign(last_cid)
            assert campaign is not None and campaign.snapshot_id is not None
            last = await tx.snapshot(campaign.snapshot_id)
            assert last is not None
            records = await tx.history(last_cid, last.branch, last.history_len)
    finally:
        # Closed on a failure too: its connection thread would keep the run from exiting.
        await repo.close()

    first_after, first_before = per_turn[0]
    last_after, last_before = per_turn[-1]
    growth_after = last_after / first_after
    growth_before = last_before / first_before
    print(
        line(
            "after: last turn / first turn",
            f"x{growth_after:.2f} ({first_after:.1f} -> {last_after:.1f} KiB)",
            f"flat, <= x{FLAT:g}",
            verdict(growth_after, FLAT),
        )
    )
    print(
        line(
            "before: last turn / first turn",
            f"x{growth_before:.2f} ({first_before:.1f} -> {last_before:.1f} KiB)",
        )
    )
    old = folder / "old-shape.db"
    _old_shape(path, old, whole)
    after_kib = _vacuumed_size(path) / n / 1024
    empty_repo = await SqliteRepository.open(folder / "empty.db")
    await empty_repo.close()
    empty_kib = _vacuumed_size(folder / "empty.db") / 1024
    before_kib = old.stat().st_size / n / 1024
    print(
        line(
            f"file share, {turn} turns, after",
            f"{after_kib:.0f} KiB per campaign (vacuumed file / {n})",
            f"<= {TARGET_KIB:g} KiB",
            verdict(after_kib, TARGET_KIB),
        )
    )
    print(
        f"  above the empty schema ({empty_kib:.0f} KiB):"
        f" {after_kib - empty_kib / n:.0f} KiB per campaign"
    )
    tables = _largest_tables(path, 12)
    shares = ", ".join(f"{name} {size / n / 1024:.1f}" for name, size in tables)
    print(f"  where the new file goes (KiB per campaign): {shares}")
    rows, events = _event_rows(path)
    print(f"  events: {rows / n:.0f} rows per campaign holding {events / n:.0f} events")
    print(
        line(
            f"file share, {turn} turns, before",
            f"{before_kib:.0f} KiB per campaign (x{before_kib / after_kib:.1f} the new shape)",
        )
    )
    whole_kib = _parse_kib(rules, last.state, records, args.samples)
    bare_kib = _parse_kib(rules, last.state, [], args.samples)
    print(
        line(
            f"turn-{last.turn} state parsed",
            f"whole {whole_kib:.0f} KiB, snapshot alone {bare_kib:.0f} KiB "
            f"({len(records)} history records; median of {args.samples})",
        )
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=20, help="campaigns played")
    parser.add_argument("--turns", type=int, default=6, help="turns played (at most)")
    parser.add_argument("--samples", type=int, default=200, help="parses measured")
    parser.add_argument("--quick", action="store_true", help="smoke run: 2 campaigns, 3 turns")
    args = parser.parse_args(argv)
    if args.quick:
        args.campaigns, args.turns, args.samples = 2, 3, 5
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(args, Path(folder)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

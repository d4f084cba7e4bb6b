"""The kill test: several bot processes on one PostgreSQL, one SIGKILLed again and again.

    python -m tests.db.killtest [--campaigns 200] [--kills 20] [--processes 3]
                               [--rounds 3] [--speed 100] [--window 300] [--seed N]

(``SORTIE_TEST_PG_URL`` names the server; without it one is started with
``scripts/pg.sh`` and stopped at the end. Each run uses a fresh schema, dropped after.)

Each process (``kill_worker.py``) owns one shard: the commanders of the campaigns on that
shard lock through it, while every process fires deadlines and delivers the outbox for all
of them. One campaign in five has a commander away in its first round and short rounds,
so that round ends at its deadline (the others have a day per round). While the campaigns
play, a random process is SIGKILLed at a random moment and started again at once,
``--kills`` times. Then the processes are stopped, one more pass delivers what the last
victim had claimed (after its lease), and the test checks:

- every round resolved exactly once: one reveal queued and one reveal message created per
  resolved round, no failed attempt recorded (a loser of a race to resolve would fail on
  the schema's one-live-round rule), every campaign ``--rounds`` rounds on;
- every announcement delivered exactly once: each outbox row is ``delivered``, with the id
  of the one message the fake Discord created for it (``fake_discord.py``), no row has
  two messages, and a destination's messages were created in queue order;
- no lock lost: each receipt a commander was given is the round's standing lock, and a
  side away at the deadline has its default.

It also counts the *hand-overs*: rows a process passed to Discord more than once because
the process was killed after posting and before recording it (at least once); a repeat
after a process that was not killed is reported as a problem (two workers held the row). Discord's
nonce check turns those into the same message; the report gives the longest gap between a
row's first hand-over and a repeat, which must stay inside Discord's nonce window for the
guarantee to hold (``--window``, in the clock's seconds).

``tests/db/test_processes.py`` runs a smaller version in CI.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from bot.clock import ManualClock, epoch
from bot.demo import SeededTokens
from bot.outbox import LEASE_SECONDS, OutboxWorker
from bot.runtime import open_services
from bot.service_model import Pace
from db.backend import open_repository
from engine.zero.types import Side
from tests.db.fake_discord import FakeDiscord, read_handovers, read_posts
from tests.db.kill_worker import Config, ScaledClock, plain

ROOT = Path(__file__).resolve().parents[2]
START = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


@dataclass
class Report:
    campaigns: int
    processes: int
    kills: int
    seconds: float = 0.0
    rounds_resolved: int = 0
    deadline_rounds: int = 0
    locks_acknowledged: int = 0
    locks_by_process: list[int] = field(default_factory=list)  # each shard's process
    outbox_rows: int = 0
    messages_created: int = 0
    handovers: int = 0
    rows_handed_over_again: int = 0
    longest_repeat_gap: int = 0  # clock seconds between a row's first and last hand-over
    problems: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        body = {k: v for k, v in asdict(self).items() if k != "problems"}
        out = [f"{k.replace('_', ' ')}: {v}" for k, v in body.items()]
        out.append("problems: " + ("none" if not self.problems else str(len(self.problems))))
        out += [f"  - {p}" for p in self.problems[:30]]
        return out


def guild_on_shard(n: int) -> int:
    # Discord puts a server on shard (guild_id >> 22) % count: campaign n on shard n % count.
    return (n << 22) + 7


async def create_campaigns(
    url: str, count: int, round_seconds: int
) -> dict[str, tuple[int, int, int, bool]]:
    """``count`` started campaigns, every commander a different user."""
    clock = ManualClock(START)
    services = await open_services(url, clock, seeds=SeededTokens(14))
    # The campaigns with a commander away have short rounds, so their deadlines come
    # during the run; the others have a day, so that their rounds end by locks (a wave of
    # deadlines would turn every round into defaults, and hold the pumps while it fires).
    short = Pace(round_seconds=round_seconds, reminder_offsets=(round_seconds // 5,))
    long = Pace(round_seconds=86_400, reminder_offsets=(3600,))
    made: dict[str, tuple[int, int, int, bool]] = {}
    try:
        svc = services.campaigns
        for n in range(count):
            gm, japanese, allied = 1_000 + 3 * n, 1_001 + 3 * n, 1_002 + 3 * n
            away = n % 5 == 4
            info = await svc.create_campaign(
                guild_on_shard(n),
                50_000 + n,
                gm,
                "coral-sea",
                short if away else long,
                seed=f"k{n}",
            )
            await svc.join(info.id, japanese, Side.JAPANESE)
            await svc.join(info.id, allied, Side.ALLIED)
            await svc.start(info.id, gm)
            made[str(info.id)] = (guild_on_shard(n), japanese, allied, away)
    finally:
        await services.close()
    return made


class Fleet:
    """The bot processes, one per shard, each restartable."""

    def __init__(self, config_path: Path, shards: int, logs: Path) -> None:
        self.config_path = config_path
        self.logs = logs
        self.procs: list[asyncio.subprocess.Process | None] = [None] * shards
        self.killed: set[int] = set()  # pids

    async def start(self, shard: int) -> None:
        log = (self.logs / f"shard{shard}.log").open("ab")
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.db.kill_worker",
            str(self.config_path),
            str(shard),
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=log,
        )
        log.close()
        assert proc.stdout is not None
        line = await asyncio.wait_for(proc.stdout.readline(), timeout=120)
        if line.strip() != b"ready":
            raise RuntimeError(f"shard {shard} did not start; see {self.logs}")
        self.procs[shard] = proc

    def died(self) -> list[int]:
        return [s for s, p in enumerate(self.procs) if p is not None and p.returncode is not None]

    async def kill(self, shard: int) -> None:
        proc = self.procs[shard]
        assert proc is not None
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
        self.killed.add(proc.pid)

    async def stop_all(self) -> list[int]:
        codes = []
        for proc in self.procs:
            assert proc is not None
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
            codes.append(await asyncio.wait_for(proc.wait(), timeout=120))
        return codes


def finished_shards(folder: Path, pids: set[int]) -> set[int]:
    """The shards whose current process has played all its campaigns' rounds."""
    path = folder / "acks"
    lines = path.read_text().splitlines() if path.exists() else []
    done = [line.split()[1:] for line in lines if line.startswith("finished ")]
    return {int(shard) for shard, pid in done if int(pid) in pids}


async def run(url: str, args: argparse.Namespace, folder: Path) -> Report:
    rng = random.Random(args.seed)
    report = Report(args.campaigns, args.processes, kills=0)  # counts the kills done
    campaigns = await create_campaigns(url, args.campaigns, args.round_seconds)
    config = Config(
        url=url,
        folder=str(folder),
        shards=args.processes,
        start=epoch(START),
        wall=time.time(),
        speed=args.speed,
        rounds=args.rounds,
        window=args.window,
        campaigns=campaigns,
    )
    config_path = folder / "config.json"
    config_path.write_text(json.dumps(asdict(config)))
    began = time.perf_counter()
    fleet = Fleet(config_path, args.processes, folder)
    for shard in range(args.processes):
        await fleet.start(shard)
    for _ in range(args.kills):
        await asyncio.sleep(rng.uniform(0.1, args.kill_every * 2))
        if fleet.died():
            break
        victim = rng.randrange(args.processes)
        await fleet.kill(victim)
        report.kills += 1
        await fleet.start(victim)  # at once, as systemd's Restart=always would
    # Until every shard's commanders are through their rounds (in the current processes).
    deadline = time.perf_counter() + args.timeout
    while time.perf_counter() < deadline and not fleet.died():
        pids = {p.pid for p in fleet.procs if p is not None}
        if len(finished_shards(folder, pids)) == args.processes:
            break
        await asyncio.sleep(0.2)
    else:
        report.problems.append(f"the commanders did not finish (died: {fleet.died()})")
    await asyncio.sleep(1.0)  # the pumps deliver what the last locks queued
    codes = await fleet.stop_all()
    if any(codes):
        report.problems.append(f"exit codes {codes}; see {folder}/shard*.log")
    await drain(config)
    report.seconds = round(time.perf_counter() - began, 1)
    await check(config, report, fleet.killed)
    return report


async def drain(config: Config) -> None:
    """One more process, after the last victim's lease: delivers what it had claimed."""
    clock = ScaledClock(config.start, config.wall, config.speed)
    frozen = ManualClock(clock.now())
    frozen.advance(seconds=LEASE_SECONDS + 1)
    services = await open_services(config.url, frozen)
    sender = FakeDiscord(Path(config.folder), lambda: epoch(frozen.now()), window=config.window)
    worker = OutboxWorker(services.repo, sender, frozen, builder=plain)
    try:
        idle = 0
        while idle < 3:
            tick = await services.campaigns.tick()
            done = await worker.deliver_due()
            busy = tick.deadlines + tick.resolved + done.delivered + done.retried
            idle = 0 if busy else idle + 1
    finally:
        await services.close()


async def check(config: Config, report: Report, killed: set[int]) -> None:
    folder = Path(config.folder)
    problems = report.problems
    posts = read_posts(folder)
    handovers = read_handovers(folder)
    report.messages_created = len(posts)
    report.handovers = len(handovers)
    per_nonce = Counter(post.nonce for post in posts)
    twice = [nonce for nonce, n in per_nonce.items() if n > 1]
    if twice:
        problems.append(f"{len(twice)} rows made two messages or more, e.g. {twice[:5]}")
    message_of = {post.nonce: post.message_id for post in posts}
    by_destination: dict[str, list[int]] = defaultdict(list)
    for post in posts:
        by_destination[post.destination].append(int(post.nonce.removeprefix("sortie-")))
    for destination, ids in by_destination.items():
        if ids != sorted(ids):
            problems.append(f"{destination}: messages out of queue order {ids}")
    first_at: dict[str, int] = {}
    gaps: list[int] = []
    last_pid: dict[str, int] = {}
    for pid, nonce, _, at in handovers:
        if nonce in first_at:
            gaps.append(at - first_at[nonce])
            # A repeat is only excused by a kill: the process that had it died before
            # recording the post. A live process repeating a row is a bug (two claims).
            if last_pid[nonce] not in killed:
                problems.append(f"{nonce} handed over again after live process {last_pid[nonce]}")
        else:
            first_at[nonce] = at
        last_pid[nonce] = pid
    report.rows_handed_over_again = len(
        {n for n, c in Counter(h[1] for h in handovers).items() if c > 1}
    )
    report.longest_repeat_gap = max(gaps, default=0)

    acks: list[tuple[int, int, str, str]] = []
    by_shard: Counter[int] = Counter()
    for line in (folder / "acks").read_text().splitlines():
        if line.startswith("lock "):
            _, cid, round_id, side, receipt, shard = line.split()
            acks.append((int(cid), int(round_id), side, receipt))
            by_shard[int(shard)] += 1
    report.locks_acknowledged = len(acks)
    report.locks_by_process = [by_shard[shard] for shard in range(config.shards)]

    repo = await open_repository(config.url)
    try:
        async with repo.read() as tx:
            rows = await tx.outbox()
            report.outbox_rows = len(rows)
            for row in rows:
                nonce = f"sortie-{row.id}"
                if row.status != "delivered":
                    problems.append(f"outbox row {row.id} ({row.kind}) is {row.status}")
                elif row.delivered_id != message_of.get(nonce):
                    problems.append(
                        f"outbox row {row.id}: recorded message {row.delivered_id},"
                        f" created {message_of.get(nonce)}"
                    )
            known = {f"sortie-{row.id}" for row in rows}
            strays = [nonce for nonce in per_nonce if nonce not in known]
            if strays:
                problems.append(f"messages for rows the store does not have: {strays[:5]}")
            reveals = Counter(int(row.payload["round_id"]) for row in rows if row.kind == "reveal")
            revealed = Counter(
                int(post.text.split()[2]) for post in posts if post.text.split()[1] == "reveal"
            )
            for cid_text, (_, _, _, away) in config.campaigns.items():
                cid = int(cid_text)
                rounds = await tx.rounds(cid)
                statuses = [r.status for r in rounds]
                resolved = [r for r in rounds if r.status == "resolved"]
                report.rounds_resolved += len(resolved)
                in_order = statuses[: len(resolved)] == ["resolved"] * len(resolved)
                if len(resolved) < config.rounds or not in_order:
                    problems.append(f"campaign {cid}: rounds {statuses}")
                for r in resolved:
                    if reveals[r.id] != 1 or revealed[r.id] != 1:
                        problems.append(
                            f"round {r.id}: {reveals[r.id]} reveal rows,"
                            f" {revealed[r.id]} reveal messages"
                        )
                for r in rounds:
                    if r.status not in ("resolved", "open"):
                        problems.append(f"round {r.id} left {r.status}")
                # A second resolver that lost the race must not have failed (and told the GM).
                failed = [e for e in await tx.events(cid) if e.kind == "resolution-failed"]
                if failed:
                    problems.append(f"campaign {cid}: {len(failed)} failed resolution(s)")
                if away:
                    locks = await tx.standing_locks(rounds[0].id)
                    if "allied" not in locks or not locks["allied"].defaulted:
                        problems.append(f"campaign {cid}: the away side has no default")
                    else:
                        report.deadline_rounds += 1
            for cid, round_id, side, receipt in acks:
                locks = await tx.standing_locks(round_id)
                lock = locks.get(side)
                if lock is None or lock.receipt != receipt or lock.defaulted:
                    problems.append(f"campaign {cid} round {round_id}: {side}'s lock lost")
    finally:
        await repo.close()


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=200)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3, help="rounds each campaign plays")
    parser.add_argument(
        "--round-seconds", type=int, default=60, help="a round's time, with a commander away"
    )
    # Not much faster than real time: a stall (a tick firing many deadlines) lasts real
    # seconds, and must be compared with a lease and a nonce window as long as in production.
    parser.add_argument("--speed", type=float, default=2.0, help="clock seconds per second")
    parser.add_argument(
        # Discord documents its window only as "the past few minutes": three, assumed here.
        "--window",
        type=int,
        default=180,
        help="the fake Discord's nonce window, seconds",
    )
    parser.add_argument("--kill-every", type=float, default=1.0, help="mean real s between")
    parser.add_argument("--timeout", type=float, default=900.0)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--keep", action="store_true", help="keep the files (posts, acks, logs)")
    args = parser.parse_args(argv)
    if args.seed is None:
        args.seed = random.randrange(1 << 30)
    return args


async def run_on_fresh_schema(server_url: str, args: argparse.Namespace, folder: Path) -> Report:
    from tests.pg import fresh_schema

    schemas = fresh_schema(server_url)
    url = next(schemas)
    try:
        return await run(url, args, folder)
    finally:
        schemas.close()


def main(argv: list[str] | None = None) -> int:
    from tests.pg import start_server, stop_server

    args = parse(argv)
    server_url = os.environ.get("SORTIE_TEST_PG_URL")
    directory = None
    if not server_url:
        server_url, directory = start_server()
    folder = Path(tempfile.mkdtemp(prefix="sortie-killtest-"))
    try:
        print(f"seed {args.seed}; files in {folder}", flush=True)
        report = asyncio.run(run_on_fresh_schema(server_url, args, folder))
    finally:
        if directory is not None:
            stop_server(directory)
    for line in report.lines():
        print(line)
    if not args.keep and not report.problems:
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())

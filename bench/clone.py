"""Many campaigns of every age, fast: a few played through the service, then copied.

Playing 1,000 campaigns to rounds 1-20 through the service took 20 minutes of both cores,
so the capacity benchmark was rarely re-run. Here a handful of campaigns per scenario are
played once through the real service (``play_stages``); as each round opens,
``Stages.capture`` keeps a copy of that campaign's
stored rows (the campaign, its players, snapshots, history, rounds, drafts, locks, events,
timers, outbox, message references and audit) as they stand. ``Stages.clone`` then writes
such a copy into the benchmark's database under new ids: campaign, guild, channel, game
master and players get new Discord ids, every row id is moved by the same offset (so a
campaign's rows keep their order), and the references between rows follow. The states,
histories and drafts are the real ones, byte for byte; only the ids differ.

``cached_stages`` keeps the played stages under ``~/.cache/sortie-bench``, keyed by a hash
of the engine's, the service's and the storage's sources, and ``place`` writes many
copies at rounds drawn from a span into a fresh benchmark database: the capacity
benchmark (rounds 1-20) and the memory one (rounds 8-20) share both.

What the copy leaves as it was: text inside stored JSON (an event's or outbox payload's
user mentions, the sealed events of a round) still names the played campaign's users and
ids. The benchmark delivers no outbox message and reads no log, so nothing it times reads
them; they keep the rows' sizes real.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import random
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.service import _open
from bot.service_model import Pace, ServiceError

PLAYS = (
    ("carrier", "coral-sea", 11),  # (ruleset, scenario, the last round it may stand at)
    ("land", "malaya-all", 17),
    ("carrier", "midway", 11),
    ("wings", "wings-1917", 20),
)

# Each table: how its rows are picked for one campaign.
_BY_CAMPAIGN = "campaign_id = :cid"
_BY_ROUND = "round_id IN (SELECT id FROM rounds WHERE campaign_id = :cid)"
TABLES = {
    "campaigns": "id = :cid",
    "players": _BY_CAMPAIGN,
    "snapshots": _BY_CAMPAIGN,
    "history": _BY_CAMPAIGN,
    "rounds": _BY_CAMPAIGN,
    "drafts": _BY_ROUND,
    "locks": _BY_ROUND,
    "events": _BY_CAMPAIGN,
    "timers": _BY_CAMPAIGN,
    "outbox": _BY_CAMPAIGN,
    "message_refs": _BY_CAMPAIGN,
    "audit": _BY_CAMPAIGN,
}
# Row ids moved by the clone's offset: table -> its own id column.
OWN_ID = {
    "snapshots": "id",
    "rounds": "id",
    "locks": "id",
    "events": "seq",
    "timers": "id",
    "outbox": "id",
    "audit": "id",
}
# Columns that hold another row's id: column -> the table whose ids it names.
REFERS = {
    "snapshot_id": "snapshots",
    "snapshot_before_id": "snapshots",
    "snapshot_after_id": "snapshots",
    "round_id": "rounds",
}
USER_COLUMNS = ("user_id", "by_user", "who")
# An outbox dedupe key names a row: its prefix says which table.
DEDUPE = {
    "report": "rounds",
    "turn-summary": "rounds",
    "reveal": "rounds",
    "reminder": "timers",
    "delivery-stuck": "outbox",
}


@dataclass(frozen=True)
class Stage:
    """A played campaign's rows as they stood at one round."""

    key: int  # row id in the stages file
    play: str  # "ruleset/scenario"
    round: int  # 1 for the first round


@dataclass(frozen=True)
class Ids:
    """The new Discord ids of one copy."""

    campaign: int
    guild: int
    channel: int
    gm: int
    users: dict[int, int]  # played user id -> this copy's


class Stages:
    """A file of captured campaign rows, read by ``clone``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.db = sqlite3.connect(path)
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS stages (key INTEGER PRIMARY KEY, play TEXT, "
            "round INTEGER, source TEXT, campaign_id INTEGER)"
        )

    def close(self) -> None:
        self.db.close()

    def capture(self, source: Path, campaign_id: int, play: str, round_: int) -> Stage:
        """Copy one campaign's rows from ``source`` (a live database file, read through its
        WAL) as they stand now."""
        db = self.db
        db.execute("ATTACH DATABASE ? AS src", (str(source),))
        try:
            cursor = db.execute(
                "INSERT INTO stages (play, round, source, campaign_id) VALUES (?, ?, ?, ?)",
                (play, round_, str(source), campaign_id),
            )
            key = int(cursor.lastrowid or 0)
            for table, where in TABLES.items():
                columns = [row[1] for row in db.execute(f"PRAGMA src.table_info({table})")]
                names = ", ".join(columns)
                db.execute(
                    f"CREATE TABLE IF NOT EXISTS stage_{table} AS "
                    f"SELECT 0 AS stage_key, {names} FROM src.{table} WHERE 0"
                )
                db.execute(
                    f"INSERT INTO stage_{table} SELECT :key, {names} FROM src.{table} "
                    f"WHERE {where.replace('rounds', 'src.rounds')}",
                    {"key": key, "cid": campaign_id},
                )
            db.commit()
        finally:
            db.execute("DETACH DATABASE src")
        return Stage(key, play, round_)

    def stages(self) -> list[Stage]:
        rows = self.db.execute("SELECT key, play, round FROM stages ORDER BY key")
        return [Stage(k, p, r) for k, p, r in rows]

    def users(self, stage: Stage) -> list[tuple[int, str]]:
        """(user id, side) of the stage's players, in the order they joined."""
        rows = self.db.execute(
            "SELECT user_id, side FROM stage_players WHERE stage_key = ? ORDER BY joined_at, rowid",
            (stage.key,),
        )
        return [(int(u), str(s)) for u, s in rows]

    def clone(self, target: sqlite3.Connection, stage: Stage, ids: Ids, offset: int) -> None:
        """Write ``stage``'s rows into ``target`` (a connection to the benchmark's database)
        under ``ids``, every row id moved by ``offset``."""

        def moved(value: Any) -> Any:
            return None if value is None else int(value) + offset

        def user(value: Any) -> Any:
            return None if value is None else ids.users.get(int(value), value)

        for table in TABLES:
            cursor = self.db.execute(
                f"SELECT * FROM stage_{table} WHERE stage_key = ?", (stage.key,)
            )
            columns = [d[0] for d in cursor.description][1:]
            rows = [list(row[1:]) for row in cursor]
            if not rows:
                continue
            fixes: list[tuple[int, Callable[[Any], Any]]] = []
            for index, column in enumerate(columns):
                if column == OWN_ID.get(table) or column in REFERS:
                    fixes.append((index, moved))
                elif column == "campaign_id" or (table == "campaigns" and column == "id"):
                    fixes.append((index, lambda _v: ids.campaign))
                elif column == "guild_id":
                    fixes.append((index, lambda _v: ids.guild))
                elif column == "channel_id":
                    fixes.append((index, lambda _v: ids.channel))
                elif column == "gm_id":
                    fixes.append((index, lambda _v: ids.gm))
                elif column in USER_COLUMNS:
                    fixes.append((index, user))
                elif column == "dedupe_key":
                    fixes.append((index, lambda v: _dedupe(v, offset, ids.campaign)))
            if table in ("outbox", "message_refs"):
                kind_at = columns.index("target_kind") if "target_kind" in columns else None
                target_at = columns.index("target_id")
                for row in rows:
                    dm = kind_at is not None and row[kind_at] == "dm"
                    row[target_at] = user(row[target_at]) if dm else ids.channel
            for row in rows:
                for index, fix in fixes:
                    row[index] = fix(row[index])
            marks = ", ".join("?" * len(columns))
            target.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)


def _dedupe(value: Any, offset: int, campaign: int) -> Any:
    if value is None:
        return None
    parts = str(value).split(":")
    if parts[0] == "campaign-ended":
        return f"campaign-ended:{campaign}"
    if parts[0] in DEDUPE and len(parts) > 1 and parts[1].isdigit():
        parts[1] = str(int(parts[1]) + offset)
        return ":".join(parts)
    return f"{value}@{campaign}"  # unknown shape: kept unique per copy


async def _is_open(svc: Any, cid: int, users: dict[str, int]) -> bool:
    try:
        panel = await svc.panel(cid, next(iter(users.values())))
    except ServiceError:
        return False
    return bool(panel.status == "open")


async def _drafted(svc: Any, cid: int, users: dict[str, int], rng: random.Random) -> list[Any]:
    """Every side that still has to lock drafts its missing fields (random legal options);
    returns their (user, round id), or [] when the campaign has no open round."""
    waiting = []
    for user in users.values():
        try:
            panel = await svc.panel(cid, user)
        except ServiceError:
            return []
        if panel.status != "open":
            return []
        if panel.locked or not panel.is_commander:
            continue
        for field in panel.missing:
            decision = next(d for d in panel.decisions if d.field == field)
            panel = await svc.draft(
                cid, user, panel.round_id, field, rng.choice(decision.options).id
            )
        waiting.append((user, panel.round_id))
    return waiting


async def play_stages(folder: str, stages: Stages, seeds: int, top: int) -> None:
    """Play ``seeds`` campaigns of each scenario through the service, keeping each one's rows
    as every round opens (the moment the load starts from)."""
    async with _open(folder, "seed.db", seeds) as (_, svc):
        for play_index, (ruleset, scenario, last) in enumerate(PLAYS):
            rules = svc.rulesets.get(ruleset).rules
            for seed in range(seeds):
                index = play_index * seeds + seed
                info = await svc.create_campaign(
                    1, 10_000 + index, 1_000 + index, scenario, Pace(), f"c{index}", ruleset=ruleset
                )
                users = {}
                for number, side in enumerate(rules.side_ids):
                    users[side] = 10 * index + number + 1
                    await svc.join(info.id, users[side], side)
                await svc.start(info.id, 1_000 + index)
                rng = random.Random(index)
                for round_ in range(1, min(last, top) + 1):
                    await svc.settle()
                    if not await _is_open(svc, info.id, users):
                        break
                    # Kept as the round opens, nothing drafted: the load's players draft.
                    stages.capture(
                        Path(folder) / "seed.db", info.id, f"{ruleset}/{scenario}", round_
                    )
                    waiting = await _drafted(svc, info.id, users, rng)
                    if not waiting:
                        raise RuntimeError(f"{scenario} round {round_} asks nobody anything")
                    for attempt in range(20):
                        resolved = False
                        for user, round_id in waiting:
                            result = await svc.lock(info.id, user, round_id)
                            resolved = resolved or result.resolved
                        await svc.settle()
                        if resolved:
                            break
                        waiting = await _drafted(svc, info.id, users, rng)  # a side joined late
                        if not waiting or attempt == 19:
                            raise RuntimeError(f"{scenario} round {round_} does not resolve")
            print(f"  played {seeds} x {scenario}", flush=True)


def code_key(seeds: int, top: int) -> str:
    """What the played stages depend on: every source and data file of the engine, the
    service and the storage, this copier that plays them, and how many are played."""
    digest = hashlib.sha256(f"seeds={seeds} top={top}".encode())
    root = Path(__file__).resolve().parents[1]
    files = [Path(__file__).resolve()]
    for top_folder in ("engine", "bot", "db"):
        files += sorted(p for p in (root / top_folder).rglob("*") if p.is_file() and _source(p))
    for path in files:
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _source(path: Path) -> bool:
    return (
        path.suffix in {".py", ".sql", ".json", ".toml", ".zdict"}
        and "__pycache__" not in path.parts
    )


async def cached_stages(folder: str, seeds: int, top: int, fresh: bool) -> tuple[Stages, str]:
    """The played stages, from the cache when this code played them already (``--fresh``
    plays them again), and a few words on where they came from."""
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "sortie-bench"
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / f"capacity-stages-{code_key(seeds, top)}.db"
    how = f"stages cached in {path}"
    if fresh or not path.exists():
        partial = path.with_suffix(f".{os.getpid()}.partial")  # two benchmarks at once
        partial.unlink(missing_ok=True)
        stages = Stages(partial)
        try:
            await play_stages(folder, stages, seeds, top)
        finally:
            stages.close()
        partial.replace(path)
        how = f"stages played now into {path}"
    return Stages(path), how


@dataclass
class Placed:
    """The copies ``place`` wrote: each campaign's id and its users by side, its ruleset,
    and how many stand at each round."""

    campaigns: list[tuple[int, dict[str, int]]] = dataclasses.field(default_factory=list)
    ruleset: dict[int, str] = dataclasses.field(default_factory=dict)
    ages: dict[int, int] = dataclasses.field(default_factory=dict)

    def spread(self) -> str:
        return ", ".join(f"{age}: {n}" for age, n in sorted(self.ages.items()))


def place(
    stages: Stages, target_path: Path, count: int, rng: random.Random, rounds: tuple[int, int]
) -> Placed:
    """``count`` copies into ``target_path`` (a database with the service's schema), the
    scenarios in turn, each at a round drawn from ``rounds`` (both ends included), capped
    below its scenario's end so it stays live, or the latest round its seeds reached."""
    by_play: dict[tuple[str, int], list[Stage]] = {}
    for stage in stages.stages():
        by_play.setdefault((stage.play, stage.round), []).append(stage)
    top = max(round_ for _play, round_ in by_play)
    target = sqlite3.connect(target_path)
    placed = Placed()
    try:
        for index in range(count):
            ruleset, scenario, last = PLAYS[index % len(PLAYS)]
            play = f"{ruleset}/{scenario}"
            round_ = min(rng.randint(*rounds), last, top)
            while (play, round_) not in by_play:
                round_ -= 1  # every seed of this scenario ended sooner
            choices = by_play[(play, round_)]
            stage = choices[index % len(choices)]
            played = stages.users(stage)
            users = {side: 10_000_000 + 10 * index + n for n, (_u, side) in enumerate(played)}
            ids = Ids(
                campaign=100_000 + index,
                guild=1,
                channel=20_000_000 + index,
                gm=30_000_000 + index,
                users={u: users[side] for u, side in played},
            )
            stages.clone(target, stage, ids, offset=(index + 1) * 1_000_000)
            placed.campaigns.append((ids.campaign, users))
            placed.ruleset[ids.campaign] = ruleset
            placed.ages[round_] = placed.ages.get(round_, 0) + 1
        target.commit()
    finally:
        target.close()
    return placed

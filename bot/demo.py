"""The offline demo: a whole campaign between two scripted commanders, written to a folder.

It goes through the real services (a SQLite file in the output folder, the turn service,
the scheduler, the outbox and the announcement builder), with a ``ManualClock`` and seeded
salts so the same seed writes the same files byte for byte. Any registered ruleset plays:
one commander per side picks a random legal option from their panel's decisions; on turn
2 the last side's commander forgets to lock, so the reminder and the deadline (defaults,
GM told) show up in the output too.

Output: ``channel.md`` (everything posted in the campaign channel, edits included),
``dm-<side>.md`` (DM panels and reminders), every image as a PNG,
``export.json`` (``docs/export-format.md``), ``after-action.md`` and ``demo.db``, the
campaign's database (a fresh copy of its content, see ``_canonical``).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.announce import Announcement, AnnouncementBuilder
from bot.clock import ManualClock
from bot.export import after_action_markdown, dumps, verify_export
from bot.outbox import OutboxWorker, Target
from bot.rulesets import Registry
from bot.service import CampaignService
from bot.service_model import Pace, ServiceError
from db.sqlite import SqliteRepository
from engine.ruleset import Decision

START = datetime(2025, 5, 4, 12, 0, tzinfo=UTC)
GUILD, CHANNEL, GM = 1, 42, 7
DEMO_FILES = ("*.png", "channel.md", "dm-*.md", "export.json", "after-action.md", "demo.db*")


class SeededTokens:
    """``secrets.token_hex`` made repeatable: salts in the demo come from its seed."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(hashlib.sha256(f"demo-salts|{seed}".encode()).digest())

    def token_hex(self, nbytes: int = 32) -> str:
        return self._rng.getrandbits(nbytes * 8).to_bytes(nbytes, "big").hex()


@dataclass
class FileSender:
    """A ``Sender`` that appends each announcement to a Markdown file and saves its images."""

    out: Path
    dm_names: dict[int, str]
    next_id: int = 1000
    images: dict[str, str] = field(default_factory=dict)  # key -> latest file of that image
    _count: int = 0

    async def send(
        self, target: Target, announcement: Announcement, *, edit_message_id: int | None
    ) -> int:
        if target.kind == "dm":
            name = f"dm-{self.dm_names.get(target.id, str(target.id))}.md"
        else:
            name = "channel.md"
        if edit_message_id is None:
            self.next_id += 1
            message_id = self.next_id
            heading = f"### Message {message_id} · {announcement.kind}"
        else:
            message_id = edit_message_id
            heading = f"### Message {message_id} edited · {announcement.kind}"
        parts = [heading, "", announcement.text, ""]
        for filename, png in announcement.images:
            self._count += 1
            stored = f"{self._count:03d}-{filename}"
            (self.out / stored).write_bytes(png)
            self.images[filename.removesuffix(".png")] = stored
            described = announcement.alt.get(filename, filename)
            described = described.replace("[", "\\[").replace("]", "\\]")
            parts += [f"![{described}]({stored})", ""]
        with (self.out / name).open("a", encoding="utf-8") as handle:
            handle.write("\n".join(parts) + "\n")
        return message_id


@dataclass(frozen=True)
class DemoResult:
    out: Path
    files: int
    rounds: int
    verified: bool
    problems: tuple[str, ...]
    scenario: str = ""


def _canonical(path: Path) -> None:
    """Rewrite the demo's database as a fresh copy of its content (``VACUUM INTO``).

    The file the bot leaves holds its content and traces of how it got there: which writes
    shared a group commit, when the WAL was checkpointed, which pages were freed and
    reused. The demo writes one thing at a time, so today those follow the seed too, but
    they are the machine's timing as soon as two writes overlap; a fresh copy holds only
    the content, in SQLite's own order, whatever the timing was.
    """
    fresh = path.with_name(path.name + ".fresh")
    fresh.unlink(missing_ok=True)
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("VACUUM INTO ?", (str(fresh),))
    os.replace(fresh, path)


def _clean(out: Path) -> None:
    for pattern in DEMO_FILES:
        for path in out.glob(pattern):
            path.unlink()


async def _draft_first(
    service: CampaignService,
    campaign_id: int,
    user: int,
    round_id: int,
    decision: Decision,
    wanted: Sequence[str],
) -> None:
    """Draft the first of ``wanted`` the rules accept (a scripted commander's preferences
    end with the field's default)."""
    for index, value in enumerate(wanted):
        try:
            await service.draft(campaign_id, user, round_id, decision.field, value)
            return
        except ServiceError:
            if index == len(wanted) - 1:
                raise


async def run(
    scenario: str | None = None,
    seed: int = 1942,
    out: Path | str = "demo-out",
    *,
    ruleset: str | None = None,
    locale: str = "en",
) -> DemoResult:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    _clean(out)
    clock = ManualClock(START)
    registry = Registry()
    ruleset = ruleset or registry.default
    if ruleset not in registry:
        raise ServiceError("unknown-ruleset", ruleset=ruleset, known=", ".join(registry.keys()))
    rules = registry.get(ruleset).rules
    if scenario is None:
        scenario = next(iter(rules.scenarios()))  # the ruleset's first
    # One commander per side, in the ruleset's order: 101, 202, ...
    commanders = {side: 101 * (i + 1) for i, side in enumerate(rules.side_ids)}
    last_side = rules.side_ids[-1]
    picks = random.Random(seed)
    repo = await SqliteRepository.open(out / "demo.db", now=clock.now())
    service = CampaignService(repo, clock, rng_seed_source=SeededTokens(seed), rulesets=registry)
    try:
        sender = FileSender(out, {uid: side for side, uid in commanders.items()})
        worker = OutboxWorker(
            repo, sender, clock, builder=AnnouncementBuilder(repo, clock, rulesets=registry)
        )
        pace = Pace(round_seconds=86_400, reminder_offsets=(6 * 3600,))
        info = await service.create_campaign(
            GUILD, CHANNEL, GM, scenario, pace, seed=f"demo-{seed}", ruleset=ruleset, locale=locale
        )
        for side, user in commanders.items():
            await service.join(info.id, user, side)
        await service.start(info.id, GM)
        await worker.deliver_due()
        rounds = 0
        while True:
            status = await service.status(info.id)
            if status.campaign.status == "finished" or status.round is None:
                break
            rounds += 1
            forgetful = status.round.turn == 2 and status.round.kind == rules.first_round
            for side, user in commanders.items():
                clock.advance(hours=picks.randint(1, 5), minutes=picks.randint(0, 59))
                await service.tick()
                now = await service.status(info.id)
                if now.round is None or now.round.id != status.round.id:
                    break  # played already: the sides after it had nothing to decide
                panel = await service.panel(info.id, user)
                scripted = rules.demo_choice(panel.view, panel.decisions, picks)
                for decision in panel.decisions:
                    if scripted is None:
                        wanted = [picks.choice(decision.options).id]
                    else:
                        wanted = [*scripted.get(decision.field, ()), decision.default]
                    await _draft_first(service, info.id, user, panel.round_id, decision, wanted)
                if forgetful and side == last_side:
                    continue  # drafted, never locked: the deadline will decide
                with contextlib.suppress(ServiceError):  # the deadline got there first
                    await service.lock(info.id, user, panel.round_id)
                if side == rules.side_ids[0] and status.round.turn == 1:
                    # Once, show the round message edited between the two lock-ins; later
                    # rounds deliver once, and the updates coalesce (rendering is the cost).
                    await worker.deliver_due()
            if forgetful:
                # Past the reminder, then past the deadline: defaults, and the GM is told.
                deadline = status.round.deadline
                assert deadline is not None
                clock.set(deadline - timedelta(seconds=min(pace.reminder_offsets) - 60))
                await service.tick()
                await worker.deliver_due()
                clock.set(deadline)
                await service.tick()
                await worker.deliver_due()
            await worker.deliver_due()
        # Deliver what is left (end of campaign), with time for any retry.
        for _ in range(3):
            clock.advance(minutes=5)
            await worker.deliver_due()
        export = await service.export(info.id)
        (out / "export.json").write_text(dumps(export), encoding="utf-8")
        report = after_action_markdown(export, rulesets=registry, images=sender.images)
        (out / "after-action.md").write_text(report, encoding="utf-8")
        check = verify_export(export, registry)
    finally:
        try:
            await service.settle()  # the last round's panels may still be in preparation
        finally:
            await repo.close()
    _canonical(out / "demo.db")
    files = sum(1 for path in out.iterdir() if path.is_file())
    return DemoResult(
        out, files, rounds, check.ok and check.replayed, tuple(check.problems), scenario
    )

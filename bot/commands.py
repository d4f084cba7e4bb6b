"""What each command-line subcommand does; kept apart so ``__main__`` stays a parser."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bot.settings import Settings
from bot.stopping import Stopped, as_stopped, stoppable, tell

if TYPE_CHECKING:
    from bot.client import SortieBot


def database_refusal(settings: Settings, problem: str) -> str:
    """The one line that stops a command because of the database DATABASE_URL names."""
    return f"Cannot use DATABASE_URL={settings.database_url}: {problem}."


def _database_problem(settings: Settings) -> str | None:
    """A damaged file or one from a newer release, as one line; checked before opening."""
    from db.check import startup_problem

    if not settings.database_url.startswith("sqlite:///"):
        return None  # PostgreSQL checks itself on connection
    problem = startup_problem(settings.database_path)
    return None if problem is None else database_refusal(settings, problem)


async def run_bot(settings: Settings) -> int:
    from bot.client import build_bot
    from bot.i18n import set_default_locale

    refusal = _database_problem(settings)
    if refusal is not None:
        print(refusal, file=sys.stderr)
        return 2
    set_default_locale(settings.default_locale)
    client = build_bot(settings)  # sharded when SHARD_COUNT is set
    try:
        # Ctrl-C, systemd's or docker's SIGTERM, a closed terminal's SIGHUP: the bot closes
        # (after a delivery in progress), then the stop is told; an asked stop is success.
        await stoppable(_serve(client, settings.discord_token), say=True)
    except Stopped:
        tell("Sortie: stopped.")
    return 0


async def _serve(client: SortieBot, token: str) -> None:
    # A stop cancels ``start`` wherever it is (logging in, opening the database, connected),
    # and leaving the block closes the bot: its pump, Discord, the database, the odds workers.
    async with client:
        await client.start(token)


def run_demo(
    settings: Settings,
    *,
    scenario: str | None,
    seed: int,
    out: str,
    ruleset: str = "carrier",
    locale: str = "en",
) -> int:
    """Play a whole campaign offline through the real services; write it to ``out``."""
    from bot.demo import run
    from bot.i18n import t
    from bot.service_model import ServiceError

    try:
        result = asyncio.run(
            stoppable(
                run(scenario=scenario, seed=seed, out=Path(out), ruleset=ruleset, locale=locale)
            )
        )
    except ServiceError as error:
        print(error.message(None), file=sys.stderr)
        return 2
    except (Stopped, KeyboardInterrupt) as error:
        # The campaign's database is closed by then; what was written stays for a look.
        stop = as_stopped(error)
        folder = Path(out)
        files = sum(1 for path in folder.iterdir() if path.is_file()) if folder.is_dir() else 0
        tell(
            f"Sortie: demo stopped ({stop.name}) before the end of the campaign: "
            f"the {files} files written so far in {out} are left as they are."
        )
        return stop.exit_code
    print(
        t(
            "service.cli.demo-done",
            None,
            path=result.out,
            files=result.files,
            scenario=result.scenario,
            seed=seed,
        )
    )
    if not result.verified:
        for problem in result.problems:
            print(problem, file=sys.stderr)
        return 1
    return 0


def run_verify_rules(path: str) -> int:
    """Check a finished carrier campaign against the rules, from its export alone: one line
    per violation citing its rule and exit 1, or ``OK: N checks passed`` and exit 0."""
    import json

    from bot.i18n import t
    from bot.rulecheck import check_export

    try:
        export = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        print(t("rulecheck.cli.refused", None, why=f"cannot read {path}: {exc}"[:300]))
        return 1
    result = check_export(export)
    if result.refused is not None:
        print(t("rulecheck.cli.refused", None, why=result.refused))
        return 1
    for problem in result.problems:
        print(problem.line())
    if result.problems:
        return 1
    print(t("rulecheck.cli.ok", None, checks=result.passed))
    return 0


def run_verify(path: str) -> int:
    """Replay an export from its seed and choices; exit 0 when everything matches."""
    from bot.export import verify_file
    from bot.i18n import t
    from engine.zero.loader import default_catalog

    result = verify_file(Path(path), default_catalog())
    if result.unusable:
        print(t("service.cli.verify-refused", None, why=result.problems[0]))
        return 1
    if not result.ok:
        for problem in result.problems:
            print(t("service.cli.verify-failed", None, where=problem))
        return 1
    if not result.replayed:
        print(t("service.cli.verify-receipts-only", None, receipts=result.receipts))
        return 0
    print(
        t(
            "service.cli.verify-ok",
            None,
            rounds=result.rounds,
            events=result.events,
            receipts=result.receipts,
        )
    )
    return 0


async def run_migrate(settings: Settings) -> int:
    """Create the database if needed and apply every pending migration."""
    from bot.i18n import t
    from db.backend import open_repository, redact

    # A damaged file would take the migrations and fail later, mid-turn: refuse it now.
    refusal = _database_problem(settings)
    if refusal is not None:
        print(refusal, file=sys.stderr)
        return 2
    repo = await open_repository(settings.database_url, migrate_to_latest=False)
    try:
        applied = await repo.migrate()
        version = await repo.schema_version()
    finally:
        await repo.close()
    where = redact(settings.database_url) if settings.uses_postgres else settings.database_path
    print(t("service.cli.migrated", None, path=where, version=version, applied=applied))
    return 0


async def run_backup(settings: Settings, path: str) -> int:
    """An online backup (SQLite backup API): safe while the bot is running."""
    from bot.i18n import t
    from db.backup import BackupError, backup_file

    if settings.uses_postgres:
        return await _backup_postgres(settings, Path(path))
    try:
        result = await asyncio.to_thread(backup_file, settings.database_path, Path(path))
    except BackupError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(
        t(
            "service.cli.backup-done",
            None,
            path=result.path,
            size=result.size_bytes,
            version=result.schema_version,
        )
    )
    return 0


def run_check(settings: Settings, *, quick: bool = False) -> int:
    """SQLite's integrity_check (or quick_check) on the database: 0 sound, 1 damaged."""
    from bot.i18n import t
    from db.check import integrity_problems

    if settings.uses_postgres:
        print(
            database_refusal(settings, "check is SQLite's integrity check; PostgreSQL has its own"),
            file=sys.stderr,
        )
        return 2
    path = settings.database_path
    if not path.is_file():
        print(database_refusal(settings, f"there is no database at {path}"), file=sys.stderr)
        return 2
    problems = integrity_problems(path, quick=quick)
    check = "quick_check" if quick else "integrity_check"
    if not problems:
        print(t("service.cli.check-ok", None, path=path, check=check))
        return 0
    print(t("service.cli.check-failed", None, path=path, check=check, count=len(problems)))
    for problem in problems:
        print(f"  {problem}")
    return 1


async def _backup_postgres(settings: Settings, path: Path) -> int:
    """PostgreSQL to a SQLite file: a consistent snapshot of every row (``db.transfer``)."""
    from bot.i18n import t
    from db.backend import open_repository

    repo = await open_repository(settings.database_url, migrate_to_latest=False)
    try:
        await repo.backup(path)
        version = await repo.schema_version()
    finally:
        await repo.close()
    size = path.stat().st_size
    print(t("service.cli.backup-done", None, path=path, size=size, version=version))
    return 0


async def run_migrate_data(source: str, destination: str) -> int:
    """Copy every campaign from one store to another, then check each one on arrival.

    Both stores are migrated to the latest schema first; the destination must be empty.
    Each campaign is exported from both and the exports must be identical, and the copy's
    export must pass ``verify`` (the replay from seed and choices, or the receipts while
    the seed is still secret).
    """
    from bot.export import export_campaign, verify_export
    from bot.i18n import t
    from bot.rulesets import Registry
    from db.backend import open_repository, redact
    from db.repository import StorageError
    from db.transfer import transfer
    from engine.zero.loader import default_catalog

    src = await open_repository(source)
    try:
        dst = await open_repository(destination)
        try:
            try:
                report = await transfer(src, dst)
            except StorageError as exc:
                print(exc, file=sys.stderr)
                return 1
            async with dst.read() as tx:
                ids = [row.id for row in await tx.campaigns()]
            catalog = default_catalog()
            rulesets = Registry(catalog)
            problems: list[str] = []
            for campaign_id in ids:
                copied = await export_campaign(dst, rulesets, campaign_id)
                if copied != await export_campaign(src, rulesets, campaign_id):
                    problems.append(f"campaign {campaign_id}: the copy differs from the source")
                    continue
                verification = verify_export(copied, catalog)
                problems += [f"campaign {campaign_id}: {p}" for p in verification.problems]
        finally:
            await dst.close()
    finally:
        await src.close()
    for problem in problems:
        print(t("service.cli.verify-failed", None, where=problem), file=sys.stderr)
    print(
        t(
            "service.cli.data-migrated",
            None,
            source=redact(source),
            destination=redact(destination),
            rows=report.total,
            campaigns=len(ids),
            problems=len(problems),
        )
    )
    return 1 if problems else 0

"""What each command-line subcommand does; kept apart so ``__main__`` stays a parser."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bot.settings import Settings


def database_refusal(settings: Settings, problem: str) -> str:
    """The one line that stops a command because of the database DATABASE_URL names."""
    return f"Cannot use DATABASE_URL={settings.database_url}: {problem}."


def _database_problem(settings: Settings) -> str | None:
    """A damaged file or one from a newer release, as one line; checked before opening."""
    from db.check import startup_problem

    problem = startup_problem(settings.database_path)
    return None if problem is None else database_refusal(settings, problem)


async def run_bot(settings: Settings) -> int:
    from bot.client import SortieBot
    from bot.i18n import set_default_locale

    refusal = _database_problem(settings)
    if refusal is not None:
        print(refusal, file=sys.stderr)
        return 2
    set_default_locale(settings.default_locale)
    settings.database_path.parent.mkdir(parents=True, exist_ok=True)
    client = SortieBot(
        dev_guild_id=settings.dev_guild_id,
        database=str(settings.database_path),
        default_locale=settings.default_locale,
    )
    async with client:
        await client.start(settings.discord_token)
    return 0


def run_demo(
    settings: Settings, *, scenario: str | None, seed: int, out: str, ruleset: str = "carrier"
) -> int:
    """Play a whole campaign offline through the real services; write it to ``out``."""
    from bot.demo import run
    from bot.i18n import t
    from bot.service_model import ServiceError

    try:
        result = asyncio.run(run(scenario=scenario, seed=seed, out=Path(out), ruleset=ruleset))
    except ServiceError as error:
        print(error.message(None), file=sys.stderr)
        return 2
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


def run_verify(path: str) -> int:
    """Replay an export from its seed and choices; exit 0 when everything matches."""
    from bot.export import verify_file
    from bot.i18n import t
    from engine.loader import default_catalog

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
    from db.migrate import current_version, migrate
    from db.sqlite import SqliteRepository

    # A damaged file would take the migrations and fail later, mid-turn: refuse it now.
    refusal = _database_problem(settings)
    if refusal is not None:
        print(refusal, file=sys.stderr)
        return 2
    repo = await SqliteRepository.open(settings.database_path, migrate_to_latest=False)
    try:
        applied = await migrate(repo.connection)
        version = await current_version(repo.connection)
    finally:
        await repo.close()
    print(
        t(
            "service.cli.migrated",
            None,
            path=settings.database_path,
            version=version,
            applied=len(applied),
        )
    )
    return 0


async def run_backup(settings: Settings, path: str) -> int:
    """An online backup (SQLite backup API): safe while the bot is running."""
    from bot.i18n import t
    from db.backup import BackupError, backup_file

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

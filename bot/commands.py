"""What each command-line subcommand does; kept apart so ``__main__`` stays a parser."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bot.settings import Settings


async def run_bot(settings: Settings) -> int:
    from bot.client import SortieBot
    from bot.i18n import set_default_locale

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

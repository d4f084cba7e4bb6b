"""What each command-line subcommand does; kept apart so ``__main__`` stays a parser."""

from __future__ import annotations

import sys

from bot.settings import Settings


async def run_bot(settings: Settings) -> int:
    from bot.client import SortieBot
    from bot.i18n import set_default_locale

    set_default_locale(settings.default_locale)
    settings.database_path.parent.mkdir(parents=True, exist_ok=True)
    client = SortieBot(dev_guild_id=settings.dev_guild_id)
    async with client:
        await client.start(settings.discord_token)
    return 0


def run_demo(settings: Settings, *, scenario: str, seed: int, out: str) -> int:
    print("The offline demo is not built yet.", file=sys.stderr)
    return 2


def run_verify(path: str) -> int:
    print("Export verification is not built yet.", file=sys.stderr)
    return 2


async def run_migrate(settings: Settings) -> int:
    print("Database migrations are not built yet.", file=sys.stderr)
    return 2


async def run_backup(settings: Settings, path: str) -> int:
    print("Database backup is not built yet.", file=sys.stderr)
    return 2

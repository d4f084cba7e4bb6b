"""Command line: ``python -m bot [run|demo|verify|replay|migrate|backup|migrate-data|check]``."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence

import aiohttp
import discord

from bot import __version__
from bot.i18n import set_default_locale, t
from bot.settings import SettingsError, load_settings
from bot.stopping import Stopped, as_stopped, raise_on_stop_signals, restore, stoppable, tell
from db.repository import StorageError

BAD_TOKEN = "Discord refused the token in DISCORD_TOKEN: copy it again from the developer portal."
# What logging in fails with when Discord cannot be reached (aiohttp's connection errors
# are OSErrors); the database is opened before, so these are Discord's.
DISCORD_UNREACHABLE: tuple[type[BaseException], ...] = (
    aiohttp.ClientError,
    OSError,
    TimeoutError,
    discord.GatewayNotFound,
    discord.DiscordServerError,
)

NO_TOKEN = """\
No Discord token found, so the bot cannot connect to Discord.

  1. Create an application and a bot at https://discord.com/developers/applications
  2. Copy .env.example to .env and put the bot token after DISCORD_TOKEN=
  3. Run `python -m bot` again.

To see Sortie play a whole campaign offline, without Discord: python -m bot demo
"""


def default_ruleset() -> str:
    from bot.rulesets import DEFAULT

    return DEFAULT


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Sortie: play-by-post air wargame campaigns on Discord.",
    )
    parser.add_argument("--version", action="version", version=f"sortie {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.add_parser("run", help="connect to Discord and run the bot (the default)")
    demo = sub.add_parser("demo", help="play a whole campaign offline and write its images")
    demo.add_argument(
        "--ruleset", default=None, help=f"the game system (default {default_ruleset()})"
    )
    demo.add_argument(
        "--scenario", default=None, help="a scenario of the ruleset (default: its first)"
    )
    demo.add_argument("--seed", type=int, default=1942)
    demo.add_argument(
        "--locale", default="en", choices=("en", "fr"), help="the campaign's language (default en)"
    )
    demo.add_argument("--out", default="demo-out", help="folder for images and reports")
    verify = sub.add_parser("verify", help="replay an exported campaign and check it")
    verify.add_argument("export", help="path to an export JSON file")
    verify.add_argument(
        "--rules",
        action="store_true",
        help="check the finished campaign against its game's rules instead of replaying it",
    )
    replay = sub.add_parser(
        "replay", help="make one web page that replays a finished campaign turn by turn"
    )
    replay.add_argument("export", help="path to an export JSON file")
    replay.add_argument(
        "--out", default=None, help="the HTML file to write (default: the export's name, .html)"
    )
    sub.add_parser("migrate", help="apply pending database migrations")
    backup = sub.add_parser("backup", help="write an online backup of the database")
    backup.add_argument("path", help="where to write the backup file")
    check = sub.add_parser("check", help="check the database file for damage (read-only)")
    check.add_argument(
        "--quick", action="store_true", help="SQLite's quick_check instead of integrity_check"
    )
    move = sub.add_parser(
        "migrate-data", help="copy every campaign to another database (e.g. SQLite to PostgreSQL)"
    )
    move.add_argument("source", help="sqlite:///PATH or postgresql://… to copy from")
    move.add_argument("destination", help="an empty sqlite:///PATH or postgresql://… store")
    move.add_argument(
        "--replace",
        action="store_true",
        help="empty the destination first, if it is a Sortie database (after a failed copy)",
    )
    return parser


def main(argv: Sequence[str] | None = None, *, shared_start_up: bool = False) -> int:
    """``shared_start_up``: this process is the bot's own (``python -m bot``), whose worker
    processes may be forked from it (``bot.processes.share_start_up``); not a test's."""
    args = build_parser().parse_args(argv)
    command = args.command or "run"
    try:
        return _command(command, args, shared_start_up)
    except (Stopped, KeyboardInterrupt) as error:
        # Stopped before its work began (loading the game data), or a command with no close
        # of its own to wait for; the demo and a running bot say more themselves.
        stop = as_stopped(error)
        if command == "run":
            tell(f"Sortie: stopped ({stop.name}).")
            return 0  # an asked stop, as for the running bot
        tell(f"Sortie: {command} stopped ({stop.name}).")
        return stop.exit_code


def _command(command: str, args: argparse.Namespace, shared_start_up: bool = False) -> int:
    try:
        settings = load_settings()
    except SettingsError as exc:
        print(exc, file=sys.stderr)
        return 2
    set_default_locale(settings.default_locale)  # the operator's language for every line
    logging.basicConfig(
        level=settings.logging_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    from bot import commands as cli
    from bot.rulesets import DATA_ERRORS, Registry

    try:
        # A broken data file stops every subcommand with one line naming the file and entry.
        if shared_start_up and command == "run" and settings.discord_token.strip():
            # Built once and shared with the worker processes, forked from here before the
            # bot opens anything (``bot.processes.share_start_up``).
            from bot import processes

            processes.share_start_up()
        else:
            Registry()
    except DATA_ERRORS as exc:
        print(f"Game data error: {exc}", file=sys.stderr)
        return 2
    if command == "run":
        if not settings.discord_token.strip():
            print(NO_TOKEN, file=sys.stderr)
            return 2
        try:
            return asyncio.run(cli.run_bot(settings))
        except discord.LoginFailure:
            print(BAD_TOKEN, file=sys.stderr)
            return 2
        except StorageError as exc:  # e.g. a database from a newer release, found at open
            print(cli.database_refusal(settings, exc), file=sys.stderr)
            return 2
        except DISCORD_UNREACHABLE as exc:
            # No network, no DNS, Discord down: one line, and an exit systemd restarts.
            why = " ".join(str(exc).split())[:200] or type(exc).__name__
            print(t("service.cli.no-discord", None, why=why), file=sys.stderr)
            return 1
    if command == "demo":
        return cli.run_demo(
            settings,
            scenario=args.scenario,
            seed=args.seed,
            out=args.out,
            ruleset=args.ruleset,
            locale=args.locale,
        )
    if command == "verify":
        if args.rules:
            return cli.run_verify_rules(args.export)
        return cli.run_verify(args.export)
    if command == "replay":
        return cli.run_replay(args.export, args.out)
    if command == "migrate":
        try:
            return asyncio.run(stoppable(cli.run_migrate(settings)))
        except StorageError as exc:
            print(cli.database_refusal(settings, exc), file=sys.stderr)
            return 2
    if command == "check":
        return cli.run_check(settings, quick=args.quick)
    if command == "backup":
        try:
            return asyncio.run(stoppable(cli.run_backup(settings, args.path)))
        except StorageError as exc:
            print(cli.database_refusal(settings, exc), file=sys.stderr)
            return 2
    if command == "migrate-data":
        return asyncio.run(
            stoppable(cli.run_migrate_data(args.source, args.destination, replace=args.replace))
        )
    return 2


def main_or_stop(argv: Sequence[str] | None = None, *, shared_start_up: bool = False) -> int:
    """``main``, an unforeseen error ending the process at once with exit 1 and its cause.

    Whatever fails, at start-up or later, the process must end (each command closes its
    database on the way out, and ``db.thread_exit`` stops a connection left open) and say
    why in the log, so that systemd or compose restarts it rather than wait on it.
    """
    # Ctrl-C, SIGTERM and SIGHUP stop a command as ``Stopped``, one line and no traceback.
    handlers = raise_on_stop_signals()
    try:
        return main(argv, shared_start_up=shared_start_up)
    except Exception as exc:
        logging.getLogger("bot").critical(
            "Sortie stopped on an unexpected error (%s: %s)",
            type(exc).__name__,
            exc,
            exc_info=True,
        )
        return 1
    finally:
        # The odds previews' worker processes end with the command, however it ended (a
        # crash, Ctrl-C); only a command that asked for odds has any.
        try:
            for name in ("bot.odds", "bot.drawing"):  # previews' and pictures' workers
                workers = sys.modules.get(name)
                if workers is not None:
                    workers.shut_down()
        finally:
            restore(handlers)


if __name__ == "__main__":
    sys.exit(main_or_stop(shared_start_up=True))

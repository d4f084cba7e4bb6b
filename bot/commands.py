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
    from db.repository import Repository


def database_refusal(settings: Settings, problem: str | BaseException) -> str:
    """The one line that stops a command because of the database DATABASE_URL names (its
    password left out: the line goes to the terminal and the service's log)."""
    from db.backend import redact

    return storage_refusal(f"DATABASE_URL={redact(settings.database_url)}", problem)


def _say(key: str, **params: object) -> None:
    """One line of a command's report on stdout, in the operator's language."""
    from bot.i18n import t

    print(t(key, None, **params))


async def _opened(url: str) -> Repository | None:
    """The database at ``url``, or None once the refusal is printed (its password hidden)."""
    from db.backend import open_repository, redact
    from db.repository import StorageError

    try:
        return await open_repository(url)
    except StorageError as exc:
        print(storage_refusal(redact(url), exc), file=sys.stderr)
        return None


def storage_refusal(where: str, problem: str | BaseException) -> str:
    """ "Cannot use <where>: <problem>.", the problem in the operator's language when the
    storage layer gave it a key (``service.storage.<key>``)."""
    from bot.i18n import t

    words = str(problem)
    key = getattr(problem, "key", None)
    if key is not None:
        words = t(f"service.storage.{key}", None, **getattr(problem, "params", {}))
    return t("service.storage.cannot-use", None, where=where, problem=words.rstrip("."))


def _database_problem(settings: Settings) -> str | None:
    """A damaged file or one from a newer release, as one line; checked before opening."""
    from db.check import startup_problem

    if not settings.database_url.startswith("sqlite:///"):
        return None  # PostgreSQL checks itself on connection
    problem = startup_problem(settings.database_path)
    return None if problem is None else database_refusal(settings, problem)


async def run_bot(settings: Settings) -> int:
    from bot import collector, heap
    from bot.client import build_bot
    from bot.clock import SystemClock
    from bot.i18n import set_default_locale
    from bot.runtime import open_services

    refusal = _database_problem(settings)
    if refusal is not None:
        print(refusal, file=sys.stderr)
        return 2
    set_default_locale(settings.default_locale)
    collector.install()  # no full collection walks the caches' contents again and again
    heap.install()  # the C heap's free pages given back whenever the bot goes quiet
    # The database is opened (and migrated) before logging in to Discord: a server that
    # cannot be reached, or a database that cannot be used, is said at once, and the bot
    # never shows online with nothing behind it. The bot closes it when it closes.
    services = await open_services(
        settings.database_url, SystemClock(), default_locale=settings.default_locale
    )
    try:
        client = build_bot(settings, services=services)  # sharded when SHARD_COUNT is set
    except BaseException:
        await services.close()
        raise
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
    ruleset: str | None = None,
    locale: str = "en",
) -> int:
    """Play a whole campaign offline through the real services; write it to ``out``."""
    from bot.demo import run
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
    _say(
        "service.cli.demo-done",
        path=result.out,
        files=result.files,
        scenario=result.scenario,
        seed=seed,
    )
    if not result.verified:
        for problem in result.problems:
            print(problem, file=sys.stderr)
        return 1
    return 0


def run_verify_rules(path: str) -> int:
    """Check a finished campaign against its game's rules, from its export alone: one line
    per violation citing its rule and exit 1, or ``OK: N checks passed`` and exit 0."""
    from bot.export import Unreadable, read_export, rules_shape_problem
    from bot.i18n import t
    from bot.rulesets import Registry

    try:
        export = read_export(Path(path))
    except Unreadable as exc:
        _say("rulecheck.cli.refused", why=str(exc)[:300])
        return 1
    # The shape first: the checks read the file as it is, so a value of the wrong type
    # would pass them unseen or stop them half-way.
    rulesets = Registry()
    shape = rules_shape_problem(export, rulesets)
    if shape is not None:
        _say("rulecheck.cli.refused", why=" ".join(shape.split())[:300])
        return 1
    ruleset = str(export["campaign"]["ruleset"])
    result = rulesets.get(ruleset).rules.rules_check(export) if ruleset in rulesets else None
    if result is None:
        why = t("rulecheck.cli.no-check", None, ruleset=repr(ruleset))
        _say("rulecheck.cli.refused", why=why)
        return 1
    if result.refused is not None:
        _say("rulecheck.cli.refused", why=result.refused)
        return 1
    for problem in result.problems:
        print(problem)
    if result.problems:
        return 1
    _say("rulecheck.cli.ok", checks=result.passed)
    return 0


def run_verify(path: str) -> int:
    """Replay an export from its seed and choices; exit 0 when everything matches."""
    from bot.export import verify_file

    result = verify_file(Path(path))
    if result.unusable:
        _say("service.cli.verify-refused", why=result.problems[0])
        return 1
    if not result.ok:
        for problem in result.problems:
            _say("service.cli.verify-failed", where=problem)
        return 1
    if not result.replayed:
        _say("service.cli.verify-receipts-only", receipts=result.receipts)
    else:
        _say(
            "service.cli.verify-ok",
            rounds=result.rounds,
            events=result.events,
            receipts=result.receipts,
        )
    if result.lockers < result.locks:
        # Said plainly: an OK that covers less than the whole file must say what it leaves.
        _say(
            "service.cli.verify-lockers", unbound=result.locks - result.lockers, locks=result.locks
        )
    return 0


def run_replay(path: str, out: str | None) -> int:
    """Write the page of a finished campaign's export; exit 1 with one line when the file
    cannot be replayed (unreadable, not verified, a campaign still running)."""
    from bot.export import Unreadable, read_export
    from bot.i18n import t
    from bot.replay import ReplayRefused, make_page

    source = Path(path)
    target = Path(out) if out else source.with_suffix(".html")
    try:
        export = read_export(source)
        made = make_page(export)
    except Unreadable as exc:
        print(t("replay.cli.refused", None, why=exc), file=sys.stderr)
        return 1
    except ReplayRefused as exc:
        print(t("replay.cli.refused", None, why=exc.words(None)), file=sys.stderr)
        return 1
    data = made.html.encode("utf-8")
    try:
        target.write_bytes(data)
    except OSError as exc:
        print(t("replay.cli.cannot-write", None, path=target, why=exc), file=sys.stderr)
        return 1
    size = round(len(data) / 1024)
    turns = t("replay.count.turn", None, count=made.turns)
    _say("replay.cli.written", path=target, size=size, turns=turns, checked=made.checked)
    return 0


async def run_migrate(settings: Settings) -> int:
    """Create the database if needed and apply every pending migration."""
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
    _say("service.cli.migrated", path=where, version=version, count=applied)
    return 0


async def run_backup(settings: Settings, path: str) -> int:
    """An online backup (SQLite backup API): safe while the bot is running."""
    from db.backup import BackupError, backup_file

    if settings.uses_postgres:
        return await _backup_postgres(settings, Path(path))
    try:
        result = await asyncio.to_thread(backup_file, settings.database_path, Path(path))
    except BackupError as exc:
        print(exc, file=sys.stderr)
        return 1
    _say(
        "service.cli.backup-done",
        path=result.path,
        size=result.size_bytes,
        version=result.schema_version,
    )
    return 0


def run_check(settings: Settings, *, quick: bool = False) -> int:
    """SQLite's integrity_check (or quick_check) on the database: 0 sound, 1 damaged."""
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
        _say("service.cli.check-ok", path=path, check=check)
        return 0
    _say("service.cli.check-failed", path=path, check=check, count=len(problems))
    for problem in problems:
        print(f"  {problem}")
    return 1


async def _backup_postgres(settings: Settings, path: Path) -> int:
    """PostgreSQL to a SQLite file: a consistent snapshot of every row (``db.transfer``)."""
    from db.backend import open_repository

    repo = await open_repository(settings.database_url, migrate_to_latest=False)
    try:
        await repo.backup(path)
        version = await repo.schema_version()
    finally:
        await repo.close()
    size = path.stat().st_size
    _say("service.cli.backup-done", path=path, size=size, version=version)
    return 0


async def run_migrate_data(source: str, destination: str, *, replace: bool = False) -> int:
    """Copy every campaign from one store to another, then check each one on arrival.

    Both stores are migrated to the latest schema first; the destination must be empty
    (``replace``: emptied first, in the copy's transaction). Before anything is committed,
    each campaign is exported from the copy and from the snapshot it was copied from, and
    the two must be identical and the copy's export must pass ``verify`` (the replay from
    seed and choices, or the receipts while the seed is still secret); and the source must
    not have changed meanwhile (a bot still running on it), or what it wrote after the
    snapshot would be left behind. Any of these leaves the destination as it was.
    """
    from bot.export import export_in, verify_export
    from bot.i18n import t
    from bot.rulesets import Registry
    from db.backend import redact
    from db.repository import StorageError, Transaction
    from db.transfer import SourceChanged, marks, transfer

    rulesets = Registry()
    problems: list[str] = []
    ids: list[int] = []

    async def check(src: Transaction, dst: Transaction) -> None:
        for row in await dst.campaigns():
            ids.append(row.id)
            copied = await export_in(dst, rulesets, row.id)
            if copied != await export_in(src, rulesets, row.id):
                problems.append(f"campaign {row.id}: the copy differs from the source")
                continue
            verification = verify_export(copied, rulesets)
            problems.extend(f"campaign {row.id}: {p}" for p in verification.problems)
        async with src_repo.read() as fresh:
            if await marks(src_repo, fresh.raw) != await marks(src_repo, src.raw):
                raise SourceChanged("the source changed during the copy", key="source-changed")
        if problems:
            raise StorageError("the copy differs", key="copy-failed")

    opened = await _opened(source)
    if opened is None:
        return 2
    src_repo = opened  # named once opened: ``check`` reads it
    try:
        dst_repo = await _opened(destination)
        if dst_repo is None:
            return 2
        try:
            report = await transfer(src_repo, dst_repo, replace=replace, before_commit=check)
        except StorageError as exc:
            for problem in problems:
                print(t("service.cli.verify-failed", None, where=problem), file=sys.stderr)
            where = redact(destination)
            if exc.key in ("source-changed", "copy-failed", "not-empty"):
                words = t(
                    f"service.storage.{exc.key}",
                    None,
                    destination=where,
                    count=len(problems),
                    **exc.params,
                )
                print(words, file=sys.stderr)
            else:
                print(storage_refusal(where, exc), file=sys.stderr)
            return 1
        finally:
            await dst_repo.close()
    finally:
        await src_repo.close()
    if report.removed:
        _say("service.storage.replaced", destination=redact(destination), rows=report.removed)
    _say(
        "service.cli.data-migrated",
        source=redact(source),
        destination=redact(destination),
        rows=t("service.cli.rows-copied", None, count=report.total),
        campaigns=t("service.cli.campaigns-checked", None, count=len(ids)),
        problems=t("service.cli.problems-found", None, count=0),
    )
    return 0

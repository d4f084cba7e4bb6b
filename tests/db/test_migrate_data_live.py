"""``migrate-data`` with the bot still running on the source (issue 30, item 4): a source
that changed during the copy is said in one line and the destination is left as it was;
a retry after stopping the bot works; ``--replace`` empties a Sortie destination first."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import bot.export
from bot.clock import ManualClock
from bot.commands import run_migrate_data
from bot.demo import SeededTokens
from db.backend import open_repository
from db.transfer import marks
from engine.zero.loader import default_catalog
from tests.db.test_transfer import played
from tests.service.support import CHANNEL, GM, GUILD, Env

CLOCK = ManualClock(datetime(2025, 6, 2, 12, 0, tzinfo=UTC))


async def _new_campaign(url: str, channel: int) -> None:
    """What a bot still running does meanwhile: a server creates a campaign."""
    env = await Env(url, default_catalog(), CLOCK, SeededTokens(5)).open()
    try:
        await env.svc.create_campaign(GUILD, channel, GM, "midway")
    finally:
        await env.close()


async def _rows(url: str) -> dict[str, tuple[int, int | None]]:
    """Rows and newest key per table; events by their newest number only (SQLite keeps a
    run of events in one row, PostgreSQL one per row)."""
    repo = await open_repository(url)
    try:
        async with repo.read() as tx:
            found = await marks(repo, tx.raw)
    finally:
        await repo.close()
    count, newest = found["events"]
    found["events"] = (min(count, 1), newest)
    return found


async def test_a_source_written_during_the_copy_leaves_the_destination_as_it_was(
    tmp_path: Path,
    db_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = f"sqlite:///{tmp_path / 'bot.db'}"
    await played(source)
    empty = await _rows(db_url)
    assert all(count == 0 for count, _ in empty.values())
    checked = bot.export.verify_export
    writes = [CHANNEL + 1]

    def verify_while_the_bot_writes(export: Any, catalog: Any) -> Any:
        # The bot, still running on the source, creates a campaign mid-copy (once).
        if writes:
            import asyncio
            import threading

            channel = writes.pop()
            worker = threading.Thread(target=asyncio.run, args=(_new_campaign(source, channel),))
            worker.start()
            worker.join()
        return checked(export, catalog)

    monkeypatch.setattr(bot.export, "verify_export", verify_while_the_bot_writes)
    assert await run_migrate_data(source, db_url) == 1
    said = capsys.readouterr().err
    assert "the source changed during the copy: stop the bot and run again" in said, said
    assert said.count("\n") == 1, said
    assert await _rows(db_url) == empty  # nothing was written

    # The bot stopped: the copy goes through, the campaign made meanwhile included.
    assert await run_migrate_data(source, db_url) == 0
    capsys.readouterr()
    copied = await _rows(db_url)
    assert copied == await _rows(source) and copied["campaigns"][0] == 3

    # A second run is refused, saying how to replace the copy; --replace does it.
    assert await run_migrate_data(source, db_url) == 1
    refused = capsys.readouterr().err
    assert "is not empty" in refused and "--replace" in refused, refused
    assert await _rows(db_url) == copied
    await _new_campaign(source, CHANNEL + 2)
    assert await run_migrate_data(source, db_url, replace=True) == 0
    out = capsys.readouterr().out
    assert "emptied first (--replace)" in out, out
    assert await _rows(db_url) == await _rows(source)

"""A database written before the ruleset seam (schema 2, main at 03aa7dc) opens, migrates
and finishes its campaign: mid turn 2, the Japanese locked, the Allies drafted."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

from bot.clock import ManualClock
from bot.demo import SeededTokens
from bot.export import verify_export
from db.migrate import available
from engine.zero.catalog import Catalog
from tests.service.support import ALL, JAP, Env

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "pre-rulesets-coral-sea-t2.db"


async def test_an_old_database_migrates_and_its_campaign_plays_to_the_end(
    tmp_path: Path, catalog: Catalog
) -> None:
    path = tmp_path / "old.db"
    shutil.copy(FIXTURE, path)
    clock = ManualClock(datetime(2025, 5, 4, 13, 0, tzinfo=UTC))
    env = await Env(path, catalog, clock, SeededTokens(7)).open()
    try:
        assert await env.repo.schema_version() == available()[-1].version
        cid = 1
        status = await env.svc.status(cid)
        assert status.round is not None
        assert (status.round.turn, status.round.kind) == (2, "orders")
        assert status.locked == {"japanese": True, "allied": False}
        # The Allied commander's drafts survived; locking them completes the round.
        panel = await env.svc.panel(cid, ALL)
        assert not panel.missing
        assert (await env.svc.lock(cid, ALL, panel.round_id)).resolved
        rounds = 0
        while (status := await env.svc.status(cid)).campaign.status != "finished":
            assert status.round is not None and rounds < 40
            await env.play_round(cid)
            rounds += 1
        export = await env.svc.export(cid)
        check = verify_export(export)
        # Its first turn was flown by the old rules: every receipt and the seed still check,
        # and verify says plainly why it does not replay, instead of reporting a mismatch.
        assert check.receipts > 0 and not check.replayed
        assert len(check.problems) == 1 and "rules version 1" in check.problems[0]
        turns = {r["turn"] for r in export["rounds"] if r["status"] == "resolved"}
        assert min(turns) == 1 and max(turns) >= 3
        worker = env.worker()
        await worker.deliver_due()
        kinds = env.sender.kinds()
        assert "campaign-ended" in kinds and "report" in kinds
        players = {p.user_id: p.side for p in (await env.svc.info(cid)).players}
        assert players == {JAP: "japanese", ALL: "allied"}
    finally:
        await env.close()

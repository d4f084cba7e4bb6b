"""The campaign card's switches are read from the history while the campaign is set up,
and kept once it has started (they can no longer change): the card its end refreshes, on
the Lock that finishes it, reads no event for them (issue 29). Counted in statements,
never timed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from bot.service_notify import refresh_card
from bot.service_settings import SettingsChange
from db.sql import SqlTransaction
from tests.service.support import CHANNEL, GM, GUILD, Env, pace
from tests.service.wings_play import CENTRAL, ENTENTE


async def test_a_started_campaigns_card_reads_no_event(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    read: list[str] = []
    run = SqlTransaction._all

    async def statement(self: SqlTransaction, sql: str, params: Sequence[Any] = ()) -> Any:
        read.append(sql)
        return await run(self, sql, params)

    monkeypatch.setattr(SqlTransaction, "_all", statement)
    info = await env.svc.create_campaign(
        GUILD, CHANNEL, GM, "wings-1917-east", pace(), seed="s2", ruleset="wings",
        switches={"front": "western"},
    )  # fmt: skip
    await env.svc.join(info.id, ENTENTE, "entente")
    await env.svc.join(info.id, CENTRAL, "central")
    worker = env.worker()  # one builder for the whole campaign, as the bot's

    async def card() -> tuple[str, int]:
        """The card as last posted, and the events statements its delivery ran."""
        del read[:]
        await worker.deliver_due()
        cards = [a.text for _, a, _ in env.sender.sent if a.kind == "campaign-card"]
        return cards[-1], sum("FROM events" in sql for sql in read)

    text, events = await card()
    assert "front=western" in text and events
    # Before the start the GM may change them: the card shows the change.
    await env.svc.change_settings(cid := info.id, GM, SettingsChange(switches="front=eastern"), "x")
    text, events = await card()
    assert "front=eastern" in text and "front=western" not in text and events
    await env.svc.start(cid, GM)
    text, events = await card()
    assert "front=eastern" in text
    async with env.repo.transaction() as tx:
        campaign = await tx.campaign(cid)
        assert campaign is not None
        await refresh_card(tx, campaign, 0)
    text, events = await card()
    assert "front=eastern" in text and "front=western" not in text
    assert events == 0

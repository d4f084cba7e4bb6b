"""Typed text the stores cannot hold or Discord cannot show (issue 30, item 6): a NUL in a
GM's reason (PostgreSQL refuses it in any text column), a side 6,000 characters long."""

from __future__ import annotations

import pytest

from bot.limits import MESSAGE_LIMIT, plain
from bot.service_model import ServiceError
from tests.service.support import ALL, GM, Env

NUL_REASON = "spoiler\x00 @everyone\x07"


async def test_a_reason_with_a_nul_is_kept_without_it_on_every_store(env: Env) -> None:
    cid = await env.campaign()
    request = await env.svc.ask(cid, GM, "kick", {"user": ALL}, NUL_REASON)
    await env.svc.answer(cid, request, GM, confirm=True)
    await env.svc.kick(cid, GM, ALL, NUL_REASON)
    await env.svc.pause(cid, GM, NUL_REASON)
    await env.svc.end(cid, GM, NUL_REASON)
    async with env.repo.read() as tx:
        reasons = [a.why for a in await tx.audit(cid)]
        campaign = await tx.campaign(cid)
    assert "spoiler @everyone" in reasons
    assert not any("\x00" in why for why in reasons)
    assert campaign is not None and campaign.end_reason == "spoiler @everyone"


async def test_a_giant_side_is_refused_in_few_words(env: Env) -> None:
    cid = await env.campaign()
    with pytest.raises(ServiceError) as refused:
        await env.svc.side_check(cid, "allied" * 1000, "en")
    text = refused.value.message("fr")
    assert len(text) < MESSAGE_LIMIT // 4 and "japanese, allied" in text
    assert await env.svc.side_check(cid, "allied", "fr") == "Alliés"


def test_plain_keeps_lines_and_drops_controls() -> None:
    assert plain("a\x00b\nc\td\x1b") == "ab\nc\td"
    assert plain("déjà vu ✈") == "déjà vu ✈"

"""Every refusal and notice the service can produce reads as a sentence in both languages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import keys
from bot.service_model import ServiceError
from tests.service.support import GM, JAP, Env, pace

BOT = Path(__file__).resolve().parents[2] / "bot"


def _codes(pattern: str) -> set[str]:
    found: set[str] = set()
    for path in [*BOT.glob("*.py"), *(BOT.parent / "cogs").glob("*.py")]:
        found |= set(re.findall(pattern, path.read_text(encoding="utf-8")))
    return found


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_error_and_notice_is_translated(lang: str) -> None:
    known = keys(lang)
    errors = _codes(r'ServiceError\(\s*"([a-z-]+)"')
    notices = _codes(r'gm_notice\(\s*tx,\s*\w+,\s*"([a-z-]+)"')
    assert errors and notices
    missing = [f"service.error.{c}" for c in errors if f"service.error.{c}" not in known]
    missing += [f"service.notice.{n}" for n in notices if f"service.notice.{n}" not in known]
    assert missing == []


def test_error_messages_fill_their_blanks() -> None:
    error = ServiceError("illegal-option", reason="after-close", field="fleet_tactic", value="long")
    assert error.message("en") == "long cannot be chosen for Fleet Tactic: not after Close Range."
    assert error.message("fr") == (
        "long ne peut pas être choisi pour Tactique de Flotte\u00a0: pas après Distance Réduite."
    )
    incomplete = ServiceError("incomplete", missing=["flight_ops", "doctrine"])
    assert incomplete.message("en") == "Not locked: choose Flight Ops, Doctrine first."


async def test_gm_peek_follows_the_campaign_setting(env: Env) -> None:
    cid = await env.campaign()
    with pytest.raises(ServiceError) as hidden:
        await env.svc.peek(cid, GM)
    assert hidden.value.code == "secrets-hidden"
    other = await env.svc.create_campaign(1, 999, GM, "midway", pace(gm_sees_secrets=True))
    await env.svc.join(other.id, JAP, "japanese")
    await env.svc.join(other.id, 22, "allied")
    await env.svc.start(other.id, GM)
    await env.fill(other.id, JAP)
    drafts = await env.svc.peek(other.id, GM)
    assert set(drafts[next(iter(drafts))]) == {"fleet_tactic", "flight_ops", "doctrine"}

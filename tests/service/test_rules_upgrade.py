"""A campaign begun under older rules is told, once, when a release plays newer ones."""

from __future__ import annotations

import pytest

from bot.announce import AnnouncementBuilder
from bot.logtext import describe
from bot.rulesets import Registry
from tests.service.support import GM, Env


def _carrier_rules(env: Env) -> type:
    return type(Registry().get("carrier").rules)


async def _upgrade_events(env: Env, cid: int) -> list[dict[str, object]]:
    async with env.repo.read() as tx:
        return [e.data for e in await tx.events(cid) if e.kind == "rules-upgraded"]


async def test_same_rules_say_nothing_at_start(env: Env) -> None:
    cid = await env.campaign()
    await env.restart()
    assert await _upgrade_events(env, cid) == []
    assert "gm-notice" not in await env.outbox_kinds(cid)


async def test_newer_rules_are_announced_once_and_logged(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    cid = await env.campaign()
    await env.play_round(cid)
    begun = _carrier_rules(env).version
    monkeypatch.setattr(_carrier_rules(env), "version", "99")

    await env.restart()
    await env.restart()  # a second start (or a second process) does not tell it again

    events = await _upgrade_events(env, cid)
    assert events == [{"ruleset": "carrier", "old": begun, "new": "99"}]
    async with env.repo.read() as tx:
        notices = [r for r in await tx.outbox(cid) if r.kind == "gm-notice"]
        campaign = await tx.campaign(cid)
    assert len(notices) == 1 and notices[0].payload["notice"] == "rules-upgraded"
    assert campaign is not None
    text = (await AnnouncementBuilder(env.repo, env.clock).build(notices[0])).text
    assert f"rules version {begun}" in text and "version 99" in text and "turn 1" in text

    english = describe("rules-upgraded", events[0], "en")
    french = describe("rules-upgraded", events[0], "fr")
    assert "version 99" in english and f"version {begun}" in english
    assert "version 99" in french and french != english

    # A later release again: told from the version it last ran under.
    monkeypatch.setattr(_carrier_rules(env), "version", "100")
    await env.restart()
    assert [e["old"] for e in await _upgrade_events(env, cid)] == [begun, "99"]


async def test_finished_campaigns_are_left_alone(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    cid = await env.campaign()
    await env.svc.end(cid, GM, "done")
    monkeypatch.setattr(_carrier_rules(env), "version", "99")
    await env.restart()
    assert await _upgrade_events(env, cid) == []

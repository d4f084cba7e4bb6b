"""The first mission's briefing is in the campaign log from the moment the campaign exists:
players read its weather and time of day before they program a card, and ``verify`` replays
it like any round's events."""

from __future__ import annotations

import copy

from bot.export import verify_export
from engine.zero.catalog import Catalog
from tests.service.support import CHANNEL, GM, GUILD, Env, pace
from tests.service.wings_play import finish_and_verify, lock_all, log_lines, start_wings


async def test_the_first_briefing_is_logged_before_the_first_turn(
    env: Env, catalog: Catalog
) -> None:
    info = await env.svc.create_campaign(
        GUILD, CHANNEL, GM, "wings-1917-front", pace(), seed="brief", ruleset="wings"
    )
    assert "Switches" not in await env.svc.card(info.id, "en")  # created without any
    lines = await log_lines(env, info.id, oldest_first=True)
    briefed = [line for line in lines if line.startswith("Mission 1 briefed")]
    assert len(briefed) == 1, lines
    assert "weather" in briefed[0]
    # The period bonus and the enemy's major objective are told at the set-up too, once.
    assert sum(line.startswith("Period bonus") for line in lines) == 1, lines
    assert sum(line.startswith("Objective: the Central Powers") for line in lines) == 1, lines


async def test_the_briefing_is_told_once_and_replays(env: Env, catalog: Catalog) -> None:
    cid = await start_wings(env, "brief-once")
    await lock_all(env, cid)
    lines = await log_lines(env, cid)
    assert sum(line.startswith("Mission 1 briefed") for line in lines) == 1, lines
    await finish_and_verify(env, cid, catalog)
    # Every mission flown (the campaign may end early) is briefed in the log exactly once.
    lines = await log_lines(env, cid)
    flown = [line for line in lines if line.startswith("Mission ") and " debriefed" in line]
    assert len(flown) >= 2
    for number in range(1, len(flown) + 1):
        assert sum(line.startswith(f"Mission {number} briefed") for line in lines) == 1


async def test_a_forged_briefing_fails_verify(env: Env, catalog: Catalog) -> None:
    cid = await start_wings(env, "brief-forged")
    await finish_and_verify(env, cid, catalog)  # the seed is out: verify replays
    export = await env.svc.export(cid)
    forged = copy.deepcopy(export)
    briefing = next(
        e for e in forged["events"] if e["kind"] == "mission-briefed" and e["round_id"] is None
    )
    briefing["data"]["weather"] = "heavy" if briefing["data"]["weather"] != "heavy" else "clear"
    check = verify_export(forged)
    assert not check.ok
    assert any("set-up" in problem for problem in check.problems), check.problems

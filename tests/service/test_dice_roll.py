"""``/roll`` (issue 28 point 4): the game's own dice rolled for the table, logged, and
checked by verify from the export once the seed is revealed."""

from __future__ import annotations

import copy

import pytest

from bot.export import verify_export
from bot.logtext import describe
from bot.service_model import Pace, ServiceError
from tests.service.support import CHANNEL, GM, GUILD, Env

TABLE = 33  # anyone at the table, not even a player


async def _rolls(env: Env, cid: int) -> list[object]:
    async with env.repo.transaction() as tx:
        return [e for e in await tx.events(cid) if e.kind == "dice-rolled"]


async def _memoir(env: Env) -> int:
    info = await env.svc.create_campaign(
        GUILD, CHANNEL, GM, "western-1944", Pace(), seed="test-seed", ruleset="memoir44"
    )
    return info.id


async def test_a_roll_is_logged_with_its_faces_and_verified(env: Env) -> None:
    cid = await _memoir(env)
    first = await env.svc.roll(cid, TABLE, 3)
    second = await env.svc.roll(cid, TABLE, 3)
    assert len(first["faces"]) == 3 and first["index"] != second["index"]
    assert all(face.startswith("m44-") for face in first["faces"])
    line = describe("dice-rolled", first, "fr")
    assert "lance" in line and line.count(",") == 2 and "m44-" not in line
    logged = await _rolls(env, cid)
    assert [e.data["faces"] for e in logged] == [first["faces"], second["faces"]]  # type: ignore[attr-defined]
    await env.svc.end(cid, GM, "test")
    export = await env.svc.export(cid)
    check = verify_export(export)
    assert check.ok and check.replayed, check.problems
    # A die changed in the file is caught.
    forged = copy.deepcopy(export)
    event = next(e for e in forged["events"] if e["kind"] == "dice-rolled")
    faces = event["data"]["faces"]
    faces[0] = "m44-star" if faces[0] != "m44-star" else "m44-flag"
    problems = verify_export(forged).problems
    assert any("dice differ" in p for p in problems), problems


async def test_a_game_without_dice_refuses(env: Env) -> None:
    cid = await env.campaign()  # the carrier campaign: cards, no dice
    with pytest.raises(ServiceError) as refused:
        await env.svc.roll(cid, TABLE, 2)
    assert refused.value.code == "no-dice"
    assert not await _rolls(env, cid)


async def test_a_count_out_of_range_changes_nothing(env: Env) -> None:
    cid = await _memoir(env)
    for count in (0, 13):
        with pytest.raises(ServiceError) as refused:
            await env.svc.roll(cid, TABLE, count)
        assert refused.value.code == "dice-count"
    assert not await _rolls(env, cid)

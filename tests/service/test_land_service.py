"""A whole land campaign through the real service, outbox and export on a SQLite file.

The land ruleset plugs into the seam with only its registry line: this plays Burma from
creation to the end (two players on the Japanese team, one Allied), delivers everything
the outbox holds, and checks the export replays and verifies.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.demo import run
from bot.export import after_action_markdown, verify_export
from tests.service.support import ALL, CHANNEL, GM, GUILD, JAP, Env, pace

WINGMAN = 33  # a second Japanese player (24.43: teams of one or more)


async def test_whole_land_campaign_through_the_service(env: Env) -> None:
    scenarios = env.svc.rulesets.get("land").rules.scenarios()
    assert "burma-dec41-jan42" in scenarios
    info = await env.svc.create_campaign(
        GUILD, CHANNEL, GM, "burma-dec41-jan42", pace(), seed="land-seed", ruleset="land"
    )
    await env.svc.join(info.id, JAP, "japanese")
    await env.svc.join(info.id, WINGMAN, "japanese")
    await env.svc.join(info.id, ALL, "allied")
    await env.svc.start(info.id, GM)
    worker = env.worker()
    # The second Japanese player sees the team's decisions (the commander locks them).
    team_panel = await env.svc.panel(info.id, WINGMAN)
    assert {d.field for d in team_panel.decisions} == {"resource", "doctrine"}
    picker = random.Random(5)
    used: dict[int, list[str]] = {JAP: [], ALL: []}
    rounds = 0
    while True:
        await worker.deliver_due()
        status = await env.svc.status(info.id)
        if status.campaign.status == "finished":
            break
        assert status.round is not None and status.round.kind == "mission"
        for user in (JAP, ALL):
            panel = await env.svc.panel(info.id, user)
            fields = {d.field: d for d in panel.decisions}
            assert set(fields) == {"resource", "doctrine"}
            # Once used, a resource is never offered again (24.53).
            offered = {o.id for o in fields["resource"].options}
            assert not offered & set(used[user])
            for decision in panel.decisions:
                choice = picker.choice(decision.options).id
                if decision.field == "resource" and choice != "none":
                    used[user].append(choice)
                await env.svc.draft(info.id, user, panel.round_id, decision.field, choice)
            await env.svc.lock(info.id, user, panel.round_id)
        rounds += 1
        assert rounds <= 6
    assert rounds == 6
    await worker.deliver_due()
    sent = env.sender.sent
    texts = [a.text for t, a, _ in sent if t.kind == "channel"]
    assert any("Mission 6" in text for text in texts)
    images = [name for t, a, _ in sent for name, _ in a.images]
    assert sum(1 for name in images if name.startswith("mission-")) == 6

    export = await env.svc.export(info.id)
    assert export["campaign"]["ruleset"] == "land"
    check = verify_export(export)
    assert check.ok and check.replayed, check.problems
    report = after_action_markdown(export)
    assert "## Turn 6" in report and "Mission 6" in report
    final = await env.svc.status(info.id)
    assert final.campaign.status == "finished"


async def _land(env: Env) -> int:
    return await env.campaign("malaya-dec41", pace(), ruleset="land", seed="land-deadline")


async def _lock_first(env: Env, cid: int, user: int, resource: str | None = None) -> None:
    panel = await env.svc.panel(cid, user)
    for decision in panel.decisions:
        choice = decision.options[0].id
        if decision.field == "resource" and resource is not None:
            choice = resource
        await env.svc.draft(cid, user, panel.round_id, decision.field, choice)
    await env.svc.lock(cid, user, panel.round_id)


async def test_missed_deadline_flies_with_no_resource(env: Env, clock: ManualClock) -> None:
    cid = await _land(env)
    panel = await env.svc.panel(cid, ALL)
    spare = next(o.id for o in panel.decisions[0].options if o.id != "none")
    await _lock_first(env, cid, JAP)
    await env.svc.draft(cid, ALL, panel.round_id, "resource", spare)  # drafted, never locked
    clock.advance(days=1)
    result = await env.svc.tick()
    assert (result.deadlines, result.resolved) == (1, 1)
    status = await env.svc.status(cid)
    assert status.round is not None and status.round.turn == 2
    # The default is "no resource": the drafted one is still there to spend.
    later = await env.svc.panel(cid, ALL)
    resource = next(d for d in later.decisions if d.field == "resource")
    assert spare in {o.id for o in resource.options}


async def test_rollback_replays_and_the_export_verifies(env: Env) -> None:
    cid = await _land(env)
    first = await env.svc.status(cid)
    await _lock_first(env, cid, JAP, "J1")
    await _lock_first(env, cid, ALL)
    await _lock_first(env, cid, JAP)
    await _lock_first(env, cid, ALL)
    info = await env.svc.rollback(cid, GM, 1, "the Japanese meant another resource")
    assert (info.turn, info.kind) == (1, "mission")
    again = await env.svc.status(cid)
    assert again.view == first.view  # the same target, nothing used
    panel = await env.svc.panel(cid, JAP)
    resource = next(d for d in panel.decisions if d.field == "resource")
    assert "J1" in {o.id for o in resource.options}
    picker = random.Random(1)
    while (await env.svc.status(cid)).campaign.status != "finished":
        for user in (JAP, ALL):
            panel = await env.svc.panel(cid, user)
            for decision in panel.decisions:
                choice = picker.choice(decision.options).id
                await env.svc.draft(cid, user, panel.round_id, decision.field, choice)
            await env.svc.lock(cid, user, panel.round_id)
    check = verify_export(await env.svc.export(cid))
    assert check.ok and check.replayed, check.problems


@pytest.mark.parametrize("scenario", ["malaya-dec41", "philippines-jan-apr42"])
async def test_land_demo_same_seed_same_files(tmp_path: Path, scenario: str) -> None:
    first = await run(scenario, 5, tmp_path / "a", ruleset="land")
    second = await run(scenario, 5, tmp_path / "b", ruleset="land")
    assert first.verified and second.verified, first.problems
    files = sorted(p.name for p in (tmp_path / "a").iterdir() if p.is_file())
    assert files == sorted(p.name for p in (tmp_path / "b").iterdir() if p.is_file())
    differ = [
        name
        for name in files
        if (tmp_path / "a" / name).read_bytes() != (tmp_path / "b" / name).read_bytes()
        and name != "demo.db"
    ]
    assert differ == []
    assert len([n for n in files if re.fullmatch(r"\d{3}-mission-\d\.png", n)]) == 6
    report = (tmp_path / "a" / "after-action.md").read_text(encoding="utf-8")
    assert "Air Group Performance" in report


async def test_pearl_harbor_solitaire_through_the_service(env: Env, tmp_path: Path) -> None:
    info = await env.svc.create_campaign(
        GUILD, CHANNEL, GM, "pearl-harbor", pace(), seed="pearl", ruleset="pearl-harbor"
    )
    await env.svc.join(info.id, JAP, "japanese")
    await env.svc.start(info.id, GM)
    worker = env.worker()
    waves = 0
    while (await env.svc.status(info.id)).campaign.status != "finished":
        panel = await env.svc.panel(info.id, JAP)
        for decision in panel.decisions:
            target = decision.options[-1].id  # the last target each group may hit
            await env.svc.draft(info.id, JAP, panel.round_id, decision.field, target)
        await env.svc.lock(info.id, JAP, panel.round_id)
        await worker.deliver_due()
        waves += 1
    assert waves == 2
    images = [name for _, a, _ in env.sender.sent for name, _ in a.images]
    assert "wave-1.png" in images and "wave-2.png" in images
    check = verify_export(await env.svc.export(info.id))
    assert check.ok and check.replayed, check.problems
    demo = await run(None, 2, tmp_path / "demo", ruleset="pearl-harbor")
    assert demo.verified, demo.problems

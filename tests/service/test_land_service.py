"""A whole land campaign through the real service, outbox and export on a SQLite file.

The land ruleset plugs into the seam with only its registry line: this plays Burma from
creation to the end (two players on the Japanese team, one Allied), delivers everything
the outbox holds, and checks the export replays and verifies.
"""

from __future__ import annotations

import random

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
    check = verify_export(export, env.catalog)
    assert check.ok and check.replayed, check.problems
    report = after_action_markdown(export, env.catalog)
    assert "## Turn 6" in report and "Mission 6" in report
    final = await env.svc.status(info.id)
    assert final.campaign.status == "finished"

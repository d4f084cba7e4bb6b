"""A whole Wings of War campaign through the real service, outbox and export (issue 15).

Both commanders draft from their panels (a seeded pick among the legal options), lock, and
the worker delivers; the campaign must end after its missions, post a report per mission
and export something ``verify`` replays.
"""

from __future__ import annotations

import random

from bot.export import verify_export
from engine.rulesets.wings import WingsRules
from engine.rulesets.wings.catalog import default_catalog as wings_catalog
from engine.zero.catalog import Catalog
from tests.service.support import CHANNEL, GM, GUILD, Env, pace

ENTENTE, CENTRAL = 11, 22


async def _play(env: Env, seed: str, picks: random.Random) -> int:
    info = await env.svc.create_campaign(
        GUILD, CHANNEL, GM, "wings-1917", pace(), seed=seed, ruleset="wings"
    )
    await env.svc.join(info.id, ENTENTE, "entente")
    await env.svc.join(info.id, CENTRAL, "central")
    await env.svc.start(info.id, GM)
    worker = env.worker()
    rounds = 0
    while (status := await env.svc.status(info.id)).campaign.status != "finished":
        assert status.round is not None and rounds < 200
        for user in (ENTENTE, CENTRAL):
            # A side with nothing left to decide (its planes gone while the aggressor flies
            # on to his objective) leaves the round to the other, whose lock may end it all.
            if (await env.svc.status(info.id)).campaign.status == "finished":
                break
            panel = await env.svc.panel(info.id, user)
            for decision in panel.decisions:
                option = picks.choice(decision.options)
                await env.svc.draft(info.id, user, panel.round_id, decision.field, option.id)
            await env.svc.lock(info.id, user, panel.round_id)
        await worker.deliver_due()
        rounds += 1
    await worker.deliver_due()
    return info.id


async def test_a_wings_campaign_plays_to_the_end_and_verifies(env: Env, catalog: Catalog) -> None:
    cid = await _play(env, "wings-service", random.Random(5))
    export = await env.svc.export(cid)
    check = verify_export(export)
    assert check.ok and check.replayed, check.problems
    final = export["final_state"]["campaign"]
    assert final["phase"] == "ended"
    # The campaign ends after its three missions, or earlier by seed F.III.d.
    assert 1 <= final["mission_number"] <= 3
    assert len(final["history"]) == final["mission_number"]
    kinds = {r["kind"] for r in export["rounds"]}
    assert {"program", "reorder", "debrief"} <= kinds or final["mission_number"] == 1
    # One mission report per mission flown, posted after the turn that ended it.
    assert env.sender.kinds().count("report") == final["mission_number"]
    assert "campaign-ended" in env.sender.kinds()


def test_the_public_sees_no_side_secret_and_a_side_sees_its_own() -> None:
    rules = WingsRules(wings_catalog())
    state = rules.new("wings-1917", "secrets")

    entente = rules.view(state, "entente").data
    for plane in rules.view(state, None).data["mission"]["planes"].values():
        assert "damage" not in plane and "cards" not in plane
    own = [p for p in entente["mission"]["planes"].values() if p["side"] == "entente"]
    other = [p for p in entente["mission"]["planes"].values() if p["side"] == "central"]
    assert all("damage" in p for p in own) and all("damage" not in p for p in other)
    # Each side's reserve: the public's view of the mission keeps no entry, and of the
    # squadrons no reserve at all.
    public_data = rules.view(state, None).data
    assert public_data["mission"]["reserve"] == {}
    assert all("reserve" not in squadron for squadron in public_data["squadrons"].values())

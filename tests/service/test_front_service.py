"""The Eastern Front and a GM's Wings switches through the real service (seed F.VI.e,
K.1): the log tells the front and the swapped sun, switches are checked, kept with the
campaign's creation, reach its missions, and its export replays with them."""

from __future__ import annotations

from typing import Any

import pytest

from bot.export import verify_export
from bot.service_model import ServiceError
from engine.zero.catalog import Catalog
from tests.service import wings_play as play
from tests.service.support import CHANNEL, GM, GUILD, Env, pace

SEED = "s2"  # the first mission: clear, a morning sun on an A card 3


async def _switched(env: Env, seed: str, scenario: str, switches: dict[str, str]) -> int:
    info = await env.svc.create_campaign(
        GUILD, CHANNEL, GM, scenario, pace(), seed=seed, ruleset="wings", switches=switches
    )
    await env.svc.join(info.id, play.ENTENTE, "entente")
    await env.svc.join(info.id, play.CENTRAL, "central")
    await env.svc.start(info.id, GM)
    await env.worker().deliver_due()
    return info.id


async def test_the_eastern_front_swaps_the_sun_and_the_log_says_so(
    env: Env, catalog: Catalog
) -> None:
    cid = await play.start_wings(env, SEED, "wings-1917-east")
    view: Any = (await env.svc.status(cid)).view
    assert view.data["front"] == "eastern" and view.data["mission"]["front"] == "eastern"
    assert view.data["mission"]["sun_side"] == "entente"  # a 3 favours the Entente here
    # The Entente waits in the sun: its panel asks it to enter, the enemy's does not.
    own = await env.svc.panel(cid, play.ENTENTE)
    # (Its balloons' winch order, seed A.IV.i.3, is asked too: it owns balloons here.)
    assert [d.field for d in own.decisions if d.field != "winch"] == ["program:P1"]
    await play.lock_all(env, cid, {play.ENTENTE: {"program:P1": "enter"}})
    log = await play.log_lines(env, cid, oldest_first=True)
    told = [i for i, line in enumerate(log) if line.startswith("Eastern Front: the Central")]
    drawn = [i for i, line in enumerate(log) if line.startswith("Sun (morning): A card 3, the Ent")]
    assert len(told) == 1 and len(drawn) == 1 and told[0] < drawn[0]
    assert sum(" comes out of the sun near " in line for line in log) == 2
    await play.finish_and_verify(env, cid, catalog)


async def test_a_gm_s_switches_are_kept_applied_and_replayed(env: Env, catalog: Catalog) -> None:
    # The eastern scenario put back on the Western Front, without its ammunition cards.
    switches = {"front": "western", "ammunition": "off", "period_bonus": "on"}
    cid = await _switched(env, SEED, "wings-1917-east", switches)
    export = await env.svc.export(cid)
    created = next(e for e in export["events"] if e["kind"] == "campaign-created")
    assert created["data"]["switches"] == {
        "front": "western",
        "period_bonus": "on",
        "ammunition": "off",
    }
    view: Any = (await env.svc.status(cid)).view
    mission = view.data["mission"]
    assert view.data["front"] == "western" and mission["front"] == "western"
    assert mission["sun_side"] == "central"  # the same card 3 as above, the Western reading
    assert mission["rules"]["ammunition"] is False and view.data["period_bonus"] is not None
    log = await play.log_lines(env, cid)
    assert not any(line.startswith("Eastern Front") for line in log)
    # Public and kept: the log's first line says what the GM set.
    assert any(
        "created the campaign: Summer 1917 on the Eastern Front: the sun's sides swapped, with"
        " the switches ammunition=off, front=western, period_bonus=on." in line
        for line in log
    ), log[-3:]
    await play.finish_and_verify(env, cid, catalog)
    # The replay needs the switches: without them it is the eastern scenario, and fails.
    export = await env.svc.export(cid)
    created = next(e for e in export["events"] if e["kind"] == "campaign-created")
    created["data"].pop("switches")
    assert not verify_export(export).ok
    # Switches the scenario does not take are refused, not played.
    for forged in ({"front": "southern"}, {"warp": "on"}, ["front"]):
        created["data"]["switches"] = forged
        check = verify_export(export)
        assert not check.ok and any("switches" in p for p in check.problems), check.problems


@pytest.mark.parametrize(
    ("ruleset", "scenario", "switches", "code"),
    [
        ("wings", "wings-1917", {"warp": "on"}, "unknown-switch"),
        ("wings", "wings-1917", {"front": "southern"}, "bad-switch-value"),
        ("wings", "wings-1917", {"sun": "yes"}, "bad-switch-value"),
        ("wings", "dambuster-eder", {"sun": "on"}, "no-switches"),
        ("carrier", "coral-sea", {"front": "eastern"}, "no-switches"),
    ],
)
async def test_switches_a_scenario_does_not_have_are_refused(
    env: Env, ruleset: str, scenario: str, switches: dict[str, str], code: str
) -> None:
    with pytest.raises(ServiceError) as refused:
        await env.svc.create_campaign(
            GUILD, CHANNEL, GM, scenario, pace(), seed="x", ruleset=ruleset, switches=switches
        )
    assert refused.value.code == code
    assert await env.svc.campaign_in_channel(CHANNEL) is None  # nothing was created


async def test_the_campaign_card_and_campaign_info_list_the_gm_s_switches(
    env: Env, catalog: Catalog
) -> None:
    switches = {"front": "western", "ammunition": "off"}
    cid = await _switched(env, SEED, "wings-1917-east", switches)
    card = await env.svc.card(cid, "en")
    english = (
        "Switches: ammunition=off (the scenario's: on), front=western (the scenario's: eastern)"
    )
    assert english in card
    french = await env.svc.card(cid, "fr")
    said = (
        "ammunition=off (celui du scénario\u00a0: on),"
        " front=western (celui du scénario\u00a0: eastern)"
    )
    assert f"Réglages\u00a0: {said}" in french
    # The card posted in the channel says the same.
    posted = [a for _, a, _ in env.sender.sent if a.kind == "campaign-card"]
    assert posted and english in posted[-1].text

"""A GM fixes a Wings campaign's switches with /campaign settings before its start (seed
K.1): checked as at creation, the table drawn again from the seed, shown on the card and in
the log, refused once the campaign has started, and replayed by verify."""

from __future__ import annotations

from typing import Any

import pytest

from bot.export import verify_export
from bot.service_model import ServiceError
from bot.service_settings import SettingsChange
from engine.zero.catalog import Catalog
from tests.service.support import CHANNEL, GM, GUILD, Env, pace
from tests.service.wings_play import CENTRAL, ENTENTE, finish_and_verify, log_lines

SEED = "s2"  # wings-1917-east's first mission: a clear morning, the sun drawn


async def _created(env: Env, switches: dict[str, str]) -> int:
    info = await env.svc.create_campaign(
        GUILD, CHANNEL, GM, "wings-1917-east", pace(), seed=SEED, ruleset="wings",
        switches=switches,
    )  # fmt: skip
    await env.svc.join(info.id, ENTENTE, "entente")
    await env.svc.join(info.id, CENTRAL, "central")
    return info.id


async def _data(env: Env, cid: int) -> dict[str, Any]:
    view: Any = (await env.svc.status(cid)).view
    return dict(view.data)


async def test_the_gm_fixes_a_typo_before_the_start_and_the_campaign_replays(
    env: Env, catalog: Catalog
) -> None:
    # Meant to fight on the Eastern Front without the sun, he typed the sun off twice over.
    cid = await _created(env, {"front": "western", "sun": "off"})
    assert (await _data(env, cid))["front"] == "western"
    for bad, key in (("front=south", "bad-switch-value"), ("warp=on", "unknown-switch")):
        with pytest.raises(ServiceError) as refused:
            await env.svc.settings_check(cid, GM, SettingsChange(switches=bad))
        assert refused.value.code == key
    with pytest.raises(ServiceError) as refused:
        await env.svc.settings_check(cid, GM, SettingsChange(switches="sun=off"))
    assert refused.value.code == "settings-unchanged"
    with pytest.raises(ServiceError) as refused:
        await env.svc.settings_check(cid, ENTENTE, SettingsChange(switches="front=eastern"))
    assert refused.value.code != "settings-unchanged"  # only the GM
    change = SettingsChange(switches="front=eastern")
    asked = await env.svc.settings_check(cid, GM, change)
    assert asked == [("switches", "front=western sun=off", "front=eastern sun=off")]
    await env.svc.change_settings(cid, GM, change, "typo in the front")
    data = await _data(env, cid)
    assert data["front"] == "eastern" and data["mission"]["front"] == "eastern"
    card = await env.svc.card(cid, "en")  # the card and /campaign info show the new set
    assert "front=eastern" in card and "front=western" not in card
    log = await log_lines(env, cid, oldest_first=True)
    assert any("switches front=western sun=off → front=eastern sun=off" in line for line in log)
    assert any(line.startswith("Eastern Front: the Central") for line in log)  # drawn again
    await env.svc.start(cid, GM)
    await env.worker().deliver_due()
    with pytest.raises(ServiceError) as refused:
        await env.svc.settings_check(cid, GM, SettingsChange(switches="front=western"))
    assert refused.value.code == "switches-started"
    with pytest.raises(ServiceError) as refused:
        await env.svc.change_settings(cid, GM, SettingsChange(switches="front=western"), "late")
    assert refused.value.code == "switches-started"
    await finish_and_verify(env, cid, catalog)
    # A file claiming the campaign was played with other switches does not verify.
    export = await env.svc.export(cid)
    changed = next(
        e for e in export["events"] if e["kind"] == "settings-changed" and "switches" in e["data"]
    )
    changed["data"]["switches"] = {"front": "western", "sun": "off"}
    assert not verify_export(export).ok


async def test_none_puts_the_scenario_s_switches_back(env: Env, catalog: Catalog) -> None:
    cid = await _created(env, {"front": "western"})
    change = SettingsChange(switches="none")
    assert await env.svc.settings_check(cid, GM, change) == [("switches", "front=western", "")]
    await env.svc.change_settings(cid, GM, change, "the scenario as written")
    assert (await _data(env, cid))["front"] == "eastern"  # wings-1917-east's own front
    log = await log_lines(env, cid)
    assert any("front=western → the scenario's" in line for line in log)
    await env.svc.start(cid, GM)
    await env.worker().deliver_due()
    await finish_and_verify(env, cid, catalog)

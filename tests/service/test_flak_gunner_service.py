"""The flak gunner's order through the real service (seed A.IV.h): the owning side's panel
asks where to lay the counter, the enemy's does not; a delayed shell stays secret through
the turn's end and bursts in the next turn's first maneuver; the campaign still exports
and verifies."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.demo import SeededTokens
from bot.export import after_action_markdown, dumps
from bot.replay import make_page
from engine.zero.catalog import Catalog
from tests.replay.html import text_lines
from tests.service import wings_play as play
from tests.service.support import Env


async def test_the_gunner_delays_his_shell_and_it_bursts_next_turn(
    env: Env, catalog: Catalog
) -> None:
    cid = await play.start_wings(env, "gunner")
    first = {user: await env.svc.panel(cid, user) for user in (play.ENTENTE, play.CENTRAL)}
    assert all("flak" not in {d.field for d in p.decisions} for p in first.values())  # arming
    await play.lock_all(env, cid)  # turn 1 at the defaults
    panels = {user: await env.svc.panel(cid, user) for user in (play.ENTENTE, play.CENTRAL)}
    owners = [u for u, p in panels.items() if "flak" in {d.field for d in p.decisions}]
    assert len(owners) == 1  # the defender's battery, armed from turn 2
    gunner = owners[0]
    enemy = play.CENTRAL if gunner == play.ENTENTE else play.ENTENTE
    flak = next(d for d in panels[gunner].decisions if d.field == "flak")
    assert flak.default == flak.options[0].id and flak.options[0].detail == "flak.auto"
    assert flak.options[-1].detail == "flak.hold"
    # Every option is its order's words; the field opens when the campaign ends.
    assert all(o.id == o.detail for o in flak.options)
    spec = env.svc.rulesets.get("wings").rules.field_spec("flak")
    assert spec is not None and spec.opens == "campaign-end"
    delayed = next(o for o in flak.options if o.detail.startswith("flak.delay."))
    before = await play.log_lines(env, cid)
    await play.lock_all(env, cid, {gunner: {"flak": delayed.id}})
    status = await env.svc.status(cid)
    assert status.round is not None and status.round.turn == 3
    turn_two = (await play.log_lines(env, cid))[: -len(before) or None]
    assert not any("Flak" in line or "flak" in line.lower() for line in turn_two), turn_two
    # Next turn: the counter is on the table, nothing to decide; the enemy never saw it.
    again = await env.svc.panel(cid, gunner)
    assert "flak" not in {d.field for d in again.decisions}
    assert "flak" not in {d.field for d in (await env.svc.panel(cid, enemy)).decisions}
    seen = await play.log_lines(env, cid)
    await play.lock_all(env, cid)
    turn_three = (await play.log_lines(env, cid))[: -len(seen)]
    # Oldest first: the shell bursts after each plane's first card, before any second one.
    told = turn_three[::-1]
    burst = next(i for i, line in enumerate(told) if line.startswith("Flak burst from"))
    cards = [line.split(": ")[1].split()[0] for line in told[:burst] if " flies " in line]
    assert cards and len(cards) == len(set(cards)), told
    await play.finish_and_verify(env, cid, catalog)


# --- differential: a delayed shell and holding fire look the same to the enemy ----------


async def _enemy_record(env: Env, cid: int, enemy: int) -> str:
    """What the enemy side sees: the channel and his DMs, his panel, the status, the log
    and the export (the gunner's side's lock of that turn stays closed till the end)."""
    await env.worker().deliver_due()
    seen = [
        (t.kind, t.id, a.text, [png for _, png in a.images], a.alt)
        for t, a, _edit in env.sender.sent
        if t.kind == "channel" or t.id == enemy
    ]
    panel = await env.svc.panel(cid, enemy)
    status = await env.svc.status(cid)
    log = await env.svc.log(cid, per_page=50)
    export = dumps(await env.svc.export(cid))
    return repr((seen, panel, status, log, export))


async def _play_until_turn_3(path: Path, catalog: Catalog, kind: str) -> tuple[Env, int, int]:
    clock = ManualClock(datetime(2025, 6, 1, 12, 0, tzinfo=UTC))
    env = await Env(path, catalog, clock, SeededTokens(7)).open()
    cid = await play.start_wings(env, "gunner")
    await play.lock_all(env, cid)
    panels = {user: await env.svc.panel(cid, user) for user in (play.ENTENTE, play.CENTRAL)}
    gunner = next(u for u, p in panels.items() if "flak" in {d.field for d in p.decisions})
    flak = next(d for d in panels[gunner].decisions if d.field == "flak")
    chosen = next(o.id for o in flak.options if o.detail.startswith(kind))
    await play.lock_all(env, cid, {gunner: {"flak": chosen}})
    return env, cid, play.CENTRAL if gunner == play.ENTENTE else play.ENTENTE


async def test_the_enemy_cannot_tell_a_waiting_shell_from_holding_fire(
    tmp_path: Path, catalog: Catalog, choice_free_receipts: None
) -> None:
    records = []
    envs = []
    for kind in ("flak.delay.", "flak.hold"):
        env, cid, enemy = await _play_until_turn_3(tmp_path / f"{kind}db", catalog, kind)
        envs.append((env, cid, enemy))
        records.append(await _enemy_record(env, cid, enemy))
    assert records[0] == records[1]  # the turn closed: nothing told
    after = []
    for env, cid, enemy in envs:
        await play.lock_all(env, cid)  # turn 3: the shell bursts, or there was none
        after.append(await _enemy_record(env, cid, enemy))
        await env.close()
    assert after[0] != after[1]  # the burst is told to all


# --- once the campaign is over: an opened order names its plane as the panel did --------


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_an_opened_order_names_the_pilot_over_whom_it_burst(
    env: Env, catalog: Catalog, locale: str
) -> None:
    """The gunner's panel offered "Over Cecil Lewis · SPAD VII"; once the campaign is over
    his order opens, and the after-action report and the replay page (its reveal of the
    round) say it in the same words, never the engine's "Over P2"."""
    cid = await play.start_wings(env, "gunner")
    await play.lock_all(env, cid)
    panels = {user: await env.svc.panel(cid, user) for user in (play.ENTENTE, play.CENTRAL)}
    gunner = next(u for u, p in panels.items() if "flak" in {d.field for d in p.decisions})
    flak = next(d for d in panels[gunner].decisions if d.field == "flak")
    aimed = next(o for o in flak.options if o.detail.startswith("flak.fire."))
    presenter = env.svc.rulesets.get("wings").presenter
    offered = presenter.option_description("flak", aimed, locale)
    await play.lock_all(env, cid, {gunner: {"flak": aimed.id}})
    await play.finish_and_verify(env, cid, catalog)
    export = await env.svc.export(cid)
    over = {"en": "Over ", "fr": "Sur "}[locale]
    assert offered.startswith(over) and "·" in offered, offered
    report = after_action_markdown(export, locale=locale)
    page = text_lines(make_page(json.loads(dumps(export))).html)
    if locale == "en":
        assert any(offered in line for line in page), [line for line in page if over in line]
        assert not any(over + "P" in line for line in page)
    assert offered in report, [line for line in report.splitlines() if over in line]
    assert over + "P" not in report

"""The flak gunner's order through the real service (seed A.IV.h): the owning side's panel
asks where to lay the counter, the enemy's does not; a delayed shell stays secret through
the turn's end and bursts in the next turn's first maneuver; the campaign still exports
and verifies."""

from __future__ import annotations

from bot.export import verify_export
from engine.catalog import Catalog
from tests.service.support import Env
from tests.service.wings_play import CENTRAL, ENTENTE, lock_all, log_lines, start_wings


async def test_the_gunner_delays_his_shell_and_it_bursts_next_turn(
    env: Env, catalog: Catalog
) -> None:
    cid = await start_wings(env, "gunner")
    first = {user: await env.svc.panel(cid, user) for user in (ENTENTE, CENTRAL)}
    assert all("flak" not in {d.field for d in p.decisions} for p in first.values())  # arming
    await lock_all(env, cid)  # turn 1 at the defaults
    panels = {user: await env.svc.panel(cid, user) for user in (ENTENTE, CENTRAL)}
    owners = [u for u, p in panels.items() if "flak" in {d.field for d in p.decisions}]
    assert len(owners) == 1  # the defender's battery, armed from turn 2
    gunner = owners[0]
    enemy = CENTRAL if gunner == ENTENTE else ENTENTE
    flak = next(d for d in panels[gunner].decisions if d.field == "flak")
    assert flak.default == flak.options[0].id and flak.options[0].detail == "flak.auto"
    assert flak.options[-1].detail == "flak.hold"
    # Every option is sealed: its id says nothing; its detail tells its own side what it does.
    assert all(o.id.startswith("flak-") for o in flak.options)
    delayed = next(o for o in flak.options if o.detail.startswith("flak.delay."))
    before = await log_lines(env, cid)
    await lock_all(env, cid, {gunner: {"flak": delayed.id}})
    status = await env.svc.status(cid)
    assert status.round is not None and status.round.turn == 3
    turn_two = (await log_lines(env, cid))[: -len(before) or None]
    assert not any("Flak" in line or "flak" in line.lower() for line in turn_two), turn_two
    # Next turn: the counter is on the table, nothing to decide; the enemy never saw it.
    again = await env.svc.panel(cid, gunner)
    assert "flak" not in {d.field for d in again.decisions}
    assert "flak" not in {d.field for d in (await env.svc.panel(cid, enemy)).decisions}
    seen = await log_lines(env, cid)
    await lock_all(env, cid)
    turn_three = (await log_lines(env, cid))[: -len(seen)]
    # Oldest first: the shell bursts after each plane's first card, before any second one.
    told = turn_three[::-1]
    burst = next(i for i, line in enumerate(told) if line.startswith("Flak burst from"))
    cards = [line.split(": ")[1].split()[0] for line in told[:burst] if " flies " in line]
    assert cards and len(cards) == len(set(cards)), told
    for _ in range(300):  # on to the campaign's end, every side at its defaults
        if (await env.svc.status(cid)).campaign.status == "finished":
            break
        await lock_all(env, cid)
    assert (await env.svc.status(cid)).campaign.status == "finished"
    check = verify_export(await env.svc.export(cid), catalog)
    assert check.ok and check.replayed, check.problems

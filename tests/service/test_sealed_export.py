"""A finished Wings campaign's export opens every secret (issue 26): each round's sealed
events (every damage card, each plane's altitude and climb counters after every maneuver,
what a side alone learnt) and every lock, and ``verify`` replays them; while it runs they
are in no export, no log line and no message."""

from __future__ import annotations

import copy
import json
from typing import Any

from bot.export import verify_export
from engine.zero.catalog import Catalog
from tests.service.support import Env
from tests.service.wings_play import lock_all, start_wings


def _sealed(export: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for r in export["rounds"] for e in (r["sealed_events"] or [])]


async def test_the_export_opens_every_damage_card_and_altitude_once_over(
    env: Env, catalog: Catalog
) -> None:
    cid = await start_wings(env, "sealed-records")
    await lock_all(env, cid)
    await lock_all(env, cid)
    running = await env.svc.export(cid)
    assert all(r["sealed_events"] is None for r in running["rounds"])
    log = json.dumps([e["kind"] for e in running["events"]])
    assert "phase-flown" not in log and "damage-card" not in log
    posted = json.dumps([(a.text, a.alt) for _t, a, _e in env.sender.sent], default=str)
    assert "phase-flown" not in posted
    for _ in range(300):
        if (await env.svc.status(cid)).campaign.status == "finished":
            break
        await lock_all(env, cid)
    export = await env.svc.export(cid)
    assert export["version"] == 3 and export["campaign"]["status"] == "finished"
    sealed = _sealed(export)
    kinds = {e["kind"] for e in sealed}
    assert {"phase-flown", "damage-card"} <= kinds
    assert all(e["owner"] in ("entente", "central") for e in sealed)
    # Every maneuver flown left each plane in the air written down: its altitude and
    # climb counters, phase by phase.
    phases = [e for e in sealed if e["kind"] == "phase-flown"]
    assert all({"plane", "phase", "level", "counters", "x", "y"} <= set(e["data"]) for e in phases)
    by_turn: dict[tuple[int, int], set[int]] = {}
    for r in export["rounds"]:
        for e in r["sealed_events"] or []:
            if e["kind"] == "phase-flown":
                by_turn.setdefault((r["id"], e["data"]["mission_turn"]), set()).add(
                    e["data"]["phase"]
                )
    assert by_turn and {1, 2, 3} in by_turn.values()
    assert all(lock["canonical"] is not None for r in export["rounds"] for lock in r["locks"])
    check = verify_export(export)
    assert check.ok and check.replayed, check.problems
    # verify replays them: one altitude changed, and the file no longer checks.
    forged = copy.deepcopy(export)
    target = next(
        e for r in forged["rounds"] for e in r["sealed_events"] or [] if e["kind"] == "phase-flown"
    )
    target["data"]["level"] += 1
    check = verify_export(forged)
    assert not check.ok and "sealed event #" in check.problems[0], check.problems
    assert "differs from the replay: recorded" in check.problems[0], check.problems

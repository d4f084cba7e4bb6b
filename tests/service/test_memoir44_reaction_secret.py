"""Differential secrecy over a reaction not yet played (issue 28): two campaigns identical
but for the Ambush the Axis draft while their reaction round is open. Until they lock (the
round's reveal plays it), the Allies' panel and receipts, the channel (words, pictures,
alt text), the status, the log and the export are identical; after it they differ."""

from __future__ import annotations

import importlib.util
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.demo import SeededTokens
from bot.export import dumps
from engine.zero.catalog import Catalog
from tests.service.support import Env

ALLIES, AXIS = 41, 42
# The flight with its tokens is typed: the seam's text inputs (the inputs work) bring it.
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("cogs.write") is None,
    reason="a typed flight needs the seam's text inputs",
)


async def _draft_all(env: Env, cid: int, user: int, picks: dict[str, str]) -> int:
    panel = await env.svc.panel(cid, user)
    for decision in panel.decisions:
        value = picks.get(decision.field, decision.default)
        await env.svc.draft(cid, user, panel.round_id, decision.field, value)
    return panel.round_id


async def _run(path: Path, catalog: Catalog, ambush: str) -> tuple[list[Any], list[Any]]:
    env = await Env(
        path, catalog, ManualClock(datetime(2025, 6, 1, tzinfo=UTC)), SeededTokens(7)
    ).open()
    try:
        seats = ((ALLIES, "allies"), (AXIS, "axis"))
        cid = await env.campaign("western-1944", ruleset="memoir44", seed="reaction", seats=seats)
        worker = env.worker()
        hand = (await env.svc.panel(cid, ALLIES)).view.sides["allies"].hand
        picks = {"command": "probe-centre", "card": sorted(hand)[0], "plane": "deploy-bomber"}
        await env.svc.lock(cid, ALLIES, await _draft_all(env, cid, ALLIES, picks))
        flight = await _draft_all(env, cid, ALLIES, {"flight": "E6 inf, E7 arm, E8"})
        await env.svc.lock(cid, ALLIES, flight)
        await worker.deliver_due()

        async def seen() -> Any:
            await worker.deliver_due()
            sent = [
                (t.kind, a.kind, a.text, [png for _, png in a.images], a.alt)
                for t, a, _ in env.sender.sent
                if t.kind == "channel" or t.id == ALLIES
            ]
            return (
                sent,
                repr(await env.svc.panel(cid, ALLIES)),
                repr(await env.svc.receipts(cid, ALLIES)),
                repr(await env.svc.status(cid)),
                repr(await env.svc.log(cid, per_page=100)),
                dumps(await env.svc.export(cid)),
            )

        before = [await seen()]
        reaction = await _draft_all(env, cid, AXIS, {"ambush": ambush})
        before.append(await seen())
        await env.svc.lock(cid, AXIS, reaction)
        after = [await seen()]
        return before, after
    finally:
        await env.close()


async def test_an_ambush_not_yet_played_shows_to_nobody_else(
    tmp_path: Path, catalog: Catalog, choice_free_receipts: None
) -> None:
    quiet_before, quiet_after = await _run(tmp_path / "a.db", catalog, "none")
    ambush_before, ambush_after = await _run(tmp_path / "b.db", catalog, "1-infantry")
    assert quiet_before == ambush_before  # drafted, not played: nothing shows
    assert quiet_after != ambush_after  # played: everyone sees it

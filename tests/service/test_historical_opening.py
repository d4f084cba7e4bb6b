"""A GM who picks "midway-historical" at /campaign new gets Midway's optional historical
opening (authored 3.7.4): the Japanese commander cannot send the first strike at the
American carriers, and is told why in his language."""

from __future__ import annotations

import pytest

from bot.service_model import ServiceError
from tests.service.support import JAP, Env


async def test_the_japanese_first_strike_goes_for_midway(env: Env) -> None:
    cid = await env.campaign("midway-historical")
    panel = await env.svc.panel(cid, JAP)
    flight_ops = next(d for d in panel.decisions if d.field == "flight_ops")
    assert "small:midway-airfield" in {o.id for o in flight_ops.options}
    with pytest.raises(ServiceError) as info:
        await env.svc.draft(cid, JAP, panel.round_id, "flight_ops", "small:allied-fleet")
    error = info.value
    assert error.code == "illegal-option" and error.params["reason"] == "historical-opening"
    assert "the first strike goes for Midway" in error.message("en")
    assert "le premier raid vise Midway" in error.message("fr")
    await env.svc.draft(cid, JAP, panel.round_id, "flight_ops", "small:midway-airfield")
    assert (await env.svc.panel(cid, JAP)).drafts == {"flight_ops": "small:midway-airfield"}


async def test_plain_midway_leaves_the_first_target_free(env: Env) -> None:
    cid = await env.campaign("midway")
    panel = await env.svc.panel(cid, JAP)
    await env.svc.draft(cid, JAP, panel.round_id, "flight_ops", "small:allied-fleet")
    assert (await env.svc.panel(cid, JAP)).drafts == {"flight_ops": "small:allied-fleet"}

"""Kill confirmation through the real service (seed E.III.b): Albert Ball's kill falls in
no-man's land with no Entente witness left at the mission's end, so the channel's report
says it is unconfirmed, his sheet counts the kill without a roundel, and the campaign still
exports and verifies."""

from __future__ import annotations

from typing import Any

import pytest

from engine.zero.catalog import Catalog
from rendering.i18n import t
from tests.service import wings_play as play
from tests.service.support import Env


@pytest.fixture(autouse=True)
def _p3_crippled_ahead_of_p1(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wings 1917 with the Central's P3 one hit from going down, just ahead of the Entente's
    P1 and flying the same way: P1's first burst downs it, and its wreck glides on."""
    play.set_up_opening(
        monkeypatch,
        lambda s: play.with_planes(s, {"P3": {"x": 4.4, "y": 7.4, "heading": 0.0, "damage": 13}}),
    )


async def test_a_kill_without_a_witness_is_reported_unconfirmed(env: Env, catalog: Catalog) -> None:
    cid = await play.start_wings(env, "kc")
    view: Any = None
    for _ in range(40):  # on to the first debrief
        await play.lock_all(env, cid)
        view = (await env.svc.status(cid)).view
        if view.data.get("history"):
            break
    [victory] = view.data["history"][0]["victories"]
    assert (victory["pilot"], victory["zone"], victory["confirmed"]) == (
        "P1",
        "no_mans_land",
        False,
    )
    # Nobody of the Entente saw it: his wingman went off the table over the Central's lines
    # (not home), and the Entente has no ground post in this mission.
    wingman = view.data["mission"]["planes"]["P2"]
    assert wingman["status"] == "left" and wingman["x"] > 22.2 * 3 / 4
    mission = view.data["mission"]
    assert not [g for g in mission["ground"].values() if g["side"] == "entente"]
    ball = view.data["pilots"]["P1"]
    assert (ball["kills"], ball["confirmed"]) == (1, 0)
    posted = "\n".join(a.text for target, a, _ in env.sender.sent if target.kind == "channel")
    line = t("kill-confirm.victory", "en", name=ball["name"], victim="Albatros D.III",
             zone=t("kill-confirm.zone.no_mans_land", "en"),
             verdict=t("kill-confirm.unconfirmed", "en"))  # fmt: skip
    assert line in posted.splitlines()
    await play.finish_and_verify(env, cid, catalog)

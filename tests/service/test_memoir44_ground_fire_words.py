"""Ground fire typed as the parser reads it ("inf, art") is told in words where players
read it beside the turn's other orders: the channel's reveal of the round and its picture's
alt text, and the turn's report names the artillery as artillery (a destroyer is typed
``dd``), in English and in French."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.demo import SeededTokens
from bot.service_model import Pace
from engine.zero.catalog import Catalog
from tests.service.support import CHANNEL, GM, GUILD, Env
from tests.service.test_memoir44_rollback import _draft_all

ALLIES, AXIS = 41, 42
WORDS = {
    "en": ("Ground fire: infantry, artillery", "artillery (4 dice)", "artillery or destroyer"),
    "fr": ("Tir sol-air\u00a0: infanterie, artillerie", "artillerie (4 dés)", "ou destroyer"),
}


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_typed_ground_fire_reads_as_words(
    tmp_path: Path, catalog: Catalog, locale: str
) -> None:
    clock = ManualClock(datetime(2025, 6, 1, tzinfo=UTC))
    env = await Env(tmp_path / "m44.db", catalog, clock, SeededTokens(7)).open()
    try:
        info = await env.svc.create_campaign(
            GUILD, CHANNEL, GM, "western-1944", Pace(), seed="fire", ruleset="memoir44",
            locale=locale,
        )  # fmt: skip
        cid = info.id
        await env.svc.join(cid, ALLIES, "allies")
        await env.svc.join(cid, AXIS, "axis")
        await env.svc.start(cid, GM)
        hand = (await env.svc.panel(cid, ALLIES)).view.sides["allies"].hand
        picks = {"command": "probe-centre", "card": sorted(hand)[0], "plane": "deploy-fighter"}
        await _draft_all(env, cid, ALLIES, picks)
        await _draft_all(env, cid, ALLIES, {"flight": "E6 E7"})
        fire = next(d for d in (await env.svc.panel(cid, AXIS)).decisions if d.field == "fire")
        assert fire.input == "text"
        await _draft_all(env, cid, AXIS, {"command": "probe-left", "fire": "inf, art"})
        await _draft_all(env, cid, ALLIES, {})  # no reaction: the turn is played
        await env.worker().deliver_due()
        channel = [a for t, a, _ in env.sender.sent if t.kind == "channel"]
        said, report, wrong = WORDS[locale]
        reveal = next(a for a in channel if a.kind == "reveal" and said in a.text)
        assert said in " ".join(reveal.alt.values())
        assert not any(re.search(r"\bart\b", a.text) for a in channel), [a.text for a in channel]
        told = "\n".join(a.text for a in channel if a.kind == "report")
        assert report in told and wrong not in told, told
    finally:
        await env.close()

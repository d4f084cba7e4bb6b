"""A complex maneuver begun on the last card of a turn and finished on the next, through
the real service (seed A.I.b, C): the owner's panel offers it, its order opens sealed, the
next turn's panel only opens with the owed card, the enemy never reads it before it is
flown, and the campaign still exports and verifies."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from engine.zero.catalog import Catalog
from tests.service import wings_play as play
from tests.service.support import Env

BEGUN = "S S split_s: ST"


@pytest.fixture(autouse=True)
def _p1_high_in_the_middle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wings 1917 (base rules) with the Entente's P1 high up in the middle of the table,
    so a Split-S never takes it down to the ground nor off the table."""
    play.set_up_opening(
        monkeypatch,
        lambda s: play.with_planes(s, {"P1": {"x": 18.0, "y": 14.0, "heading": 90.0, "level": 5}}),
    )


async def _begin(env: Env, seed: str) -> tuple[int, str]:
    """Turn 1 with plane1 beginning the Split-S on its third card; the sealed option id."""
    cid = await play.start_wings(env, seed, "wings-1917-basic")
    own = await env.svc.panel(cid, play.ENTENTE)
    drafted = await env.svc.draft(cid, play.ENTENTE, own.round_id, "program:P1", BEGUN)  # written
    sealed = drafted.drafts["program:P1"]
    assert drafted.written["program:P1"] == BEGUN  # its own panel reads it back
    # Its order opens as the cards it flies and a seal, never naming the maneuver.
    assert re.fullmatch(r"S S ST #[0-9a-f]{10}", sealed)
    await play.lock_all(env, cid, {play.ENTENTE: {"program:P1": sealed}})
    return cid, sealed


def _text(value: Any) -> str:
    return json.dumps(value, default=str, sort_keys=True)


async def test_the_split_s_runs_over_the_turn_and_stays_secret(env: Env, catalog: Catalog) -> None:
    cid, _sealed = await _begin(env, "seq1")
    status = await env.svc.status(cid)
    assert status.round is not None and status.round.turn == 2
    own = await env.svc.panel(cid, play.ENTENTE)
    plane1 = next(d for d in own.decisions if d.field == "program:P1")
    # Only programs opening with the owed Immelmann card; the default finishes it.
    assert plane1.default.startswith("IM ")
    programs = [o.detail if ":" in o.detail else o.label for o in plane1.options]
    assert programs and all(p.startswith("IM ") for p in programs)
    # Another one may begin once it is done: written, it is taken.
    await env.svc.draft(cid, play.ENTENTE, own.round_id, "program:P1", "im s split-s: st")
    assert {e.reason for e in plane1.excluded} == {"owed-card"}
    mine = own.view.data["mission"]["planes"]["P1"]
    assert (mine["sequence"], mine["sequence_flown"]) == ("split_s", 1)
    # The enemy's panel and view hold nothing of it.
    enemy = await env.svc.panel(cid, play.CENTRAL)
    seen = enemy.view.data["mission"]["planes"]["P1"]
    assert "sequence" not in seen and "sequence_flown" not in seen
    assert "split_s" not in _text(enemy.view.data)
    log = await play.log_lines(env, cid)
    assert not any("split" in line.lower() or "Split" in line for line in log)
    level_before = mine["level"]
    await play.lock_all(env, cid)  # turn 2: the default flies the owed IM then straights
    own = await env.svc.panel(cid, play.ENTENTE)
    after = own.view.data["mission"]["planes"]["P1"]
    assert after["sequence"] is None
    # Seed C: the Split-S loses a counter on its 2nd card, flown this turn.
    lost = (level_before, mine["counters"]) != (after["level"], after["counters"])
    assert lost
    await play.finish_and_verify(env, cid, catalog)


async def test_a_missed_deadline_finishes_what_was_begun(env: Env) -> None:
    cid, _ = await _begin(env, "seq2")
    await play.lock_all(env, cid)
    own = await env.svc.panel(cid, play.ENTENTE)
    assert own.view.data["mission"]["planes"]["P1"]["sequence"] is None
    # Turn 3 is free again: programs open with any card.
    plane1 = next(d for d in own.decisions if d.field == "program:P1")
    assert not any(e.reason == "owed-card" for e in plane1.excluded)

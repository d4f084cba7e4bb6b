"""The opened orders of a Split-S begun on a turn's last card, through the real service
(seed A.I.b, C): two campaigns whose plane flies the same cards on turn 1, one beginning a
Split-S it finishes next turn, the other flying them plainly, read the same to the enemy
and the public (channel, DMs, panel, status, log, export with its opened orders, the
after-action report) until the owed card is flown; both still export and verify."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.demo import SeededTokens
from bot.export import after_action_markdown, dumps, verify_export
from bot.panel import compose
from engine.ruleset import Option
from engine.zero.catalog import Catalog
from tests.service import wings_play as play
from tests.service.support import Env

BEGUN, PLAIN = "S S split_s: ST", "S S ST"
# An opened order's seal is a digest of the program: it differs by design (the commitment
# working), so the comparison reads every seal as one word, as the flak test does.
SEAL = re.compile(r" #[0-9a-f]{10}")


@pytest.fixture(autouse=True)
def _p1_high_in_the_middle(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Entente's P1 high up in the middle of the table: a Split-S neither takes it down
    to the ground nor off the table."""
    play.set_up_opening(
        monkeypatch,
        lambda s: play.with_planes(s, {"P1": {"x": 18.0, "y": 14.0, "heading": 90.0, "level": 5}}),
    )


def _flies(option: Option) -> str:
    """The program an option flies, as its owner's panel reads it (a maneuver begun late
    is named in its detail)."""
    return option.detail if ":" in option.detail else option.label


async def _enemy_record(env: Env, cid: int, catalog: Catalog) -> str:
    """What the Central Powers and the public see: the channel and the Central DMs, their
    panel, the status, the log, the export (the orders opened at the turn's end) and the
    after-action report written from it."""
    await env.worker().deliver_due()
    seen = [
        (t.kind, t.id, a.text, [png for _, png in a.images], a.alt)
        for t, a, _edit in env.sender.sent
        if t.kind == "channel" or t.id == play.CENTRAL
    ]
    panel = await env.svc.panel(cid, play.CENTRAL)
    status = await env.svc.status(cid)
    log = await env.svc.log(cid, per_page=50)
    export = await env.svc.export(cid)
    report = after_action_markdown(export)
    return SEAL.sub(" #sealed", repr((seen, panel, status, log, dumps(export), report)))


async def _turn_one(path: Path, catalog: Catalog, program: str) -> tuple[Env, int]:
    clock = ManualClock(datetime(2025, 6, 1, 12, 0, tzinfo=UTC))
    env = await Env(path, catalog, clock, SeededTokens(7)).open()
    cid = await play.start_wings(env, "seal", "wings-1917-basic")
    await play.lock_all(env, cid, {play.ENTENTE: {"program:P1": program}})  # written as it reads
    return env, cid


async def test_the_enemy_cannot_tell_a_split_s_begun_from_a_plain_stall(
    tmp_path: Path, catalog: Catalog, choice_free_receipts: None
) -> None:
    runs = []
    records = []
    for name, program in (("begun", BEGUN), ("plain", PLAIN)):
        env, cid = await _turn_one(tmp_path / f"{name}.db", catalog, program)
        runs.append((env, cid))
        records.append(await _enemy_record(env, cid, catalog))
    # The campaigns differ: one owes the Split-S's Immelmann, its own side knows it.
    owing = [
        (await env.svc.panel(cid, play.ENTENTE)).view.data["mission"]["planes"]["P1"]["sequence"]
        for env, cid in runs
    ]
    assert owing == ["split_s", None]
    # The turn closed and its orders opened: both read as the stall flown plainly.
    export = json.loads(dumps(await runs[0][0].svc.export(runs[0][1])))
    choices = [
        json.loads(lock["canonical"])["choice"]
        for r in export["rounds"]
        for lock in r["locks"]
        if lock["side"] == "entente" and lock["canonical"] and r["turn"] == 1
    ]
    opened = [choice["program:P1"] for choice in choices if "program:P1" in choice]
    assert opened and all(SEAL.sub("", value) == PLAIN for value in opened), opened
    assert records[0] == records[1]
    after = []
    for env, cid in runs:
        await play.lock_all(env, cid)  # turn 2: the owed Immelmann, or a plain default
        after.append(await _enemy_record(env, cid, catalog))
    assert after[0] != after[1]  # the owed card is flown, public like any card
    for env, _cid in runs:
        await env.close()


@pytest.mark.parametrize("program", [BEGUN, PLAIN])
async def test_a_sealed_order_replays_from_the_export(
    tmp_path: Path, catalog: Catalog, program: str
) -> None:
    """The seal hides the program from readers, not from the replay: ``verify`` opens it
    again from the state, once the campaign is over."""
    env, cid = await _turn_one(tmp_path / "run.db", catalog, program)
    await play.finish_and_verify(env, cid, catalog)
    check = verify_export(await env.svc.export(cid))
    assert check.replayed and check.rounds > 2
    await env.close()


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_the_owner_reads_which_program_he_picked(
    tmp_path: Path, catalog: Catalog, locale: str
) -> None:
    """His own panel's "✓" line tells the Split-S begun from the plain stall flying the same
    cards (both written; both open as the cards and a seal)."""
    clock = ManualClock(datetime(2025, 6, 1, 12, 0, tzinfo=UTC))
    env = await Env(tmp_path / "run.db", catalog, clock, SeededTokens(7)).open()
    cid = await play.start_wings(env, "seal", "wings-1917-basic")
    plugin = env.svc.rulesets.get("wings")
    picked = []
    for program in (BEGUN, PLAIN):
        panel = await env.svc.panel(cid, play.ENTENTE)
        await env.svc.draft(cid, play.ENTENTE, panel.round_id, "program:P1", program)
        text = compose(
            plugin, await env.svc.panel(cid, play.ENTENTE), scenario="wings-1917-basic",
            locale=locale, commander_id=None,
        ).text  # fmt: skip
        picked.append(next(line for line in text.splitlines() if "✓" in line))
    colon = ":" if locale == "en" else "\u00a0:"
    field = f"**Albert Ball · Nieuport 17**{colon}"  # the plane's field, named by its pilot
    assert picked == [f"{field} ✓ S S Split-S{colon} ST", f"{field} ✓ S S ST"]
    await env.close()


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_the_owners_menu_tells_the_maneuver_from_the_plain_program(
    tmp_path: Path, catalog: Catalog, locale: str
) -> None:
    """No two quick picks of a menu read alike, though a program that could begin a
    maneuver reads as its cards (and a seal) to everyone else."""
    clock = ManualClock(datetime(2025, 6, 1, 12, 0, tzinfo=UTC))
    env = await Env(tmp_path / "run.db", catalog, clock, SeededTokens(7)).open()
    cid = await play.start_wings(env, "seal", "wings-1917-basic")
    plugin = env.svc.rulesets.get("wings")
    spec = compose(
        plugin, await env.svc.panel(cid, play.ENTENTE), scenario="wings-1917-basic",
        locale=locale, commander_id=None,
    )  # fmt: skip
    colon = ":" if locale == "en" else "\u00a0:"
    for select in spec.selects:
        labels = [c.label for c in select.options]
        assert len(set(labels)) == len(labels), [x for x in labels if labels.count(x) > 1]
    plane1 = next(s for s in spec.selects if s.field == "program:P1")
    labels = [c.label for c in plane1.options]
    assert PLAIN in labels and not any(colon in label for label in labels)
    await env.close()

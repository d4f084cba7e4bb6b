"""The Dambuster's night pick through the real service (DB 6): the turn stops at the gun,
the Lancaster's player alone is asked which of the two C cards his plane takes, the guns'
side and the channel learn only that the crew picks, both cards are logged once it is
played, and the export replays."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import engine.rulesets.wings as seam
from bot.clock import ManualClock
from bot.demo import SeededTokens
from bot.export import dumps
from bot.panel import compose
from engine.rng import Rng
from engine.rulesets.wings import dambuster as db
from engine.rulesets.wings.catalog import default_catalog as wings_catalog
from engine.zero.catalog import Catalog
from rendering.rulesets.wings import WingsPresenter
from tests.service import wings_play as play
from tests.service.support import Env

SEEDS = [f"night-{n}" for n in range(500)]


def beside_the_dam_gun(state: seam.WingsState) -> seam.WingsState:
    """The raid opens with AJ-G placed beside dam gun 1 (the only gun), in the dark, its
    gunners hurt: its own fire never shows it, so the gun draws two cards."""
    dam = state.dam
    if dam is None:
        return state
    plane = dam.planes["AJ-G"].model_copy(
        update={"x": 17.0, "y": 5.5, "heading": 90.0, "placed": True, "hurt": ("front", "rear")}
    )
    dam = dam.model_copy(
        update={"planes": {**dam.planes, "AJ-G": plane}, "guns": {"dam-1": dam.guns["dam-1"]}}
    )
    return state.model_copy(update={"dam": dam})


def night_seed() -> tuple[str, int, int]:
    """A campaign seed whose first turn's pair is two plain cards of different points."""
    catalog = wings_catalog()
    for seed in SEEDS:
        rng = Rng(seed, 1, "reorder")  # the round the first turn flies in
        first, second = (db.draw(catalog, rng, "C", f"0.1:aa:dam-1:{n}") for n in (1, 2))
        if first.special == second.special == "none" and first.value != second.value:
            return seed, first.value, second.value
    raise AssertionError("no seed in the list")


async def test_the_crew_picks_the_card_on_its_own_panel_and_the_export_replays(
    env: Env, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    play.set_up_opening(monkeypatch, beside_the_dam_gun)
    seed, first, second = night_seed()
    cid = await play.start_wings(env, seed, "dambuster-mohne")
    await play.lock_all(env, cid, {play.ENTENTE: {"plane1": "SS"}})
    live = (await env.svc.status(cid)).round
    assert live is not None and (live.turn, live.kind) == (1, "night")
    own = await env.svc.panel(cid, play.ENTENTE)
    guns = await env.svc.panel(cid, play.CENTRAL)
    assert guns.decisions == ()  # the guns' side decides nothing
    (decision,) = own.decisions
    assert decision.field == "night"
    assert [o.id for o in decision.options] == [f"1:{first}:none", f"2:{second}:none"]
    lower = f"1:{first}:none" if first < second else f"2:{second}:none"
    assert decision.default == lower  # a missed deadline keeps the old rule's card
    words = WingsPresenter()
    assert words.option_text("dambuster-mohne", "night", decision.options[0].id, "en") == (
        f"Card 1: {first} points"
    )
    log = await play.log_lines(env, cid)
    assert any("'s crew picks one of two cards" in line for line in log)
    assert not any(line.startswith("Night draw") for line in log)  # the pair not yet told
    higher = next(o.id for o in decision.options if o.id != lower)
    await play.lock_all(env, cid, {play.ENTENTE: {"night": higher}})
    log = await play.log_lines(env, cid)
    kept = 1 if higher.startswith("1:") else 2
    told = f"Night draw on AJ-G by AA gun dam 1: {first} (no special) and {second} (no special)"
    assert any(line.startswith(told) and f"card {kept} kept" in line for line in log), log
    hits = [
        e.data
        for e in (await env.svc.log(cid, per_page=50)).entries
        if e.kind == "damage-card" and e.data.get("by") == "dam-1"
    ]
    assert [h["value"] for h in hits] == [max(first, second)]  # the crew's card, not the lower
    live = (await env.svc.status(cid)).round
    assert live is not None and (live.turn, live.kind) == (2, "program")  # the turn went on
    await play.finish_and_verify(env, cid, catalog)


async def _raid(path: Path, catalog: Catalog, seed: str, pick: int) -> tuple[list[Any], list[Any]]:
    """The raid to its night round; the crew drafts card ``pick``, then locks it: what the
    guns' side and the channel see before the lock, and after it."""
    env = await Env(
        path, catalog, ManualClock(datetime(2025, 6, 1, 12, tzinfo=UTC)), SeededTokens(7)
    ).open()
    try:
        cid = await play.start_wings(env, seed, "dambuster-mohne")
        await play.lock_all(env, cid, {play.ENTENTE: {"plane1": "SS"}})
        worker = env.worker()

        async def seen() -> Any:
            await worker.deliver_due()
            sent = [
                (t.kind, t.id, a.kind, a.text, [png for _, png in a.images], a.alt)
                for t, a, _edit in env.sender.sent
                if t.kind == "channel" or t.id == play.CENTRAL
            ]
            return (
                sent,
                repr(await env.svc.panel(cid, play.CENTRAL)),
                repr(await env.svc.receipts(cid, play.CENTRAL)),
                repr(await env.svc.status(cid)),
                repr(await env.svc.log(cid, per_page=50)),
            )

        panel = await env.svc.panel(cid, play.ENTENTE)
        (decision,) = panel.decisions
        before = [await seen()]
        await env.svc.draft(cid, play.ENTENTE, panel.round_id, "night", decision.options[pick].id)
        before.append(await seen())
        await env.svc.lock(cid, play.ENTENTE, panel.round_id)
        after = [await seen(), dumps(await env.svc.export(cid))]
        return before, after
    finally:
        await env.close()


async def test_the_pick_is_invisible_to_the_guns_and_the_channel_until_it_is_played(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch, choice_free_receipts: None
) -> None:
    """Two raids differing only in the card the crew keeps: everything the Central Powers'
    commander and the channel see is the same until the pick is locked; then it differs."""
    play.set_up_opening(monkeypatch, beside_the_dam_gun)
    seed, _first, _second = night_seed()
    one = await _raid(tmp_path / "one.db", catalog, seed, 0)
    two = await _raid(tmp_path / "two.db", catalog, seed, 1)
    assert one[0] == two[0]
    assert one[1][0] != two[1][0] and one[1][1] != two[1][1]


@pytest.mark.parametrize(
    ("locale", "yours", "guns"),
    [
        ("en", "fires at your Lancaster", "Your AA gun fires in the dark at a Lancaster"),
        ("fr", "tire sur votre Lancaster", "Votre canon AA tire dans le noir sur un Lancaster"),
    ],
)
async def test_each_side_reads_the_night_pick_as_its_own(
    env: Env, monkeypatch: pytest.MonkeyPatch, locale: str, yours: str, guns: str
) -> None:
    """The Lancaster's player reads of his Lancaster and his crew's pick; the guns' player
    reads of his gun firing at theirs, with nothing to decide, never of "your Lancaster"."""
    play.set_up_opening(monkeypatch, beside_the_dam_gun)
    seed, _first, _second = night_seed()
    cid = await play.start_wings(env, seed, "dambuster-mohne")
    await play.lock_all(env, cid, {play.ENTENTE: {"plane1": "SS"}})
    plugin = env.svc.rulesets.get("wings")
    texts = {
        user: compose(
            plugin, await env.svc.panel(cid, user), scenario="dambuster-mohne",
            locale=locale, commander_id=None,
        ).text
        for user in (play.ENTENTE, play.CENTRAL)
    }  # fmt: skip
    assert yours in texts[play.ENTENTE] and guns not in texts[play.ENTENTE]
    assert guns in texts[play.CENTRAL] and yours not in texts[play.CENTRAL]

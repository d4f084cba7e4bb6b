"""A round nobody decides in is not announced (design/ux.md: quiet is a feature).

A Wings turn without a pursuit ends on a "Tailing reorder" round that asks neither side
anything: both are locked as it opens and it flies the turn at once. The channel used to
get a round message for it ("orders are open", then "revealed") and a reveal of nothing;
now it gets neither, and the receipts the turn's end opens (the programs') are in the
turn's summary, the next post."""

from __future__ import annotations

import pytest

from bot.service_settings import SettingsChange
from tests.service.support import Env
from tests.service.wings_play import GM, lock_all, start_wings

WORDS = {
    "en": ("Tailing reorder", "End of turn 1", "Receipts opened", "Central Powers Programs: salt"),
    "fr": (
        "réordonner",
        "Fin du tour 1",
        "Reçus ouverts",
        "Empires centraux Programmes\u00a0: sel",
    ),
}


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_turn_without_a_pursuit_posts_no_round_for_the_reorder(env: Env, lang: str) -> None:
    cid = await start_wings(env, f"quiet-{lang}")
    if lang != "en":
        await env.svc.change_settings(cid, GM, SettingsChange(locale=lang), "table")
    start = len(env.sender.sent)
    await lock_all(env, cid)  # turn 1's programs; nobody tails anyone yet
    status = await env.svc.status(cid)
    assert status.round is not None and (status.round.turn, status.round.kind) == (2, "program")
    posted = [
        (a.kind, a.text) for target, a, _ in env.sender.sent[start:] if target.kind == "channel"
    ]
    reorder, summary_title, opened, program_salt = WORDS[lang]
    assert not [text for _, text in posted if reorder in text], posted
    # One reveal (the programs'), the summary, the next round: nothing for the reorder.
    assert [kind for kind, _ in posted if kind == "reveal"] == ["reveal"]
    summary = next(text for kind, text in posted if kind == "turn-summary")
    assert summary_title in summary and opened in summary
    assert summary.count(program_salt) == 1  # the program's receipts, checkable at once
    assert summary.count("•") == 2  # both sides' programs; no empty reorder choice
    async with env.repo.read() as tx:
        rounds = [r for r in await tx.rounds(cid) if r.turn == 1]
    assert [(r.kind, r.status) for r in rounds] == [
        ("program", "resolved"),
        ("reorder", "resolved"),
    ]

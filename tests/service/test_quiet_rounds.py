"""A round nobody decides in is not announced (design/ux.md: quiet is a feature).

A Wings turn without a pursuit ends on a "Tailing reorder" round that asks neither side
anything: both are locked as it opens and it flies the turn at once. The channel used to
get a round message for it ("orders are open", then "revealed") and a reveal of nothing;
now it gets neither. Nor does the programs' round, sealed until the turn ends, get a reveal
of nothing (issue 27): the turn's end shows the programs flown, in the turn's own message
(its first round's, edited), with the receipts it opens in one checked line."""

from __future__ import annotations

import pytest

from bot.service_settings import SettingsChange
from tests.service.support import Env
from tests.service.wings_play import GM, lock_all, start_wings

WORDS = {
    "en": ("Tailing reorder", "— flown", "Receipts: 2 locked, 2 opened ✔", "salt `"),
    "fr": ("réordonner", "— volé", "Reçus\u00a0: verrouillés 2, ouverts 2 ✔", "sel `"),
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
    reorder, flown, receipts, salt = WORDS[lang]
    assert not [text for _, text in posted if reorder in text], posted
    # No reveal at all: the programs' would show nothing, the reorder's asked nobody.
    assert [kind for kind, _ in posted if kind == "reveal"] == []
    (summary,) = [a for target, a, _ in env.sender.sent[start:] if a.kind == "turn-summary"]
    assert flown in summary.text.split("\n")[0] and receipts in summary.text
    assert salt not in summary.text  # the salts are in /receipt and the export
    async with env.repo.read() as tx:
        first = min(r.id for r in await tx.rounds(cid) if r.turn == 1)
    assert summary.edit_of == f"round:{first}"  # the turn told in its own round message
    async with env.repo.read() as tx:
        rounds = [r for r in await tx.rounds(cid) if r.turn == 1]
    assert [(r.kind, r.status) for r in rounds] == [
        ("program", "resolved"),
        ("reorder", "resolved"),
    ]

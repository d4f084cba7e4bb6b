"""A reveal never shows a side with a blank choice, nor a reveal of nothing: a round whose
choices are all sealed until the turn ends (a Wings program) or that asked nothing is not
revealed; the turn's end tells the turn with its receipts, in the campaign's language."""

from __future__ import annotations

from bot.service_settings import SettingsChange
from tests.service.support import CHANNEL, GUILD, Env, pace
from tests.service.wings_play import CENTRAL, ENTENTE, GM, lock_all, start_wings


async def _raid(env: Env, seed: str, locale: str = "en") -> None:
    """A Dambuster raid in a channel of its own, its first round locked by the Lancaster:
    the guns, who follow a standing order, had nothing to decide."""
    info = await env.svc.create_campaign(
        GUILD, CHANNEL + 1, GM, "dambuster-eder", pace(), seed=seed, ruleset="wings",
        locale=locale,
    )  # fmt: skip
    await env.svc.join(info.id, ENTENTE, "entente")
    await env.svc.join(info.id, CENTRAL, "central")
    await env.svc.start(info.id, GM)
    round_id = await env.fill(info.id, ENTENTE)
    await env.svc.lock(info.id, ENTENTE, round_id)
    await env.worker().deliver_due()


def _reveals(env: Env) -> list[str]:
    return [
        a.text + " | " + " ".join(a.alt.values())
        for target, a, _ in env.sender.sent
        if target.kind == "channel" and a.kind == "reveal"
    ]


async def test_a_reveal_that_would_show_nothing_is_not_posted(env: Env) -> None:
    # A Wings program is sealed until the turn ends, and a raid's guns decide nothing: a
    # "revealed" message would reveal nothing (design/ux.md), so none is posted; the turn
    # is told at its end, with the receipts it opened.
    cid = await start_wings(env, "reveal-words")
    await lock_all(env, cid)
    await _raid(env, "reveal-words-raid")
    assert _reveals(env) == []
    told = [
        a.text for t, a, _ in env.sender.sent if t.kind == "channel" and a.kind == "turn-summary"
    ]
    assert len(told) >= 2 and all("Receipts: " in text for text in told), told
    assert not [text for text in told if ":  —" in text]  # never a blank choice
    del cid


async def test_the_words_are_french_in_a_french_campaign(env: Env) -> None:
    cid = await start_wings(env, "reveal-words-fr")
    await env.svc.change_settings(cid, GM, SettingsChange(locale="fr"), "French table")
    await lock_all(env, cid)
    await _raid(env, "reveal-words-raid-fr", "fr")
    told = [
        a.text for t, a, _ in env.sender.sent if t.kind == "channel" and a.kind == "turn-summary"
    ]
    assert any("— volé" in text and "Reçus\u00a0: " in text for text in told), told

"""A reveal never shows a side with a blank choice: it says the orders are sealed until
the turn ends (a Wings program, opened when the turn flies) or that the side had nothing
to decide, in the campaign's language, in the text and in the reveal image's alt text."""

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


async def test_a_sealed_program_and_an_empty_round_read_as_such(env: Env) -> None:
    cid = await start_wings(env, "reveal-words")
    await lock_all(env, cid)  # turn 1's programs (the tailing reorder nobody decides is quiet)
    program = next(r for r in _reveals(env) if "Programs revealed" in r)
    await _raid(env, "reveal-words-raid")  # the guns follow a standing order
    reorder = next(r for r in _reveals(env) if "Central Powers: nothing to decide" in r)
    assert "Entente: Orders: sealed until the turn ends" not in program  # no field label
    assert "Entente: sealed until the turn ends — receipt" in program
    assert "Central Powers: sealed until the turn ends — receipt" in program
    assert "Central Powers: nothing to decide — receipt" in reorder
    assert ":  —" not in program + reorder  # never a blank choice
    assert "Entente: sealed until the turn ends" in program.split(" | ")[1]  # the image's alt


async def test_the_words_are_french_in_a_french_campaign(env: Env) -> None:
    cid = await start_wings(env, "reveal-words-fr")
    await env.svc.change_settings(cid, GM, SettingsChange(locale="fr"), "French table")
    await lock_all(env, cid)
    await _raid(env, "reveal-words-raid-fr", "fr")
    text = " ".join(_reveals(env))
    assert "scellés jusqu'à la fin du tour" in text and "rien à décider" in text

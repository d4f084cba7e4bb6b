"""A reveal never shows a side with a blank choice: it says the orders are sealed until
the turn ends (a Wings program, opened when the turn flies) or that the side had nothing
to decide, in the campaign's language, in the text and in the reveal image's alt text."""

from __future__ import annotations

from bot.service_settings import SettingsChange
from tests.service.support import Env
from tests.service.wings_play import GM, lock_all, start_wings


def _reveals(env: Env) -> list[str]:
    return [
        a.text + " | " + " ".join(a.alt.values())
        for target, a, _ in env.sender.sent
        if target.kind == "channel" and a.kind == "reveal"
    ]


async def test_a_sealed_program_and_an_empty_round_read_as_such(env: Env) -> None:
    cid = await start_wings(env, "reveal-words")
    await lock_all(env, cid)  # turn 1's programs, then the tailing reorder nobody decides
    reveals = _reveals(env)
    program = next(r for r in reveals if "Programs revealed" in r)
    reorder = next(r for r in reveals if "Tailing reorder revealed" in r)
    assert "Entente: Orders: sealed until the turn ends" not in program  # no field label
    assert "Entente: sealed until the turn ends — receipt" in program
    assert "Central Powers: sealed until the turn ends — receipt" in program
    assert "Entente: nothing to decide — receipt" in reorder
    assert ":  —" not in program + reorder  # never a blank choice
    assert "Entente: sealed until the turn ends" in program.split(" | ")[1]  # the image's alt


async def test_the_words_are_french_in_a_french_campaign(env: Env) -> None:
    cid = await start_wings(env, "reveal-words-fr")
    await env.svc.change_settings(cid, GM, SettingsChange(locale="fr"), "French table")
    await lock_all(env, cid)
    text = " ".join(_reveals(env))
    assert "scellés jusqu'à la fin du tour" in text and "rien à décider" in text

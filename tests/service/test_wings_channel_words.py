"""What the Wings channel and panels say around a mission (ux-wings4), in en and fr:

- a debrief reveals nothing (its picks are sealed in their receipts, opened in one line
  at its end; issue 27: a reveal of nothing is not posted);
- a debrief's "Skill 1" names the pilot who earned it;
- a turn's message ("Turn N · Programs — flown": a squadron campaign counts missions, not
  a fixed number of turns) says in one line what the turn did (planes down, planes off the
  table), from the turn's public events."""

from __future__ import annotations

import pytest

from bot.service_settings import SettingsChange
from tests.service.support import Env
from tests.service.wings_play import ENTENTE, GM, lock_all, start_wings

WORDS = {
    "en": {
        "sealed": "sealed until the turn ends",
        "debrief": "Debrief revealed",
        "picks": "picks sealed in this receipt, opened below; equipment and purchases bought "
        "stay sealed until the campaign's end",
        "earned": "{name} has earned a skill: ",
        "summary": "**Turn {turn} · ",
        "receipts": "Receipts: ",
        "down": "This turn — planes down: ",
        "calm": "This turn — no plane or balloon down",
        "left": "planes off the table: ",
    },
    "fr": {
        "sealed": "scellés jusqu'à la fin du tour",
        "debrief": "Débriefing",
        "picks": "choix scellés dans ce reçu, ouvert ci-dessous\u00a0; l’équipement et les achats "
        "restent scellés jusqu’à la fin de la campagne",
        "earned": "{name} a gagné une compétence\u00a0: ",
        "summary": "**Tour {turn} · ",
        "receipts": "Reçus\u00a0: ",
        "down": "Ce tour — avions abattus\u00a0: ",
        "calm": "Ce tour — aucun avion ni ballon abattu",
        "left": "avions sortis de la table\u00a0: ",
    },
}
DOWN = ("shot-down", "exploded", "crashed")


async def _to_the_debrief(env: Env, lang: str) -> int:
    cid = await start_wings(env, "quiet")
    if lang != "en":
        await env.svc.change_settings(cid, GM, SettingsChange(locale=lang), "table")
    for _ in range(60):
        status = await env.svc.status(cid)
        assert status.round is not None
        if status.round.kind == "debrief":
            return cid
        await lock_all(env, cid)
    raise AssertionError("no debrief")


def _channel(env: Env, kind: str) -> list[str]:
    return [
        a.text for target, a, _ in env.sender.sent if target.kind == "channel" and a.kind == kind
    ]


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_debrief_reveals_nothing_and_its_turn_carries_the_receipts(
    env: Env, lang: str
) -> None:
    # Its picks are sealed in their receipts (issue 27): no reveal of nothing is posted;
    # the debrief's turn opens its receipts in one line at its end.
    words = WORDS[lang]
    cid = await _to_the_debrief(env, lang)
    before = len(_channel(env, "turn-summary"))
    await lock_all(env, cid)
    assert not [text for text in _channel(env, "reveal") if words["debrief"] in text]
    debrief_turn = _channel(env, "turn-summary")[before]
    assert words["receipts"] in debrief_turn, debrief_turn


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_debrief_skill_names_the_pilot_who_earned_it(env: Env, lang: str) -> None:
    words = WORDS[lang]
    cid = await _to_the_debrief(env, lang)
    pilots = (await env.svc.status(cid)).view.data["pilots"].values()
    earned = [p["name"] for p in pilots if p["side"] == "entente" and p.get("skill_picks")]
    skills = [
        d for d in (await env.svc.panel(cid, ENTENTE)).decisions if d.field.startswith("skill")
    ]
    assert earned and len(skills) == len(earned)
    dm = [
        a.text for target, a, _ in env.sender.sent if target.kind == "dm" and target.id == ENTENTE
    ]
    panel = dm[-1]
    for name in earned:
        assert words["earned"].format(name=name) in panel, panel


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_end_of_a_turn_says_what_happened(env: Env, lang: str) -> None:
    words = WORDS[lang]
    cid = await _to_the_debrief(env, lang)
    async with env.repo.read() as tx:
        events = [e for e in await tx.events(cid) if e.source == "engine"]
    flown = sorted({e.turn for e in events if e.kind == "card-revealed"})
    fell = {e.turn for e in events if e.kind in DOWN}
    assert fell and set(flown) - fell  # the seed gives both kinds of turn
    summaries = _channel(env, "turn-summary")
    for turn in flown:
        title = words["summary"].format(turn=turn)
        summary = next(s for s in summaries if s.split("\n")[0].startswith(title))
        second = summary.split("\n")[1]
        if turn in fell:
            assert second.startswith(words["down"]), summary
        elif "left-table" in {e.kind for e in events if e.turn == turn}:
            assert words["left"] in second, summary
        else:
            assert second == words["calm"], summary


async def test_a_flown_turn_edits_its_round_message_once(env: Env) -> None:
    """The round message of a turn that resolves becomes the turn as flown. It used to be
    edited twice in the same delivery, first to "revealed" then to "flown": one request
    too many, and a flash of a state already past. Now only the flown turn is sent."""
    cid = await start_wings(env, "quiet")
    status = await env.svc.status(cid)
    assert status.round is not None
    env.sender.sent.clear()
    await lock_all(env, cid)
    edits = [
        a.kind
        for target, a, edited in env.sender.sent
        if target.kind == "channel"
        and edited is not None
        and a.edit_of == f"round:{status.round.id}"
    ]
    assert edits == ["turn-summary"], edits
    flown = _channel(env, "turn-summary")[-1]
    assert "**Turn 1 · " in flown, flown

"""The log tells every strike in full (issue 16): the strike image cuts its air combat list
at eight duels and its flak and bombing lists where they stop fitting ("… and N more in the
log"); through the real service, every duel, flak row and bombing run of every strike is a
line of ``/log``, named and counted, in English and French, and only once the strike flew."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.logtext import describe
from engine.zero.loader import default_catalog
from engine.zero.report import StrikeReport
from rendering.zero.log_words import _aircraft_names
from tests.service.support import ALL, JAP, Env

IMAGE_DUELS = (
    8  # rendering/zero/strike.py MAX_DUELS: the image shows at most 8 duels (6 on main now)
)


async def _play_turn(env: Env, cid: int) -> int:
    """One whole turn, both sides sending their largest strike; returns the turn played."""
    status = await env.svc.status(cid)
    assert status.round is not None
    turn = status.round.turn
    while True:
        status = await env.svc.status(cid)
        if status.round is None or status.round.turn != turn:
            return turn
        await _play_round(env, cid)


async def _play_round(env: Env, cid: int) -> None:
    """The open round locked by both sides, each sending its largest strike."""
    for user in (JAP, ALL):
        panel = await env.svc.panel(cid, user)
        for decision in panel.decisions:
            ids = [o.id for o in decision.options]
            pick = next((i for i in ids if i.startswith("large")), ids[0])
            await env.svc.draft(cid, user, panel.round_id, decision.field, pick)
        await env.svc.lock(cid, user, panel.round_id)


async def _log_lines(env: Env, cid: int, turn: int, lang: str) -> list[str]:
    lines: list[str] = []
    page = 1
    while True:
        result = await env.svc.log(cid, page=page, per_page=50, turn=turn)
        lines += [describe(e.kind, e.data, lang, turn=e.turn) for e in result.entries]
        if page >= result.pages:
            return lines
        page += 1


async def _reports(env: Env, cid: int, turn: int) -> Sequence[StrikeReport]:
    rules = env.svc.rulesets.get("carrier").rules
    async with env.repo.read() as tx:
        campaign = await tx.campaign(cid)
        assert campaign is not None
        from bot.service_states import state_of

        state = await state_of(tx, rules, campaign.snapshot_id)
    return rules.strike_reports(state, turn)


def _pairs(report: StrikeReport) -> dict[tuple[str, str], list[Any]]:
    pairs: dict[tuple[str, str], list[Any]] = {}
    for exchange in report.exchanges:
        pairs.setdefault((exchange.attacker, exchange.defender), []).append(exchange)
    return pairs


async def test_a_strike_with_more_duels_than_its_image_has_every_one_in_the_log(
    env: Env,
) -> None:
    cid = await env.campaign("midway")
    # Secret until flown: while the turn's first round is resolved but its strikes are not,
    # the log holds no detail of them.
    first = await env.svc.panel(cid, JAP)
    await _play_round(env, cid)
    after_orders = await env.svc.panel(cid, JAP)
    assert after_orders.round_id != first.round_id
    kinds = {e.kind for e in (await env.svc.log(cid, per_page=50, turn=1)).entries}
    assert "orders-revealed" in kinds and not kinds & {"strike-duel", "strike-flak"}

    big: StrikeReport | None = None
    turn = await _play_turn(env, cid)
    while big is None and turn < 4:
        for report in await _reports(env, cid, turn):
            if len(_pairs(report)) > IMAGE_DUELS and report.bomb_runs:
                big = report
                break
        else:
            turn = await _play_turn(env, cid)
    assert big is not None, "no strike with more duels than the image shows"
    names = _aircraft_names(default_catalog())

    for lang, combat, against, point in (
        ("en", "air combat", "against", "damage point"),
        ("fr", "combat aérien", "contre", "point"),
    ):
        lines = await _log_lines(env, cid, big.turn, lang)
        duel_lines = [line for line in lines if f" {big.id}, {combat}" in line]
        assert len(duel_lines) == len(_pairs(big)) > IMAGE_DUELS
        by_uid = {a.uid: a for a in big.aircraft}
        for (attacker, defender), exchanges in _pairs(big).items():
            a, d = names[by_uid[attacker].aircraft], names[by_uid[defender].aircraft]
            attacks = len(exchanges)
            unit = ("attaque" if attacks == 1 else "attaques") if lang == "fr" else "attack"
            match = [
                line
                for line in duel_lines
                if f": {a} (" in line and f"{against} {d} (" in line and f"{attacks} {unit}" in line
            ]
            assert match, f"{lang}: no line for {attacker} → {defender} in {duel_lines}"
            dealt = sum(e.damage_to_defender for e in exchanges)
            if dealt:
                assert any(f" {dealt} {point}" in line for line in match)
        # Every bombing run, with its points on the target.
        runs = [line for line in lines if f" {big.id}, " in line and " altitude" in line]
        for run in big.bomb_runs:
            bomber = names[by_uid[run.uid].aircraft]
            assert any(bomber in line and f"{run.points} {point}" in line for line in runs)
        # Every flak row the image draws (one per phase, kind and aircraft).
        flak_rows = {(s.phase, s.kind, s.against) for s in big.flak}
        flak_lines = [line for line in lines if f" {big.id}, " in line and "Flak" in line]
        flak_lines = [line for line in flak_lines if line not in runs]
        assert len(flak_lines) == len(flak_rows)
        # Aircraft by name, never by the report's ids.
        assert not any(uid in line for line in lines for uid in by_uid)


def test_an_old_event_and_an_aircraft_kept_by_id_still_read() -> None:
    duel = {
        "strike": "T2-J1",
        "phases": ["ingress"],
        "attacking": {"uid": "J-S-A6M2-1L"},
        "defending": {
            "side": "allied",
            "aircraft": "F4F",
            "role": "wingman",
            "number": "2",
            "pilot": None,
            "fate": "destroyed",
        },
        "attacks": 1,
        "to_defender": 1,
        "to_attacker": 0,
    }
    line = describe("strike-duel", duel, "en")
    assert line == (
        "Strike T2-J1, air combat (Ingress): J-S-A6M2-1L against"
        " F4F Wildcat (wingman 2, destroyed), 1 attack: hit for 1 damage point"
    )
    french = describe("strike-duel", duel, "fr")
    assert "F4F Wildcat (ailier 2, détruit), 1 attaque\u00a0: touché pour 1 point de dégâts" in (
        french
    )
    # A log written before the detail existed: a strike is its one line, as it was.
    flown = {"strike": "T2-J1", "kind": "carrier", "attacker": "japanese", "target": "midway"}
    assert describe("strike-flown", flown | {"points": 2, "hidden": False}, "en").startswith(
        "Strike T2-J1 (from the carriers): Japanese against"
    )

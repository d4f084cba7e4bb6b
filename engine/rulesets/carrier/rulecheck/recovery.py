"""Checks of the recovery of Damaged aircraft (25.7, with 25.34)."""

from __future__ import annotations

from typing import Any

from engine.rulesets.carrier.rulecheck.core import Campaign, Findings, where
from engine.rulesets.carrier.rulecheck.data import RANGE, is_attack


def _range(c: Campaign, record: dict[str, Any], place: str, opponent: str) -> int:
    """25.34: a carrier fleet counts its own tactic; any other force (Midway, Port Moresby,
    the Invasion Force, the transports) the tactic of the carrier fleet it fights."""
    if c.places[place].carrier_fleet:
        return RANGE[c.tactic(record, c.places[place].side)]
    return RANGE[c.tactic(record, opponent)]


def cards_due(c: Campaign, record: dict[str, Any], strike: dict[str, Any]) -> int:
    """25.71: the range values of both forces in the fight; authored 3.7.1: land-based
    bombers of resource #8 test with one card."""
    if strike["kind"] == "land-based":
        return 1
    origin, target = strike["origin"], strike["target"]
    return _range(c, record, origin, c.places[target].side) + _range(
        c, record, target, c.places[origin].side
    )


def recovery_draws(c: Campaign, f: Findings) -> None:
    """25.71: each Damaged strike aircraft draws the cards due and is lost on IMS/OTS;
    25.72: CAP aircraft (and the defender's) never test; every Damaged one tests once."""
    for record in c.turns:
        strikes = {s["id"]: s for s in record["strikes"]}
        tested: dict[tuple[str, str], dict[str, Any]] = {}
        for draw in record["recovery"]:
            strike = strikes.get(draw["strike"])
            if not f.check(
                strike is not None,
                "recovery-cap",
                "25.72",
                f"turn {record['turn']}: a recovery draw for unknown strike {draw['strike']}",
            ):
                continue
            assert strike is not None
            outcome = next((a for a in strike["aircraft"] if a["uid"] == draw["uid"]), None)
            f.check(
                outcome is not None
                and outcome["group"] == "strike"
                and outcome["side"] == strike["attacker"],
                "recovery-cap",
                "25.72",
                f"{where(record, strike)}: {draw['uid']} tested for recovery but is not one of"
                " the strike's own aircraft (CAP lands automatically)",
            )
            f.check(
                (strike["id"], draw["uid"]) not in tested,
                "recovery-cap",
                "25.72",
                f"{where(record, strike)}: {draw['uid']} tested twice",
            )
            tested[(strike["id"], draw["uid"])] = draw
            due = cards_due(c, record, strike)
            f.check(
                len(draw["cards"]) == due,
                "recovery-cards",
                "25.71",
                (
                    f"{where(record, strike)}: {draw['uid']} drew {len(draw['cards'])}"
                    f" recovery cards, the rule gives {due} (tactics"
                    f" {c.tactic(record, 'japanese')}/{c.tactic(record, 'allied')})"
                ),
            )
            lost = any(is_attack(c.data.cards[card]) for card in draw["cards"])
            f.check(
                bool(draw["lost"]) == lost
                and (outcome is None or bool(outcome["lost_on_recovery"]) == lost),
                "recovery-loss",
                "25.71",
                f"{where(record, strike)}: {draw['uid']} drew {draw['cards']}, lost should"
                f" be {lost}",
            )
        for strike in record["strikes"]:
            if strike["kind"] == "scout" or strike["hidden"]:
                continue  # a hidden strike found nothing and lands (authored #9)
            for outcome in strike["aircraft"]:
                if outcome["group"] != "strike" or outcome["side"] != strike["attacker"]:
                    continue
                damaged = outcome["state"] == "damaged" or outcome["lost_on_recovery"]
                f.check(
                    not damaged or (strike["id"], outcome["uid"]) in tested,
                    "recovery-cap",
                    "25.72",
                    f"{where(record, strike)}: {outcome['uid']} came back Damaged and made"
                    " no recovery draw",
                )


CHECKS = (recovery_draws,)

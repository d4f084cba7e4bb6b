"""Checks of the Over-Target rules: strafing, dive and torpedo attacks, bomb cards (21.x)."""

from __future__ import annotations

import itertools
from typing import Any

from engine.rulesets.carrier.rulecheck.core import Campaign, Findings, where
from engine.rulesets.carrier.rulecheck.data import BANDS

VL, L, M = BANDS["VL"], BANDS["L"], BANDS["M"]
# Authored 3.4 (the Bombing Display): bomb cards added by band.
LEVEL = {0: 1, 1: 0, 2: -1, 3: -2, 4: -3}
SATURATION = {0: 1, 1: 1, 2: 0, 3: 0, 4: -1}


def _outcome(strike: dict[str, Any], uid: str) -> dict[str, Any]:
    return next(a for a in strike["aircraft"] if a["uid"] == uid)


def strafing(c: Campaign, f: Findings) -> None:
    """25.66 / 21.71: a carrier fleet is never strafed; strafing only at Very Low."""
    for record, strike in c.strikes():
        fleet = c.places[strike["target"]].carrier_fleet
        for run in strike["bomb_runs"]:
            if run["mode"] != "strafe":
                continue
            f.check(
                not fleet,
                "strafe-fleet",
                "25.66",
                f"{where(record, strike)}: {run['uid']} strafed a carrier fleet",
            )
            f.check(
                run["band"] == VL,
                "strafe-band",
                "21.71",
                f"{where(record, strike)}: {run['uid']} strafed above Very Low",
            )
        for shot in strike["flak"]:
            if shot["kind"] == "strafe":
                f.check(
                    not fleet,
                    "strafe-fleet",
                    "25.66",
                    f"{where(record, strike)}: strafing flak over a carrier fleet",
                )


def _band_when(strike: dict[str, Any], uid: str, phase: str, moment: str) -> int | None:
    for turn in strike.get("turns", ()):
        if turn["phase"] == phase:
            value = turn[moment].get(uid)
            return None if value is None else int(value)
    return None


def dives(c: Campaign, f: Findings) -> None:
    """21.41-21.44: a dive starts at Medium or Low and drops one band, which earns no card
    (a plain descent earns its Leader one, 3.2.2); Low draws Bomb rating +1, Very Low +2."""
    for record, strike in c.strikes():
        brakes = [m for m in strike.get("moves", ()) if m.get("dive_brakes")]
        descents = [
            m
            for m in strike.get("moves", ())
            if not m.get("dive_brakes") and m["after"] < m["before"]
        ]
        # 3.2.2 / 21.42: one "dive" card per plain descent, none for a dive-bombing drop.
        f.check(
            sum(1 for d in strike.get("draws", ()) if d["purpose"] == "dive") == len(descents),
            "dive",
            "21.42",
            (
                f"{where(record, strike)}: {len(descents)} descents but"
                f" {sum(1 for d in strike['draws'] if d['purpose'] == 'dive')} descent cards"
            ),
        )
        for run in strike["bomb_runs"]:
            if run["mode"] != "dive" or not run["cards"]:
                continue
            drop = next((m for m in brakes if run["uid"] in m["uids"]), None)
            f.check(
                drop is not None
                and drop["before"] in (M, L)
                and drop["after"] == drop["before"] - 1 == run["band"],
                "dive",
                "21.41",
                (
                    f"{where(record, strike)}: {run['uid']} dive-bombed at band"
                    f" {run['band']} without dropping one band from Medium or Low ({drop})"
                ),
            )
            outcome = _outcome(strike, run["uid"])
            rating = c.data.aircraft[outcome["aircraft"]].bomb.get("dive", 0)
            extra = 1 if "BM" in c.pilot_skills(record, run["uid"], strike["attacker"]) else 0
            due = rating + (2 if run["band"] == VL else 1) + extra
            f.check(
                len(run["cards"]) == due,
                "dive",
                "21.43" if run["band"] == L else "21.44",
                (
                    f"{where(record, strike)}: {run['uid']} dived to band {run['band']} and"
                    f" drew {len(run['cards'])} bomb cards, the rule gives {due}"
                ),
            )


def torpedoes(c: Campaign, f: Findings) -> None:
    """21.51-21.55: only torpedo aircraft, only on naval targets, one card, at Very Low;
    a fighter-bomber is at Very Low by the end of its Ingress turn."""
    for record, strike in c.strikes():
        naval = c.places[strike["target"]].sheet in c.data.naval_sheets
        for run in strike["bomb_runs"]:
            if run["mode"] != "torpedo":
                continue
            outcome = _outcome(strike, run["uid"])
            kind = c.data.aircraft[outcome["aircraft"]]
            extra = 1 if "BM" in c.pilot_skills(record, run["uid"], strike["attacker"]) else 0
            f.check(
                "torpedo" in kind.bomb and naval,
                "torpedo",
                "21.52",
                f"{where(record, strike)}: {run['uid']} ({kind.code}) dropped a torpedo on a"
                " target that is not a ship, or has no torpedo rating",
            )
            f.check(
                run["band"] == VL and len(run["cards"]) in (1, 1 + extra),
                "torpedo",
                "21.55",
                f"{where(record, strike)}: {run['uid']} torpedo run at band {run['band']} with"
                f" {len(run['cards'])} cards (one card, at Very Low)",
            )
            if kind.cls == "fighter-bomber":
                band = _band_when(strike, run["uid"], "ingress", "end")
                f.check(
                    band == VL,
                    "torpedo",
                    "21.53",
                    f"{where(record, strike)}: {run['uid']} ended its Ingress turn at band"
                    f" {band}, not Very Low",
                )


def bomb_cards(c: Campaign, f: Findings) -> None:
    """21.32 / 21.62 with the authored Bombing Display (3.4): level and saturation cards by
    band; 18.32: a Norden sight adds two; 19.25: a BM pilot one. A bomber that came back
    Damaged may have drawn with either side's rating (the flak hits after the draw)."""
    for record, strike in c.strikes():
        for run in strike["bomb_runs"]:
            if run["mode"] not in ("level", "saturation"):
                continue
            outcome = _outcome(strike, run["uid"])
            kind = c.data.aircraft[outcome["aircraft"]]
            add = LEVEL if run["mode"] == "level" else SATURATION
            extra = 1 if "BM" in c.pilot_skills(record, run["uid"], strike["attacker"]) else 0
            ratings = {kind.bomb.get(run["mode"], 0)}
            if outcome["state"] != "ok":
                ratings.add(kind.damaged_bomb.get(run["mode"], 0))
            allowed = {
                0 if r <= 0 else max(0, r + add[run["band"]]) + (2 if kind.norden else 0) + extra
                for r in ratings
            }
            f.check(
                len(run["cards"]) in allowed,
                "norden" if kind.norden else "bomb-cards",
                "18.32" if kind.norden else ("21.32" if run["mode"] == "level" else "21.62"),
                (
                    f"{where(record, strike)}: {run['uid']} ({kind.code}) {run['mode']}"
                    f" bombing at band {run['band']} drew {len(run['cards'])} cards, the rule"
                    f" gives {sorted(allowed)}" + (" (Norden +2)" if kind.norden else "")
                ),
            )


def strike_points(c: Campaign, f: Findings) -> None:
    """21.83: the damage put on the target is what its bomb runs scored."""
    for record, strike in c.strikes():
        if strike["kind"] == "scout":
            continue
        total = sum(run["points"] for run in strike["bomb_runs"])
        f.check(
            strike["target_points"] == total,
            "strike-points",
            "21.83",
            f"{where(record, strike)}: {strike['target_points']} points on the target, its"
            f" runs scored {total}",
        )


def one_deck(c: Campaign, f: Findings) -> None:
    """Authored 3.2.1 / 3.3: a strike draws from one 110-card Action deck; no card comes up
    twice before the discards are shuffled into a new pile (``reshuffles``)."""
    for record, strike in c.strikes():
        cards = [card for draw in strike.get("draws", ()) for card in draw["cards"]]
        cuts = [0, *strike.get("reshuffles", ()), len(cards)]
        for start, end in itertools.pairwise(cuts):
            pile = cards[start:end]
            twice = sorted({card for card in pile if pile.count(card) > 1})
            f.check(
                not twice and all(card in c.data.cards for card in pile),
                "deck",
                "authored 3.2.1",
                f"{where(record, strike)}: cards {twice} drawn twice from one pile, or a card"
                " not in the deck",
            )


CHECKS = (strafing, dives, torpedoes, bomb_cards, strike_points, one_deck)

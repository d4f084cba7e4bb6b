"""Checks of what the commanders chose and the order things flew in (25.1-25.6)."""

from __future__ import annotations

from engine.rulesets.carrier.rulecheck.core import SIDES, Campaign, Findings, enemy, where

NO_JUMP = {("long", "close"), ("close", "long")}  # 25.32


def committed_picks(c: Campaign, f: Findings) -> None:
    """25.1 III A/B: the turn was played with the choices the commanders committed."""
    for record in c.turns:
        for side in SIDES:
            picks = record["picks"][side]
            orders = c.committed.get((record["turn"], "orders", side))
            resource = c.committed.get((record["turn"], "resource", side))
            played = (picks["tactic"], picks["flight_ops"], str(picks["resource"]))
            wanted = (
                orders.get("fleet_tactic") if orders else None,
                orders.get("flight_ops") if orders else None,
                resource.get("resource") if resource else None,
            )
            f.check(
                played == wanted,
                "committed-picks",
                "25.1",
                f"turn {record['turn']}, {side}: played {played}, committed {wanted}",
            )


def tactic_sequence(c: Campaign, f: Findings) -> None:
    """25.32: never Close right after Long, nor Long right after Close."""
    for before, record in zip(c.turns, c.turns[1:], strict=False):
        for side in SIDES:
            pair = (c.tactic(before, side), c.tactic(record, side))
            f.check(
                pair not in NO_JUMP,
                "tactic-sequence",
                "25.32",
                f"turn {record['turn']}, {side}: {pair[1]} right after {pair[0]}",
            )


def flight_ops_sequence(c: Campaign, f: Findings) -> None:
    """25.42: no Large Strike two turns in a row; 25.66: the target is one of the sheet's;
    authored 3.7.4: under the historical opening a turn-1 strike goes for the listed places."""
    targets = c.sheet.get("strike_targets", {})
    for index, record in enumerate(c.turns):
        for side in SIDES:
            size, _, target = record["picks"][side]["flight_ops"].partition(":")
            if index:
                last = c.turns[index - 1]["picks"][side]["flight_ops"].partition(":")[0]
                f.check(
                    not (size == "large" and last == "large"),
                    "large-twice",
                    "25.42",
                    f"turn {record['turn']}, {side}: a Large Strike two turns in a row",
                )
            if size != "none":
                f.check(
                    target in targets.get(side, ()),
                    "strike-target",
                    "25.66",
                    f"turn {record['turn']}, {side}: {target!r} is not a target of the sheet",
                )
            opening = c.sheet.get("optional_opening_targets", {}).get(side)
            if c.sheet.get("historical_opening") and record["turn"] == 1 and opening:
                f.check(
                    size == "none" or target in opening,
                    "historical-opening",
                    "authored 3.7.4",
                    f"turn 1, {side}: the historical opening strikes {opening}, not {target!r}",
                )


def resource_use(c: Campaign, f: Findings) -> None:
    """25.52: one resource a turn, each once per campaign except No Resource, never one
    reserved for the other side."""
    for side in SIDES:
        used: dict[int, int] = {}
        for record in c.turns:
            number = c.resource(record, side)
            entry = c.data.resources.get(number)
            f.check(
                entry is not None,
                "resource-use",
                "25.52",
                f"turn {record['turn']}, {side}: resource #{number} is not on the list",
            )
            if entry is None:
                continue
            owner = entry.get("side")
            f.check(
                owner in (None, side),
                "resource-use",
                "25.52",
                f"turn {record['turn']}, {side}: resource #{number} belongs to the {owner} side",
            )
            if not entry.get("repeatable", False):
                f.check(
                    number not in used,
                    "resource-use",
                    "25.52",
                    (
                        f"turn {record['turn']}, {side}: resource #{number} already used"
                        f" on turn {used.get(number)}"
                    ),
                )
                used.setdefault(number, record["turn"])


def strike_order(c: Campaign, f: Findings) -> None:
    """25.53: the lower resource number strikes first; equal numbers strike together."""
    for record in c.turns:
        res = {side: c.resource(record, side) for side in SIDES}
        together = res["japanese"] == res["allied"]
        carriers = [s for s in record["strikes"] if s["kind"] == "carrier"]
        for strike in carriers:
            f.check(
                bool(strike["simultaneous"]) == together,
                "strike-order",
                "25.53",
                (
                    f"{where(record, strike)}: resources #{res['japanese']} and"
                    f" #{res['allied']} but simultaneous={strike['simultaneous']}"
                ),
            )
        if len(carriers) == 2 and not together:
            first = min(SIDES, key=lambda side: res[side])
            f.check(
                carriers[0]["attacker"] == first and carriers[0]["order"] < carriers[1]["order"],
                "strike-order",
                "25.53",
                (
                    f"turn {record['turn']}: {carriers[0]['attacker']} struck first, but"
                    f" {first} picked the lower resource (#{res[first]} against"
                    f" #{res[enemy(first)]})"
                ),
            )


def strikes_follow_flight_ops(c: Campaign, f: Findings) -> None:
    """25.43 / 25.61: a carrier strike flies only for a side that chose a strike, against
    the target it chose."""
    for record in c.turns:
        for strike in record["strikes"]:
            if strike["kind"] != "carrier":
                continue
            size, _, target = record["picks"][strike["attacker"]]["flight_ops"].partition(":")
            f.check(
                size != "none" and strike["target"] == target,
                "flight-ops-strike",
                "25.43",
                f"{where(record, strike)}: the side chose Flight Ops"
                f" {record['picks'][strike['attacker']]['flight_ops']!r}",
            )


RANK = {"scout": 0, "airfield": 1, "carrier": 2, "land-based": 2}


def turn_sequence(c: Campaign, f: Findings) -> None:
    """25.61 (authored 3.7.2): scouts, then Midway's strike, then the carrier strikes, each
    side's land-based strike right after its own carrier strike."""
    for record in c.turns:
        strikes = record["strikes"]
        ranks = [RANK.get(s["kind"], 2) for s in strikes]
        f.check(
            ranks == sorted(ranks),
            "turn-sequence",
            "25.61",
            (f"turn {record['turn']}: strikes flew in the order {[s['id'] for s in strikes]}"),
        )
        for index, strike in enumerate(strikes):
            if strike["kind"] != "land-based":
                continue
            own = [i for i, s in enumerate(strikes) if s["kind"] == "carrier"]
            own = [i for i in own if strikes[i]["attacker"] == strike["attacker"]]
            if own:
                f.check(
                    own[0] == index - 1,
                    "turn-sequence",
                    "25.61",
                    f"{where(record, strike)}: not right after its side's carrier strike",
                )


def target_bound(c: Campaign, f: Findings) -> None:
    """25.62: two Target-Bound turns and one Home-Bound turn, changed only by resources
    (Radar and Codebreakers on strikes against the fleet, Early Launch on one's own);
    a scout flies its two turns (authored 3.4). The turns flown match."""
    for record, strike in c.strikes():
        attacker = strike["attacker"]
        target = c.places[strike["target"]]
        if strike["kind"] == "scout":
            want = (2, 0)
        else:
            tb = 2
            if target.carrier_fleet:
                tb += int(c.effect(record, target.side).get("enemy_tb_mod", 0))
            if strike["kind"] == "carrier":
                tb += int(c.effect(record, attacker).get("own_tb_mod", 0))
            want = (tb, 1)
        got = (strike["target_bound"], strike["home_bound"])
        f.check(
            got == want,
            "mission-length",
            "25.62",
            (
                f"{where(record, strike)}: {got[0]} Target-Bound and {got[1]} Home-Bound"
                f" turns, the rules give {want[0]} and {want[1]}"
            ),
        )
        flown = {
            phase: sum(1 for t in strike.get("turns", ()) if t["phase"] == phase)
            for phase in ("target-bound", "home-bound")
        }
        f.check(
            (flown["target-bound"], flown["home-bound"]) == (max(0, want[0]), max(0, want[1])),
            "mission-length",
            "25.62",
            (
                f"{where(record, strike)}: flew {flown['target-bound']} Target-Bound and"
                f" {flown['home-bound']} Home-Bound turns"
            ),
        )


CHECKS = (
    committed_picks,
    tactic_sequence,
    flight_ops_sequence,
    resource_use,
    strike_order,
    strikes_follow_flight_ops,
    turn_sequence,
    target_bound,
)

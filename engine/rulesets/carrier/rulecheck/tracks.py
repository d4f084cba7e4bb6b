"""Checks of the damage tracks, the VPs and the end of the campaign (25.8, 25.9)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.rulesets.carrier.rulecheck.core import SIDES, Campaign, Findings, enemy, where


def cap_home(c: Campaign, target: str) -> str | None:
    """The fleet or airfield whose CAP defends ``target``: the fleet itself, Midway's
    airfield over the airfield and its ground defences; a card-drawn CAP (Port Moresby,
    the Invasion Force, the transports) belongs to no track that ticks losses."""
    place = c.places[target]
    if place.carrier_fleet or place.airfield:
        return place.key
    if place.card_cap:
        return None
    airfield = c.airfield()
    return airfield.key if airfield is not None and airfield.side == place.side else None


def losses(c: Campaign, record: dict[str, Any]) -> Counter[str]:
    """25.82: one box per own aircraft Destroyed, on the fleet or airfield it came from;
    none for scout missions (the interceptors they met included) or resource #8's
    land-based bombers (authored 3.7.2). A CAP aircraft met in two raids counts once."""
    seen: set[tuple[str, str]] = set()
    count: Counter[str] = Counter()
    for strike in record["strikes"]:
        if strike["kind"] == "scout":
            continue
        for outcome in strike["aircraft"]:
            key = (outcome["side"], outcome["uid"])
            if outcome["state"] != "destroyed" or key in seen:
                continue
            if outcome["group"] == "strike":
                home = None if strike["kind"] == "land-based" else strike["origin"]
            else:
                home = cap_home(c, strike["target"])
            place = c.places.get(home) if home else None
            if place is not None and (place.carrier_fleet or place.airfield):
                seen.add(key)
                count[place.key] += 1
    return count


def track_ticks(c: Campaign, f: Findings) -> None:
    """25.82: each track gains one box per damage point and one per own aircraft lost, as
    many as it has left: a track has no box past its end (rules version 6), though a box
    Damage Control restored is room again (authored #11). The log sheet shows at most the
    track's length."""
    for record in c.turns:
        lost = losses(c, record)
        gained: Counter[str] = Counter()
        for strike in record["strikes"]:
            if strike["kind"] != "scout":
                gained[strike["target"]] += strike["target_points"]
        for sub in c.events_of(record["turn"], "submarine"):
            gained[c.fleet(enemy(sub["side"])).key] += int(sub["points"])
        ticks = record.get("ticks", ())
        for key in c.places:
            given = gained[key] + lost[key]
            before = c.ticked_before(record, key)
            length = c.length(key)
            room = max(0, length + c.repaired_before(record, key) - before)
            # Before version 6 a track counted on past its end; a campaign upgraded mid-way
            # plays some turns under each rule, so an older campaign may show either.
            sheet = min(before + min(given, room), length)
            want = sheet if c.capped else before + given
            got = int(record["boxes"].get(key, 0))
            end = f", a track of {length} boxes" if sheet != before + given else ""
            f.check(
                got == want or (not c.capped and got == sheet),
                "track-ticks",
                "25.82",
                (
                    f"turn {record['turn']}, track {key}: {got} boxes, the turn gives"
                    f" {want} ({before} before, {gained[key]} damage points,"
                    f" {lost[key]} aircraft lost{end})"
                ),
            )
        for key in c.places:
            given = gained[key] + lost[key]
            room = max(
                0, c.length(key) + c.repaired_before(record, key) - c.ticked_before(record, key)
            )
            want = min(given, room) if c.capped else given
            noted = sum(t["boxes"] for t in ticks if t["place"] == key)
            f.check(
                noted == want or (not c.capped and noted == min(given, room)),
                "track-ticks",
                "25.82",
                (
                    f"turn {record['turn']}, track {key}: the ticks listed add up to"
                    f" {noted}, the turn gives {want}"
                ),
            )


def _objectives_met(c: Campaign, boxes: dict[str, Any]) -> dict[str, int]:
    """Authored 3.7.3: the sheet's objective bonuses the final tracks meet, per side."""
    bonus = {side: 0 for side in SIDES}
    for objective in c.sheet.get("objectives", ()):
        met = True
        for condition in objective["when"]:
            ticked = int(boxes.get(condition["place"], 0))
            below = condition.get("below")
            met = met and ticked >= int(condition.get("min_boxes", 0))
            met = met and (below is None or ticked < int(below))
        if met:
            bonus[objective["side"]] += int(objective["vp"])
    return bonus


def victory_points(c: Campaign, f: Findings) -> None:
    """25.83: each side scores the VP of the level every enemy track has reached; after the
    turn the campaign ends on (25.9) the objective bonuses its tracks meet are added
    (authored 3.7.3, carrier rules version 4)."""
    for index, record in enumerate(c.turns):
        want = {side: 0 for side in SIDES}
        for place in c.places.values():
            level = c.data.level(place.track, int(record["boxes"].get(place.key, 0)))
            want[enemy(place.side)] += level.vp
        ends = record["turn"] >= int(c.sheet["turns"]) or bool(_out_of_action(c, record))
        if index == len(c.turns) - 1 and ends:  # whether it did end is ``campaign_end``'s
            for side, bonus in _objectives_met(c, record["boxes"]).items():
                want[side] += bonus
        f.check(
            {s: int(record["vp"].get(s, -1)) for s in SIDES} == want,
            "vp",
            "25.83",
            f"turn {record['turn']}: VP {record['vp']}, the tracks give {want}",
        )
    if c.turns:
        f.check(
            {s: int(c.final["vp"].get(s, -1)) for s in SIDES}
            == {s: int(c.turns[-1]["vp"].get(s, -1)) for s in SIDES},
            "vp",
            "25.83",
            "the campaign's VP differ from its last turn's",
        )


def _out_of_action(c: Campaign, record: dict[str, Any]) -> list[str]:
    """Fleets whose track is at Out of Action after the turn (repairs count, 25.9)."""
    out = []
    for side in SIDES:
        fleet = c.fleet(side)
        boxes = c.ticked(record, fleet.key) - int(record.get("repaired", {}).get(fleet.key, 0))
        if c.data.level(fleet.track, boxes).out_of_action:
            out.append(side)
    return out


def campaign_end(c: Campaign, f: Findings) -> None:
    """25.9: the campaign ends after the sheet's last turn, or at the end of a turn in
    which a carrier fleet is Out of Action; the higher VP total wins."""
    last_turn = int(c.sheet["turns"])
    numbers = [record["turn"] for record in c.turns]
    f.check(
        numbers == list(range(1, len(numbers) + 1)),
        "end",
        "25.9",
        f"the turns played are {numbers}",
    )
    for record in c.turns[:-1]:
        f.check(
            record["turn"] < last_turn and not _out_of_action(c, record),
            "end",
            "25.9",
            f"turn {record['turn']}: the campaign should have ended here",
        )
    if not c.turns:
        return
    record = c.turns[-1]
    should_end = record["turn"] >= last_turn or bool(_out_of_action(c, record))
    f.check(
        bool(c.final["finished"]) == should_end,
        "end",
        "25.9",
        f"turn {record['turn']}: finished={c.final['finished']}, the rules say {should_end}",
    )
    if should_end:
        vp = {s: int(record["vp"].get(s, 0)) for s in SIDES}
        winner = "draw" if vp["japanese"] == vp["allied"] else max(SIDES, key=lambda s: vp[s])
        f.check(
            c.final["winner"] == winner,
            "end",
            "25.9",
            f"the winner is {c.final['winner']}, the VP ({vp}) give {winner}",
        )


def grounded_fleets(c: Campaign, f: Findings) -> None:
    """25.9 with the authored tracks (3.7.5): a fleet Sinking or Out of Action launches no
    strike, whether it got there before the turn or earlier in the turn. Strikes flown
    together (equal resources, 25.53) are launched before either lands its bombs."""
    for record in c.turns:
        for index, strike in enumerate(record["strikes"]):
            if strike["kind"] != "carrier":
                continue
            fleet = c.fleet(strike["attacker"])
            boxes = c.effective_before(record, fleet.key)
            for earlier in record["strikes"][:index]:
                if strike["simultaneous"] and earlier["kind"] != "airfield":
                    continue
                if earlier["target"] == fleet.key and earlier["kind"] != "scout":
                    boxes += earlier["target_points"]
            level = c.data.level(fleet.track, boxes)
            f.check(
                not (level.no_strike or level.out_of_action),
                "grounded",
                "25.9",
                f"{where(record, strike)}: the {strike['attacker']} fleet was {level.name}"
                f" ({boxes} boxes) and still launched a strike",
            )


CHECKS = (track_ticks, victory_points, campaign_end, grounded_fleets)

"""Checks of who flew: scouts and their bonus, the box limit, pilots (23.64, 25.63, 25.65,
19.24)."""

from __future__ import annotations

from collections import Counter

from engine.rulesets.carrier.rulecheck.core import SIDES, Campaign, Findings, where


def scouting(c: Campaign, f: Findings) -> None:
    """23.64 with authored 3.4: a scout still flying after its two turns makes a report
    draw, read as bombing; it succeeds when a Hit, Direct or Vital is left. It meets at
    most one element of the enemy's CAP."""
    for record, strike in c.strikes():
        if strike["kind"] != "scout":
            continue
        scouts = [a for a in strike["aircraft"] if a["group"] == "scout"]
        runs = [r for r in strike["bomb_runs"] if r["mode"] == "recon"]
        last_tb = [t for t in strike.get("turns", ()) if t["phase"] == "target-bound"]
        alive = {
            a["uid"]
            for a in scouts
            if not a["disengaged"] and last_tb and a["uid"] in last_tb[-1]["end"]
        }
        f.check(
            {r["uid"] for r in runs} == alive,
            "scout-report",
            "23.64",
            (
                f"{where(record, strike)}: report draws by {sorted(r['uid'] for r in runs)},"
                f" scouts still flying after their turns {sorted(alive)}"
            ),
        )
        success = any(any(result > 0 for result in r["results"]) for r in runs)
        f.check(
            strike["scout_success"] is success,
            "scout-report",
            "23.64",
            f"{where(record, strike)}: success={strike['scout_success']}, the report draw"
            f" gives {success}",
        )
        elements = {
            a["element"]
            for a in strike["aircraft"]
            if a["group"] == "cap" and a["side"] != strike["attacker"]
        }
        f.check(
            len(elements) <= 1,
            "scout-interceptors",
            "23.64",
            f"{where(record, strike)}: the scout met {len(elements)} CAP elements (authored"
            " 3.4: one at most)",
        )


def scout_bonus(c: Campaign, f: Findings) -> None:
    """25.63 [EX]: the strike gains the sheet's bonus aircraft only after a successful
    scout mission of its side that turn, and then flies it."""
    for record in c.turns:
        succeeded = {
            s["attacker"] for s in record["strikes"] if s["kind"] == "scout" and s["scout_success"]
        }
        for bonus in c.events_of(record["turn"], "scout-bonus"):
            side = bonus["side"]
            f.check(
                side in succeeded,
                "scout-bonus",
                "25.63",
                f"turn {record['turn']}, {side}: a scout bonus without a successful scout",
            )
            strike = next(
                (s for s in record["strikes"] if s["kind"] == "carrier" and s["attacker"] == side),
                None,
            )
            want = c.sheet["scouts"][side]["bonus"]["aircraft"]
            f.check(
                bonus["aircraft"] == want
                and strike is not None
                and any(a["aircraft"] == want for a in strike["aircraft"]),
                "scout-bonus",
                "25.63",
                f"turn {record['turn']}, {side}: the bonus aircraft {want} did not fly",
            )


def box_limit(c: Campaign, f: Findings) -> None:
    """25.65: in a turn a side never flies more aircraft of a type than the box holds."""
    for record in c.turns:
        for side in SIDES:
            flown: dict[str, set[str]] = {}
            for strike in record["strikes"]:
                for a in strike["aircraft"]:
                    if a["side"] == side:
                        flown.setdefault(a["aircraft"], set()).add(a["uid"])
            for code, uids in sorted(flown.items()):
                box = c.data.aircraft[code].box
                f.check(
                    len(uids) <= box,
                    "box",
                    "25.65",
                    f"turn {record['turn']}, {side}: {len(uids)} {code} flew, the box holds {box}",
                )


def pilots(c: Campaign, f: Findings) -> None:
    """19.24: one counter from the cup of the Leader's nation and service (or of its type)
    per draw, its face by a coin flip, a skilled face kept and out of the cup for the rest
    of the group; authored #14: one Ace Leader for the side, only with that resource."""
    for record in c.turns:
        aces: Counter[str] = Counter()
        for draw in record.get("pilots", ()):
            if draw.get("ace"):
                aces[draw["side"]] += 1
                continue
            counter = draw.get("counter")
            if counter is None:
                continue
            kind = c.data.aircraft[draw["aircraft"]]
            nation, service, only = c.data.pilot_pool.get(counter, ("", "", None))
            fits = (only == kind.code) if only else (nation, service) == (kind.nation, kind.service)
            faces = c.data.pilot_faces.get(counter, ())
            face = draw.get("face")
            shown = faces[face] if face in (0, 1) and face < len(faces) else None
            skilled = bool(shown and shown.get("skills"))
            f.check(
                fits
                and shown is not None
                and bool(draw["skilled"]) == skilled
                and draw.get("pilot") == (shown["name"] if skilled and shown else None),
                "pilots",
                "19.24",
                f"turn {record['turn']}, {draw['uid']}: counter {counter} face {face} does"
                f" not give what the draw says ({draw.get('pilot')})",
            )
        first_draws = Counter(
            (draw["side"], draw["uid"])
            for draw in record.get("pilots", ())
            if not draw.get("redraw") and not draw.get("ace")
        )
        for (side, uid), count in sorted(first_draws.items()):
            f.check(
                count == 1,
                "pilots",
                "19.24",
                f"turn {record['turn']}, {side} {uid}: {count} pilot draws for one Leader",
            )
        groups: dict[tuple[str, str], list[str]] = {}
        for draw in record.get("pilots", ()):
            if draw.get("skilled") and not draw.get("ace") and draw.get("counter"):
                groups.setdefault((draw["side"], draw["purpose"]), []).append(draw["counter"])
        for (side, purpose), counters in groups.items():
            f.check(
                len(counters) == len(set(counters)),
                "pilots",
                "19.24",
                f"turn {record['turn']}, {side} {purpose}: a skilled counter placed twice",
            )
        for side in SIDES:
            allowed = 1 if c.effect(record, side).get("ace_leader") else 0
            f.check(
                aces[side] <= allowed,
                "ace-leader",
                "authored #14",
                f"turn {record['turn']}, {side}: {aces[side]} Ace Leaders placed, the"
                f" resource allows {allowed}",
            )


def hands(c: Campaign, f: Findings) -> None:
    """Authored 3.2.3: a Leader opens with as many cards as its Performance (+1 with a P
    pilot); authored 3.2.5: a Wingman answering an attack draws a mini-hand of its
    Defensive rating. Either side of the card, for an aircraft that came back Damaged."""
    for record, strike in c.strikes():
        planes = {a["uid"]: a for a in strike["aircraft"]}
        opened: set[str] = set()
        for draw in strike.get("draws", ()):
            plane = planes.get(draw["who"] or "")
            if plane is None or draw["purpose"] not in ("hand", "defence"):
                continue
            kind = c.data.aircraft[plane["aircraft"]]
            hurt = plane["state"] != "ok" or plane["damage"] > 0
            if draw["purpose"] == "hand":
                if draw["who"] in opened:
                    continue  # the CV redraw (19.25) after the opening hand
                opened.add(draw["who"])
                bonus = 1 if "P" in c.pilot_skills(record, draw["who"], plane["side"]) else 0
                sizes = {kind.performance[0] + bonus}
                if hurt:
                    sizes.add(kind.performance[1] + bonus)
                rule, what = "authored 3.2.3", "opening hand"
            else:
                sizes = {kind.defensive[0]} | ({kind.defensive[1]} if hurt else set())
                rule, what = "authored 3.2.5", "Defensive mini-hand"
            f.check(
                len(draw["cards"]) in sizes,
                "hands",
                rule,
                f"{where(record, strike)}: {draw['who']} drew a {what} of"
                f" {len(draw['cards'])} cards, the rating gives {sorted(sizes)}",
            )


CHECKS = (scouting, scout_bonus, box_limit, pilots, hands)

"""Every check of ``verify --rules`` can fail: each test alters a real campaign export so
that the rule it names is broken, and nothing else, and expects exactly that check to
report it, citing the rule. A check no test can make fail would be a defect."""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from engine.rulesets.carrier.rulecheck import check_export
from engine.rulesets.carrier.rulecheck.core import Campaign
from engine.rulesets.carrier.rulecheck.data import GameData, is_attack
from engine.rulesets.carrier.rulecheck.data import load as load_data
from engine.rulesets.carrier.rulecheck.tracks import losses

Export = dict[str, Any]
Pool = dict[str, list[Export]]


def only(export: Export, check: str, rule: str) -> list[str]:
    """The check's findings; fails unless ``check`` alone fails, citing ``rule``."""
    result = check_export(export)
    assert result.refused is None, result.refused
    lines = [p.line() for p in result.problems]
    assert lines, "the tampered export still passes"
    assert {p.check for p in result.problems} == {check}, lines
    assert all(line.startswith(f"rule {rule}: ") for line in lines), lines
    return lines


def candidates(pool: Pool, scenario: str | None = None) -> Iterator[Export]:
    for name in (scenario,) if scenario else ("coral-sea", "midway"):
        for export in pool[name]:
            yield copy.deepcopy(export)


def find(
    pool: Pool, found: Callable[[Export], Any], scenario: str | None = None
) -> tuple[Export, Any]:
    """The first export (a copy) in which ``found`` finds something to alter, and that."""
    for export in candidates(pool, scenario):
        where = found(export)
        if where is not None and where is not False:
            return export, where
    raise AssertionError("no campaign in the pool has what this test alters")


def history(export: Export) -> list[dict[str, Any]]:
    return list(export["final_state"]["history"])


def strikes(export: Export) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    for record in history(export):
        for strike in record["strikes"]:
            yield record, strike


FIELDS = {
    "tactic": ("orders", "fleet_tactic"),
    "flight_ops": ("orders", "flight_ops"),
    "resource": ("resource", "resource"),
}


def set_pick(export: Export, turn: int, side: str, name: str, value: Any) -> None:
    """Change a pick where the turn record and the committed choice both hold it."""
    export["final_state"]["history"][turn - 1]["picks"][side][name] = value
    kind, key = FIELDS[name]
    for round_json in export["rounds"]:
        if (round_json["turn"], round_json["kind"]) != (turn, kind):
            continue
        for lock in round_json["locks"]:
            if lock["side"] == side:
                text = json.loads(lock["canonical"])
                text["choice"][key] = str(value)
                lock["canonical"] = json.dumps(text, sort_keys=True, separators=(",", ":"))


def test_every_export_in_the_pool_passes(pool: Pool) -> None:
    for export in candidates(pool):
        assert check_export(export).ok, check_export(export).lines()


# --------------------------------------------------------------------- orders (25.1-25.6)


def test_committed_picks_25_1(pool: Pool) -> None:
    export = next(candidates(pool))
    record = history(export)[0]
    for round_json in export["rounds"]:
        if (round_json["turn"], round_json["kind"]) == (1, "resource"):
            lock = round_json["locks"][0]
            text = json.loads(lock["canonical"])
            text["choice"]["resource"] = "99"
            lock["canonical"] = json.dumps(text, sort_keys=True, separators=(",", ":"))
    lines = only(export, "committed-picks", "25.1")
    assert lines[0].startswith(f"rule 25.1: turn 1, {lock['side']}: played")
    assert str(record["picks"][lock["side"]]["resource"]) in lines[0]


def test_tactic_jump_25_32(pool: Pool) -> None:
    def close_then_medium(export: Export) -> tuple[int, str] | None:
        records = history(export)
        for before, record in itertools.pairwise(records):
            for side in ("japanese", "allied"):
                if (
                    before["picks"][side]["tactic"] == "close"
                    and record["picks"][side]["tactic"] == "medium"
                    and not record["recovery"]
                ):
                    return record["turn"], side
        return None

    export, (turn, side) = find(pool, close_then_medium)
    set_pick(export, turn, side, "tactic", "long")
    lines = only(export, "tactic-sequence", "25.32")
    assert lines[0] == f"rule 25.32: turn {turn}, {side}: long right after close"


def test_large_strike_twice_25_42(pool: Pool) -> None:
    def large_then_other(export: Export) -> tuple[int, str, str] | None:
        records = history(export)
        for before, record in itertools.pairwise(records):
            for side in ("japanese", "allied"):
                ops = before["picks"][side]["flight_ops"]
                if ops.startswith("large") and not record["picks"][side]["flight_ops"].startswith(
                    "large"
                ):
                    return record["turn"], side, ops
        return None

    export, (turn, side, ops) = find(pool, large_then_other)
    set_pick(export, turn, side, "flight_ops", ops)
    assert only(export, "large-twice", "25.42") == [
        f"rule 25.42: turn {turn}, {side}: a Large Strike two turns in a row"
    ]


def test_strike_target_off_the_sheet_25_66(pool: Pool) -> None:
    export = next(candidates(pool, "coral-sea"))
    set_pick(export, 1, "allied", "flight_ops", "small:rabaul")
    only(export, "strike-target", "25.66")


def test_resource_of_the_other_side_25_52(pool: Pool, game_data: GameData) -> None:
    # Veteran Aircrew (#6) is Japanese only; given to the Allies in a turn where it
    # changes neither the strike order nor anything else a check reads.
    def turn_for_six(export: Export) -> int | None:
        for record in history(export):
            japanese = record["picks"]["japanese"]["resource"]
            allied = record["picks"]["allied"]["resource"]
            same_order = (allied < japanese) == (japanese > 6) and allied != japanese
            read = {"enemy_tb_mod", "own_tb_mod", "ace_leader"}  # what other checks read
            if (
                6 not in (allied, japanese)
                and same_order
                and not read & set(game_data.effect(allied, "allied"))
            ):
                return int(record["turn"])
        return None

    export, turn = find(pool, turn_for_six)
    set_pick(export, turn, "allied", "resource", 6)
    assert only(export, "resource-use", "25.52") == [
        f"rule 25.52: turn {turn}, allied: resource #6 belongs to the japanese side"
    ]


def test_resource_used_twice_25_52(pool: Pool, game_data: GameData) -> None:
    def reuse(export: Export) -> tuple[int, str, int] | None:
        records = history(export)
        for side in ("japanese", "allied"):
            other = "allied" if side == "japanese" else "japanese"
            seen: list[int] = []
            for record in records:
                mine = record["picks"][side]["resource"]
                theirs = record["picks"][other]["resource"]
                for number in seen:
                    same_order = (number < theirs) == (mine < theirs) and (number == theirs) == (
                        mine == theirs
                    )
                    read = {"enemy_tb_mod", "own_tb_mod", "ace_leader"}
                    if (
                        same_order
                        and not read & set(game_data.effect(number, side))
                        and not read & set(game_data.effect(mine, side))
                        and number != mine
                    ):
                        return record["turn"], side, number
                if not game_data.resources[mine].get("repeatable"):
                    seen.append(mine)
        return None

    export, (turn, side, number) = find(pool, reuse)
    set_pick(export, turn, side, "resource", number)
    lines = only(export, "resource-use", "25.52")
    assert f"turn {turn}, {side}: resource #{number} already used" in lines[0]


def test_strike_order_simultaneous_flag_25_53(pool: Pool) -> None:
    def carrier(export: Export) -> dict[str, Any] | None:
        return next((s for _, s in strikes(export) if s["kind"] == "carrier"), None)

    export, strike = find(pool, carrier)
    strike["simultaneous"] = not strike["simultaneous"]
    only(export, "strike-order", "25.53")


def test_strike_order_higher_resource_first_25_53(pool: Pool) -> None:
    """The issue's surviving mutation: ordering by something else than the numbers."""

    def two_carriers(export: Export) -> dict[str, Any] | None:
        for record in history(export):
            pair = [s for s in record["strikes"] if s["kind"] == "carrier"]
            if len(pair) == 2 and not pair[0]["simultaneous"] and len(record["strikes"]) == 2:
                return record
        return None

    export, record = find(pool, two_carriers)
    first, second = record["strikes"]
    first["order"], second["order"] = second["order"], first["order"]
    record["strikes"] = [second, first]
    only(export, "strike-order", "25.53")


def test_scout_after_the_strikes_25_61(pool: Pool) -> None:
    def scout_first(export: Export) -> dict[str, Any] | None:
        for record in history(export):
            kinds = [s["kind"] for s in record["strikes"]]
            if len(kinds) >= 2 and kinds[0] == "scout" and "carrier" in kinds:
                return record
        return None

    export, record = find(pool, scout_first)
    record["strikes"].append(record["strikes"].pop(0))
    only(export, "turn-sequence", "25.61")


def test_target_bound_turns_25_62(pool: Pool) -> None:
    """A strike that claims three Target-Bound turns with no resource giving them."""

    def carrier(export: Export) -> dict[str, Any] | None:
        return next((s for _, s in strikes(export) if s["kind"] == "carrier"), None)

    export, strike = find(pool, carrier)
    strike["target_bound"] += 1
    lines = only(export, "mission-length", "25.62")
    assert "Target-Bound" in lines[0]


def test_strike_that_flies_no_target_bound_turn_25_62(pool: Pool) -> None:
    def carrier(export: Export) -> dict[str, Any] | None:
        return next((s for _, s in strikes(export) if s["kind"] == "carrier"), None)

    export, strike = find(pool, carrier)
    strike["turns"] = [t for t in strike["turns"] if t["phase"] != "target-bound"]
    assert only(export, "mission-length", "25.62")[0].endswith(
        "flew 0 Target-Bound and 1 Home-Bound turns"
    )


# ----------------------------------------------------------------------- recovery (25.7)


def _draw_with(export: Export, want: Callable[[dict[str, Any], dict[str, Any]], bool]) -> Any:
    for record in history(export):
        for draw in record["recovery"]:
            strike = next(s for s in record["strikes"] if s["id"] == draw["strike"])
            if want(draw, strike):
                return record, strike, draw
    return None


def _safe_card(data: GameData) -> int:
    return next(card for card, entry in sorted(data.cards.items()) if not is_attack(entry))


def test_recovery_card_count_25_71(pool: Pool, game_data: GameData) -> None:
    export, (_, strike, draw) = find(pool, lambda e: _draw_with(e, lambda d, s: True))
    draw["cards"].append(_safe_card(game_data))
    lines = only(export, "recovery-cards", "25.71")
    assert f"strike {strike['id']}" in lines[0] and draw["uid"] in lines[0]


def test_recovery_against_a_base_takes_the_attackers_tactic_25_34(
    pool: Pool, game_data: GameData
) -> None:
    """The issue's first violation and surviving mutation: against Port Moresby, the
    Invasion Force, Midway or the transports the other side's carrier tactic does not
    count; a draw sized by both fleets' tactics is caught when they differ."""

    def against_base(draw: dict[str, Any], strike: dict[str, Any]) -> bool:
        return strike["kind"] == "carrier" and not strike["target"].endswith("fleet")

    def differing(export: Export) -> Any:
        for record in history(export):
            picks = record["picks"]
            if picks["japanese"]["tactic"] == picks["allied"]["tactic"]:
                continue
            for draw in record["recovery"]:
                strike = next(s for s in record["strikes"] if s["id"] == draw["strike"])
                if against_base(draw, strike) and not draw["lost"]:
                    return record, strike, draw
        return None

    ranges = {"close": 0, "medium": 1, "long": 2}
    export, (record, strike, draw) = find(pool, differing)
    picks = record["picks"]
    both = ranges[picks["japanese"]["tactic"]] + ranges[picks["allied"]["tactic"]]
    own = 2 * ranges[picks[strike["attacker"]]["tactic"]]
    assert len(draw["cards"]) == own
    # The draw the mutated engine would make: both fleets' ranges, no card that fails it.
    draw["cards"] = (draw["cards"] + [_safe_card(game_data)] * 4)[:both]
    lines = only(export, "recovery-cards", "25.71")
    assert f"the rule gives {own}" in lines[0]


def test_recovery_loss_only_on_ims_or_ots_25_71(pool: Pool) -> None:
    export, (_, _strike, draw) = find(pool, lambda e: _draw_with(e, lambda d, s: bool(d["cards"])))
    draw["lost"] = not draw["lost"]
    only(export, "recovery-loss", "25.71")


def test_cap_aircraft_never_test_25_72(pool: Pool) -> None:
    def cap_in_a_tested_strike(export: Export) -> Any:
        for record in history(export):
            for draw in record["recovery"]:
                strike = next(s for s in record["strikes"] if s["id"] == draw["strike"])
                cap = [a for a in strike["aircraft"] if a["group"] == "cap"]
                if cap and not draw["lost"]:
                    return record, draw, cap[0]
        return None

    export, (record, draw, cap) = find(pool, cap_in_a_tested_strike)
    record["recovery"].append({**draw, "uid": cap["uid"]})
    lines = only(export, "recovery-cap", "25.72")
    assert "CAP lands automatically" in lines[0]


def test_damaged_aircraft_must_test_25_72(pool: Pool) -> None:
    export, (record, _, draw) = find(pool, lambda e: _draw_with(e, lambda d, s: not d["lost"]))
    record["recovery"].remove(draw)
    assert "made no recovery draw" in only(export, "recovery-cap", "25.72")[0]


# ----------------------------------------------------------------------- bombing (21.x)


def _run(
    export: Export, mode: str, extra: Callable[[dict[str, Any]], bool] = lambda s: True
) -> Any:
    for record, strike in strikes(export):
        for run in strike["bomb_runs"]:
            if run["mode"] == mode and run["cards"] and extra(strike):
                return record, strike, run
    return None


def test_strafing_a_carrier_fleet_25_66(pool: Pool) -> None:
    def flak_over_fleet(export: Export) -> Any:
        for _, strike in strikes(export):
            if strike["target"].endswith("fleet") and strike["kind"] != "scout":
                shots = [f for f in strike["flak"] if f["kind"] == "target"]
                if shots:
                    return strike, shots[0]
        return None

    export, (strike, shot) = find(pool, flak_over_fleet)
    shot["kind"] = "strafe"
    strike["bomb_runs"].append(
        {
            "uid": shot["against"],
            "mode": "strafe",
            "band": 0,
            "cards": [],
            "cancelled": [],
            "results": [],
            "points": 0,
            "note": "",
        }
    )
    lines = only(export, "strafe-fleet", "25.66")
    assert any("strafed a carrier fleet" in line for line in lines)


def test_strafing_above_very_low_21_71(pool: Pool) -> None:
    def over_a_base(export: Export) -> Any:
        return next(
            (
                s
                for _, s in strikes(export)
                if s["kind"] == "carrier" and s["target"] == "port-moresby"
            ),
            None,
        )

    export, strike = find(pool, over_a_base, "coral-sea")
    uid = strike["aircraft"][0]["uid"]
    strike["bomb_runs"].append(
        {
            "uid": uid,
            "mode": "strafe",
            "band": 1,
            "cards": [],
            "cancelled": [],
            "results": [],
            "points": 0,
            "note": "",
        }
    )
    assert only(export, "strafe-band", "21.71") == [
        f"rule 21.71: turn {strike['turn']}, strike {strike['id']} (carrier, {strike['attacker']}"
        f" on port-moresby): {uid} strafed above Very Low"
    ]


def test_dive_bomb_cards_21_43(pool: Pool, game_data: GameData) -> None:
    export, (_, _strike, run) = find(pool, lambda e: _run(e, "dive"))
    run["cards"].append(_safe_card(game_data))
    lines = only(export, "dive", "21.43")
    assert "the rule gives" in lines[0]


def test_dive_without_the_drop_21_41(pool: Pool) -> None:
    """A dive bomber that bombs at Low must have come down from Medium with dive brakes."""
    export, (_, strike, _run_json) = find(pool, lambda e: _run(e, "dive"))
    strike["moves"] = [m for m in strike["moves"] if not m.get("dive_brakes")]
    assert "without dropping one band" in only(export, "dive", "21.41")[0]


def test_the_dive_drop_earns_no_card_21_42(pool: Pool) -> None:
    export, (_, strike, _run_json) = find(pool, lambda e: _run(e, "dive"))
    drop = next(m for m in strike["moves"] if m.get("dive_brakes"))
    used = {card for d in strike["draws"] for card in d["cards"]}
    spare = next(card for card in range(1, 111) if card not in used)
    strike["draws"].append(
        {
            "phase": drop["phase"],
            "turn": drop["turn"],
            "purpose": "dive",
            "who": drop["uids"][0],
            "cards": [spare],
        }
    )
    only(export, "dive", "21.42")


def test_torpedo_above_very_low_21_55(pool: Pool) -> None:
    export, (_, _strike, run) = find(pool, lambda e: _run(e, "torpedo"))
    run["band"] = 1
    only(export, "torpedo", "21.55")


def test_torpedo_on_land_21_52(pool: Pool) -> None:
    def quiet(strike: dict[str, Any]) -> bool:  # no points: moving it changes no track
        return strike["kind"] == "land-based" and strike["target_points"] == 0

    export, (_, strike, _run_json) = find(pool, lambda e: _run(e, "torpedo", quiet), "coral-sea")
    strike["target"] = "port-moresby"
    only(export, "torpedo", "21.52")


def test_norden_sight_adds_two_cards_18_32(pool: Pool) -> None:
    export, (_, strike, run) = find(
        pool,
        lambda e: _run(
            e, "saturation", lambda s: any(a["aircraft"] == "B-17E" for a in s["aircraft"])
        ),
    )
    assert next(a for a in strike["aircraft"] if a["uid"] == run["uid"])["aircraft"] == "B-17E"
    del run["cards"][:2]  # the draw without the sight's two cards
    lines = only(export, "norden", "18.32")
    assert "(Norden +2)" in lines[0]


def test_level_bomb_cards_21_32(pool: Pool, game_data: GameData) -> None:
    export, (_, _strike, run) = find(pool, lambda e: _run(e, "level"))
    run["cards"].append(_safe_card(game_data))
    only(export, "bomb-cards", "21.32")


def test_target_damage_is_what_the_runs_scored_21_83(pool: Pool) -> None:
    export, (_, _strike, run) = find(
        pool, lambda e: _run(e, "dive", lambda s: s["target_points"] > 0)
    )
    run["points"] += 1
    only(export, "strike-points", "21.83")


# ------------------------------------------------------------ scouts, box, pilots (forces)


def _scout(export: Export, success: bool | None = None) -> Any:
    for record, strike in strikes(export):
        if strike["kind"] == "scout" and (success is None or strike["scout_success"] is success):
            return record, strike
    return None


def test_scout_success_needs_a_hit_in_the_report_draw_23_64(pool: Pool) -> None:
    def failed_without_bonus(export: Export) -> Any:
        found = _scout(export, False)
        return found

    export, (_record, strike) = find(pool, failed_without_bonus)
    strike["scout_success"] = True
    lines = only(export, "scout-report", "23.64")
    assert "success=True, the report draw gives False" in lines[0]


def test_surviving_scout_always_reports_23_64(pool: Pool) -> None:
    """The issue's second violation: a scout that lives must make its report draw."""
    export, (_record, strike) = find(pool, lambda e: _scout(e, True))
    strike["bomb_runs"] = [r for r in strike["bomb_runs"] if r["mode"] != "recon"]
    strike["scout_success"] = False
    lines = only(export, "scout-report", "23.64")
    assert "report draws by []" in lines[0]


def test_scout_meets_one_cap_element_at_most(pool: Pool) -> None:
    def intercepted(export: Export) -> Any:
        for _record, strike in strikes(export):
            if strike["kind"] == "scout" and any(a["group"] == "cap" for a in strike["aircraft"]):
                return strike
        return None

    export, strike = find(pool, intercepted)
    cap = next(a for a in strike["aircraft"] if a["group"] == "cap")
    strike["aircraft"].append({**cap, "element": cap["element"] + "-other", "uid": cap["uid"]})
    only(export, "scout-interceptors", "23.64")


def test_scout_bonus_only_after_a_successful_scout_25_63(pool: Pool) -> None:
    """The issue's third violation, the other way round: a bonus with no success."""

    def bonus_event(export: Export) -> Any:
        return next((e for e in export["events"] if e["kind"] == "scout-bonus"), None)

    export, event = find(pool, bonus_event)
    record = history(export)[event["turn"] - 1]
    scout = next(
        s
        for s in record["strikes"]
        if s["kind"] == "scout" and s["attacker"] == event["data"]["side"]
    )
    scout["scout_success"] = False
    scout["bomb_runs"] = [{**r, "results": [0 for _ in r["results"]]} for r in scout["bomb_runs"]]
    lines = only(export, "scout-bonus", "25.63")
    assert "a scout bonus without a successful scout" in lines[0]


def test_box_limit_25_65(pool: Pool, game_data: GameData) -> None:
    """The issue's eighth violation: more aircraft of a type than the box holds."""
    export, (_record, strike) = find(
        pool, lambda e: next(((r, s) for r, s in strikes(e) if s["kind"] == "carrier"), None)
    )
    plane = next(a for a in strike["aircraft"] if a["side"] == strike["attacker"])
    box = game_data.aircraft[plane["aircraft"]].box
    strike["aircraft"] += [
        {**plane, "uid": f"{plane['uid']}-extra{n}", "state": "ok", "damage": 0} for n in range(box)
    ]
    lines = only(export, "box", "25.65")
    assert f"the box holds {box}" in lines[0]


def test_pilot_face_19_24(pool: Pool) -> None:
    def skilled(export: Export) -> Any:
        for record in history(export):
            for draw in record["pilots"]:
                if draw["skilled"] and not draw["ace"]:
                    return draw
        return None

    export, draw = find(pool, skilled)
    draw["pilot"] = "Someone Else"
    only(export, "pilots", "19.24")


def test_one_pilot_draw_per_leader_19_24(pool: Pool) -> None:
    """What the checker found in Midway's CAP: a Leader drawing again in a second raid."""

    def unskilled(export: Export) -> Any:
        for record in history(export):
            for draw in record["pilots"]:
                if draw["counter"] and not draw["skilled"] and not draw["redraw"]:
                    return record, draw
        return None

    export, (record, draw) = find(pool, unskilled)
    record["pilots"].append(dict(draw))
    assert "2 pilot draws for one Leader" in only(export, "pilots", "19.24")[0]


def test_one_ace_leader_for_the_side_14(pool: Pool) -> None:
    """The issue's seventh violation: an ace on every Leader instead of one."""

    def ace(export: Export) -> Any:
        for record in history(export):
            for draw in record["pilots"]:
                if draw["ace"]:
                    return record, draw
        return None

    export, (record, draw) = find(pool, ace)
    record["pilots"].append({**draw, "uid": draw["uid"] + "-twin"})
    lines = only(export, "ace-leader", "authored #14")
    assert "2 Ace Leaders placed, the resource allows 1" in lines[0]


# ---------------------------------------------------------------- tracks, VP, end (25.8-9)


def test_lost_cap_ticks_its_fleet_25_82(pool: Pool) -> None:
    """The issue's fourth violation: a CAP aircraft destroyed over its own fleet ticks a
    box there. Here one more CAP aircraft is lost and its fleet's boxes stay as they were."""

    def cap_over_fleet(export: Export) -> Any:
        for record, strike in strikes(export):
            if strike["kind"] == "carrier" and strike["target"].endswith("fleet"):
                cap = [a for a in strike["aircraft"] if a["group"] == "cap" and a["state"] == "ok"]
                if cap and record is history(export)[-1]:
                    return record, strike, cap[0]
        return None

    export, (record, strike, cap) = find(pool, cap_over_fleet)
    cap["state"] = "destroyed"
    lines = only(export, "track-ticks", "25.82")
    boxes = record["boxes"][strike["target"]]
    assert f"track {strike['target']}: {boxes} boxes, the turn gives {boxes + 1}" in lines[0]


def test_the_listed_ticks_add_up_25_82(pool: Pool) -> None:
    def loss_tick(export: Export) -> Any:
        for record in history(export):
            for tick in record["ticks"]:
                if tick["cause"] == "aircraft-lost":
                    return record, tick
        return None

    export, (record, tick) = find(pool, loss_tick)
    record["ticks"].remove(tick)
    assert "the ticks listed add up to" in only(export, "track-ticks", "25.82")[0]


def test_vp_are_the_tracks_levels_25_83(pool: Pool) -> None:
    export = next(candidates(pool))
    history(export)[0]["vp"]["japanese"] += 1
    only(export, "vp", "25.83")


def test_the_higher_vp_wins_25_9(pool: Pool) -> None:
    def decided(export: Export) -> Any:
        return export["final_state"]["winner"] in ("japanese", "allied")

    export, _ = find(pool, decided)
    final = export["final_state"]
    final["winner"] = "allied" if final["winner"] == "japanese" else "japanese"
    assert "the winner is" in only(export, "end", "25.9")[0]


def test_no_turn_after_the_end_25_9(pool: Pool) -> None:
    export, _ = find(pool, lambda e: len(history(e)) >= 3)
    final = export["final_state"]
    final["history"] = final["history"][:-1]
    final["vp"] = final["history"][-1]["vp"]  # a campaign that claims to end a turn early
    lines = only(export, "end", "25.9")
    assert "finished=True, the rules say False" in lines[0]


def _fake_strike(export: Export, turn: int, side: str, data: GameData) -> dict[str, Any]:
    """A carrier strike of ``side`` on turn ``turn`` that carries no aircraft: shaped and
    placed as the rules want (order, length), so only what it proves can fail."""
    record = history(export)[turn - 1]
    target = f"{'japanese' if side == 'allied' else 'allied'}-fleet"
    set_pick(export, turn, side, "flight_ops", f"small:{target}")
    picks = record["picks"]
    enemy = "japanese" if side == "allied" else "allied"
    tb = 2 + data.effect(int(picks[enemy]["resource"]), enemy).get("enemy_tb_mod", 0)
    tb += data.effect(int(picks[side]["resource"]), side).get("own_tb_mod", 0)
    together = picks["japanese"]["resource"] == picks["allied"]["resource"]
    strike = {
        "id": f"T{turn}-X",
        "turn": turn,
        "kind": "carrier",
        "attacker": side,
        "origin": f"{side}-fleet",
        "target": target,
        "order": 2,
        "simultaneous": together,
        "target_bound": tb,
        "home_bound": 1,
        "hidden": False,
        "aircraft": [],
        "exchanges": [],
        "flak": [],
        "bomb_runs": [],
        "target_points": 0,
        "scout_success": None,
        "notes": [],
        "start_bands": {},
        "turns": [
            {"phase": "target-bound", "turn": n, "first": enemy, "start": {}, "end": {}}
            for n in range(1, max(0, tb) + 1)
        ]
        + [{"phase": "home-bound", "turn": 1, "first": enemy, "start": {}, "end": {}}],
        "moves": [],
        "draws": [],
        "reshuffles": [],
    }
    others = [s for s in record["strikes"] if s["kind"] != "scout"]
    first = together or not others or picks[side]["resource"] < picks[enemy]["resource"]
    scouts = [s for s in record["strikes"] if s["kind"] == "scout"]
    if first:
        for other in others:
            other["order"] += 1
        record["strikes"] = [*scouts, strike, *others]
    else:
        strike["order"] = max(s["order"] for s in others) + 1
        record["strikes"] = scouts + others + [strike]
    return strike


def test_a_sinking_fleet_launches_nothing_25_9(pool: Pool, game_data: GameData) -> None:
    """The issue's fifth violation: a fleet Sinking at the start of a turn still striking."""

    def sinking_then_quiet(export: Export) -> Any:
        scenario = export["campaign"]["scenario"]
        places = {p["key"]: p for p in game_data.scenarios[scenario]["places"]}
        records = history(export)
        for before, record in itertools.pairwise(records):
            for side in ("japanese", "allied"):
                fleet = f"{side}-fleet"
                boxes = before["boxes"][fleet] - before.get("repaired", {}).get(fleet, 0)
                level = game_data.level(places[fleet]["track"], boxes)
                theirs = [s for s in record["strikes"] if s["kind"] != "scout"]
                if level.no_strike and len(theirs) <= 1:
                    return record["turn"], side
        return None

    export, (turn, side) = find(pool, sinking_then_quiet)
    strike = _fake_strike(export, turn, side, game_data)
    lines = only(export, "grounded", "25.9")
    assert lines == [
        f"rule 25.9: turn {turn}, strike {strike['id']} (carrier, {side} on {strike['target']}):"
        f" the {side} fleet was Sinking ({lines[0].split('(')[2].split(' boxes')[0]} boxes)"
        " and still launched a strike"
    ]


def test_a_carrier_strike_needs_its_flight_ops_25_43(pool: Pool, game_data: GameData) -> None:
    def quiet_turn(export: Export) -> Any:
        for record in history(export)[1:]:
            for side in ("japanese", "allied"):
                if record["picks"][side]["flight_ops"] == "none" and not [
                    s for s in record["strikes"] if s["kind"] != "scout"
                ]:
                    return record, side
        return None

    export, (record, side) = find(pool, quiet_turn)
    _fake_strike(export, record["turn"], side, game_data)
    set_pick(export, record["turn"], side, "flight_ops", "none")
    assert "the side chose Flight Ops 'none'" in only(export, "flight-ops-strike", "25.43")[0]


def test_a_card_comes_up_once_per_pile(pool: Pool) -> None:
    def long_strike(export: Export) -> Any:
        for _, strike in strikes(export):
            if len(strike["draws"]) > 3 and not strike["reshuffles"]:
                return strike
        return None

    export, strike = find(pool, long_strike)
    first = next(d for d in strike["draws"] if d["cards"])
    last = next(d for d in reversed(strike["draws"]) if d["cards"] and d is not first)
    last["cards"][-1] = first["cards"][0]
    assert "drawn twice from one pile" in only(export, "deck", "authored 3.2.1")[0]


@pytest.mark.parametrize(("purpose", "rule"), [("hand", "3.2.3"), ("defence", "3.2.5")])
def test_hand_and_mini_hand_sizes(pool: Pool, game_data: GameData, purpose: str, rule: str) -> None:
    def drawn(export: Export) -> Any:
        for _, strike in strikes(export):
            for draw in strike["draws"]:
                if draw["purpose"] == purpose and draw["who"] and not strike["reshuffles"]:
                    return strike, draw
        return None

    export, (strike, draw) = find(pool, drawn)
    used = {card for d in strike["draws"] for card in d["cards"]}
    draw["cards"].append(next(card for card in sorted(game_data.cards) if card not in used))
    assert "cards, the rating gives" in only(export, "hands", f"authored {rule}")[0]


def _full_track(export: Export, *, last: bool = False) -> Any:
    """A turn (the last one, if ``last``) that filled a track to its end while the turn gave
    it more than it had left (rules version 6 ticks only what is left)."""
    data = load_data()
    campaign = Campaign.read(export, data)
    for record in history(export)[-1:] if last else history(export):
        for key, boxes in record["boxes"].items():
            noted = sum(t["boxes"] for t in record["ticks"] if t["place"] == key)
            if boxes == campaign.length(key) and noted < _given(campaign, record, key):
                return record, key
    return None


def _given(campaign: Campaign, record: dict[str, Any], key: str) -> int:
    """What the turn's strikes, submarine and losses give the track, room or not."""
    points = sum(
        s["target_points"] for s in record["strikes"] if s["target"] == key and s["kind"] != "scout"
    )
    for sub in campaign.events_of(record["turn"], "submarine"):
        if campaign.fleet("allied" if sub["side"] == "japanese" else "japanese").key == key:
            points += int(sub["points"])
    return points + losses(campaign, record)[key]


def test_a_box_past_the_tracks_end_is_refused_25_82(pool: Pool) -> None:
    """Issue 30, item 7: "16/15 boxes". A full track that the export says ticked one more
    box breaks 25.82 from rules version 6 on."""
    export, (record, key) = find(pool, _full_track)
    record["boxes"][key] += 1
    lines = only(export, "track-ticks", "25.82")
    assert f"track {key}: {record['boxes'][key]} boxes, the turn gives" in lines[0]


def test_a_campaign_begun_before_version_6_may_count_past_the_end(pool: Pool) -> None:
    """Older campaigns were played when the count went on past the end: their exports still
    pass, and the same count in a version 6 campaign does not."""
    export, (record, key) = find(pool, lambda e: _full_track(e, last=True))
    extra = _given(Campaign.read(export, load_data()), record, key) - sum(
        t["boxes"] for t in record["ticks"] if t["place"] == key
    )
    record["ticks"].append({"place": key, "boxes": extra, "cause": "damage", "strike": None})
    record["boxes"][key] += extra
    assert {p.check for p in check_export(export).problems} == {"track-ticks"}
    created = next(e for e in export["events"] if e["kind"] == "campaign-created")
    created["data"]["rules_version"] = "5"
    result = check_export(export)
    assert result.refused is None and not result.problems, [p.line() for p in result.problems]

"""One carrier turn against the rules of 25.x, case by case (issue 11).

Each test sets up the picks that bring a rule into play, plays the turn through the public
``resolve`` and reads the result from the turn record, the strike reports and the events.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.rng import Rng
from engine.rulesets.carrier.campaign import new_campaign, resolve
from engine.rulesets.carrier.state import Event, State, TurnRecord
from engine.zero.loader import default_catalog
from engine.zero.report import StrikeReport
from engine.zero.types import AircraftState, Side

CATALOG = default_catalog()
J, A = Side.JAPANESE, Side.ALLIED


def play_one_turn(
    scenario: str,
    seed: str,
    *,
    japanese: tuple[str, str],
    allied: tuple[str, str],
    resources: tuple[int, int],
    damage: dict[str, int] | None = None,
    turn: int = 1,
    doctrine: str = "balanced",
) -> tuple[State, list[Event]]:
    """Play one whole turn: (tactic, flight ops) per side, then (Japanese, Allied) resources.

    ``damage`` puts damage points on tracks before the turn; ``turn`` starts later in the
    campaign (with no history), for rules that depend on the turn number."""
    state = new_campaign(CATALOG, scenario, seed)
    tracks = dict(state.tracks)
    for key, points in (damage or {}).items():
        tracks[key] = tracks[key].model_copy(update={"damage_points": points})
    state = state.model_copy(update={"tracks": tracks, "turn": turn})
    orders = {
        side: {"fleet_tactic": tactic, "flight_ops": ops, "doctrine": doctrine}
        for side, (tactic, ops) in ((J, japanese), (A, allied))
    }
    state, events = resolve(CATALOG, state, orders, Rng(seed, turn, "orders"))
    picks = {J: {"resource": str(resources[0])}, A: {"resource": str(resources[1])}}
    state, more = resolve(CATALOG, state, picks, Rng(seed, turn, "resource"))
    return state, events + more


def record_of(state: State) -> TurnRecord:
    return state.history[-1]


def seeds(prefix: str, count: int = 80) -> Iterator[str]:
    return (f"{prefix}{n}" for n in range(count))


def strike_aircraft(report: StrikeReport) -> list[str]:
    return [a.uid for a in report.aircraft if a.group == "strike"]


# --- 10: the three mutations that survived the suite ------------------------------------


def test_midway_recovery_takes_the_japanese_range_twice() -> None:
    """25.71 [EX]: Japanese Medium, Allies Long. Aircraft that attacked Midway, or flew from
    it, draw 2 cards (Midway counts as Medium too), not the 3 of the two fleets' sum."""
    counted: dict[str, set[int]] = {"carrier": set(), "airfield": set()}
    for seed in seeds("mw"):
        state, _ = play_one_turn(
            "midway",
            seed,
            japanese=("medium", "large:midway-airfield"),
            allied=("long", "none"),
            resources=(15, 15),
        )
        record = record_of(state)
        kinds = {report.id: report.kind for report in record.strikes}
        for draw in record.recovery:
            counted[kinds[draw.strike]].add(len(draw.cards))
        if all(counted.values()):
            break
    assert counted == {"carrier": {2}, "airfield": {2}}


def test_equal_resources_fly_together_with_start_of_turn_sizes() -> None:
    """25.53: the same resource number means simultaneous strikes, so the second one in
    the loop is not cut by damage the first did this turn; a lower number flies first and
    the later strike is cut."""
    # The Allied fleet starts one point short of Light (5 boxes: strike -1).
    checked = {"same": False, "lower": False}
    for seed in seeds("eq"):
        for japanese_resource, case in ((15, "same"), (11, "lower")):
            if checked[case]:
                continue
            state, _ = play_one_turn(
                "coral-sea",
                seed,
                japanese=("medium", "large:allied-fleet"),
                allied=("medium", "large:japanese-fleet"),
                resources=(japanese_resource, 15),
                damage={"allied-fleet": 4},
            )
            carrier = [r for r in record_of(state).strikes if r.kind == "carrier"]
            assert [r.attacker for r in carrier] == [J, A]
            if carrier[0].target_points == 0:
                continue  # the Allied fleet stayed Untouched: nothing to tell apart
            allied = strike_aircraft(carrier[1])
            # Coral Sea Allied Large Strike: 1 L F4F, 1 L/W SBD-3, 1 L/W TBD-1 = 5 aircraft.
            assert len(allied) == (5 if case == "same" else 4), case
            assert carrier[1].simultaneous is (case == "same")
            checked[case] = True
        if all(checked.values()):
            return
    pytest.fail(f"no scoring Japanese strike found: {checked}")


def test_random_streams_depend_on_the_turn() -> None:
    """The draws of one purpose differ from turn to turn (a Port Moresby CAP card each turn
    is a new draw), and replay exactly for the same seed, turn, round and purpose."""
    for purpose in ("cap:port-moresby", "out-of-sight:allied", "pilots:strike:japanese"):
        firsts = [Rng("seed", turn, "resource").stream(purpose).random() for turn in range(1, 7)]
        assert len(set(firsts)) == 6, purpose
        assert Rng("seed", 3, "resource").stream(purpose).random() == firsts[2]
    assert (
        Rng("seed", 1, "resource").stream("x").random()
        != Rng("seed", 1, "orders").stream("x").random()
    )


# --- 1: recovery against forces that are not carrier fleets (25.34 with 25.71) ----------


@pytest.mark.parametrize(
    ("scenario", "japanese", "allied", "target"),
    [
        ("coral-sea", ("close", "none"), ("long", "large:invasion-force"), "invasion-force"),
        ("coral-sea", ("long", "large:port-moresby"), ("close", "none"), "port-moresby"),
        ("midway", ("close", "none"), ("long", "large:midway-transports"), "midway-transports"),
    ],
)
def test_recovery_against_a_base_draws_the_attackers_range_twice(
    scenario: str, japanese: tuple[str, str], allied: tuple[str, str], target: str
) -> None:
    """25.34: the base takes the attacking fleet's Long (2), so 2 + 2 = 4 cards per
    Damaged aircraft; the other fleet's Close (0) plays no part."""
    sizes: set[int] = set()
    for seed in seeds(f"rb-{target}"):
        state, _ = play_one_turn(
            scenario, seed, japanese=japanese, allied=allied, resources=(15, 15)
        )
        record = record_of(state)
        ids = {r.id for r in record.strikes if r.kind == "carrier" and r.target == target}
        sizes |= {len(d.cards) for d in record.recovery if d.strike in ids}
        if sizes:
            break
    assert sizes == {4}


# --- 2: scout missions (23.64, authored 3.4) ---------------------------------------------


def _scout_report(state: State) -> StrikeReport:
    return next(r for r in record_of(state).strikes if r.kind == "scout")


def test_a_scout_meets_one_element_of_the_enemy_cap() -> None:
    """Authored 3.4 step 1: the scouted fleet may send one element of this turn's CAP."""
    for seed in seeds("sc", 5):
        state, _ = play_one_turn(
            "coral-sea",
            seed,
            japanese=("medium", "none"),
            allied=("medium", "none"),
            resources=(1, 15),
        )
        report = _scout_report(state)
        cap = [a for a in report.aircraft if a.group == "cap"]
        # Allied No Strike CAP is 2 L/W F4F: one of those elements comes up.
        assert [a.aircraft for a in cap] == ["F4F", "F4F"]
        assert len({a.element for a in cap}) == 1 and {a.side for a in cap} == {A}


def test_a_surviving_scout_succeeds_only_on_its_report_draw() -> None:
    """23.64 with authored 3.4 steps 2-3: a scout alive after its two turns draws its Recon
    rating in cards against the target's Area Flak; it succeeds only if a Hit, Direct or
    Vital is left after the spoils. Surviving alone is not enough."""
    outcomes: set[bool] = set()
    for seed in seeds("sr", 60):
        state, events = play_one_turn(
            "midway",
            seed,
            japanese=("medium", "none"),
            allied=("medium", "none"),
            resources=(1, 15),
        )
        report = _scout_report(state)
        scout = next(a for a in report.aircraft if a.group == "scout")
        runs = [r for r in report.bomb_runs if r.mode == "recon"]
        event = next(e for e in events if e.kind == "scout-mission")
        if not runs:
            # Only a scout lost during its two turns makes no report.
            assert scout.state is AircraftState.DESTROYED or scout.disengaged
            assert not any(f.phase == "scout" for f in report.flak)
            assert report.scout_success is False and event.data["success"] is False
            continue
        assert len(runs) == 1 and runs[0].uid == scout.uid
        # E13A1: Recon 1, so one card; the Area Flak salvo is recorded against it.
        assert len(runs[0].cards) == 1
        assert [f.against for f in report.flak if f.phase == "scout"] == [scout.uid]
        found = any(result.value > 0 for result in runs[0].results)
        assert report.scout_success is found and event.data["success"] is found
        outcomes.add(found)
    assert outcomes == {True, False}


# --- 3: the successful scout's bonus (25.63 example, authored 3.4 step 4) ---------------


@pytest.mark.parametrize(
    ("scenario", "side", "ops", "full", "bonus", "as_wingman"),
    [
        # 25.63 [EX]: the second Val flies as the Val Leader's Wingman.
        ("coral-sea", J, "large:allied-fleet", 5, "D3A1", True),
        # Midway Allied Large: both SBD elements are full, so the bonus is a lone SBD Leader.
        ("midway", A, "large:japanese-fleet", 7, "SBD-3", False),
    ],
)
def test_a_successful_scout_adds_one_aircraft_to_the_strike(
    scenario: str, side: Side, ops: str, full: int, bonus: str, as_wingman: bool
) -> None:
    seen: set[bool] = set()
    for seed in seeds(f"sb-{scenario}"):
        orders = {side: ("medium", ops), side.enemy: ("medium", "none")}
        state, _ = play_one_turn(
            scenario,
            seed,
            japanese=orders[J],
            allied=orders[A],
            resources=(1, 15) if side is J else (15, 1),
        )
        record = record_of(state)
        scout = next(r for r in record.strikes if r.kind == "scout")
        strike = next(r for r in record.strikes if r.kind == "carrier" and r.attacker is side)
        aircraft = [a for a in strike.aircraft if a.group == "strike"]
        assert scout.scout_success is not None
        assert len(aircraft) == full + (1 if scout.scout_success else 0)
        if scout.scout_success:
            typed = [a for a in aircraft if a.aircraft == bonus]
            elements = {a.element for a in typed}
            wingmen = [a for a in typed if a.role == "wingman"]
            if as_wingman:  # the lone Leader of that type now has its Wingman
                assert len(elements) == 1 and len(wingmen) == 1
            else:  # a new lone Leader of that type
                assert sum(1 for a in typed if a.role == "leader") == len(elements) == 3
        seen.add(scout.scout_success)
        if seen == {True, False}:
            return
    pytest.fail(f"scout outcomes seen: {seen}")


# --- 4: CAP losses tick the track of the fleet or airfield they defend (25.82) -----------


def _destroyed(record: TurnRecord, side: Side, group: str) -> set[str]:
    return {
        a.uid
        for r in record.strikes
        if r.kind != "scout"
        for a in r.aircraft
        if a.side is side and a.group == group and a.state is AircraftState.DESTROYED
    }


def test_cap_lost_against_land_based_bombers_ticks_the_fleet() -> None:
    """Coral Sea, Japanese #8: the G4M1s attack the Allied fleet; Allied CAP aircraft
    destroyed over their own fleet tick its track (only the bombers' own losses are
    exempt, authored 3.7.2 #8)."""
    for seed in seeds("lb", 120):
        state, _ = play_one_turn(
            "coral-sea",
            seed,
            japanese=("medium", "none"),
            allied=("medium", "none"),
            resources=(8, 15),
        )
        record = record_of(state)
        assert [r.kind for r in record.strikes] == ["land-based"]
        lost = _destroyed(record, A, "cap")
        assert state.tracks["allied-fleet"].losses == len(lost)
        assert state.tracks["japanese-fleet"].losses == 0  # the G4M1s fly from Rabaul
        if lost:
            return
    pytest.fail("no Allied CAP aircraft lost")


def test_midway_cap_lost_over_the_ground_defences_ticks_the_airfield() -> None:
    """Midway's fighters defend its ground defences too; their losses tick the airfield."""
    for seed in seeds("mg", 120):
        state, _ = play_one_turn(
            "midway",
            seed,
            japanese=("medium", "large:midway-ground"),
            allied=("medium", "none"),
            resources=(15, 15),
        )
        record = record_of(state)
        ground = next(r for r in record.strikes if r.target == "midway-ground")
        cap_lost = [
            a for a in ground.aircraft if a.group == "cap" and a.state is AircraftState.DESTROYED
        ]
        # Everything the Allies lost this turn flew from Midway (their carriers stayed home).
        allied_lost = _destroyed(record, A, "cap") | _destroyed(record, A, "strike")
        assert state.tracks["midway-airfield"].losses == len(allied_lost)
        assert state.tracks["midway-ground"].losses == 0
        if cap_lost:
            return
    pytest.fail("no Midway CAP aircraft lost over the ground defences")


# --- 5: a fleet's level reached earlier in the turn rules its later strike (3.7.5, 25.9) --


def test_a_fleet_sunk_earlier_in_the_turn_launches_nothing() -> None:
    """Midway T3 (Midway's own raids are over), Japanese fleet at 29 boxes (Crippled:
    strike -3) with a Small Strike and Escort Fighters (#5): 3 + 2 - 3 = 2 aircraft. The
    Allies (#3, a Small Strike) strike first. One more box makes the fleet Sinking (No
    Strike only), 40 Out of Action: then its strike must not fly."""
    seen: set[bool] = set()
    for seed in seeds("sk", 120):
        state, events = play_one_turn(
            "midway",
            seed,
            japanese=("medium", "small:allied-fleet"),
            allied=("medium", "small:japanese-fleet"),
            resources=(5, 3),
            damage={"japanese-fleet": 29},
            turn=3,
        )
        carrier = [r for r in record_of(state).strikes if r.kind == "carrier"]
        assert carrier[0].attacker is A
        sunk = carrier[0].target_points > 0
        japanese = [r for r in carrier if r.attacker is J]
        cut = [e.data for e in events if e.kind == "strike-cut"]
        if sunk:
            assert japanese == []
            assert [(c["side"], c["size"]) for c in cut] == [("japanese", "none")]
        else:
            assert len(japanese) == 1 and len(strike_aircraft(japanese[0])) == 2
            assert cut == []
        seen.add(sunk)
        if seen == {True, False}:
            return
    pytest.fail(f"cases seen: {seen}")


def test_no_large_strike_once_the_fleet_is_heavily_damaged_mid_turn() -> None:
    """Coral Sea, Japanese fleet at 14 boxes (Damaged: strike -1) picks a Large Strike; the
    Allies strike first. Once a hit takes it to 15 (Heavy: strike -2, no Large Strike) the
    Japanese strike flies as a Small one less 2 (1 aircraft), else as a Large one less 1."""
    seen: set[bool] = set()
    for seed in seeds("nl", 120):
        state, _ = play_one_turn(
            "coral-sea",
            seed,
            japanese=("medium", "large:allied-fleet"),
            allied=("medium", "large:japanese-fleet"),
            resources=(15, 11),
            damage={"japanese-fleet": 14},
        )
        carrier = [r for r in record_of(state).strikes if r.kind == "carrier"]
        boxes = 14 + carrier[0].target_points
        if boxes >= 20:  # Crippled (strike -3) leaves a Small Strike nothing; Sinking too
            assert [r.attacker for r in carrier] == [A]
            continue
        heavy = boxes >= 15
        japanese = next(r for r in carrier if r.attacker is J)
        # Coral Sea Japanese Large: 5 aircraft; Small: 1 L A6M2 + 1 L/W D3A1 = 3.
        assert len(strike_aircraft(japanese)) == (1 if heavy else 4)
        if heavy:
            assert {a.aircraft for a in japanese.aircraft if a.group == "strike"} <= {
                "A6M2",
                "D3A1",
            }
        seen.add(heavy)
        if seen == {True, False}:
            return
    pytest.fail(f"cases seen: {seen}")


def test_midways_raid_can_ground_a_fleet_before_a_simultaneous_pair() -> None:
    """Midway T1: Midway's raid flies before the carriers (25.61). With equal resources
    (#5 both) the carrier strikes keep their start-of-turn size, but a Japanese fleet that
    Midway's raid made Sinking (29 -> 30+ boxes) launches nothing."""
    seen: set[bool] = set()
    for seed in seeds("gr", 120):
        state, _ = play_one_turn(
            "midway",
            seed,
            japanese=("medium", "small:midway-airfield"),
            allied=("medium", "none"),
            resources=(5, 5),
            damage={"japanese-fleet": 29},
        )
        strikes = record_of(state).strikes
        raid = next(r for r in strikes if r.kind == "airfield")
        japanese = [r for r in strikes if r.kind == "carrier" and r.attacker is J]
        sunk = raid.target_points > 0
        assert len(japanese) == (0 if sunk else 1)
        if japanese:
            assert japanese[0].simultaneous and len(strike_aircraft(japanese[0])) == 2
        seen.add(sunk)
        if seen == {True, False}:
            return
    pytest.fail(f"cases seen: {seen}")


# --- 6: AA Screen (#13) reaches land-based raids on the fleet -------------------------------


def test_aa_screen_thickens_the_flak_against_land_based_bombers() -> None:
    """Authored #13: every enemy strike on the fleet meets Area and Target Flak +1, the
    Japanese G4M1s of resource #8 included (torpedo run: Target Flak +1 as well)."""
    sheet = CATALOG.targets["5A"]
    for seed in seeds("aa", 120):
        state, _ = play_one_turn(
            "coral-sea",
            seed,
            japanese=("medium", "none"),
            allied=("medium", "none"),
            resources=(8, 13),
        )
        raid = next(r for r in record_of(state).strikes if r.kind == "land-based")
        bombers = set(strike_aircraft(raid))
        area = [len(f.cards) for f in raid.flak if f.kind == "area" and f.against in bombers]
        target = [len(f.cards) for f in raid.flak if f.kind == "target" and f.against in bombers]
        if not area or not target:
            continue  # the CAP stopped the raid before its torpedo run
        assert all(r.mode == "torpedo" for r in raid.bomb_runs)
        assert set(area) == {sheet.area_flak + 1}
        assert set(target) == {sheet.target_flak + 1 + 1}
        return
    pytest.fail("no land-based raid reached the fleet")


# --- 7: Ace Leader (#14) puts one ace on one Leader -----------------------------------------


@pytest.mark.parametrize(
    ("japanese_ops", "allied_ops", "group"),
    [
        ("large:allied-fleet", "large:japanese-fleet", "strike"),
        ("none", "large:japanese-fleet", "cap"),
        ("large:allied-fleet", "large:invasion-force", "strike"),
    ],
)
def test_ace_leader_names_one_ace_for_the_side(
    japanese_ops: str, allied_ops: str, group: str
) -> None:
    """Authored #14: a single named ace flies one Leader of the side's strike or CAP (here
    the strike when there is one). The Invasion Force's CAP, drafted the same turn, gets
    no ace of its own."""
    for seed in seeds("ace", 3):
        state, events = play_one_turn(
            "coral-sea",
            seed,
            japanese=("medium", japanese_ops),
            allied=("medium", allied_ops),
            resources=(14, 15),
        )
        aces = {
            (a.uid, a.group, a.role)
            for r in record_of(state).strikes
            for a in r.aircraft
            if a.side is J and (a.pilot or "").startswith("Ace leader")
        }
        assert len(aces) == 1
        _, ace_group, role = aces.pop()
        assert (ace_group, role) == (group, "leader")
        placed = [
            uid
            for e in events
            if e.kind == "pilots-drafted" and e.data["side"] == "japanese"
            for uid, name in e.data["placed"].items()
            if name == "Ace leader"
        ]
        assert len(placed) == 1


# --- 8: the box limit counts Midway's aircraft too (25.65) ----------------------------------


def test_extra_cap_never_overfills_the_box_with_midways_aircraft() -> None:
    """Midway T2: the Allied Large Strike flies 4 SBD-3 and Midway's raid 1, so of a box
    of 6 only 1 card is left: Extra CAP (#4) cannot add an SBD pair (nor an F4F pair, the
    F4F box of 4 holding the strike's 1 and the CAP's 2)."""
    box = CATALOG.aircraft["SBD-3"].box
    for seed in seeds("bx", 3):
        state, _ = play_one_turn(
            "midway",
            seed,
            japanese=("medium", "large:allied-fleet"),
            allied=("medium", "large:japanese-fleet"),
            resources=(15, 4),
            turn=2,
        )
        strikes = record_of(state).strikes
        assert {r.kind for r in strikes} >= {"airfield", "carrier"}
        flying = {(a.aircraft, a.uid) for r in strikes for a in r.aircraft if a.side is A}
        sbd = {uid for code, uid in flying if code == "SBD-3"}
        f4f = {uid for code, uid in flying if code == "F4F"}
        assert len(sbd) == 5 <= box
        assert len(f4f) == 3


def test_a_card_drawn_cap_never_overfills_the_box() -> None:
    """Midway: Japanese No Strike CAP 3 L/W A6M2 plus Extra CAP (#4) 1 L/W A6M2 fill the
    box of 8. The transports' CAP card reads 1 L/W A6M2 on a Vital; with no card left it
    can field none of them (25.65), while its A5M4 readings are unaffected."""
    box = CATALOG.aircraft["A6M2"].box
    readings: set[str] = set()
    for seed in seeds("cb", 200):
        state, events = play_one_turn(
            "midway",
            seed,
            japanese=("medium", "none"),
            allied=("medium", "large:midway-transports"),
            resources=(4, 15),
        )
        drawn = next(e.data for e in events if e.kind == "cap-drawn")
        readings.add(drawn["result"])
        zeros = {
            a.uid
            for r in record_of(state).strikes
            for a in r.aircraft
            if a.side is J and a.aircraft == "A6M2"
        }
        assert len(zeros) <= box
        transports = next(r for r in record_of(state).strikes if r.target == "midway-transports")
        cap = {a.aircraft for a in transports.aircraft if a.group == "cap"}
        if drawn["result"] == "VITAL":
            assert cap == set()
            return
        assert cap <= {"A5M4"}
    pytest.fail(f"no Vital drawn for the transports' CAP: {readings}")

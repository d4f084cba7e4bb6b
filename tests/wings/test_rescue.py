"""Landing, takeoff and the rescue mission (seed B.I, E.I.a, E.III.a, B.VIII)."""

from __future__ import annotations

from engine.rng import Rng
from engine.rulesets.wings import WingsRules
from engine.rulesets.wings import campaign as wings
from engine.rulesets.wings.generator import generate_mission
from engine.rulesets.wings.landing import brought_home, rescued
from engine.rulesets.wings.objectives import awards
from engine.rulesets.wings.program import check_program, default_program, parse_program
from engine.rulesets.wings.state import MissionState, Objective, PlaneState
from engine.rulesets.wings.turn import play_turn
from tests.wings.helpers import catalog, mission, offered, plane
from tests.wings.test_mission_kinds import with_recon_crew

LAND = parse_program("LD S S ST")
WAIT = parse_program("GD ST ST ST")
TAKE_OFF = parse_program("TO ST S S")


def reasons(p: PlaneState, text: str, turn: int = 1) -> list[str]:
    return [
        r.reason for r in check_program(catalog(), p, parse_program(text), mission(p).rules, turn)
    ]


def rescuer(**extra: object) -> PlaneState:
    fields: dict[str, object] = {"level": 0, "counters": 1, "x": 3.0, "y": 5.0, **extra}
    return plane("E1", type_="bristol_f2b", side="entente", pilot="E1", **fields)  # type: ignore[arg-type]


def site(x: float, y: float = 5.0) -> Objective:
    return Objective(id="c-rescue1", kind="rescue", side="central", x=x, y=y, person="P9")


def fly(state: MissionState, programs: dict[str, str], seed: str = "r") -> MissionState:
    parsed = {pid: parse_program(text) for pid, text in programs.items()}
    after, _events = play_turn(catalog(), state, parsed, Rng(seed, state.turn, "t"))
    return after


def test_landing_and_takeoff_programs_follow_the_seed_sequences() -> None:
    assert reasons(rescuer(), "LD S S ST") == []
    # Seed B.I.a: only from level 0 with exactly one climb counter.
    assert reasons(rescuer(level=1), "LD S S ST") == ["landing-needs-level-0"]
    assert reasons(rescuer(counters=0), "LD S S ST") == ["landing-needs-level-0"]
    assert reasons(rescuer(), "LD S ST S") == ["sequence-mismatch"]
    landed = rescuer(status="landed", landed_turn=3, counters=0)
    assert reasons(landed, "S S S", turn=4) == ["on-the-ground"]
    assert reasons(landed, "GD ST ST ST", turn=4) == []
    # Seed E.I.a: a full turn on the ground before taking off.
    assert reasons(landed, "TO ST S S", turn=4) == ["needs-a-turn-on-the-ground"]
    assert reasons(landed, "TO ST S S", turn=5) == []
    assert reasons(rescuer(), "TO ST S S") == ["not-on-the-ground"]
    assert default_program(catalog(), landed, mission(landed).rules, 4) == WAIT


def test_a_rescue_lands_by_the_pilot_waits_a_turn_takes_him_aboard_and_scores() -> None:
    enemy = plane("C1", side="central", pilot="C1", x=20.0, y=20.0, heading=180.0)
    state = mission(rescuer(), enemy).model_copy(
        update={"kind": "rescue", "objectives": {"c-rescue1": site(8.0)}, "max_turns": 8}
    )
    state = fly(state, {"E1": "LD S S ST", "C1": "S S S"})
    landed = state.planes["E1"]
    assert landed.status == "landed" and landed.landed_at == "c-rescue1"
    assert landed.damage == 0 and landed.cards == ()  # the field by the pilot is a strip
    where = (landed.x, landed.y)
    state = fly(state, {"E1": "GD ST ST ST", "C1": "S S S"})
    assert (state.planes["E1"].x, state.planes["E1"].y) == where  # it stays put
    assert state.planes["E1"].status == "landed"
    assert state.objectives["c-rescue1"].done_by is None
    state = fly(state, {"E1": "TO ST S S", "C1": "S S S"})
    off = state.planes["E1"]
    assert off.status == "flying" and off.carrying == "c-rescue1"
    assert (off.level, off.counters) == (0, 1)  # seed B.I.b: level 0, one counter
    assert state.objectives["c-rescue1"].done_by == "E1"
    result = awards(catalog(), state)
    assert result.success and result.team["entente"] == 3 and result.pilot["E1"] == 1
    assert rescued(state) == ["P9"]
    shot = state.model_copy(
        update={"planes": {**state.planes, "E1": off.model_copy(update={"status": "shot_down"})}}
    )
    assert rescued(shot) == [] and not awards(catalog(), shot).success


def test_a_landing_away_from_a_strip_costs_two_b_cards() -> None:
    enemy = plane("C1", side="central", x=20.0, y=20.0, heading=180.0)
    far = mission(rescuer(), enemy).model_copy(
        update={"kind": "rescue", "objectives": {"c-rescue1": site(20.0, 12.0)}}
    )
    state = fly(far, {"E1": "LD S S ST", "C1": "S S S"})
    e1 = state.planes["E1"]
    assert [deck for deck, _card in e1.cards] == ["B", "B"]  # seed B.I.a
    assert e1.landed_at is None


def test_a_plane_still_on_the_ground_at_the_end_is_lost_and_its_pilot_missing() -> None:
    enemy = plane("C1", side="central", x=20.0, y=20.0, heading=180.0)
    grounded = rescuer(status="landed", landed_turn=1, counters=0, x=10.0)
    state = mission(grounded, enemy).model_copy(update={"turn": 8, "max_turns": 8})
    state = fly(state, {"E1": "GD ST ST ST", "C1": "S S S"})
    assert state.finished
    e1 = state.planes["E1"]
    assert e1.status == "crashed" and e1.crash_zone == "no_mans_land"


def with_missing_pilot() -> tuple[wings.CampaignState, str]:
    state = with_recon_crew()
    lost = next(
        p for p in state.pilots.values() if p.side == "entente" and p.plane != "bristol_f2b"
    )
    pilots = {**state.pilots, lost.id: lost.model_copy(update={"state": "missing", "lp": 4})}
    return state.model_copy(update={"pilots": pilots}), lost.id


def test_the_briefing_offers_a_rescue_only_for_a_missing_or_captured_pilot() -> None:
    plain = wings.mission_decision(catalog(), with_recon_crew())
    assert {e.id: e.reason for e in plain.excluded}["rescue"] == "nobody-to-rescue"
    state, _lost = with_missing_pilot()
    decision = wings.mission_decision(catalog(), state)
    assert "rescue" in [o.id for o in decision.options]
    assert "rescue-2" not in [o.id for o in decision.options]


def test_the_rescue_mission_sends_a_two_seater_without_observer_to_the_missing_pilot() -> None:
    state, lost = with_missing_pilot()
    mission_, points, _forces = generate_mission(catalog(), state, Rng("k", 1, "b"), "rescue")
    (spot,) = mission_.objectives.values()
    width = mission_.table[0]
    assert spot.kind == "rescue" and spot.person == lost
    assert width / 4 < spot.x < width * 3 / 4  # a missing pilot lies in no-man's-land
    crew = [p for p in mission_.planes.values() if p.type == "bristol_f2b"]
    assert crew and all(p.observer_lp == -1 for p in crew)  # his seat is for the pilot
    assert ("mission:rescue", 2) in points.lines
    home = brought_home(catalog(), state.pilots[lost])
    assert home.state == "wounded" and home.rest == 1  # 4 LP: wounded (seed D.V)


def test_the_seam_offers_waiting_and_taking_off_to_a_landed_plane() -> None:
    cat = catalog()
    landed = rescuer(status="landed", landed_turn=1, counters=0)
    state = mission(landed).model_copy(update={"kind": "rescue", "turn": 2})
    assert offered(cat, landed, state, []) == ["GD ST ST ST"]
    later = state.model_copy(update={"turn": 3})
    assert offered(cat, landed, later, []) == ["GD ST ST ST", "TO ST S S"]
    low = rescuer()
    assert "LD S S ST" in offered(cat, low, state, ["S"])
    # Only the active side's two-seaters land: a fighter or a defender is not offered it.
    fighter = plane("E2", type_="camel", side="entente", level=0, counters=1)
    defender = plane("C2", type_="roland_c2", side="central", level=0, counters=1)
    assert "LD S S ST" not in offered(cat, fighter, state, ["S"])
    assert "LD S S ST" not in offered(cat, defender, state, ["S"])
    assert WingsRules  # the seam module is the one under test


def test_the_debrief_brings_the_rescued_pilot_home() -> None:
    state, lost = with_missing_pilot()
    mission_, _points, _forces = generate_mission(catalog(), state, Rng("k", 1, "b"), "rescue")
    carrier = next(p for p in mission_.planes.values() if p.type == "bristol_f2b")
    (oid,) = mission_.objectives
    done = {oid: mission_.objectives[oid].model_copy(update={"done_by": carrier.id})}
    finished = mission_.model_copy(update={"objectives": done, "finished": True})
    flying = state.model_copy(update={"mission": finished, "phase": "mission"})
    after, _events = wings._debrief(catalog(), flying, Rng("k", 2, "d"), [])
    assert after.pilots[lost].state == "wounded"  # home, with the state his 4 LP give
    assert after.history[-1]["success"] is True
    gone = finished.planes[carrier.id].model_copy(update={"status": "shot_down"})
    failed = finished.model_copy(update={"planes": {**finished.planes, carrier.id: gone}})
    after, _events = wings._debrief(
        catalog(), state.model_copy(update={"mission": failed, "phase": "mission"}),
        Rng("k", 2, "d"), [],
    )  # fmt: skip
    assert after.pilots[lost].state == "missing"

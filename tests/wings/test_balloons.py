"""Balloon cables (seed A.IV.i.1) and Le Prieur rockets (seed A.IV.j)."""

from __future__ import annotations

from engine.rng import Rng
from engine.rulesets.wings.state import MissionState, Objective
from engine.rulesets.wings.turn import Turn
from tests.wings.helpers import catalog, mission, phase_one, plane
from tests.wings.test_turn import programs


def balloon(x: float, y: float = 10.0, level: int = 3) -> Objective:
    return Objective(id="c-balloon1", kind="balloon", side="central", x=x, y=y, level=level)


def with_balloon(level: int, x: float = 13.0, **extra: object) -> MissionState:
    flyer = plane("e", type_="camel", side="entente", x=10.0, y=10.0, level=level, **extra)  # type: ignore[arg-type]
    far = plane("c", type_="dr1", side="central", x=20.0, y=20.0, heading=180.0)
    return mission(flyer, far).model_copy(
        update={"kind": "balloon", "objectives": {"c-balloon1": balloon(x)}}
    )


def first_phase(state: MissionState, e: str = "S S S") -> Turn:
    return phase_one(state, "b", e=e, c="S S S")


def test_a_plane_passing_under_a_balloon_hits_its_cables() -> None:
    work = first_phase(with_balloon(level=2))
    end = (work.planes["e"].x, work.planes["e"].y)
    assert abs(end[0] - 13.0) < 0.7 and abs(end[1] - 10.0) < 0.5  # its centre on the card
    assert [deck for deck, _card in work.planes["e"].cards] == ["A", "A"]
    assert any(e.kind == "balloon-cables" for e in work.events)
    assert work.objectives["c-balloon1"].damage == 0  # the balloon takes nothing
    level = first_phase(with_balloon(level=3))  # at its level: no cables to hit
    assert not any(e.kind == "balloon-cables" for e in level.events)
    aside = first_phase(with_balloon(level=2, x=18.0))  # not under the card
    assert not any(e.kind == "balloon-cables" for e in aside.events)


def reasons(text: str, **extra: object) -> list[str]:
    from engine.rulesets.wings.program import check_program, parse_program

    p = plane("e", type_="camel", side="entente", **extra)  # type: ignore[arg-type]
    return [r.reason for r in check_program(catalog(), p, parse_program(text), mission(p).rules, 1)]


def test_a_rocket_attack_needs_rockets_and_straights_dives_or_stalls() -> None:
    assert reasons("LP S S S", rockets=2) == []
    assert reasons("LP DV S TL", rockets=2) == []
    assert reasons("LP BL S S", rockets=2) == ["rockets-need-straight-dive-or-stall"]
    assert reasons("LP S S S") == ["no-rockets"]
    assert reasons("LP ST ST S", rockets=2) == ["steep-after-steep"]  # diamonds still


def rocket_run(level: int = 3, **extra: object) -> tuple[MissionState, list[str]]:
    from engine.rulesets.wings.state import Event
    from engine.rulesets.wings.turn import play_turn
    from tests.wings.helpers import card_id, stack

    state = with_balloon(level=level, x=13.0, rockets=2, **extra)
    flyer = state.planes["e"].model_copy(update={"x": 5.0})
    state = state.model_copy(update={"planes": {**state.planes, "e": flyer}})
    state = stack(state, "D", [card_id("D", 4, "none"), card_id("D", 3, "none")])
    after, events = play_turn(
        catalog(), state, programs(e="LP S S ST", c="S S S"), Rng("r", 1, "t")
    )
    kinds: list[Event] = events
    return after, [f"{e.phase}:{e.kind}" for e in kinds if e.data.get("plane") == "e"
                   or e.data.get("shooter") == "e"]  # fmt: skip


def test_rockets_go_off_after_the_second_card_one_d_card_a_batch() -> None:
    after, seen = rocket_run()
    assert "2:rockets-fired" in seen
    assert not [k for k in seen if k.split(":")[0] in ("1", "2") and k.endswith("fire-at-balloon")]
    assert after.planes["e"].rockets == 0
    balloon = after.objectives["c-balloon1"]
    assert balloon.damage >= 4 + 3 and balloon.hit_by == "e"  # two batches: two D cards


def test_rockets_stay_aboard_when_too_low_or_hit_by_a_special() -> None:
    low, seen = rocket_run(level=2)
    assert "2:rockets-held" in seen and low.planes["e"].rockets == 2
    work = Turn(catalog(), with_balloon(level=3, x=13.0, rockets=2), Rng("r", 1, "t"))
    work.rocket_runs = {"e": 0}
    work.update("e", x=9.0, specials=("smoke",))  # a special taken during the run
    from engine.rulesets.wings.balloons import fire_rockets

    fire_rockets(work)
    assert work.planes["e"].rockets == 2
    assert work.objectives["c-balloon1"].damage == 0


def test_a_balloon_mission_arms_its_fighters_and_the_seam_offers_the_attack() -> None:
    from engine.rulesets.wings import WingsRules
    from tests.wings.helpers import offered

    rules = WingsRules(catalog())
    state = rules.new("wings-1917", "rockets")  # opens with balloon busting
    mission_ = state.camp.mission
    assert mission_ is not None and mission_.kind == "balloon"
    armed = [p for p in mission_.planes.values() if p.side == mission_.active and p.rockets]
    assert armed and all(p.rockets == 2 for p in armed)
    assert all(p.rockets == 0 for p in mission_.planes.values() if p.side != mission_.active)
    options = offered(catalog(), armed[0], mission_, ["S"])
    assert "LP S S S" in options


def test_the_seam_offers_only_the_rocket_attacks_the_plane_can_fly() -> None:
    from engine.rulesets.wings import WingsRules

    rules = WingsRules(catalog())
    state = rules.new("wings-1917", "rockets")
    mission_ = state.camp.mission
    assert mission_ is not None
    armed = next(p for p in mission_.planes.values() if p.rockets)

    def decision_for(**changes: object) -> tuple[list[str], list[tuple[str, str]]]:
        planes = {**mission_.planes, armed.id: armed.model_copy(update=changes)}
        campaign = state.camp.model_copy(
            update={"mission": mission_.model_copy(update={"planes": planes})}
        )
        seam = state.model_copy(update={"campaign": campaign})
        decision = next(d for d in rules.pending(seam) if d.field == f"program:{armed.id}")
        return [o.id for o in decision.options], [(e.id, e.reason) for e in decision.excluded]

    offered, excluded = decision_for()
    assert "LP S S S" in offered and not [e for e in excluded if e[0].startswith("LP")]
    # An engine hit wants a stall every turn, and a diamond just flown forbids opening
    # with one: only the attack ending on a stall is offered.
    offered, _excluded = decision_for(engine_hits=1, last_card="ST", last_steep=True)
    assert [o for o in offered if o.startswith("LP")] == ["LP S S ST"]
    # A refusal line only shows when no attack at all is left: not here, and not for a
    # plane with nothing aboard.
    from engine.rulesets.wings.balloons import rocket_programs
    from engine.rulesets.wings.picks import rockets_refused

    stuck = armed.model_copy(update={"engine_hits": 1, "last_card": "ST", "last_steep": True})
    attacks = rocket_programs(catalog(), stuck)
    assert any(a.cards == ("S", "S", "ST") for a in attacks)
    assert rockets_refused(catalog(), stuck, mission_) == ()
    dry = stuck.model_copy(update={"rockets": 0})
    assert rockets_refused(catalog(), dry, mission_) == ()  # nothing aboard: nothing to say


def balloon_at(dy: float, **extra: object) -> MissionState:
    state = with_balloon(level=3, **extra)
    return state.model_copy(update={"objectives": {"c-balloon1": balloon(13.0, 10.0 + dy)}})


def collided(work: Turn) -> bool:
    return any(e.kind == "balloon-collision" for e in work.events)


def test_a_plane_flying_into_a_balloon_at_its_level_collides_both_take_a_c_card() -> None:
    work = first_phase(balloon_at(0.0))  # ends with 5/7 of its base on the card
    e = work.planes["e"]
    assert [deck for deck, _card in e.cards] == ["C"]
    assert [ev.data for ev in work.events if ev.kind == "balloon-collision"] == [
        {"plane": "e", "objective": "c-balloon1"}
    ]
    drawn = [ev.data for ev in work.events if ev.kind == "damage-card"]
    assert not drawn  # a collision card is no shot: its points only, as B.III
    assert e.damage > 0 and work.objectives["c-balloon1"].damage > 0  # this seed's C cards
    assert work.objectives["c-balloon1"].hit_by == "e"
    # Counters on one side only (the plane climbing, the balloon not): no collision.
    assert not collided(first_phase(balloon_at(0.0, counters=1)))
    # More than a third of the base on the card collides; a third or less grazes it.
    assert collided(first_phase(balloon_at(0.65)))  # 0.39 of the base
    assert not collided(first_phase(balloon_at(0.8)))  # 0.29 of the base


def test_overlap_area_of_two_bases() -> None:
    from engine.rulesets.wings import geometry as geo

    base = geo.rectangle(0.0, 0.0, 0.0, 1.0, 1.4)
    assert abs(geo.overlap_area(base, base) - 1.4) < 1e-9
    half = geo.rectangle(0.7, 0.0, 0.0, 1.0, 1.4)  # slid half its length along
    assert abs(geo.overlap_area(base, half) - 0.7) < 1e-9
    assert geo.overlap_area(base, geo.rectangle(5.0, 0.0, 0.0, 1.0, 1.4)) == 0.0

"""Balloon nets (seed A.IV.i.2): a barrage along the line of two balloons or more."""

from __future__ import annotations

from engine.rng import Rng
from engine.rulesets.wings.generator import generate_mission
from engine.rulesets.wings.state import MissionState
from engine.rulesets.wings.turn import Turn
from tests.wings.helpers import catalog, mission, plane
from tests.wings.test_balloons import balloon
from tests.wings.test_mission_kinds import with_recon_crew
from tests.wings.test_turn import programs


def barrage(x: float, nets: bool = True, **extra: object) -> MissionState:
    fields: dict[str, object] = {"level": 2, **extra}
    flyer = plane("e", type_="camel", side="entente", x=x, y=10.0, **fields)  # type: ignore[arg-type]
    far = plane("c", type_="dr1", side="central", x=20.0, y=20.0, heading=180.0)
    a, b = balloon(13.0, 6.0), balloon(13.0, 14.0)
    a, b = a.model_copy(update={"id": "c-B1"}), b.model_copy(update={"id": "c-B2"})
    return mission(flyer, far).model_copy(
        update={"kind": "balloon", "objectives": {"c-B1": a, "c-B2": b}, "nets": nets}
    )


def phases(state: MissionState, count: int) -> Turn:
    work = Turn(catalog(), state, Rng("n", 1, "t"))
    for phase in range(1, count + 1):
        work.phase = phase
        work.play_phase(programs(e="S S S", c="S S S"))
    return work


def kinds(work: Turn) -> list[str]:
    return [e.kind for e in work.events if e.kind.startswith("net-")]


def test_a_plane_more_than_a_third_past_the_net_is_destroyed() -> None:
    work = phases(barrage(10.0), 1)  # ends with 0.5 of its 1.4 bw past the line
    assert kinds(work) == ["net-crash"]
    assert work.planes["e"].status != "flying"


def test_touching_the_net_costs_two_a_cards_and_still_touching_destroys() -> None:
    work = phases(barrage(9.8), 1)  # 0.3 of 1.4 bw past the line: a touch
    e = work.planes["e"]
    assert kinds(work) == ["net-contact"] and e.net_contact
    assert [deck for deck, _card in e.cards] == ["A", "A"]
    work.phase = 2
    work.play_phase(programs(e="S S S", c="S S S"))
    assert kinds(work) == ["net-contact", "net-crash"]


def test_above_the_balloons_without_nets_or_a_balloon_down_the_way_is_open() -> None:
    above = barrage(10.0, level=3, counters=1)  # higher than balloons at level 3, 0 counters
    assert kinds(phases(above, 1)) == []
    assert kinds(phases(barrage(10.0, nets=False), 1)) == []
    state = barrage(10.0)
    down = state.objectives["c-B2"].model_copy(update={"destroyed": True})
    state = state.model_copy(update={"objectives": {**state.objectives, "c-B2": down}})
    assert kinds(phases(state, 1)) == []  # the section beside y = 10 fell with its balloon


def test_the_generator_hangs_nets_for_two_balloons_or_more() -> None:
    state = with_recon_crew()
    one, _points, _forces = generate_mission(catalog(), state, Rng("g", 1, "b"), "balloon")
    two, _points, _forces = generate_mission(catalog(), state, Rng("g", 1, "b"), "balloon", 2)
    assert not one.nets and two.nets
    xs = {b.x for b in two.objectives.values()}
    assert len(xs) == 1  # the balloons stand in a line across the table, as the net runs

"""Balloon cables (seed A.IV.i.1) and Le Prieur rockets (seed A.IV.j)."""

from __future__ import annotations

from engine.rng import Rng
from engine.wings.state import MissionState, Objective
from engine.wings.turn import Turn
from tests.wings.helpers import catalog, mission, plane
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
    work = Turn(catalog(), state, Rng("b", 1, "t"))
    work.phase = 1
    work.play_phase(programs(e=e, c="S S S"))
    return work


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

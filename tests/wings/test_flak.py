"""The flak battery (DCA, seed A.IV.h): distance bands, arming and reloading, the burst in
the second maneuver, C cards on the counter and A cards near it."""

from __future__ import annotations

import pytest

from engine.rng import Rng
from engine.rulesets.wings.flak import aim, band, caught, in_band
from engine.rulesets.wings.state import GroundElement, MissionState
from engine.rulesets.wings.turn import Turn, play_turn
from tests.wings.helpers import card_id, catalog, mission, plane, stack
from tests.wings.test_turn import programs

R = 5.0


@pytest.mark.parametrize(
    ("level", "least", "most"),
    [(1, R, 2 * R), (2, R / 2, 1.5 * R), (3, R / 2, R), (4, 0.86, R / 2), (5, 0.0, 0.86)],
)
def test_the_burst_bands_follow_the_target_altitude(level: int, least: float, most: float) -> None:
    limits = band(catalog(), level)
    assert limits == pytest.approx((least, most), abs=0.01)


def test_flak_cannot_reach_level_0_or_above_5() -> None:
    assert band(catalog(), 0) is None and band(catalog(), 6) is None


def battery(**kw: object) -> GroundElement:
    return GroundElement(id="dca", kind="dca", side="central", x=15.0, y=11.0, **kw)  # type: ignore[arg-type]


def test_the_gunner_lays_the_counter_inside_the_band_of_the_target_level() -> None:
    for level in (1, 2, 3, 4, 5):
        target = plane("e", type_="camel", side="entente", x=8.0, y=11.0, level=level)
        burst = aim(catalog(), battery(), [target])
        assert burst is not None and burst[2] == level
        assert in_band(catalog(), battery(), burst[0], burst[1], level)
    friend = plane("f", type_="dr1", side="central", x=8.0, y=11.0, level=2)
    assert aim(catalog(), battery(), [friend]) is None


def test_a_plane_on_the_counter_takes_c_and_one_near_it_takes_a() -> None:
    on = plane("on", type_="camel", side="entente", x=10.0, y=11.0, level=2)
    near = plane("near", type_="camel", side="entente", x=10.0, y=13.0, level=2)
    other_level = plane("high", type_="camel", side="entente", x=10.0, y=11.2, level=3)
    far = plane("far", type_="camel", side="entente", x=10.0, y=18.0, level=2)
    hits = caught(catalog(), (10.0, 11.0, 2), [on, near, other_level, far], near=True)
    assert hits == [("near", "A"), ("on", "C")]
    assert caught(catalog(), (10.0, 11.0, 2), [on, near], near=False) == [("on", "C")]


def with_battery(state: MissionState, **kw: object) -> MissionState:
    return state.model_copy(update={"ground": {"dca": battery(**kw)}})


def test_the_battery_arms_for_a_turn_bursts_in_phase_2_then_reloads_a_turn() -> None:
    # A Camel flying straight at level 2 towards the battery, an enemy far off.
    camel = plane("c", type_="camel", side="entente", x=4.0, y=11.0, level=2)
    far = plane("f", type_="dr1", side="central", x=20.0, y=20.0, heading=180, level=3)
    state = with_battery(mission(camel, far), ready_turn=2)
    progs = programs(c="ST ST ST", f="S S S")
    seen: dict[int, list[str]] = {}
    for turn in (1, 2, 3, 4):
        state = state.model_copy(update={"turn": turn})
        state, events = play_turn(catalog(), state, progs, Rng("flak", turn, "turn"))
        seen[turn] = [f"{e.kind}@{e.phase}" for e in events if e.kind.startswith("flak")]
    assert seen[1] == []  # arming
    assert seen[2] == ["flak-laid@0", "flak-burst@2"]
    assert seen[3] == []  # reloading
    assert seen[4] == ["flak-laid@0", "flak-burst@2"]


def test_a_burst_on_a_plane_deals_a_c_card_credited_to_the_battery() -> None:
    camel = plane("c", type_="camel", side="entente", x=4.0, y=11.0, level=2, damage=10)
    far = plane("f", type_="dr1", side="central", x=20.0, y=20.0, heading=180, level=3)
    state = with_battery(mission(camel, far))
    work = Turn(catalog(), state, Rng("flak", 1, "turn"))
    # Lay the counter where the camel will be after its two stalls.
    work.planes["c"] = camel
    stall = catalog().move(catalog().planes["camel"], "ST")
    x, y = camel.x + 2 * stall.dx, camel.y
    work.ground["dca"] = work.ground["dca"].model_copy(update={"burst": (x, y, 2)})
    work.piles["C"].insert(0, card_id("C", 6, "none"))
    for phase in (1, 2):
        work.phase = phase
        work.play_phase(programs(c="ST ST ST", f="S S S"))
    assert work.planes["c"].status == "shot_down"
    assert work.ground["dca"].kills == ("c",)
    assert work.ground["dca"].burst is None and work.ground["dca"].ready_turn == 3


def test_a_silenced_battery_does_not_fire() -> None:
    camel = plane("c", type_="camel", side="entente", x=4.0, y=11.0, level=2)
    far = plane("f", type_="dr1", side="central", x=20.0, y=20.0, heading=180, level=3)
    state = stack(with_battery(mission(camel, far), silenced=True), "C", [])
    _, events = play_turn(catalog(), state, programs(c="S S S", f="S S S"), Rng("f", 1, "t"))
    assert not [e for e in events if e.kind.startswith("flak")]

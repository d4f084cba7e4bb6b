"""Mission objectives beyond the patrol: bombs (seed A.IV.e, B.X), photography (A.IV.f),
reconnaissance (A.IV.g), balloons (A.IV.i) and the objective awards (E.I.a, E.III.a)."""

from __future__ import annotations

import pytest

from engine.rng import Rng
from engine.rulesets.wings import geometry as geo
from engine.rulesets.wings.objectives import awards, bomb_damage, bomb_fall, bomb_markers
from engine.rulesets.wings.state import MissionState, Objective, PlaneState
from engine.rulesets.wings.turn import Turn
from tests.wings.helpers import card_id, catalog, mission, phase_one, plane, stack


def with_objective(
    state: MissionState, kind: str, x: float, y: float, **kw: object
) -> MissionState:
    site = Objective(id="obj", kind=kind, side="central", x=x, y=y, **kw)  # type: ignore[arg-type]
    return state.model_copy(update={"objectives": {"obj": site}})


def run_phase(state: MissionState, **texts: str) -> Turn:
    return phase_one(state, "o", **texts)


def after(p: PlaneState, code: str, times: int = 1) -> tuple[float, float, float]:
    move = catalog().move(catalog().planes[p.type], code)
    x, y, h = p.x, p.y, p.heading
    for _ in range(times):
        x, y, h = geo.apply_move(x, y, h, move)
    return x, y, h


FAR = plane("far", type_="dr1", side="central", x=20.0, y=20.0, heading=180, level=3)


# --- bombs ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "markers"),
    [(1, 0), (2, 1), (3, 1), (4, 2), (6, 2), (7, 3), (10, 3), (11, 4), (14, 4)],
)
def test_bomb_markers_follow_the_release_altitude_table(level: int, markers: int) -> None:
    assert bomb_markers(catalog(), level) == markers


def test_a_bomb_falls_one_straight_at_level_1_and_one_more_per_marker() -> None:
    low = plane("b", type_="camel", side="entente", x=5.0, y=10.0, level=1)
    assert bomb_fall(catalog(), low, "straight") == pytest.approx(after(low, "S"))
    # After a stall the bomb follows a stall card instead.
    assert bomb_fall(catalog(), low, "stall") == pytest.approx(after(low, "ST"))
    high = low.model_copy(update={"level": 4})
    assert bomb_fall(catalog(), high, "bank") == pytest.approx(after(low, "S", 3))


def test_bomb_damage_depends_on_covering_the_red_dot() -> None:
    site = Objective(id="t", kind="target", side="central", x=10.0, y=10.0)
    assert bomb_damage(catalog(), (10.2, 10.1, 0.0), site, cluster=False) == 5
    assert bomb_damage(catalog(), (10.2, 10.1, 0.0), site, cluster=True) == 12
    # Only the card's edge touches the target's card: the reduced damage.
    assert bomb_damage(catalog(), (11.1, 10.0, 0.0), site, cluster=False) == 2
    assert bomb_damage(catalog(), (11.1, 10.0, 0.0), site, cluster=True) == 5
    assert bomb_damage(catalog(), (14.0, 10.0, 0.0), site, cluster=True) == 0


def test_a_bomber_over_its_target_releases_and_destroys_it() -> None:
    bomber = plane("b", type_="camel", side="entente", x=5.0, y=10.0, level=1, bombs=1)
    x, y, _ = after(bomber, "S", 2)  # its own straight, then the bomb's straight
    work = run_phase(with_objective(mission(bomber, FAR), "target", x, y), b="S S S", far="S S S")
    target = work.objectives["obj"]
    assert (target.damage, target.destroyed, target.hit_by) == (5, True, "b")
    assert work.planes["b"].bombs == 0
    assert [e.kind for e in work.events if e.kind.startswith("bomb")] == [
        "bomb-released",
        "bomb-hit",
    ]


def test_a_bomber_keeps_its_bomb_when_the_fall_misses_or_it_flies_at_level_0() -> None:
    bomber = plane("b", type_="camel", side="entente", x=5.0, y=10.0, level=1, bombs=1)
    x, y, _ = after(bomber, "S", 2)
    missed = run_phase(
        with_objective(mission(bomber, FAR), "target", x, y + 3), b="S S S", far="S S S"
    )
    assert missed.planes["b"].bombs == 1 and missed.objectives["obj"].damage == 0
    ground = bomber.model_copy(update={"level": 0})
    skimming = run_phase(
        with_objective(mission(ground, FAR), "target", x, y), b="S S S", far="S S S"
    )
    assert skimming.planes["b"].bombs == 1


# --- photography and reconnaissance ---------------------------------------------------------


def test_a_photograph_needs_a_stall_over_the_site_at_level_2_or_lower() -> None:
    camera = plane("r", type_="bristol_f2b", side="entente", x=5.0, y=10.0, level=2)
    x, y, _ = after(camera, "ST")
    state = with_objective(mission(camera, FAR), "photo", x, y)
    assert run_phase(state, r="ST S S", far="S S S").objectives["obj"].done_by == "r"
    too_high = state.model_copy(
        update={"planes": {**state.planes, "r": camera.model_copy(update={"level": 3})}}
    )
    assert run_phase(too_high, r="ST S S", far="S S S").objectives["obj"].done_by is None
    x2, y2, _ = after(camera, "S")
    straight = with_objective(mission(camera, FAR), "photo", x2, y2)
    assert run_phase(straight, r="S S S", far="S S S").objectives["obj"].done_by is None
    hurt = camera.model_copy(update={"observer_lp": 5})
    wounded = with_objective(mission(hurt, FAR), "photo", x, y)
    assert run_phase(wounded, r="ST S S", far="S S S").objectives["obj"].done_by is None


@pytest.mark.parametrize(
    ("level", "gap", "done"),
    [(2, 2.4, True), (2, 2.6, False), (1, 3.5, True), (0, 4.9, True), (1, 5.3, False)],
)
def test_reconnaissance_is_within_half_a_ruler_at_2_or_a_ruler_lower(
    level: int, gap: float, done: bool
) -> None:
    """``gap`` runs from the plane's centre to the site's card, as every range does
    (authored 3.2); the card lies square to the table, its half-length across the gap."""
    scout = plane("r", type_="bristol_f2b", side="entente", x=5.0, y=10.0, level=level)
    x, y, _ = after(scout, "S")
    half_card = catalog().rules.units.small_base[1] / 2
    state = with_objective(mission(scout, FAR), "recon", x, y + gap + half_card)
    work = run_phase(state, r="S S S", far="S S S")
    assert (work.objectives["obj"].done_by == "r") is done


def test_a_single_seater_cannot_reconnoitre() -> None:
    fighter = plane("r", type_="camel", side="entente", x=5.0, y=10.0, level=1)
    x, y, _ = after(fighter, "S")
    work = run_phase(with_objective(mission(fighter, FAR), "recon", x, y), r="S S S", far="S S S")
    assert work.objectives["obj"].done_by is None


# --- balloons -------------------------------------------------------------------------------


def balloon_state(shooter: PlaneState, gap: float = 3.5, **kw: object) -> MissionState:
    x, y, _ = after(shooter, "S")
    kw.setdefault("level", shooter.level)
    return with_objective(mission(shooter, FAR), "balloon", x + gap, y, **kw)


def test_only_fire_and_explosion_specials_touch_a_balloon() -> None:
    camel = plane("c", type_="camel", side="entente", x=5.0, y=10.0, level=3)
    state = stack(balloon_state(camel), "A", [card_id("A", 1, "smoke")])
    work = run_phase(state, c="S S S", far="S S S")
    balloon = work.objectives["obj"]
    assert (balloon.damage, balloon.fire, balloon.destroyed) == (1, 0, False)
    state = stack(balloon_state(camel), "A", [card_id("A", 4, "fire")])
    burning = run_phase(state, c="S S S", far="S S S").objectives["obj"]
    assert (burning.damage, burning.fire, burning.fired_by) == (4, 1, "c")


def test_fire_on_a_balloon_burns_every_turn_and_it_is_winched_down() -> None:
    camel = plane("c", type_="camel", side="entente", x=2.0, y=2.0, level=0)
    state = balloon_state(camel, level=3, fire=2, damage=1)
    state = stack(state, "A", [card_id("A", 2, "none"), card_id("A", 3, "none")])
    work = Turn(catalog(), state, Rng("o", 1, "t"))
    work.start_of_turn()
    balloon = work.objectives["obj"]
    # Two fire results: two A cards (2 + 3 points); then one climb counter lower.
    assert (balloon.damage, balloon.level, balloon.counters) == (6, 2, 2)


def test_a_burning_balloon_that_goes_down_explodes_on_nearby_planes() -> None:
    camel = plane("c", type_="camel", side="entente", x=5.0, y=10.0, level=3)
    state = balloon_state(camel, gap=2.2, fire=1, damage=11)
    state = stack(state, "A", [card_id("A", 2, "none"), card_id("A", 1, "none")])
    work = run_phase(state, c="S S S", far="S S S")
    balloon = work.objectives["obj"]
    assert balloon.destroyed and balloon.exploded
    blasts = [e.data["plane"] for e in work.events if e.kind == "balloon-blast"]
    assert blasts == ["c"] and work.planes["c"].damage == 1


def test_a_balloon_destroyed_without_fire_does_not_explode() -> None:
    camel = plane("c", type_="camel", side="entente", x=5.0, y=10.0, level=3)
    state = stack(balloon_state(camel, damage=11), "A", [card_id("A", 2, "none")])
    work = run_phase(state, c="S S S", far="S S S")
    assert work.objectives["obj"].destroyed and not work.objectives["obj"].exploded
    assert not [e for e in work.events if e.kind == "balloon-blast"]


def test_no_fire_at_a_balloon_from_over_its_card_without_a_dive_shot() -> None:
    camel = plane("c", type_="camel", side="entente", x=5.0, y=10.0, level=3)
    x, y, _ = after(camel, "S")
    state = with_objective(mission(camel, FAR), "balloon", x, y, level=3)
    work = run_phase(state, c="S S S", far="S S S")
    assert not [e for e in work.events if e.kind == "fire-at-balloon"]


# --- awards ---------------------------------------------------------------------------------


def scored(site: Objective, *planes: PlaneState) -> tuple[bool, dict[str, int], dict[str, int]]:
    state = mission(*planes).model_copy(update={"objectives": {site.id: site}})
    result = awards(catalog(), state)
    return result.success, dict(result.team), dict(result.pilot)


def test_objective_awards_follow_the_victory_point_table() -> None:
    scout = plane("r", type_="bristol_f2b", side="entente", pilot="P1")
    base = Objective(id="o", kind="recon", side="central", x=15.0, y=10.0)
    assert scored(base.model_copy(update={"done_by": "r"}), scout) == (
        True,
        {"entente": 2},
        {"P1": 1},
    )
    assert scored(base, scout) == (False, {"central": 3}, {})
    target = base.model_copy(update={"kind": "target"})
    assert scored(target.model_copy(update={"destroyed": True, "hit_by": "r"}), scout)[1:] == (
        {"entente": 3},
        {"P1": 1},
    )
    damaged = scored(target.model_copy(update={"damage": 2, "hit_by": "r"}), scout)
    assert damaged == (False, {"entente": 1, "central": 1}, {})
    balloon = base.model_copy(update={"kind": "balloon", "hit_by": "r", "fired_by": "r"})
    assert scored(balloon.model_copy(update={"destroyed": True}), scout)[1] == {"entente": 5}
    assert scored(balloon.model_copy(update={"fire": 1}), scout)[:2] == (True, {"entente": 3})
    assert scored(balloon.model_copy(update={"damage": 1}), scout)[:2] == (
        False,
        {"entente": 1, "central": 1},
    )
    # Deep enemy territory doubles the attacker's award.
    assert scored(target.model_copy(update={"destroyed": True, "deep": True}), scout)[1] == {
        "entente": 6
    }


def test_a_photograph_only_counts_if_the_camera_plane_gets_home() -> None:
    site = Objective(id="o", kind="photo", side="central", x=15.0, y=10.0, done_by="r")
    home = plane("r", type_="bristol_f2b", side="entente", pilot="P1", status="left", x=-0.5)
    lost = home.model_copy(update={"status": "shot_down"})
    fled_east = home.model_copy(update={"x": 22.5})
    assert scored(site, home)[:2] == (True, {"entente": 2})
    assert scored(site, lost)[:2] == (False, {"central": 3})
    assert scored(site, fled_east)[:2] == (False, {"central": 3})

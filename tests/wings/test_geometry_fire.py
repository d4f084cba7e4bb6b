"""Movement by card transform, bases, arcs, range and the line of fire (authored 3.1, 3.2,
4.3 on seed A.II)."""

from __future__ import annotations

import pytest

from engine.rulesets.wings import geometry as geo
from engine.rulesets.wings.fire import check_fire, dead_angle
from engine.rulesets.wings.state import MissionRules
from tests.wings.helpers import catalog, plane

RULES = MissionRules()


def fly(type_: str, code: str, x: float, y: float, heading: float) -> tuple[float, float, float]:
    cat = catalog()
    return geo.apply_move(x, y, heading, cat.move(cat.planes[type_], code))


def test_a_straight_moves_the_centre_by_arrow_plus_base() -> None:
    # Deck J straight: arrow 1.30 bw plus the 1.4 bw base = 2.70 bw ahead.
    assert fly("albatros_d3", "S", 10, 10, 0) == pytest.approx((12.7, 10, 0))


def test_a_bank_in_a_rotated_frame() -> None:
    # Deck J BL centre move (2.55, +0.68, +30) flown heading north: left is west.
    x, y, heading = fly("albatros_d3", "BL", 10, 10, 90)
    assert (x, y, heading) == pytest.approx((10 - 0.676, 10 + 2.551, 120), abs=0.005)


def test_immelmann_turns_the_plane_round() -> None:
    assert fly("albatros_d3", "IM", 10, 10, 0) == pytest.approx((11, 10, 180))
    assert geo.normalise(190) == -170 and geo.normalise(-180) == 180


def test_path_sweep_ends_on_the_card() -> None:
    cat = catalog()
    deck = cat.maneuver_decks["J"]
    for card in deck.cards:
        move = cat.move(cat.planes["albatros_d3"], card.code)
        x, y, heading = geo.path_pose(card, 1.4, 1.0)
        assert (x, y) == pytest.approx((move.dx, move.dy), abs=1e-9)
        assert geo.normalise(heading) == geo.normalise(move.dtheta)
        assert geo.path_pose(card, 1.4, 0.0)[:2] == pytest.approx((0.0, 0.0), abs=1e-9)


def test_overlap_needs_more_than_touching() -> None:
    a = geo.rectangle(0, 0, 0, 1.0, 1.4)
    assert geo.overlaps(a, geo.rectangle(1.3, 0, 0, 1.0, 1.4))
    assert not geo.overlaps(a, geo.rectangle(1.4, 0, 0, 1.0, 1.4))  # edges touch
    assert geo.overlaps(a, geo.rectangle(0.5, 0.5, 45, 1.0, 1.4))


def test_dead_angle_matches_the_authored_triangle() -> None:
    cat = catalog()
    bristol = plane(type_="bristol_f2b", side="entente", x=0, y=0)
    triangle = dead_angle(cat, bristol, cat.planes["bristol_f2b"])
    expected = [(0, 0), (-2.03, 1.45), (-2.03, -1.45)]
    for point, want in zip(triangle, expected, strict=True):
        assert point == pytest.approx(want, abs=0.01)


def shoot(shooter_kw: dict[str, object], target_kw: dict[str, object], gun: int = 0, **kw: object):  # type: ignore[no-untyped-def]
    cat = catalog()
    shooter = plane("s", side="entente", **shooter_kw)  # type: ignore[arg-type]
    target = plane("t", side="central", **target_kw)  # type: ignore[arg-type]
    others = [shooter, target, *kw.pop("others", [])]  # type: ignore[misc]
    weapon = cat.planes[shooter.type].guns[gun]
    return check_fire(cat, shooter, weapon, target, others, RULES, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("target", "ok", "reason", "short"),
    [
        ({"x": 13.0}, True, "", True),  # rear edge 2.3 bw away: first half of the ruler
        ({"x": 14.0}, True, "", False),  # 3.3 bw: second half, long range
        ({"x": 16.0}, False, "range", False),  # 5.3 bw: beyond the ruler
        ({"x": 11.0, "y": 14.0}, False, "arc", False),
        ({"x": 13.0, "level": 3}, True, "", False),  # one level up: within R/2, always long
        ({"x": 14.0, "level": 3}, False, "range", False),  # one level up, beyond R/2
        ({"x": 13.0, "level": 0}, False, "altitude", False),  # two levels apart
    ],
)
def test_range_arc_and_altitude(
    target: dict[str, object], ok: bool, reason: str, short: bool
) -> None:
    check = shoot({}, target)
    assert (check.ok, check.reason, check.short) == (ok, reason, short)


def test_a_plane_in_between_blocks_the_line_of_fire() -> None:
    screen = plane("x", side="central", x=12.0, level=2)
    assert shoot({}, {"x": 14.0}, others=[screen]).reason == "blocked"
    # A screen two levels away is not between the two planes' levels.
    high = plane("x", side="central", x=12.0, level=0)
    assert shoot({}, {"x": 14.0}, others=[high]).ok


def test_overlap_forbids_fire_except_after_a_dive_from_above() -> None:
    assert shoot({}, {"x": 10.8}, overlapping=True).reason == "overlap"
    check = shoot(
        {"level": 3}, {"x": 10.8, "level": 2}, overlapping=True, dived=True, last_kind="dive"
    )
    assert check.ok


def test_rear_gun_dead_angle_and_the_roland() -> None:
    behind = {"x": 8.0, "level": 2}
    check = shoot({"type_": "bristol_f2b"}, behind, gun=1)
    assert check.reason == "dead-angle"
    off_axis = {"x": 8.0, "y": 12.5, "level": 2}
    assert shoot({"type_": "bristol_f2b"}, off_axis, gun=1).ok
    assert shoot({"type_": "bristol_f2b"}, {"x": 8.0, "level": 3}, gun=1).ok  # target higher
    # Roland C.II: against a higher target the rear gun fires all round, even ahead.
    ahead_high = {"x": 11.5, "y": 11.0, "level": 3}
    assert shoot({"type_": "roland_c2"}, ahead_high, gun=1).ok
    assert shoot({"type_": "bristol_f2b"}, ahead_high, gun=1).reason == "arc"


def test_crew_conditions() -> None:
    assert shoot({"jams": {"front": 2}}, {"x": 13.0}).reason == "jammed"
    assert shoot({"no_fire": 1}, {"x": 13.0}).reason == "pilot-wounded"
    wounded = {"wounded": True}
    assert shoot(wounded, {"x": 13.0}, last_kind="stall").reason == "pilot-wounded"
    assert shoot(wounded, {"x": 13.0}, last_kind="straight").ok


def test_fire_prohibition_after_height_changes() -> None:
    # Seed B.VII.c: a single-seater below its target after losing height may not fire.
    check = shoot({"level": 1}, {"x": 13.0, "level": 2}, lost_height=True)
    assert check.reason == "fire-prohibition"
    check = shoot({"level": 3}, {"x": 13.0, "level": 2}, gained_height=True)
    assert check.reason == "fire-prohibition"

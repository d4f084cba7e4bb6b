"""The balanced mission generator (issue 15) and the rookie stand-in player: where the
objectives of each mission type lie and what they cost in Mission Points, that the rookie
only ever flies legal programs and heads where his mission sends him, and that the turn's
fast paths give the same planes as pydantic's own copy."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from engine.rng import Rng
from engine.rulesets.wings import geometry as geo
from engine.rulesets.wings.catalog import ObjectiveRules
from engine.rulesets.wings.fastcopy import evolve
from engine.rulesets.wings.generator import generate_mission, mission_points
from engine.rulesets.wings.program import check_program, random_program
from engine.rulesets.wings.rookie import goal, rookie_program
from engine.rulesets.wings.state import MissionState, PlaneState
from engine.rulesets.wings.turn import play_turn, sweep
from tests.wings.helpers import catalog, plane
from tests.wings.test_mission_kinds import with_recon_crew

KINDS = ("patrol", "recon", "photography", "bombing", "balloon")


def briefed(kind: str, seed: str = "k") -> MissionState:
    mission, _, _ = generate_mission(catalog(), with_recon_crew(), Rng(seed, 0, "b"), kind)
    return mission


def test_a_recon_mission_surveys_four_sites_along_the_enemy_border() -> None:
    mission = briefed("recon")
    sites = sorted(mission.objectives.values(), key=lambda site: site.y)
    width, ruler = mission.table[0], catalog().rules.units.ruler
    assert len(sites) == 4 and all(site.kind == "recon" for site in sites)
    for site in sites:
        assert site.side == "central" and abs(site.x - width * 3 / 4) <= ruler / 2 + 1e-9
        assert site.x == pytest.approx(width * 3 / 4 + ruler / 2)  # as deep as the seed allows
    # Seed E.I.b: objectives at least R/2 from one another.
    for first, second in itertools.pairwise(sites):
        assert geo.distance((first.x, first.y), (second.x, second.y)) >= ruler / 2


def test_three_extra_recon_sites_are_priced_per_two_by_the_creation_table() -> None:
    points = mission_points(
        catalog(), active_players=3, enemy_players=3, kind="recon", extra_objectives=3
    )
    assert ("extra objectives", 1) in points.lines  # one pair of extra sites, +1 MP
    photos = mission_points(
        catalog(), active_players=3, enemy_players=3, kind="photography", extra_objectives=3
    )
    assert ("extra objectives", 3) in photos.lines  # seed example: +1 per extra photo


def test_the_generated_recon_mission_pays_the_attacker_for_its_extra_sites() -> None:
    _, points, _ = generate_mission(catalog(), with_recon_crew(), Rng("k", 0, "b"), "recon")
    assert ("extra objectives", 1) in points.lines


def test_a_photo_site_lies_on_the_no_mans_land_side_of_the_border() -> None:
    (site,) = briefed("photography").objectives.values()
    width, ruler = catalog().rules.units.table[0], catalog().rules.units.ruler
    assert width / 2 < site.x < width * 3 / 4  # nearer the camera plane's way home
    assert site.x == pytest.approx(width * 3 / 4 - ruler / 2)


def test_objectives_placed_beyond_half_a_ruler_from_the_border_are_refused() -> None:
    data = catalog().rules.objectives.model_dump()
    data["depth"] = {**data["depth"], "recon": 0.75}
    with pytest.raises(ValidationError, match="within R/2"):
        ObjectiveRules.model_validate(data)


@settings(max_examples=25, deadline=None)
@given(
    kind=st.sampled_from(KINDS),
    seed=st.integers(min_value=0, max_value=10_000),
    turns=st.integers(min_value=0, max_value=4),
)
def test_the_rookie_only_ever_flies_legal_programs(kind: str, seed: int, turns: int) -> None:
    mission = briefed(kind, str(seed))
    for _ in range(turns):
        if mission.finished:
            return
        programs = {}
        for flyer in mission.planes.values():
            if flyer.status != "flying":
                continue
            stream = Rng(str(seed), mission.turn, "ai").stream(flyer.id)
            program = rookie_program(catalog(), mission, flyer, stream)
            assert check_program(catalog(), flyer, program, mission.rules, mission.turn) == []
            programs[flyer.id] = program
        mission, _ = play_turn(catalog(), mission, programs, Rng(str(seed), mission.turn, "t"))


def test_the_rookie_picks_the_same_program_from_the_same_stream() -> None:
    mission = briefed("bombing")
    flyer = next(p for p in mission.planes.values() if p.bombs)

    def pick() -> tuple[str, ...]:
        stream = Rng("same", 1, "ai").stream(flyer.id)
        return rookie_program(catalog(), mission, flyer, stream).cards

    assert pick() == pick()


def test_the_rookie_heads_for_his_objective_where_a_random_program_wanders() -> None:
    rookie_gaps: list[float] = []
    random_gaps: list[float] = []
    for seed in range(12):
        mission = briefed("recon", str(seed))
        camera = next(p for p in mission.planes.values() if p.type == "bristol_f2b")
        target = goal(catalog(), mission, camera)
        assert target is not None and target in {(s.x, s.y) for s in mission.objectives.values()}
        for policy, gaps in (("rookie", rookie_gaps), ("random", random_gaps)):
            stream = Rng(str(seed), 1, policy).stream(camera.id)
            if policy == "rookie":
                program = rookie_program(catalog(), mission, camera, stream)
            else:
                program = random_program(catalog(), camera, mission.rules, 1, stream)
            x, y, heading = camera.x, camera.y, camera.heading
            for code in program.cards:
                move = catalog().move(catalog().planes[camera.type], code)
                x, y, heading = geo.apply_move(x, y, heading, move)
            start = geo.distance((camera.x, camera.y), target)
            gaps.append(start - geo.distance((x, y), target))
    # Every rookie turn closes on the site, on average by a third more than at random.
    assert min(rookie_gaps) > 0
    assert sum(rookie_gaps) > 1.3 * sum(random_gaps)


def test_the_rookie_turns_back_from_the_edge_when_a_legal_program_can() -> None:
    mission = briefed("patrol")
    width, height = mission.table
    # Near the far end, flying straight at it: three straights would leave the table.
    near = plane("edge", "albatros_d3", "central", x=width - 4.0, y=height / 2, heading=0.0)
    mission = mission.model_copy(update={"planes": {**mission.planes, "edge": near}})
    for seed in range(10):
        stream = Rng(str(seed), 1, "ai").stream("edge")
        program = rookie_program(catalog(), mission, near, stream)
        x, y, heading = near.x, near.y, near.heading
        for code in program.cards:
            move = catalog().move(catalog().planes[near.type], code)
            x, y, heading = geo.apply_move(x, y, heading, move)
            assert 0 <= x <= width and 0 <= y <= height, (seed, program.cards)


def test_a_photo_plane_with_its_picture_makes_for_home() -> None:
    mission = briefed("photography")
    camera = next(p for p in mission.planes.values() if p.type == "bristol_f2b")
    (site,) = mission.objectives.values()
    taken = site.model_copy(update={"done_by": camera.id})
    mission = mission.model_copy(update={"objectives": {site.id: taken}})
    target = goal(catalog(), mission, camera)
    assert target is not None and target[0] < 0  # off the Entente's own end of the table


@settings(max_examples=60, deadline=None)
@given(
    x=st.floats(min_value=0, max_value=22),
    heading=st.floats(min_value=-180, max_value=180),
    level=st.integers(min_value=0, max_value=5),
    tokens=st.integers(min_value=0, max_value=8),
    aim=st.dictionaries(st.sampled_from(["front", "rear"]), st.sampled_from(["a", "b"])),
)
def test_the_turns_plane_copy_equals_pydantics(
    x: float, heading: float, level: int, tokens: int, aim: dict[str, str]
) -> None:
    original = plane(x=1.0, heading=90.0, smoke=2)
    changes: dict[str, object] = {"x": x, "heading": heading, "level": level, "aim": aim}
    if tokens:
        changes["tokens"] = tokens
    fast, slow = evolve(original, changes), original.model_copy(update=changes)
    assert fast == slow and fast.model_dump() == slow.model_dump()
    assert fast.model_fields_set == slow.model_fields_set
    assert original.x == 1.0  # the original is untouched
    assert isinstance(fast, PlaneState)


@pytest.mark.parametrize("deck", ["A", "B", "G"])
def test_the_cached_collision_sweep_is_the_cards_path(deck: str) -> None:
    for card in catalog().maneuver_decks[deck].cards:
        for length in (1.4, 2.0):
            poses = sweep(card, length)
            assert sweep(card, length) is poses
            for step, pose in enumerate(poses, start=1):
                assert pose == geo.path_pose(card, length, step / 8)
    assert math.isclose(sweep(catalog().maneuver_decks["A"].cards[0], 1.4)[-1][1], 0.0)

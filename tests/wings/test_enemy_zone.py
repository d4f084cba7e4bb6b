"""Missions in the enemy zone (seed E.I.b): the table mostly the defender's, objectives a
ruler clear of the enemy zone's edges and half a ruler apart, the deep ones (within a ruler
of the far edge) worth double VP to the aggressor."""

from __future__ import annotations

import itertools

import pytest

from engine.rng import Rng
from engine.rulesets.wings import campaign as wings
from engine.rulesets.wings import flak, zones
from engine.rulesets.wings import geometry as geo
from engine.rulesets.wings.catalog import SideName, default_catalog
from engine.rulesets.wings.generator import generate_mission
from engine.rulesets.wings.objectives import awards
from engine.rulesets.wings.state import CampaignState, MissionState

CATALOG = default_catalog()
WIDTH, HEIGHT = CATALOG.rules.units.table
RULER = CATALOG.rules.units.ruler


def _campaign(seed: str = "deep") -> CampaignState:
    from engine.rulesets.wings import WingsRules

    return WingsRules(CATALOG).new("wings-1917-front", seed).camp


def _briefed(kind: str, seed: str = "deep") -> tuple[MissionState, list[list[object]]]:
    """The next mission briefed as ``kind`` by the active squadron, with its MP lines."""
    state = _campaign(seed).model_copy(update={"phase": "briefing", "mission": None})
    choices = wings.defaults(wings.pending(CATALOG, state))
    choices[state.active]["mission"] = kind
    state, events = wings.resolve(CATALOG, state, choices, Rng(seed, 1, "briefing"))
    assert state.mission is not None
    (briefed,) = [e for e in events if e.kind == "mission-briefed"]
    return state.mission, briefed.data["points_lines"]


def _flown(kind: str, seed: str = "deep") -> MissionState:
    return _briefed(kind, seed)[0]


@pytest.mark.parametrize("defender", ["central", "entente"])
@pytest.mark.parametrize("kind", ["recon", "photography", "bombing", "balloon"])
@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_objectives_keep_a_ruler_from_the_enemy_zone_s_edges(
    defender: SideName, kind: str, count: int
) -> None:
    placed = zones.place_deep(CATALOG, kind, defender, count)
    border = zones.border_of(zones.enemy_zone_borders(CATALOG, defender), defender)
    far = WIDTH if defender == "central" else 0.0
    for site in placed.values():
        assert abs(site.x - border) >= RULER - geo.EPS  # a ruler inside the border
        assert abs(far - site.x) >= RULER - geo.EPS  # and from the far edge
        assert min(site.y, HEIGHT - site.y) >= RULER - geo.EPS  # and from the table's sides
        assert (site.x > border) == (defender == "central")  # in the enemy zone
        assert site.deep == (abs(far - site.x) <= RULER + geo.EPS)
    for a, b in itertools.combinations(placed.values(), 2):
        assert geo.distance((a.x, a.y), (b.x, b.y)) >= RULER / 2 - geo.EPS
    # The first is deep, then every other one.
    assert [site.deep for site in placed.values()] == [i % 2 == 0 for i in range(count)]


def test_the_enemy_zone_is_most_of_the_table_and_no_man_s_land_exists() -> None:
    left, right = zones.enemy_zone_borders(CATALOG, "central")
    assert 0 < left < right  # the aggressor's strip and a conflict zone
    assert WIDTH - right > WIDTH / 2  # mostly enemy zone
    mirror = zones.enemy_zone_borders(CATALOG, "entente")
    assert mirror == pytest.approx((WIDTH - right, WIDTH - left))


def test_the_active_squadron_may_choose_it_within_a_select_s_25_options() -> None:
    state = _campaign()
    decision = wings.mission_decision(CATALOG, state)
    ids = [o.id for o in decision.options]
    assert {f"{k}@enemy" for k in ("recon", "photography", "bombing", "balloon")} <= set(ids)
    assert len(ids) <= 25


def test_the_generator_carries_the_zones_and_prices_the_deep_row() -> None:
    mission, lines = _briefed("bombing@enemy")
    defender = "central" if mission.active == "entente" else "entente"
    assert mission.kind == "bombing"
    assert ["zone:deep_enemy", 1] in lines  # the creation table's placeholder row (J 8)
    assert ["zone:near_enemy", 0] in _briefed("bombing")[1]
    assert mission.zones == pytest.approx(zones.enemy_zone_borders(CATALOG, defender))
    (target,) = mission.objectives.values()
    assert target.deep and target.side == defender
    # The flak battery keeps the enemy zone's rule (seed E.II.c): a ruler inside its edges
    # (test_defences_in_the_enemy_zone_keep_its_placement_rule below).
    border = zones.border_of(mission.zones or (0, 0), defender)
    for post in mission.ground.values():
        assert post.side == defender
        assert abs(post.x - border) >= RULER - geo.EPS
    # A plane over the aggressor's strip is home; past it, in no-man's land.
    attacker = mission.active
    strip = 0.1 if attacker == "entente" else WIDTH - 0.1
    assert zones.in_own_zone(mission, attacker, strip)
    assert zones.zone_at(mission, attacker, WIDTH / 2) == "enemy"
    plain = _flown("bombing")
    assert plain.zones is None and not any(o.deep for o in plain.objectives.values())


def test_a_deep_objective_doubles_the_aggressor_s_award_only() -> None:
    mission = _flown("bombing@enemy")
    (target,) = mission.objectives.values()
    destroyed = target.model_copy(update={"damage": 5, "destroyed": True})
    intact_deep = awards(CATALOG, mission)
    won = awards(CATALOG, mission.model_copy(update={"objectives": {target.id: destroyed}}))
    shallow = destroyed.model_copy(update={"deep": False})
    plain = awards(CATALOG, mission.model_copy(update={"objectives": {target.id: shallow}}))
    attacker, defender = mission.active, target.side
    team, _pilot = CATALOG.rules.objectives.vp["target_destroyed"]
    assert plain.team[attacker] == team
    assert won.team[attacker] == 2 * team
    # The defender's "intact" award is not doubled (the seed doubles the aggressor's).
    intact, _ = CATALOG.rules.objectives.vp["defended_intact"]
    assert intact_deep.team[defender] == intact


def _stocked(defender: SideName) -> CampaignState:
    """A campaign whose ``defender`` squadron has trenches and CAA posts to lay out."""
    from tests.wings.test_mission_kinds import with_recon_crew

    state = with_recon_crew().model_copy(update={"active": other_side(defender)})
    squadron = state.squadrons[defender]
    stocked = squadron.model_copy(update={"stock": {**squadron.stock, "trenches": 9, "caa": 6}})
    return state.model_copy(update={"squadrons": {**state.squadrons, defender: stocked}})


def other_side(side: SideName) -> SideName:
    return "entente" if side == "central" else "central"


@pytest.mark.parametrize(
    ("defender", "kind"),
    [
        *(("central", kind) for kind in ("recon", "photography", "bombing", "balloon")),
        ("entente", "bombing"),  # (only the Entente squadron has a two-seater crew)
        ("entente", "balloon"),
    ],
)
@pytest.mark.parametrize("count", [1, 3])
def test_defences_in_the_enemy_zone_keep_its_placement_rule(
    defender: SideName, kind: str, count: int
) -> None:
    """Seed E.II.c: mission elements (CAA, DCA...) follow the placement rules, which in the
    enemy zone are a ruler from its edges and half a ruler apart (E.I.b): no post or battery
    on the border with no-man's land, where the conflict zone's rule would put them."""
    state = _stocked(defender)
    mission, _, _ = generate_mission(
        CATALOG, state, Rng("z", 0, "b"), kind, objectives=count, enemy_zone=True
    )
    assert mission.zones is not None
    border = zones.border_of(mission.zones, defender)
    far = WIDTH if defender == "central" else 0.0
    kinds = sorted(post.kind for post in mission.ground.values())
    assert kinds == ["caa", "caa", "dca", "trench", "trench", "trench"]
    for post in mission.ground.values():
        assert post.side == defender
        assert abs(post.x - border) >= RULER - geo.EPS, post.id
        assert abs(far - post.x) >= RULER - geo.EPS, post.id
        assert (post.x > border) == (defender == "central"), post.id  # in the enemy zone
        assert min(post.y, HEIGHT - post.y) >= RULER - geo.EPS, post.id
    elements = [*mission.objectives.values(), *mission.ground.values()]
    for a, b in itertools.combinations(elements, 2):
        assert geo.distance((a.x, a.y), (b.x, b.y)) >= RULER / 2 - geo.EPS, (a.id, b.id)


@pytest.mark.parametrize("defender", ["central", "entente"])
def test_the_flak_battery_covers_the_deep_objective(defender: SideName) -> None:
    """The defender stands his battery a ruler from the deep objective (authored): the sky
    over it lies in the battery's bands at levels 1, 2 and 3 (seed A.IV.h), which it would
    not from beside the target (level 1), nor from the border 1.44 rulers off (level 3)."""
    mission, _, _ = generate_mission(
        CATALOG, _stocked(defender), Rng("z", 0, "b"), "bombing", enemy_zone=True
    )
    (target,) = mission.objectives.values()
    (battery,) = [post for post in mission.ground.values() if post.kind == "dca"]
    for level in (1, 2, 3):
        assert flak.in_band(CATALOG, battery, target.x, target.y, level), level

"""Several objectives in one mission (seed E.II.b: the active squadron picks the mission
type and the number of objectives; E.III.a scores each one)."""

from __future__ import annotations

import itertools

from engine.rng import Rng
from engine.rulesets.wings import campaign as wings
from engine.rulesets.wings import geometry as geo
from engine.rulesets.wings.generator import mission_points
from engine.rulesets.wings.objectives import awards, place_objectives, split_mission_choice
from tests.wings.helpers import catalog, mission, plane
from tests.wings.test_mission_kinds import with_recon_crew


def test_the_briefing_offers_each_objective_mission_with_two_or_three_objectives() -> None:
    decision = wings.mission_decision(catalog(), with_recon_crew())
    ids = [option.id for option in decision.options]
    for kind in ("recon", "photography", "bombing", "balloon"):
        # (a major objective's mission, "photography:station", is one objective: no count;
        # one in the enemy zone, "bombing@enemy", the default number)
        counted = [i for i in ids if i.startswith(kind) and ":" not in i and "@" not in i]
        assert counted == [kind, f"{kind}-2", f"{kind}-3"]
    assert "patrol-2" not in ids  # a patrol has no objective to count
    assert split_mission_choice("photography-3") == ("photography", 3)
    assert split_mission_choice("patrol") == ("patrol", None)
    assert split_mission_choice("bombing") == ("bombing", None)  # the generator's default


def test_a_two_site_photo_mission_lays_two_sites_apart_and_prices_the_extra_one() -> None:
    state = with_recon_crew()
    choices = wings.defaults(wings.pending(catalog(), state))
    choices["entente"]["mission"] = "photography-2"
    after, events = wings.resolve(catalog(), state, choices, Rng("k", 1, "b"))
    assert after.mission is not None and after.mission.kind == "photography"
    sites = list(after.mission.objectives.values())
    assert [site.kind for site in sites] == ["photo", "photo"]
    ruler = catalog().rules.units.ruler
    width = after.mission.table[0]
    for a, b in itertools.combinations(sites, 2):
        # Seed E.I.b: objectives at least R/2 from one another...
        assert geo.distance((a.x, a.y), (b.x, b.y)) >= ruler / 2
    for site in sites:
        # ...and within R/2 of the border of the defender's zone.
        assert site.side == "central" and abs(site.x - width * 3 / 4) <= ruler / 2 + 1e-9
    briefed = next(e for e in events if e.kind == "mission-briefed")
    assert ["extra objectives", 1] in briefed.data["points_lines"]  # seed example: +1
    assert len(briefed.data["objectives"]) == 2


def test_reconnaissance_objectives_are_priced_per_two_extra() -> None:
    def extra(count: int) -> int:
        points = mission_points(
            catalog(), active_players=2, enemy_players=2, kind="recon", extra_objectives=count
        )
        return points.active - 4  # recon itself is 0 (placeholder, J 8), zone near enemy 0

    assert [extra(n) for n in (0, 1, 2, 3, 4)] == [0, 0, 1, 1, 2]
    bombing = mission_points(
        catalog(), active_players=2, enemy_players=2, kind="bombing", extra_objectives=2
    )
    assert bombing.active - 4 == 1 + 2  # bombing +1, then +1 per extra target


def test_each_objective_is_scored_and_success_needs_all_of_them() -> None:
    cat = catalog()
    camera = plane("E1", type_="bristol_f2b", side="entente", pilot="E1")
    base = mission(camera, plane("C1", side="central", pilot="C1"))
    sites = place_objectives(cat, "photography", "central", 2)
    first, _second = sorted(sites)
    half = {**sites, first: sites[first].model_copy(update={"done_by": "E1"})}
    result = awards(cat, base.model_copy(update={"objectives": half, "kind": "photography"}))
    assert not result.success
    assert result.team["entente"] == 2 and result.team["central"] == 3  # E.III.a
    assert result.pilot["E1"] == 1
    both = {oid: site.model_copy(update={"done_by": "E1"}) for oid, site in sites.items()}
    result = awards(cat, base.model_copy(update={"objectives": both, "kind": "photography"}))
    assert result.success and result.team["entente"] == 4 and result.pilot["E1"] == 2
    assert result.team["central"] == 0

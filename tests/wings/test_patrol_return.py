"""Seed E.I.a's air superiority and F.III.a's initiative: a patrol succeeds only when every
enemy is down or gone and at least one of the active squadron's planes is back at base,
still flying or off the table over its own edge. A plane that flew off over the enemy's
edge has not come home (it fled), and keeps no initiative."""

from __future__ import annotations

from engine.rng import Rng
from engine.rulesets.wings.campaign import _debrief, new_campaign
from engine.rulesets.wings.state import CampaignState
from tests.wings.helpers import catalog, mission, plane
from tests.wings.test_pilots_campaign import squadrons


def _patrol_over(x: float) -> CampaignState:
    """Mission 1, a patrol flown by the Entente: its only plane left the table at ``x``,
    both Central planes are down."""
    cat = catalog()
    state = new_campaign(cat, "patrol", squadrons())  # type: ignore[arg-type]
    planes = [
        plane("P1", type_="nieuport17", side="entente", pilot="P1", status="left", x=x),
        plane("P3", type_="albatros_d3", side="central", pilot="P3", status="shot_down"),
        plane("P4", type_="albatros_d3", side="central", pilot="P4", status="shot_down"),
    ]
    finished = mission(*planes).model_copy(
        update={"finished": True, "active": "entente", "winner": "draw", "kind": "patrol"}
    )
    after, _ = _debrief(cat, state.model_copy(update={"mission": finished}), Rng("p", 1, "m"), [])
    return after


def test_a_patrol_that_left_over_its_own_edge_came_home() -> None:
    after = _patrol_over(x=-0.5)  # off the Entente's own end of the table
    assert after.history[-1]["success"] is True
    assert after.active == "entente"  # seed F.III.a: success keeps the initiative


def test_a_patrol_that_left_over_the_enemy_s_edge_did_not() -> None:
    after = _patrol_over(x=22.5)  # off the Central end: fled, not home
    assert after.history[-1]["success"] is False
    assert after.active == "central"  # failure passes the initiative

"""A pilot whose own type the hangar no longer holds takes a spare (``wings.hangar``):
before, a fit pilot stayed on the ground beside idle planes, and the wings demo flew its third
mission with no Entente plane at all."""

from __future__ import annotations

from engine.rng import Rng
from engine.rulesets.wings.campaign import _flyable, new_campaign
from engine.rulesets.wings.generator import can_fly_kind, choose_forces, generate_mission
from engine.rulesets.wings.majors import weakened
from engine.rulesets.wings.state import CampaignState
from tests.wings.helpers import catalog
from tests.wings.test_pilots_campaign import squadrons

CAT = catalog()


def with_hangar(planes: dict[str, int], side: str = "entente") -> CampaignState:
    """The test campaign (Entente: P1 on a Nieuport 17, P2 on a SPAD VII) with ``side``'s
    planes replaced by these."""
    state = new_campaign(CAT, "hangar", squadrons())  # type: ignore[arg-type]
    squadron = state.squadrons[side]  # type: ignore[index]
    stock = {k: v for k, v in squadron.stock.items() if not k.startswith("plane:")}
    stock.update({f"plane:{key}": count for key, count in planes.items()})
    squadrons_ = {**state.squadrons, side: squadron.model_copy(update={"stock": stock})}
    return state.model_copy(update={"squadrons": squadrons_})


def flown(state: CampaignState, side: str = "entente") -> dict[str, str]:
    return {p.id: p.plane for p in choose_forces(CAT, state, side, 20)}  # type: ignore[arg-type]


def test_a_pilot_whose_type_is_gone_takes_a_spare() -> None:
    state = with_hangar({"nieuport17": 0, "spad7": 2})
    assert flown(state) == {"P2": "spad7", "P1": "spad7"}
    assert state.pilots["P1"].plane == "nieuport17"  # his sheet keeps his own type
    # With the SPAD's own pilot dead, the squadron still mounts a mission on the spare.
    dead = state.pilots["P2"].model_copy(update={"state": "dead", "lp": 0})
    alone = state.model_copy(update={"pilots": {**state.pilots, "P2": dead}})
    assert flown(alone) == {"P1": "spad7"}
    assert _flyable(CAT, alone, "entente")


def test_his_own_type_first_and_its_pilots_before_the_spares() -> None:
    assert flown(with_hangar({"nieuport17": 1, "spad7": 1})) == {"P1": "nieuport17", "P2": "spad7"}
    # One SPAD: its own pilot flies it, the Nieuport pilot waits.
    assert flown(with_hangar({"nieuport17": 0, "spad7": 1})) == {"P2": "spad7"}
    # The most plentiful spare (after P2 took his SPAD), then by key.
    assert flown(with_hangar({"nieuport17": 0, "spad7": 2, "se5a": 3}))["P1"] == "se5a"
    assert flown(with_hangar({"nieuport17": 0, "spad7": 4, "se5a": 1}))["P1"] == "spad7"
    assert flown(with_hangar({"nieuport17": 0, "spad7": 2, "se5a": 1}))["P1"] == "se5a"


def test_a_fighter_pilot_never_takes_a_two_seater() -> None:
    two_seater = next(
        key for key, p in sorted(CAT.planes.items()) if p.side == "entente" and p.two_seater
    )
    state = with_hangar({"nieuport17": 0, "spad7": 0, two_seater: 2})
    assert flown(state) == {}
    assert not _flyable(CAT, state, "entente")
    assert not can_fly_kind(CAT, state, "entente", "photography")
    assert weakened(CAT, state, "entente")


def test_the_spare_is_the_plane_on_the_table() -> None:
    state = with_hangar({"nieuport17": 0, "spad7": 2}).model_copy(update={"active": "entente"})
    mission, _, forces = generate_mission(CAT, state, Rng("hangar", 1, "briefing"), "patrol")
    assert {p.id for p in forces["entente"]} == {"P1", "P2"}
    assert mission.planes["P1"].type == "spad7" and mission.planes["P1"].pilot == "P1"
    assert not weakened(CAT, state, "entente")

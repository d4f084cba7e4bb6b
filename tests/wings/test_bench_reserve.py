"""The bench's balance lines at equal Mission Points (issue 15): a generated mission keeps
each side's unspent Mission Points as its reserve, as the campaign does (seed E.II.b), and
the stand-ins spend it on reinforcements (seed E.IV), picking among the legal options."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from engine.rulesets.wings.catalog import Catalog, default_catalog

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_wings", ROOT / "bench" / "wings.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return default_catalog()


def test_the_nets_mission_points_are_the_attackers_reserve(
    bench: ModuleType, catalog: Catalog
) -> None:
    mission, campaign = bench.generated_with_squadrons(catalog, 0, "balloon", net="barrage")
    attacker, defender = mission.active, "central" if mission.active == "entente" else "entente"
    # 3 players x 2 MP + balloon 1 + two more balloons 2 + the battery 1 + the net 2 = 12;
    # three fighters with their Rookies (6) and their rockets (3) leave 3.
    assert mission.nets
    assert mission.reserve == {attacker: 3, defender: 0}
    # The spares are bought with Campaign Points, the same on both sides, after the briefing:
    # the same three planes a side fly.
    assert sum(plane.side == attacker for plane in mission.planes.values()) == 3
    for side in (attacker, defender):
        squadron = campaign.squadrons[side]
        assert sum(v for k, v in squadron.stock.items() if k.startswith("plane:")) == 6
        assert sum(pilot.side == side for pilot in campaign.pilots.values()) == 6
    plain, _ = bench.generated_with_squadrons(catalog, 0, "balloon")
    assert plain.reserve == {attacker: 0, defender: 0}


def test_random_stand_ins_spend_the_reserve_and_never_overspend(
    bench: ModuleType, catalog: Catalog
) -> None:
    sent = 0
    for seed in range(12):
        mission, campaign = bench.generated_with_squadrons(catalog, seed, "balloon", net="ring")
        budget = dict(mission.reserve)
        bench.FATES.clear()
        state, _ = bench.fly(catalog, mission, seed, "random", campaign)
        new = [plane for plane in state.planes.values() if plane.replaces is not None]
        sent += len(new)
        assert all(points >= 0 for points in state.reserve.values())
        assert bench.FATES["att:mp-spent"] == budget[state.active] - state.reserve[state.active]
        assert all(plane.side == state.active for plane in new)  # the defender has no reserve
    assert sent > 0


def test_without_the_squadrons_no_reinforcement_flies(bench: ModuleType, catalog: Catalog) -> None:
    """The older call (no campaign behind the mission) flies as before."""
    for seed in range(4):
        mission, _ = bench.generated_with_squadrons(catalog, seed, "balloon", net="ring")
        state, _ = bench.fly(catalog, mission, seed, "random")
        assert not any(plane.replaces for plane in state.planes.values())

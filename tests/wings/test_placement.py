"""Seed E.I.b and E.II.c: every mission element (objectives, trenches, CAA posts, the flak
battery) lies within R/2 of the border of its owner's zone and at least R/2 from every
other, whatever the mission type."""

from __future__ import annotations

import itertools

import pytest

from engine.rng import Rng
from engine.rulesets.wings import geometry as geo
from engine.rulesets.wings.generator import generate_mission
from tests.wings.helpers import catalog
from tests.wings.test_mission_kinds import with_recon_crew


@pytest.mark.parametrize("kind", ["recon", "photography", "bombing", "balloon"])
def test_every_mission_element_keeps_to_the_seed_s_placement_rules(kind: str) -> None:
    state = with_recon_crew()
    central = state.squadrons["central"]
    stocked = central.model_copy(update={"stock": {**central.stock, "trenches": 9, "caa": 6}})
    state = state.model_copy(update={"squadrons": {**state.squadrons, "central": stocked}})
    mission, _, _ = generate_mission(catalog(), state, Rng("p", 0, "b"), kind)
    width, height = mission.table
    ruler = catalog().rules.units.ruler
    elements = [*mission.objectives.values(), *mission.ground.values()]
    kinds = {element.kind for element in mission.ground.values()}
    assert {"trench", "caa", "dca"} <= kinds  # the stock is laid out, with the battery
    border = width * 3 / 4  # the Central Powers defend
    for element in elements:
        assert abs(element.x - border) <= ruler / 2 + 1e-9, element.id
        assert 0 < element.y < height
    for first, second in itertools.combinations(elements, 2):
        gap = geo.distance((first.x, first.y), (second.x, second.y))
        assert gap >= ruler / 2 - 1e-6, (first.id, second.id, gap)

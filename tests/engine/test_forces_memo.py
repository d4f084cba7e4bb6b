"""The remembered sheet forces are exactly what building them afresh gives.

``engine.rulesets.carrier.turn`` keeps the forces by the few facts it says they are built from (the
level's penalties, a resource's force numbers, the doctrine's torpedo choice and CAP
band...). If the build came to read anything else, two combinations would share an
entry: asking for every combination once, then again, each answer must equal a fresh build.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.rulesets.carrier import turn
from engine.zero.loader import default_catalog
from engine.zero.orders import DOCTRINE_PRESETS
from engine.zero.types import Side, StrikeSize


def test_every_remembered_force_equals_a_fresh_build(monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = default_catalog()
    monkeypatch.setattr(turn, "_FORCES_SIZE", 1_000_000)  # nothing forgotten while checking
    turn._forces.clear()
    checked = 0
    for _ in range(2):  # the second pass answers from memory
        for scenario in catalog.scenarios.values():
            for side in Side:
                track = catalog.tracks[scenario.fleet_of(side).track]
                targets = [None, *(p for p in scenario.places if p.side is not side)]
                boxes = [None, Counter({"F4F-3": 2})] if side is Side.ALLIED else [None]
                for size in StrikeSize:
                    for level in track.levels:
                        for resource in catalog.resources:
                            effect = resource.effect_for(side)
                            for target in targets:
                                for doctrine in DOCTRINE_PRESETS.values():
                                    for already in boxes:
                                        naval = bool(target and catalog.targets[target.sheet].naval)
                                        # Both take the same order's inputs; the memo
                                        # reads the target, the build only its naval flag.
                                        order = (catalog, scenario, side, size, level, effect)
                                        got = turn._carrier_forces(
                                            *order, target, doctrine, already
                                        )
                                        fresh = turn._build_forces(*order, naval, doctrine, already)
                                        assert got == fresh, (scenario.key, side, size)
                                        checked += 1
    assert checked > 10_000
    turn._forces.clear()

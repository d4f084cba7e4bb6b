"""Seed B.IX for a single gun: two green jams leave it firing at half damage, not jammed."""

from __future__ import annotations

from engine.rulesets.wings.catalog import DamageCard
from engine.rulesets.wings.twin import LASTING
from tests.wings.test_twin_guns import SINGLE, duel, duel_rules

THREE = DamageCard(value=3, special="none", count=1)


def test_two_green_jams_halve_a_single_gun_for_the_mission() -> None:
    work = duel("spad7")
    work.apply_special("t", "jam_green", 0, "s", SINGLE)
    assert work.planes["s"].jams == {SINGLE.name: 3}  # the first green: a plain jam
    work.update("s", jams={})  # cleared before the second
    work.apply_special("t", "jam_green", 0, "s", SINGLE)
    s = work.planes["s"]
    assert s.jams == {} and s.halved_guns == (SINGLE.name,)  # still firing, at half
    work.apply_card("t", THREE, "s", SINGLE)
    assert work.planes["t"].damage == 1  # 3 halved, rounded down
    work.apply_card("t", THREE, "s", SINGLE, bonus=1)
    assert work.planes["t"].damage == 3  # the aiming +1 counts before the halving
    jammed = [e for e in work.events if e.kind == "jammed" and e.data.get("lasting")]
    assert jammed and jammed[-1].secret_for == "entente"  # the shooter's own secret


def test_without_b9_or_with_twin_guns_nothing_is_halved() -> None:
    off = duel("spad7", doubled=False)
    for _ in range(2):
        off.apply_special("t", "jam_green", 0, "s", SINGLE)
    assert off.planes["s"].halved_guns == () and off.planes["s"].jams == {SINGLE.name: 3}
    off.apply_card("t", THREE, "s", SINGLE)
    assert off.planes["t"].damage == 3
    twin = duel_rules()
    front = twin.catalog.planes["camel"].guns[0]
    for _ in range(2):
        twin.apply_special("t", "jam_green", 0, "s", front)
    assert twin.planes["s"].half_jams == {front.name: LASTING}
    assert twin.planes["s"].halved_guns == ()  # a twin gun falls back on B damage instead

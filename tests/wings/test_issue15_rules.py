"""Rules of issue 15 whose first tests could not fail when the rule was broken (found by the
audit, see docs/wings-data.md "The audit of issue 15"): the seed's weather table season by
season, and never two climb counters in one turn."""

from __future__ import annotations

import random

import pytest

from engine.rng import Rng
from engine.wings.catalog import DamageCard
from engine.wings.generator import draw_weather
from engine.wings.turn import play_turn
from tests.wings.helpers import catalog, mission, plane
from tests.wings.test_turn import programs


class Dealt(random.Random):
    """A stream whose one draw is the first A card of a given value."""

    def __init__(self, value: int) -> None:
        super().__init__(0)
        self.value = value

    def choice(self, seq):  # type: ignore[no-untyped-def,override]
        cards: list[DamageCard] = list(seq)
        return next(card for card in cards if card.value == self.value)


# Seed F.VI.a: the A card's value read by season (0-1 regular, 2-3 common, 4-5 rare).
SEASON_TABLE = {
    "1918-01": ("heavy", "medium", "clear"),  # winter
    "1917-04": ("medium", "clear", "heavy"),  # spring
    "1917-07": ("clear", "heavy", "medium"),  # summer
    "1917-10": ("medium", "heavy", "clear"),  # autumn
}


@pytest.mark.parametrize("date", sorted(SEASON_TABLE))
def test_the_weather_is_read_from_the_a_card_by_season(date: str) -> None:
    values = {card.value for card in catalog().damage_decks["A"].expanded}
    for value in sorted(values):
        expected = SEASON_TABLE[date][min(value, 5) // 2]
        assert draw_weather(catalog(), date, Dealt(value)) == expected, (date, value)


def test_never_two_climb_counters_in_one_turn() -> None:
    """Seed A.III.a: an Immelmann (authored 3.5: one counter) and a climb card in the same
    turn still give one counter."""
    camel = plane("c", type_="camel", side="entente", x=3, y=3, level=1)
    far = plane("f", type_="dr1", side="central", x=20, y=20)
    state, _ = play_turn(
        catalog(), mission(camel, far), programs(c="IM S CL", f="S S S"), Rng("x", 1, "t")
    )
    assert (state.planes["c"].level, state.planes["c"].counters) == (1, 1)


def test_collisions_switched_off_leave_crossing_planes_unhurt() -> None:
    """Seed B.III is an optional rule (switch ``collisions``): off, two planes meeting
    head-on at the same level run no risk (the crossing of test_turn, switched off)."""
    from tests.wings.test_turn import phase

    a = plane("a", type_="camel", side="entente", x=8, y=10, heading=0)
    b = plane("b", type_="dr1", side="central", x=12, y=10, heading=180)
    for seed in range(6):
        on = phase(mission(a, b, fire_prohibition=False), programs(a="S S S", b="S S S"), str(seed))
        assert [e.kind for e in on.events].count("collision-risk") == 1
        off = phase(
            mission(a, b, fire_prohibition=False, collisions=False),
            programs(a="S S S", b="S S S"),
            str(seed),
        )
        assert not [e for e in off.events if e.kind in ("collision-risk", "collision")]

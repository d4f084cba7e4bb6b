"""Rules of issue 15 whose first tests could not fail when the rule was broken (found by the
audit, see docs/wings-data.md "The audit of issue 15"): the seed's weather table season by
season, and never two climb counters in one turn."""

from __future__ import annotations

import random

import pytest

from engine.rng import Rng
from engine.rulesets.wings.catalog import DamageCard
from engine.rulesets.wings.generator import draw_weather
from engine.rulesets.wings.turn import play_turn
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


def test_friendly_planes_add_a_straight_to_the_collision_draw_only_with_the_option() -> None:
    """Seed B.III option (switch ``friendly_collisions``): pilots of one squadron each add a
    straight to the left and right drawn, so a straight shows among the risk's cards; enemies,
    or friends without the option, draw left or right only."""
    from tests.wings.test_turn import phase

    def cards_drawn(side_b: str, option: bool) -> set[str]:
        a = plane("a", type_="camel", side="entente", x=8, y=10, heading=0)
        b = plane("b", type_="camel", side=side_b, x=12, y=10, heading=180)
        state = mission(a, b, fire_prohibition=False, friendly_collisions=option)
        seen: set[str] = set()
        for seed in range(16):
            work = phase(state, programs(a="S S S", b="S S S"), str(seed))
            risks = [e for e in work.events if e.kind == "collision-risk"]
            assert len(risks) == 1
            seen |= set(risks[0].data["cards"])
        return seen

    assert cards_drawn("entente", option=True) == {"L", "R", "S"}
    assert cards_drawn("entente", option=False) == {"L", "R"}
    assert cards_drawn("central", option=True) == {"L", "R"}


def test_no_pursuit_with_the_tailing_rule_off() -> None:
    """Seed A.IV.d is played under the switch ``tailing``: off, the Camel nose to tail behind
    the Dr.I (test_turn's pursuit) pursues nothing."""

    def pursuits(tailing: bool) -> dict[str, str]:
        hunter = plane("h", type_="camel", side="entente", x=10, y=10, jams={"front": 9})
        prey = plane("p", type_="dr1", side="central", x=12.5, y=10)
        state = mission(hunter, prey, collisions=False, tailing=tailing)
        end, events = play_turn(catalog(), state, programs(h="S S S", p="S S S"), Rng("z", 1, "t"))
        assert not tailing or any(e.kind == "tailing" for e in events)
        return end.pursuits

    assert pursuits(True) == {"h": "p"}
    assert pursuits(False) == {}


def test_without_doubled_specials_a_second_smoke_lasts_its_usual_turns() -> None:
    """Seed B.IX is an optional rule (switch ``doubled_specials``): off, a second smoke lasts
    its usual three turns instead of the whole mission (test_turn checks the rule on; a
    second engine hit downs the plane either way, seed A.II.b)."""
    from engine.rulesets.wings.turn import Turn
    from tests.wings.test_turn import duel

    for doubled, lasting in ((True, "mission"), (False, 3)):
        state = duel()
        rules = state.rules.model_copy(update={"doubled_specials": doubled})
        work = Turn(catalog(), state.model_copy(update={"rules": rules}), Rng("d", 1, "t"))
        work.apply_special("alb", "smoke", 1, "se", None)
        work.apply_special("alb", "smoke", 2, "se", None)
        smoke = work.planes["alb"].smoke
        assert smoke > 100 if lasting == "mission" else smoke == lasting, (doubled, smoke)


def test_the_dive_shot_card_only_with_its_switch() -> None:
    """Seed B.VII.a is an optional rule (switch ``dive_shot``): the SE5a diving onto the
    Albatros at short range fires three cards with it (test_behaviours), two without."""
    from tests.wings.test_behaviours import fire_cards, first_phase

    def cards(dive_shot: bool) -> list[int]:
        se = plane("se", type_="se5a", side="entente", x=10, y=10, level=3, behaviour="knight")
        alb = plane("alb", type_="albatros_d3", side="central", x=13.0, y=10, jams={"front": 5})
        state = mission(se, alb, collisions=False, dive_shot=dive_shot)
        return fire_cards(first_phase(state, se="DV S S", alb="S S S"))

    assert cards(True) == [3]
    assert cards(False) == [2]


def test_an_a_card_near_the_flak_burst_only_with_its_switch() -> None:
    """Seed A.IV.h option (switch ``flak_near``): a plane within R/2 of the burst, not on
    it, takes an A card; without the option nothing (test_flak checks ``caught`` alone)."""
    from engine.rulesets.wings.turn import Turn
    from tests.wings.test_flak import with_battery

    def near_cards(flak_near: bool) -> list[str]:
        camel = plane("c", type_="camel", side="entente", x=4.0, y=11.0, level=2)
        far = plane("f", type_="dr1", side="central", x=20.0, y=20.0, heading=180, level=3)
        state = with_battery(mission(camel, far, flak_near=flak_near))
        work = Turn(catalog(), state, Rng("flak", 1, "turn"))
        stall = catalog().move(catalog().planes["camel"], "ST")
        burst = (camel.x + 2 * stall.dx, camel.y + 2.0, 2)  # 2 bw aside, R/2 is 2.5
        work.ground["dca"] = work.ground["dca"].model_copy(update={"burst": burst})
        for phase in (1, 2):
            work.phase = phase
            work.play_phase(programs(c="ST ST ST", f="S S S"))
        return [letter for letter, _ in work.planes["c"].cards]

    assert near_cards(True) == ["A"]
    assert near_cards(False) == []

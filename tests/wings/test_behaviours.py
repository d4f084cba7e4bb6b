"""Behaviour powers and VP bonuses the engine plays (seed D.VI)."""

from __future__ import annotations

from engine.rng import Rng
from engine.rulesets.wings.campaign import _debrief, new_campaign
from engine.rulesets.wings.state import MissionState
from engine.rulesets.wings.turn import Turn
from tests.wings.helpers import card_id, catalog, mission, phase_one, plane, stack
from tests.wings.test_pilots_campaign import squadrons


def first_phase(state: MissionState, **texts: str) -> Turn:
    return phase_one(state, "b", **texts)


def fire_cards(work: Turn) -> list[int]:
    return [int(e.data["cards"]) for e in work.events if e.kind == "fire"]


def test_soldier_adds_a_card_to_one_dive_shot() -> None:
    # The SE5a dives from level 3 to 2 and ends 1.6 bw behind the Albatros: short range (2),
    # the dive shot (+1) and the Soldier's power (+1).
    for behaviour, expected in (("soldier", [4]), ("knight", [3])):
        se = plane("se", type_="se5a", side="entente", x=10, y=10, level=3, behaviour=behaviour)
        alb = plane("alb", type_="albatros_d3", side="central", x=13.0, y=10, jams={"front": 5})
        work = first_phase(mission(se, alb, collisions=False), se="DV S S", alb="S S S")
        assert fire_cards(work) == expected
    assert work.planes["se"].power_used is False  # the Knight has no such power
    se = plane("se", type_="se5a", side="entente", x=10, y=10, level=3, behaviour="soldier",
               power_used=True)  # fmt: skip
    alb = plane("alb", type_="albatros_d3", side="central", x=13.0, y=10, jams={"front": 5})
    assert fire_cards(first_phase(mission(se, alb), se="DV S S", alb="S S S")) == [3]


def test_opportunist_strikes_a_plane_smoking_from_another_pilot() -> None:
    def cards(**target: object) -> list[int]:
        se = plane("se", type_="se5a", side="entente", x=10, y=10, behaviour="opportunist")
        alb = plane("alb", type_="albatros_d3", side="central", x=13.3, y=10, jams={"front": 5},
                    **target)  # type: ignore[arg-type]  # fmt: skip
        return fire_cards(first_phase(mission(se, alb, collisions=False), se="S S S", alb="S S S"))

    assert cards(smoke=2, last_hit_by="other") == [3]
    assert cards(smoke=2, last_hit_by="se") == [2]  # his own smoke does not count
    assert cards() == [2]


def test_hothead_survives_a_second_wound_once() -> None:
    se = plane("se", type_="se5a", side="entente", x=10, y=10)
    alb = plane("alb", type_="albatros_d3", side="central", x=13.3, y=10, jams={"front": 5},
                behaviour="hothead", wounded=True, pilot_lp=5)  # fmt: skip
    state = stack(mission(se, alb, collisions=False), "A",
                  [card_id("A", 3, "pilot_wounded"), card_id("A", 0, "none")])  # fmt: skip
    hothead = first_phase(state, se="S S S", alb="S S S").planes["alb"]
    assert (hothead.pilot_lp, hothead.power_used, hothead.status) == (5, True, "flying")


def test_behaviour_vp_at_debrief() -> None:
    cat = catalog()
    state = new_campaign(cat, "b", squadrons())  # type: ignore[arg-type]
    planes = [
        # P1 is the Knight: his victim came down alive behind Entente lines, captured.
        plane("P1", type_="nieuport17", side="entente", pilot="P1", behaviour="knight",
              kills=("P3",)),
        # P2 the Hothead: one kill while wounded.
        plane("P2", type_="spad7", side="entente", pilot="P2", behaviour="hothead",
              kills=("P4",), kills_wounded=1, wounded=True, pilot_lp=5),
        plane("P3", type_="albatros_d3", side="central", pilot="P3", status="shot_down",
              crash_zone="enemy", pilot_lp=4),
        plane("P4", type_="albatros_d3", side="central", pilot="P4", status="shot_down",
              crash_zone="friendly", pilot_lp=6),
    ]  # fmt: skip
    finished = mission(*planes).model_copy(update={"finished": True, "active": "entente"})
    after, _ = _debrief(cat, state.model_copy(update={"mission": finished}), Rng("b", 1, "m"), [])
    assert after.pilots["P3"].state == "captured"
    # Kill 1 + capture 1 for the Knight, kill 1 + wounded kill 1 for the Hothead: all team VP.
    assert after.squadrons["entente"].score == 4

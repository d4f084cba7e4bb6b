"""A seriously wounded pilot must land within two full turns (seed D.V, B.VIII; J 3)."""

from __future__ import annotations

from engine.rng import Rng
from engine.rulesets.wings import WingsRules
from engine.rulesets.wings.picks import landing_refused
from engine.rulesets.wings.program import check_program, parse_program
from engine.rulesets.wings.state import Event, MissionState
from engine.rulesets.wings.turn import Turn
from rendering.rulesets.wings import WingsPresenter
from tests.wings.helpers import catalog, mission, plane
from tests.wings.helpers import offered as _offered
from tests.wings.test_rescue import fly


def hurt(
    level: int = 2, counters: int = 0, lp: int = 5, **rules: bool
) -> tuple[MissionState, list[Event]]:
    """Turn 1 of a duel in which the Central pilot takes a wound. From 5 LP it leaves him
    at 0: seriously wounded. The Entente plane, far off, is the one that hit him."""
    victim = plane(
        "C1", side="central", pilot="C1", x=19.0, y=4.0, heading=90.0, level=level,
        counters=counters, pilot_lp=lp, last_hit_by="E1",
    )  # fmt: skip
    shooter = plane("E1", type_="spad7", side="entente", pilot="E1", x=3.0, y=4.0, heading=90.0)
    work = Turn(catalog(), mission(victim, shooter, **rules), Rng("fl", 1, "t"))
    work.apply_special("C1", "pilot_wounded", 3, "E1", None)
    work.end_of_turn()
    return work.finish(), work.events


def test_the_window_opens_on_the_wound_and_the_plane_goes_down_after_two_turns() -> None:
    state, events = hurt()
    c1 = state.planes["C1"]
    assert c1.pilot_lp == 0 and c1.land_by == 3  # turns 2 and 3 to get down
    told = [e for e in events if e.kind == "must-land"]
    assert told and told[0].secret_for == "central"  # his wounds are his side's secret
    state = fly(state, {"C1": "S S S", "E1": "S S S"})
    assert state.planes["C1"].status == "flying"  # turn 2: still time
    after = fly(state, {"C1": "S S S", "E1": "S S S"})
    c1 = after.planes["C1"]
    assert c1.status == "crashed" and c1.destroyed_by == "E1"  # the kill is the shooter's
    assert c1.crash_zone is not None  # seed B.VIII's crash procedure was flown
    assert after.planes["E1"].kills == ("C1",)


def test_a_lightly_wounded_pilot_flies_on() -> None:
    state, events = hurt(lp=10)  # 10 - 5 = 5 LP: wounded, not seriously
    assert state.planes["C1"].land_by is None
    assert not [e for e in events if e.kind == "must-land"]
    for _ in range(2):  # through the end of turn 3, where a seriously wounded one falls
        state = fly(state, {"C1": "S S S", "E1": "S S S"})
    assert state.planes["C1"].status == "flying"


def test_he_may_land_anywhere_and_then_stays_down_home_on_his_own_side() -> None:
    state, _ = hurt(level=0, counters=1)
    cat = catalog()
    c1 = state.planes["C1"]
    offered = _offered(cat, c1, state, ["S"])
    assert "LD S S ST" in offered  # far from any airfield, but it is his way out
    assert offered[0] == "LD S S ST"  # and what he flies if he misses the deadline
    after = fly(state, {"C1": "LD S S ST", "E1": "S S S"})
    c1 = after.planes["C1"]
    assert [d for d, _ in c1.cards] == ["B", "B"]  # a rough field (seed B.I.a)
    # Down for good, he no longer holds the field for his side: the mission ends there,
    # and having landed on his own side he is home.
    assert after.finished and after.winner == "entente"
    assert c1.status == "left" and c1.crash_zone is None
    # Had the mission gone on, he could not have taken off again.
    on_ground = c1.model_copy(update={"status": "landed", "landed_turn": 2})
    refused = check_program(cat, on_ground, parse_program("TO ST S S"), after.rules, 6)
    assert [r.reason for r in refused] == ["seriously-wounded"]


def test_too_high_to_land_the_menu_says_why() -> None:
    state, _ = hurt(level=2)
    refused = landing_refused(catalog(), state.planes["C1"], state)
    assert [e.reason for e in refused] == ["landing-needs-level-0"]


def test_only_his_own_side_is_told_how_long_he_has() -> None:
    rules = WingsRules(catalog())
    state = rules.new("wings-1917", "fl")
    mission = state.camp.mission
    assert mission is not None
    pid = next(p for p in sorted(mission.planes) if mission.planes[p].side == "central")
    planes = dict(mission.planes)
    planes[pid] = planes[pid].model_copy(update={"land_by": 3, "pilot_lp": 1})
    camp = state.camp.model_copy(update={"mission": mission.model_copy(update={"planes": planes})})
    state = state.model_copy(update={"campaign": camp})
    presenter = WingsPresenter()

    def lines(viewer: str | None) -> str:
        view = rules.view(state, viewer)
        return "\n".join(text for text, _c, _b in presenter._plane_lines(view, "en"))

    assert "must land by the end of turn 3" in lines("central")
    assert "must land" not in lines("entente") and "must land" not in lines(None)
    assert "doit se poser avant la fin du tour 3" in "\n".join(
        text for text, _c, _b in presenter._plane_lines(rules.view(state, "central"), "fr")
    )


def test_an_excellent_shot_that_kills_the_pilot_brings_the_plane_down() -> None:
    # Seed D.VII.b, D.V: the point the Excellent shot puts on a pilot at 0 LP kills him; a
    # dead pilot does not fly on (it used to, the point taken and the plane flying).
    from engine.rulesets.wings.turn import Shot
    from tests.wings.helpers import card_id, stack

    shooter = plane("E1", type_="spad7", side="entente", pilot="E1", skills=("excellent_shot",),
                    tokens=4, x=8.0, y=10.0)  # fmt: skip
    victim = plane("C1", side="central", pilot="C1", pilot_lp=0, x=9.5, y=10.0)
    state = stack(mission(shooter, victim), "B", [card_id("B", 2, "none")])
    work = Turn(catalog(), state, Rng("xs", 1, "t"))
    gun = catalog().planes["spad7"].guns[0]
    work.deal([Shot("E1", gun, "C1", cards=1, bonus=0, aimed=False, short=True)])
    c1 = work.planes["C1"]
    assert c1.pilot_lp < 0 and c1.status == "crashed" and c1.destroyed_by == "E1"
    assert c1.damage == 0  # the card meant for the plane was not dealt to a wreck

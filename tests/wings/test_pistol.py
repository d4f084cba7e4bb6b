"""The pilot's pistol and its bullets (seed D.VIII): bought at the debrief, fired with the
program's last word at the nearest enemy pilot within R/2, never at a Ghost, never by a
Knight, its wounds through the bulletproof vest, one bullet a shot."""

from __future__ import annotations

from typing import Any

import pytest

from engine.rng import Rng
from engine.rulesets.wings import campaign as wings
from engine.rulesets.wings import equipment, pistol
from engine.rulesets.wings.program import check_program, parse_program, program_text
from engine.rulesets.wings.state import MissionState
from engine.rulesets.wings.turn import Turn, play_turn
from tests.wings.helpers import card_id, catalog, mission, plane, seen, stack
from tests.wings.test_equipment import _asked, _buy, _debrief
from tests.wings.test_turn import phase, programs

ARMED = {"pistol": 1, "bullets": 6}
TWO = card_id("B", 2, "none")
THREE = card_id("B", 3, "none")
FOUR = card_id("B", 4, "none")
WOUND = card_id("B", 3, "pilot_wounded")


def side_by_side(
    gap: float = 2.0, shooter: dict[str, Any] | None = None, **victim: Any
) -> MissionState:
    """Two Albatros flying east abreast, ``gap`` bw apart: neither in the other's arc, so
    no machine gun fires; the Entente one carries a pistol unless told otherwise."""
    own = plane("se", side="entente", x=10.0, y=10.0, **{"kit": dict(ARMED), **(shooter or {})})
    other = plane("alb", side="central", x=10.0, y=10.0 + gap, **victim)
    return mission(own, other, collisions=False, tailing=False)


def shot(state: MissionState, se: str = "S S S pistol@1") -> Turn:
    return phase(state, programs(se=se, alb="S S S"))


def kinds(work: Turn) -> list[tuple[str, str | None]]:
    return [(e.kind, e.secret_for) for e in work.events if e.kind.startswith("pistol")]


# --- the program's word ---------------------------------------------------------------------


def test_the_shot_is_the_program_s_last_word() -> None:
    program = parse_program("S S S pistol@2")
    assert (program.cards, program.pistol) == (("S", "S", "S"), 2)
    assert program_text(program) == "S S S pistol@2"
    both = parse_program("S S S bomb@1 pistol@3")
    assert (both.release, both.pistol, program_text(both)) == (1, 3, "S S S bomb@1 pistol@3")
    state = side_by_side()
    se = state.planes["se"]
    assert not check_program(catalog(), se, program, state.rules, 1)
    refused = check_program(catalog(), se, parse_program("S S S pistol@4"), state.rules, 1)
    assert refused  # an unreadable word is left to the card checks


# --- buying -----------------------------------------------------------------------------------


def test_a_pilot_buys_a_pistol_then_bullets_six_at_a_time() -> None:
    state = _debrief(kills=5, vp=25)
    state = _buy(state, "pistol")
    assert state.pilots["P1"].equipment == {"pistol": 1}
    state = _buy(state.model_copy(update={"phase": "debrief"}), "bullets")
    state = _buy(state.model_copy(update={"phase": "debrief"}), "bullets")
    ball = state.pilots["P1"]
    assert (ball.equipment, ball.vp_spent) == ({"pistol": 1, "bullets": 12}, 3)
    asked = _asked(state.model_copy(update={"phase": "debrief"}))
    assert {e.id: e.reason for e in asked.excluded}["pistol"] == "pistol-owned"
    with pytest.raises(wings.IllegalChoice) as error:
        _buy(state.model_copy(update={"phase": "debrief"}), "pistol")
    assert error.value.reason == "pistol-owned"
    # Both come back from a mission as left; the pistol is kept.
    back = equipment.after_mission(ball, {"pistol": 1, "bullets": 4})
    assert back.equipment == {"pistol": 1, "bullets": 4}
    assert equipment.after_mission(ball, {"pistol": 1, "bullets": 0}).equipment == {"pistol": 1}


# --- the shot -----------------------------------------------------------------------------------


def test_a_shot_in_range_gives_the_costlier_card_to_the_pilot() -> None:
    work = shot(stack(side_by_side(), "B", [TWO, THREE]))
    victim, shooter = work.planes["alb"], work.planes["se"]
    assert victim.pilot_lp == 7  # the 3 given, its points to the pilot
    assert victim.damage == 0 and victim.cards == ()  # the aircraft takes nothing
    assert shooter.kit == {"pistol": 1, "bullets": 5}
    assert shooter.kit_shown == ("pistol",)  # the enemy has seen it now
    assert work.piles["B"][-1] == TWO  # the spare card goes under the deck
    assert kinds(work) == [
        ("pistol-shot", None),  # public, when it happens
        ("pistol-card", "entente"),
        ("pistol-hit", "central"),
    ]
    public = next(e for e in work.events if e.kind == "pistol-shot")
    assert public.data == {"plane": "se", "at": "alb"} and public.phase == 1


def test_a_pilot_wounded_card_is_given_first_and_specials_otherwise_ignored() -> None:
    work = shot(stack(side_by_side(), "B", [FOUR, WOUND]))
    victim = work.planes["alb"]
    assert (victim.pilot_lp, victim.wounded) == (2, True)  # 3 points and the wound's 5
    fire = card_id("B", 3, "fire")
    work = shot(stack(side_by_side(), "B", [fire, TWO]))
    victim = work.planes["alb"]
    assert (victim.pilot_lp, victim.fire, victim.specials) == (7, 0, ())


def test_a_pistol_shot_can_kill_the_pilot() -> None:
    work = shot(stack(side_by_side(pilot_lp=2), "B", [THREE, TWO]))
    victim = work.planes["alb"]
    assert victim.pilot_lp < 0 and victim.status == "crashed"
    assert work.planes["se"].kills == ("alb",)


def test_out_of_range_or_two_levels_apart_nothing_fires_and_no_bullet_is_spent() -> None:
    for state in (
        stack(side_by_side(gap=2.6), "B", [THREE, TWO]),  # R/2 is 2.5 bw
        stack(side_by_side(level=0), "B", [THREE, TWO]),  # two levels below
    ):
        work = shot(state)
        assert work.planes["alb"].pilot_lp == 10
        assert work.planes["se"].kit == ARMED and work.planes["se"].kit_shown == ()
        assert kinds(work) == [("pistol-silent", "entente")]  # told to its own side only
        assert [e.data["reason"] for e in work.events if e.kind == "pistol-silent"] == ["no-target"]
        assert work.piles["B"][:2] == [THREE, TWO]  # no card drawn
    work = shot(stack(side_by_side(level=1), "B", [THREE, TWO]))  # one level apart: in reach
    assert work.planes["alb"].pilot_lp == 7


def test_the_shot_goes_after_the_announced_maneuver_only() -> None:
    state = stack(side_by_side(), "B", [THREE, TWO])
    assert shot(state, "S S S pistol@2").planes["alb"].pilot_lp == 10  # phase 1 flown
    assert shot(state, "S S S").planes["alb"].pilot_lp == 10


def test_a_knight_never_fires_a_pistol() -> None:
    state = side_by_side(shooter={"behaviour": "knight"})
    knight = state.planes["se"]
    refused = check_program(catalog(), knight, parse_program("S S S pistol@1"), state.rules, 1)
    assert [(r.code, r.reason) for r in refused] == [("pistol@", "knight-refuses")]
    work = shot(stack(state, "B", [THREE, TWO]))  # even carried, it never goes off
    assert work.planes["alb"].pilot_lp == 10
    assert [e.data["reason"] for e in work.events if e.kind == "pistol-silent"] == [
        "knight-refuses"
    ]


def test_a_ghost_is_never_the_target_the_next_pilot_is() -> None:
    state = stack(side_by_side(skills=("ghost",)), "B", [THREE, TWO])
    work = shot(state)
    assert work.planes["alb"].pilot_lp == 10
    assert [e.data["reason"] for e in work.events if e.kind == "pistol-silent"] == ["no-target"]
    farther = plane("alb2", side="central", x=10.0, y=7.7)  # 2.3 bw the other side
    state = state.model_copy(update={"planes": {**state.planes, "alb2": farther}})
    work = phase(state, programs(se="S S S pistol@1", alb="S S S", alb2="S S S"))
    assert (work.planes["alb"].pilot_lp, work.planes["alb2"].pilot_lp) == (10, 7)


def test_the_nearest_enemy_pilot_is_the_target() -> None:
    state = stack(side_by_side(gap=2.4), "B", [THREE, TWO])
    nearer = plane("alb2", side="central", x=10.0, y=8.0)  # 2.0 bw the other side
    state = state.model_copy(update={"planes": {**state.planes, "alb2": nearer}})
    work = phase(state, programs(se="S S S pistol@1", alb="S S S", alb2="S S S"))
    assert (work.planes["alb"].pilot_lp, work.planes["alb2"].pilot_lp) == (10, 7)


def test_the_vest_absorbs_the_pistol_s_points() -> None:
    work = shot(stack(side_by_side(kit={"vest": 5}), "B", [FOUR, TWO]))
    victim = work.planes["alb"]
    assert (victim.pilot_lp, victim.kit) == (10, {"vest": 1})
    vest = [e for e in work.events if e.kind == "vest"]
    assert vest and all(e.secret_for == "central" for e in vest)
    # What is left of it (1) stops one point of the next 3, then it is gone.
    again = Turn(catalog(), stack(work.snapshot(), "B", [THREE, TWO]), Rng("v", 1, "t"))
    pistol.fire(again, again.planes["se"], again.planes["alb"])
    assert (again.planes["alb"].pilot_lp, again.planes["alb"].kit) == (8, {"vest": 0})


def test_bullets_run_out_and_without_a_pistol_nothing_fires() -> None:
    state = side_by_side(shooter={"kit": {"pistol": 1, "bullets": 1}})
    work = shot(stack(state, "B", [THREE, TWO]))
    assert work.planes["se"].kit == {"pistol": 1, "bullets": 0}
    later = work.snapshot().model_copy(update={"turn": 2})
    again = shot(stack(later, "B", [THREE, TWO]))
    assert again.planes["alb"].pilot_lp == 7  # the second shot never came
    assert [e.data["reason"] for e in again.events if e.kind == "pistol-silent"] == ["no-bullets"]
    for kit, reason in (({}, "no-pistol"), ({"bullets": 6}, "no-pistol")):
        work = shot(stack(side_by_side(shooter={"kit": kit}), "B", [THREE, TWO]))
        assert work.planes["alb"].pilot_lp == 10
        assert kinds(work) == [("pistol-silent", "entente")]
        assert work.events[-1].kind != "pistol-shot"
        assert [e.data["reason"] for e in work.events if e.kind == "pistol-silent"] == [reason]


def test_a_wounded_pilot_under_the_fire_ban_holds_his_pistol() -> None:
    work = shot(stack(side_by_side(shooter={"no_fire": 4, "wounded": True}), "B", [THREE, TWO]))
    assert work.planes["alb"].pilot_lp == 10
    assert [e.data["reason"] for e in work.events if e.kind == "pistol-silent"] == ["no-fire"]


def test_the_same_seed_and_programs_give_the_same_shot() -> None:
    state = side_by_side()
    runs = [
        play_turn(catalog(), state, programs(se="S S S pistol@2", alb="S S S"), Rng("d", 1, "t"))
        for _ in range(2)
    ]
    (first, first_events), (second, second_events) = runs
    assert first == second
    assert [e.model_dump() for e in first_events] == [e.model_dump() for e in second_events]
    assert any(e.kind == "pistol-shot" for e in first_events)
    other_seed = side_by_side()
    other = mission(*other_seed.planes.values(), seed="other", collisions=False, tailing=False)
    _, other_events = play_turn(
        catalog(), other, programs(se="S S S pistol@2", alb="S S S"), Rng("d", 1, "t")
    )
    cards = [e.data["value"] for e in other_events if e.kind == "pistol-card"]
    assert cards  # another deck order, a card drawn all the same
    assert first.decks["B"] != state.decks["B"]  # drawn from the mission's own B deck


def test_the_pistol_and_its_bullets_are_stripped_from_the_enemy_view() -> None:
    state = _debrief(kills=5, vp=25)
    state = _buy(state, "pistol")
    pilot_view = seen(state, "central")["pilots"]["P1"]
    assert "equipment" not in pilot_view
    assert seen(state, "entente")["pilots"]["P1"]["equipment"] == {"pistol": 1}


def test_two_pilots_shoot_each_other_in_the_same_maneuver() -> None:
    """Simultaneous shots: both fire, and the vest one of them spent stays spent."""
    one = card_id("B", 1, "none")
    state = side_by_side(kit=dict(ARMED), shooter={"kit": {**ARMED, "vest": 5}})
    state = stack(state, "B", [FOUR, TWO, THREE, one])
    work = phase(state, programs(se="S S S pistol@1", alb="S S S pistol@1"))
    alb, se = work.planes["alb"], work.planes["se"]
    assert (se.pilot_lp, se.kit) == (10, {"pistol": 1, "bullets": 5, "vest": 1})  # 4 absorbed
    assert (alb.pilot_lp, alb.kit) == (7, {"pistol": 1, "bullets": 5})
    shots = [e.data["plane"] for e in work.events if e.kind == "pistol-shot"]
    assert shots == ["alb", "se"]
    # A pilot killed by the first shot still fires his own (he aimed before it landed).
    state = stack(
        side_by_side(kit=dict(ARMED), shooter={"pilot_lp": 1}), "B", [FOUR, TWO, THREE, one]
    )
    work = phase(state, programs(se="S S S pistol@1", alb="S S S pistol@1"))
    assert work.planes["se"].status == "crashed" and work.planes["alb"].pilot_lp == 7

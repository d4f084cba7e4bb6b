"""The Soldier's dive shot in full (seed D.VI) and Système D's engine hit (seed D.VII.c):
worked situations, each power once only where the seed says so."""

from __future__ import annotations

from engine.rng import Rng
from engine.rulesets.wings.program import check_program
from engine.rulesets.wings.state import MissionRules, MissionState, PlaneState, Program
from engine.rulesets.wings.turn import PERMANENT, Turn
from tests.wings.helpers import card_id, catalog, mission, plane, stack
from tests.wings.test_turn import programs

BLANK = card_id("A", 0, "none")


def dive_shot(behaviour: str, first: int, **target: object) -> tuple[PlaneState, Turn]:
    """The SE5a dives from level 3 onto the Albatros 1.6 bw ahead (short range, the dive
    card, the Soldier's card): ``first`` is the top card of the A deck, blanks follow."""
    shooter = {"behaviour": behaviour} if behaviour != "used-soldier" else {
        "behaviour": "soldier", "power_used": True}  # fmt: skip
    se = plane("se", type_="se5a", side="entente", x=10, y=10, level=3, **shooter)
    alb = plane("alb", type_="albatros_d3", side="central", x=13.0, y=10, jams={"front": 5},
                **target)  # type: ignore[arg-type]  # fmt: skip
    state = stack(mission(se, alb, collisions=False), "A", [first, BLANK, BLANK, BLANK])
    work = Turn(catalog(), state, Rng("soldier", 1, "t"))
    work.phase = 1
    work.play_phase(programs(se="DV S S", alb="S S S"))
    assert [e.data["cards"] for e in work.events if e.kind == "fire"] == [
        4 if behaviour == "soldier" else 3
    ]
    return work.planes["alb"], work


def test_the_soldiers_dive_shot_makes_fire_and_smoke_last_the_mission() -> None:
    fire = card_id("A", 2, "fire")
    smoke = card_id("A", 1, "smoke")
    assert dive_shot("soldier", fire)[0].fire >= PERMANENT
    assert dive_shot("soldier", smoke)[0].smoke >= PERMANENT
    # The same shot by a Knight, or by a Soldier whose power is spent: three counters.
    for who in ("knight", "used-soldier"):
        assert dive_shot(who, fire)[0].fire == 3
        assert dive_shot(who, smoke)[0].smoke == 3


def test_the_soldiers_dive_shot_jams_the_rudder_for_good() -> None:
    rudder = card_id("A", 1, "rudder_left")
    hit, _ = dive_shot("soldier", rudder)
    assert (hit.rudder, hit.rudder_until) == ("L", PERMANENT)
    # Turns later its program still may not turn left.
    later = check_program(catalog(), hit, Program(cards=("BL", "S", "S")), MissionRules(), 7)
    assert [r.reason for r in later] == ["rudder-jammed"]
    for who in ("knight", "used-soldier"):
        assert dive_shot(who, rudder)[0].rudder_until == 2  # the next turn only


def test_the_soldiers_dive_shot_wounds_the_pilot_seriously() -> None:
    wound = card_id("A", 3, "pilot_wounded")
    hit, work = dive_shot("soldier", wound)
    assert (hit.pilot_lp, hit.wounded, hit.status) == (2, True, "flying")  # D.V: 0-2
    work.phase = 0
    work.end_of_turn()  # seriously wounded: the clock to land starts (D.V, B.VIII)
    assert work.planes["alb"].land_by == 1 + catalog().rules.pilot.landing_window
    for who in ("knight", "used-soldier"):
        assert dive_shot(who, wound)[0].pilot_lp == 5  # an ordinary wound
    # Already below the band's top, the wound costs what it always does.
    assert dive_shot("soldier", wound, pilot_lp=6, wounded=True)[0].pilot_lp == 1


def test_the_soldier_beats_systeme_d_on_that_shot() -> None:
    fire = card_id("A", 2, "fire")
    skilled = {"skills": ("systeme_d",), "tokens": 3}
    hit, _ = dive_shot("soldier", fire, **skilled)
    assert hit.fire >= PERMANENT and hit.tokens == 3  # no token spent on a lost cause
    eased, _ = dive_shot("knight", fire, **skilled)
    assert (eased.fire, eased.tokens) == (1, 2)  # Système D as usual: one turn of fire


# --- Système D's engine hit (seed D.VII.c) ---------------------------------------------


def engine_hit(state: MissionState, turn: int, value: int = 2) -> PlaneState:
    """Flies one maneuver of ``turn`` in which the Spad puts an engine card into the
    Albatros ahead of it; returns the Albatros."""
    state = stack(state, "A", [card_id("A", value, "engine"), BLANK])
    work = Turn(catalog(), state.model_copy(update={"turn": turn}), Rng("sd", turn, "t"))
    work.phase = 1
    work.play_phase(programs(spad="S S S", alb="S S S"))
    return work.planes["alb"]


def duel(**alb: object) -> MissionState:
    spad = plane("spad", type_="se5a", side="entente", x=10, y=10)
    target = plane("alb", type_="albatros_d3", side="central", x=13.3, y=10, jams={"front": 5},
                   **alb)  # type: ignore[arg-type]  # fmt: skip
    return mission(spad, target, collisions=False)


def stall_refused(hit: PlaneState, turn: int) -> bool:
    found = check_program(catalog(), hit, Program(cards=("S", "S", "S")), MissionRules(), turn)
    return [r.reason for r in found] == ["engine-needs-stall"]


def test_systeme_d_keeps_the_first_engine_hit_to_the_next_turn() -> None:
    hit = engine_hit(duel(skills=("systeme_d",), tokens=2), turn=1)
    assert (hit.engine_hits, hit.engine_until, hit.tokens) == (1, 2, 1)
    assert stall_refused(hit, 2)  # the next turn holds a stall...
    assert not stall_refused(hit, 3)  # ...and the one after is free again
    plain = engine_hit(duel(), turn=1)
    assert stall_refused(plain, 2) and stall_refused(plain, 3) and stall_refused(plain, 8)


def test_systeme_d_eases_one_engine_hit_only_the_second_downs_the_plane() -> None:
    first = engine_hit(duel(skills=("systeme_d",), tokens=3), turn=1)
    again = engine_hit(duel().model_copy(update={"planes": {
        **duel().planes, "alb": first}}), turn=3, value=3)  # fmt: skip
    assert again.status == "shot_down"  # B.IX: a second engine hit is the end
    assert again.tokens == 2  # the skill was not spent a second time


def test_without_tokens_systeme_d_cannot_ease_the_engine() -> None:
    hit = engine_hit(duel(skills=("systeme_d",), tokens=0), turn=1)
    assert hit.engine_until is None and stall_refused(hit, 5)

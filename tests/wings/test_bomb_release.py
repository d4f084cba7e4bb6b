"""The bomb release the player announces with his program (seed A.IV.e, B.X): on the chosen
maneuver whatever it lands on, at level 0 the bomber blows up, a miss is spent, holding
keeps it; without the word the standing order still flies."""

from __future__ import annotations

import pytest

from engine.rng import Rng
from engine.rulesets.wings.bombing import split
from engine.rulesets.wings.program import check_program, parse_program, program_text
from engine.rulesets.wings.state import MissionRules, MissionState, Objective, PlaneState
from engine.rulesets.wings.turn import play_turn
from tests.wings.helpers import catalog, mission, plane
from tests.wings.test_objectives import FAR, after
from tests.wings.test_turn import programs


def bomber(level: int = 1, **kw: object) -> PlaneState:
    return plane("b", type_="camel", side="entente", x=5.0, y=10.0, level=level, bombs=1, **kw)  # type: ignore[arg-type]


def target_at(state: MissionState, x: float, y: float) -> MissionState:
    site = Objective(id="t", kind="target", side="central", x=x, y=y)
    return state.model_copy(update={"objectives": {"t": site}})


def fly(state: MissionState, **texts: str) -> tuple[MissionState, list[str]]:
    after_turn, events = play_turn(catalog(), state, programs(**texts), Rng("b", 1, "t"))
    return after_turn, [e.kind for e in events if e.kind.startswith("bomb") or e.kind == "exploded"]


def test_the_release_word_reads_back_and_needs_a_bomb_aboard() -> None:
    assert split("S BL S bomb@2") == ("S BL S", 2)
    assert split("S S S bomb@hold") == ("S S S", 0)
    assert split("S S S") == ("S S S", None)
    assert program_text(parse_program("S BL S bomb@3")) == "S BL S bomb@3"
    assert program_text(parse_program("split_s: ST IM S bomb@1")) == "split_s: ST IM S bomb@1"
    rules, empty = MissionRules(), bomber().model_copy(update={"bombs": 0})
    assert not check_program(catalog(), bomber(), parse_program("S S S bomb@2"), rules, 1)
    refused = check_program(catalog(), empty, parse_program("S S S bomb@2"), rules, 1)
    assert [r.reason for r in refused] == ["no-bombs"]
    # A word that is no release (bomb@4) is left with the cards, which refuse it.
    assert check_program(catalog(), bomber(), parse_program("S S S bomb@4"), rules, 1)


@pytest.mark.parametrize("maneuver", [1, 2, 3])
def test_the_bomb_falls_after_the_announced_maneuver(maneuver: int) -> None:
    start = bomber()
    # Its own straights up to the release, then the bomb's one straight at level 1.
    x, y, _ = after(start, "S", maneuver + 1)
    state = target_at(mission(start, FAR), x, y)
    done, kinds = fly(state, b=f"S S S bomb@{maneuver}", far="S S S")
    assert kinds == ["bomb-released", "bomb-hit"]
    assert done.objectives["t"].destroyed and done.planes["b"].bombs == 0


def test_an_announced_release_that_misses_is_spent() -> None:
    start = bomber()
    x, y, _ = after(start, "S", 3)  # under the third maneuver's fall
    state = target_at(mission(start, FAR), x, y)
    done, kinds = fly(state, b="S S S bomb@1", far="S S S")
    assert kinds == ["bomb-released", "bomb-missed"]
    assert done.planes["b"].bombs == 0 and done.objectives["t"].damage == 0
    # The standing order would have waited for the third maneuver and hit.
    standing, kinds = fly(state, b="S S S", far="S S S")
    assert kinds == ["bomb-released", "bomb-hit"] and standing.objectives["t"].destroyed


def test_holding_keeps_the_bomb_even_over_the_target() -> None:
    start = bomber()
    x, y, _ = after(start, "S", 2)
    state = target_at(mission(start, FAR), x, y)
    done, kinds = fly(state, b="S S S bomb@hold", far="S S S")
    assert kinds == [] and done.planes["b"].bombs == 1 and done.objectives["t"].damage == 0


def test_a_release_at_level_0_blows_the_bomber_up() -> None:
    start = bomber(level=0)
    x, y, _ = after(start, "S", 2)
    state = target_at(mission(start, FAR), x, y)
    done, kinds = fly(state, b="S S S bomb@1", far="S S S")
    assert kinds == ["bomb-blew-up", "exploded"]
    blown = done.planes["b"]
    assert (blown.status, blown.bombs, blown.pilot_lp) == ("exploded", 0, -1)
    assert done.objectives["t"].damage == 0  # it never fell
    # The standing order never releases at level 0: the bomber flies on with its bomb.
    standing, kinds = fly(state, b="S S S", far="S S S")
    assert kinds == [] and standing.planes["b"].status == "flying"


def test_the_announcement_stays_on_its_maneuver_through_a_reorder_and_an_ace_s_swap() -> None:
    from engine.rulesets.wings import ace
    from engine.rulesets.wings.campaign import _reorder_decisions

    start, far = bomber(), FAR
    announced = parse_program("S BL S bomb@2")
    state = mission(start, far).model_copy(
        update={
            "programs": {"b": announced, "far": parse_program("S S S")},
            "pursuits": {"b": "far"},
            "round": "reorder",
        }
    )
    (reorder,) = _reorder_decisions(catalog(), state)
    assert reorder.default == "S BL S bomb@2"
    assert {o.id for o in reorder.options} >= {"S BL S bomb@2", "BL S S bomb@2"}
    assert all(o.id.endswith(" bomb@2") for o in reorder.options)
    # An Ace of Aces changing his last card keeps the release he announced.
    aced = state.model_copy(update={"programmed": {"b": start}})
    after_swap, _ = ace.apply(catalog(), aced, {"b": ("entente", "S BL TL")})
    assert after_swap.programs["b"] == parse_program("S BL TL bomb@2")


def test_in_the_clouds_on_the_announced_maneuver_the_bomb_stays_aboard() -> None:
    # Seed B.V: a plane in the layer is out of play; its release, announced for a maneuver
    # flown hidden in the clouds, lapses (nothing below can be seen) and the bomb is kept.
    from tests.wings.test_clouds import climbers

    state = climbers()
    dr1 = state.planes["b"].model_copy(update={"bombs": 1})
    state = state.model_copy(update={"planes": {**state.planes, "b": dr1}})
    site = Objective(id="t", kind="target", side="entente", x=dr1.x + 2.0, y=dr1.y)
    state = state.model_copy(update={"objectives": {"t": site}})
    done, kinds = fly(state, b="CL S S bomb@2", a="S S S")
    assert done.planes["b"].in_cloud
    assert kinds == [] and done.planes["b"].bombs == 1
    # Out of the clouds the same announcement drops it.
    clear, kinds = fly(state.model_copy(update={"rules": MissionRules(cloud_cover=False)}),
                       b="CL S S bomb@2", a="S S S")  # fmt: skip
    assert clear.planes["b"].bombs == 0 and kinds[0] == "bomb-released"

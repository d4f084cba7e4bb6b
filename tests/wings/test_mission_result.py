"""Who wins a mission against objectives, and when it ends (seed E.I.a, E.III.a): the
aggressor by achieving his mission; the defender by holding both the objectives and the
air; otherwise neither, a draw. The mission goes on while the aggressor can act."""

from __future__ import annotations

from engine.rng import Rng
from engine.rulesets.wings.objectives import mission_result
from engine.rulesets.wings.state import MissionState, PlaneState
from engine.rulesets.wings.turn import play_turn
from rendering.rulesets.wings import WingsPresenter
from tests.wings.helpers import catalog, mission, plane
from tests.wings.test_objectives import FAR, with_objective
from tests.wings.test_turn import programs

SCOUT = plane("r", type_="bristol_f2b", side="entente", x=5.0, y=10.0, heading=0.0, level=2)


def recon_over(*planes: PlaneState, x: float = 18.0, done: bool = False) -> MissionState:
    """The Entente (active) reconnoitring a Central site; ``done`` if it is already seen."""
    state = with_objective(mission(*planes), "recon", x, 10.0)
    if done:
        site = state.objectives["obj"].model_copy(update={"done_by": "r"})
        state = state.model_copy(update={"objectives": {"obj": site}})
    return state


def gone(flyer: PlaneState, status: str, x: float | None = None) -> PlaneState:
    return flyer.model_copy(update={"status": status, "x": flyer.x if x is None else x})


def test_the_aggressor_flies_on_to_his_objective_when_the_defenders_are_gone() -> None:
    state = recon_over(SCOUT, gone(FAR, "shot_down"))
    after, _ = play_turn(catalog(), state, programs(r="S S S"), Rng("r", 1, "t"))
    # The site is still ahead of him: the sky being his does not end the mission.
    assert not after.finished and after.winner is None
    assert after.objectives["obj"].done_by is None


def test_nobody_left_to_oppose_and_every_objective_achieved_ends_the_mission() -> None:
    state = recon_over(SCOUT, gone(FAR, "shot_down"), x=9.0)
    after, events = play_turn(catalog(), state, programs(r="S S S"), Rng("r", 1, "t"))
    assert after.objectives["obj"].done_by == "r"
    assert after.finished and after.winner == "entente"
    assert [e.data["winner"] for e in events if e.kind == "mission-over"] == ["entente"]


def test_the_defender_wins_only_holding_both_the_objectives_and_the_air() -> None:
    # Every aggressor off the table (here over the enemy's end), one defender home: his.
    fled = gone(SCOUT, "left", x=22.5)
    assert mission_result(recon_over(fled, FAR)) == "central"
    # The same, but the defenders are down too: the objective held, the air lost: neither.
    assert mission_result(recon_over(fled, gone(FAR, "shot_down"))) == "draw"
    # The aggressor still in the air when time runs out: neither side met its goals.
    assert mission_result(recon_over(SCOUT, FAR)) == "draw"
    # An achieved mission is the aggressor's whatever became of his planes (a recon site
    # needs no return, seed E.I.a).
    assert mission_result(recon_over(gone(SCOUT, "shot_down"), FAR, done=True)) == "entente"


def test_the_turn_limit_gives_the_mission_to_whoever_met_his_goals() -> None:
    far_away = FAR.model_copy(update={"x": 21.0, "y": 2.0})
    for done, winner in ((True, "entente"), (False, "draw")):
        state = recon_over(SCOUT, far_away, done=done).model_copy(update={"max_turns": 1})
        after, _ = play_turn(catalog(), state, programs(r="S S S", far="S S S"), Rng("r", 1, "t"))
        assert after.finished and after.winner == winner, done


def test_the_mission_report_tells_a_draw_from_a_defender_s_win() -> None:
    record = {
        "number": 2,
        "active": "entente",
        "kind": "bombing",
        "success": False,
        "winner": "draw",
        "vp": {"entente": 0, "central": 3},
        "losses": {},
    }
    head = WingsPresenter()._mission_lines(record, "en")[0]
    assert head == "Mission 2: Entente bombing, failure, a draw: neither side met its goals"
    held = WingsPresenter()._mission_lines({**record, "winner": "central"}, "fr")[0]
    assert held.endswith(", échec")
    drawn = WingsPresenter()._mission_lines(record, "fr")[0]
    assert drawn.endswith("échec, match nul\u00a0: aucun camp n'a atteint ses buts")

"""Coming in over a balloon net (seed A.IV.i.2; engine.rulesets.wings.net_entry): the attackers of a
mission whose balloons hang a net enter one counter above the lowest balloon, and so do
their reinforcements; the defender's planes and a mission without a net start as before."""

from __future__ import annotations

from engine.rng import Rng
from engine.rulesets.wings import WingsRules, net_entry
from engine.rulesets.wings import reinforcements as reinf
from engine.rulesets.wings.generator import generate_mission
from engine.rulesets.wings.program import parse_program
from engine.rulesets.wings.state import MissionState
from engine.rulesets.wings.turn import play_turn
from rendering.i18n import t
from rendering.rulesets.wings import WingsPresenter
from tests.test_french import problems
from tests.wings.helpers import catalog
from tests.wings.test_balloons import balloon
from tests.wings.test_mission_kinds import with_recon_crew
from tests.wings.test_reinforcements import _asked, _mission, _shot_down, _step, _with


def _three_balloons() -> MissionState:
    mission, _points, _forces = generate_mission(
        catalog(), with_recon_crew(), Rng("entry", 1, "b"), "balloon", 3
    )
    assert mission.nets
    return mission


def test_the_attackers_come_in_one_counter_over_the_lowest_balloon() -> None:
    mission = _three_balloons()
    lowest = min((b.level, b.counters) for b in mission.objectives.values())
    owner = next(iter(mission.objectives.values())).side
    start = catalog().rules.altitude.start_level
    for plane in mission.planes.values():
        if plane.side == owner:  # the defender knows the lanes through his own net
            assert (plane.level, plane.counters) == (start, 0)
        else:
            assert (plane.level, plane.counters) == (lowest[0], lowest[1] + 1)
    assert mission.net_entry == (lowest[0], lowest[1] + 1)


def test_without_a_net_everyone_starts_at_the_usual_level() -> None:
    one, _points, _forces = generate_mission(
        catalog(), with_recon_crew(), Rng("entry", 1, "b"), "balloon"
    )
    assert not one.nets and one.net_entry is None
    start = catalog().rules.altitude.start_level
    assert {(p.level, p.counters) for p in one.planes.values()} == {(start, 0)}


def test_flying_straight_on_the_attackers_pass_over_the_barrage() -> None:
    """What the rule is for: a flight briefed on the net is not caught by it for flying
    straight at the balloons (it used to start below it and crash into it)."""
    mission = _three_balloons()
    events = []
    for turn in range(1, 5):
        straight = {
            pid: parse_program("S S S") for pid, p in mission.planes.items() if p.status == "flying"
        }
        mission, more = play_turn(catalog(), mission, straight, Rng("entry", turn, "turn"))
        events += more
    caught = [e for e in events if e.kind in ("net-crash", "net-contact")]
    assert caught == []
    owner = next(iter(mission.objectives.values())).side
    net_x = sum(b.x for b in mission.objectives.values()) / len(mission.objectives)
    crossed = [
        p
        for p in mission.planes.values()
        if p.side != owner and (p.x > net_x) == (owner == "central")
    ]
    assert crossed  # they did reach the far side of the net line, over it


def test_the_entry_clears_the_net_for_every_plane_the_rules_offer() -> None:
    cat = catalog()
    mission = _three_balloons()
    lowest = net_entry.net_height(mission)
    assert lowest is not None
    for name, plane_type in cat.planes.items():
        level, counters = net_entry.entry_height(cat, mission, "entente", name)
        assert (level, counters) > lowest
        assert counters < plane_type.climb and level <= cat.rules.altitude.cap


def test_a_reinforcement_comes_in_over_the_net_while_it_hangs() -> None:
    state = _shot_down()
    b1 = balloon(40.0, 8.0).model_copy(update={"id": "c-B1"})
    b2 = balloon(40.0, 20.0).model_copy(update={"id": "c-B2"})
    state = _with(state, "1916-09", kind="balloon", objectives={"c-B1": b1, "c-B2": b2}, nets=True)
    state, _ = _step(state)
    assert _asked(state) is not None
    state, _ = _step(state, {"entente": {"program:P1": reinf.option_id("spad7")}})
    new = _mission(state).planes["P1-2"]
    assert (new.level, new.counters) == (3, 1)


def test_the_board_says_why_on_the_first_turn_in_both_languages() -> None:
    rules = WingsRules(catalog())
    state = rules.new("wings-1917", "entry")
    mission = _three_balloons()
    fields = ("kind", "objectives", "nets", "net_entry", "planes")
    state = _with(state, **{k: getattr(mission, k) for k in fields})
    presenter = WingsPresenter()
    for locale in ("en", "fr"):
        side = t("service.side.entente", locale)  # the balloons are the Central Powers'
        said = t("wings.net.entry", locale, side=side, level=3, counters=1)
        lines = [text for text, _c, _b in presenter._plane_lines(rules.view(state, None), locale)]
        assert said in lines, lines
        # Each attacker's own line gives the counter too, as the map's "3+1" does.
        assert sum("alt 3 +1 ·" in text for text in lines) == 3, lines
        if locale == "fr":
            assert problems([("entry", said)]) == []
    later = _with(state, turn=2)
    lines = [text for text, _c, _b in presenter._plane_lines(rules.view(later, None), "en")]
    assert not any("over the net" in text for text in lines)  # said once, as they arrive

"""Winching a balloon down at its owner's wish (seed A.IV.i.3, ``engine.rulesets.wings.winch``)."""

from __future__ import annotations

from collections.abc import Mapping

from engine.rng import Rng
from engine.rulesets.wings import WingsRules, WingsState, winch
from engine.rulesets.wings import campaign as wings
from engine.rulesets.wings.objectives import awards
from engine.rulesets.wings.state import MissionState, Objective
from engine.rulesets.wings.turn import Turn
from tests.wings.helpers import catalog, seen
from tests.wings.test_balloons import first_phase, with_balloon

BALLOON = "e-B1"  # wings-1917 opens on the Central Powers busting the Entente's balloon


def opening(seed: str = "winch") -> tuple[WingsRules, WingsState]:
    rules = WingsRules(catalog())
    return rules, rules.new("wings-1917", seed)


def fly(
    rules: WingsRules, state: WingsState, picks: Mapping[str, Mapping[str, str]] | None = None
) -> tuple[WingsState, list[str]]:
    """One flying turn through the seam: every field at its default but ``picks``."""
    kinds: list[str] = []
    turn = state.turn
    index = 0
    while state.turn == turn and not rules.progress(state).finished:
        choices: dict[str, dict[str, str]] = {}
        for d in rules.pending(state):
            value = (picks or {}).get(d.side, {}).get(d.field, d.default)
            choices.setdefault(d.side, {})[d.field] = value
        state, events = rules.resolve(state, choices, Rng("winch", turn * 10 + index, "round"))
        kinds += [e.kind for e in events]
        index += 1
    return state, kinds


def balloon_of(state: WingsState) -> Objective:
    mission = state.camp.mission
    assert mission is not None
    return mission.objectives[BALLOON]


def winch_field(rules: WingsRules, state: WingsState, side: str) -> list[str] | None:
    found = [d for d in rules.pending(state) if d.side == side and d.field == "winch"]
    return [o.id for o in found[0].options] if found else None


def test_the_owner_is_asked_each_turn_and_the_enemy_never() -> None:
    rules, state = opening()
    assert winch_field(rules, state, "entente") == ["keep", "winch:e-B1"]
    assert winch_field(rules, state, "central") is None  # no balloon of its own
    (decision,) = [d for d in rules.pending(state) if d.field == "winch"]
    assert decision.default == "keep"  # a missed deadline keeps the balloon flying
    state, kinds = fly(rules, state)
    assert (balloon_of(state).level, balloon_of(state).counters) == (3, 0)
    assert "winch-ordered" not in kinds and "balloon-winched" not in kinds
    # Asked again the next turn, still with the choice to haul it down.
    assert winch_field(rules, state, "entente") == ["keep", "winch:e-B1"]


def test_an_order_hauls_the_balloon_down_a_counter_a_turn_and_it_never_goes_back_up() -> None:
    rules, state = opening()
    state, kinds = fly(rules, state, {"entente": {"winch": "winch:e-B1"}})
    assert kinds.index("winch-ordered") < kinds.index("balloon-winched")
    balloon = balloon_of(state)
    assert balloon.winching and (balloon.level, balloon.counters) == (2, 2)
    # Still asked (the field tells the enemy nothing), but the balloon is no longer offered.
    assert winch_field(rules, state, "entente") == ["keep"]
    state, _kinds = fly(rules, state)  # "keep" does not stop a winch already turning
    assert (balloon_of(state).level, balloon_of(state).counters) == (2, 1)


def test_the_choices_reach_the_engine_sealed_until_the_turn_flies() -> None:
    rules, state = opening()
    camp = state.camp
    engine = wings.defaults(wings.pending(catalog(), camp))
    engine["entente"]["winch:entente"] = "winch:e-B1"
    mission = camp.mission
    assert mission is not None
    # A turn with a pursuit keeps the orders in the mission while the pursuer reorders.
    mission = winch.with_orders(mission, {"entente": "winch:e-B1"})
    camp = camp.model_copy(update={"mission": mission})
    assert seen(camp, "entente")["mission"]["winch_orders"] == [BALLOON]
    assert seen(camp, "central")["mission"]["winch_orders"] == []
    sealed = state.model_copy(update={"campaign": camp})
    assert rules.view(sealed, None).data["mission"]["winch_orders"] == []
    assert rules.view(sealed, "central").data["mission"]["winch_orders"] == []


def hauled(state: MissionState, **balloon: object) -> Turn:
    """The turn's start with the balloon as given (winched one level above the ground)."""
    oid = "c-balloon1"
    site = state.objectives[oid].model_copy(update=balloon)
    state = state.model_copy(update={"objectives": {oid: site}})
    work = Turn(catalog(), state, Rng("w", 1, "t"))
    work.start_of_turn()
    return work


def test_a_balloon_reaching_the_ground_is_out_of_the_fight() -> None:
    work = hauled(with_balloon(level=3), level=1, counters=0, winching=True)
    site = work.objectives["c-balloon1"]
    assert (site.level, site.counters) == (0, 0) and site.hauled_down  # on the ground
    assert [e.kind for e in work.events if "balloon" in e.kind] == [
        "balloon-winched",
        "balloon-hauled-down",
    ]
    # Up, a balloon in range at the plane's level is fired at; down on its winch, never.
    up = first_phase(with_balloon(level=3, x=14.6))
    assert any(e.kind == "fire-at-balloon" for e in up.events)
    state = with_balloon(level=3, x=14.6)
    site = state.objectives["c-balloon1"].model_copy(update={"hauled_down": True})
    down = first_phase(state.model_copy(update={"objectives": {"c-balloon1": site}}))
    assert not any(e.kind == "fire-at-balloon" for e in down.events)


def test_a_balloon_not_ordered_down_stays_up() -> None:
    work = hauled(with_balloon(level=3), level=1, counters=0)
    site = work.objectives["c-balloon1"]
    assert (site.level, site.counters) == (1, 0) and not site.hauled_down


def scored(**balloon: object) -> tuple[dict[str, int], dict[str, int], bool]:
    state = with_balloon(level=3)
    site = state.objectives["c-balloon1"].model_copy(update=balloon)
    flyer = state.planes["e"].model_copy(update={"pilot": "ball"})
    state = state.model_copy(
        update={"objectives": {"c-balloon1": site}, "planes": {**state.planes, "e": flyer}}
    )
    result = awards(catalog(), state)
    return dict(result.team), dict(result.pilot), result.success


def test_winched_down_first_no_victory_for_the_shooter_the_squadron_keeps_its_award() -> None:
    # "e" set it on fire: the squadron scores it burning, its pilot too...
    team, pilot, success = scored(fire=1, fired_by="e", hit_by="e", damage=4)
    assert team == {"entente": 3} and pilot == {"ball": 1} and success
    # ...unless the balloon reached the ground first: still the squadron's 3 and the
    # objective achieved (it burns on the ground), no VP for the pilot.
    team, pilot, success = scored(fire=1, fired_by="e", hit_by="e", damage=4, hauled_down=True)
    assert team == {"entente": 3} and pilot == {} and success
    # Damaged, then saved by its winch: a "damaged" award each, the mission failed.
    team, pilot, success = scored(hit_by="e", damage=4, hauled_down=True)
    assert team == {"entente": 1, "central": 1} and pilot == {} and not success
    team, pilot, success = scored(hauled_down=True)
    assert team == {"central": 3} and not success


def test_with_no_balloon_up_nobody_is_asked() -> None:
    state = with_balloon(level=3)
    site = state.objectives["c-balloon1"]
    assert [d.side for d in winch.decisions(state)] == ["central"]
    for gone in ({"destroyed": True}, {"hauled_down": True}):
        down = state.model_copy(update={"objectives": {site.id: site.model_copy(update=gone)}})
        assert winch.decisions(down) == []
    assert winch.decisions(state.model_copy(update={"objectives": {}})) == []


def test_three_balloons_every_set_fits_one_select() -> None:
    state = with_balloon(level=3)
    site = state.objectives["c-balloon1"]
    three = {f"c-B{i}": site.model_copy(update={"id": f"c-B{i}"}) for i in (1, 2, 3)}
    (decision,) = winch.decisions(state.model_copy(update={"objectives": three}))
    assert len(decision.options) == 8 and decision.options[-1].id == "winch:c-B1+c-B2+c-B3"
    assert winch.ordered("winch:c-B1+c-B3") == ("c-B1", "c-B3")


def test_same_seed_and_orders_same_campaign() -> None:
    runs = []
    for _ in range(2):
        rules, state = opening("same")
        state, _kinds = fly(rules, state, {"entente": {"winch": "winch:e-B1"}})
        state, _kinds = fly(rules, state)
        runs.append(rules.dump(state))
    assert runs[0] == runs[1]


def test_two_runs_differing_in_the_order_look_the_same_to_others_until_the_turn_flies() -> None:
    seen = []
    for pick in (0, 1):  # keep flying, or winch the balloon down
        rules, state = opening("differential")
        choices: dict[str, dict[str, str]] = {}
        owner = ""
        for d in rules.pending(state):
            value = d.default
            if d.field == "winch":
                owner, value = d.side, d.options[pick].id
            choices.setdefault(d.side, {})[d.field] = value
        enemy = "entente" if owner == "central" else "central"
        state, events = rules.resolve(state, choices, Rng("d", 1, "program"))
        before = (
            rules.view(state, enemy).model_dump_json(),
            rules.view(state, None).model_dump_json(),
            [e.model_dump_json() for e in events],
        )
        state, flown = fly(rules, state)
        seen.append((before, rules.view(state, None).model_dump_json(), flown))
    (before_keep, after_keep, flown_keep), (before_winch, after_winch, flown_winch) = seen
    assert before_keep == before_winch  # the enemy and the public: nothing to tell apart
    assert after_keep != after_winch and "winch-ordered" in flown_winch  # told once flown
    assert "winch-ordered" not in flown_keep

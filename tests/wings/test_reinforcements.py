"""In-mission reinforcements (seed E.IV): the reserve of Mission Points, the two full turns
of waiting, the prices, the reserve never below zero and lost at the end, the new plane on
its downed predecessor's panel field, and the order kept secret until the turn flies."""

from __future__ import annotations

from typing import Any

from engine.rng import Rng
from engine.rulesets.wings import WingsRules, WingsState
from engine.rulesets.wings import campaign as wings
from engine.rulesets.wings import reinforcements as reinf
from engine.rulesets.wings.catalog import default_catalog
from engine.rulesets.wings.generator import sortie_cost
from engine.rulesets.wings.legacy import plane_slots
from engine.rulesets.wings.state import MissionState, Pilot, PlaneState
from rendering.i18n import t
from rendering.rulesets.wings import WingsPresenter
from tests.test_french import problems
from tests.wings.helpers import seen, with_picks

CATALOG = default_catalog()
SEND_NIEUPORT = reinf.option_id("nieuport17")


def _rules() -> WingsRules:
    return WingsRules(CATALOG)


def _with(state: WingsState, date: str | None = None, **mission: Any) -> WingsState:
    camp = state.camp
    assert camp.mission is not None
    camp = camp.model_copy(
        update={"mission": camp.mission.model_copy(update=mission), "date": date or camp.date}
    )
    return state.model_copy(update={"campaign": camp})


def _mission(state: WingsState) -> MissionState:
    assert state.camp.mission is not None
    return state.camp.mission


def _planes(state: WingsState, **changes: dict[str, Any]) -> dict[str, PlaneState]:
    planes = dict(_mission(state).planes)
    for pid, update in changes.items():
        planes[pid] = planes[pid].model_copy(update=update)
    return planes


def _step(
    state: WingsState, picks: dict[str, dict[str, str]] | None = None, seed: str = "rf"
) -> tuple[WingsState, list[Any]]:
    """One turn through the seam: the program round with these picks (defaults elsewhere),
    then the rounds that fly it; stored and loaded back as the service does."""
    rules = _rules()
    progress = rules.progress(state)
    choices = with_picks(rules, state, picks)
    new, events = rules.resolve(state, choices, Rng(seed, progress.turn, progress.round))
    while rules.progress(new).round != "program" and not rules.progress(new).finished:
        more_choices = rules.defaults(rules.pending(new))
        new, more = rules.resolve(new, more_choices, Rng(seed, progress.turn, "r"))
        events += more
    stored = rules.dump_stored(new)
    return rules.load_stored(stored.current, stored.records), events


def _asked(state: WingsState, side: str = "entente", field: str = "program:P1") -> Any:
    return next((d for d in _rules().pending(state) if (d.side, d.field) == (side, field)), None)


def _fled(date: str = "1916-09", reserve: int = 3) -> WingsState:
    """Wings 1917, P1 (Nieuport 17, damaged) a little short of its own edge heading home:
    its straights take it off over the Entente's zone in turn 1. In September 1916 a
    Nieuport 17 is a period single-seater (1 MP)."""
    state = _rules().new("wings-1917", "reinforce")
    planes = _planes(state, P1={"x": 1.0, "y": 2.0, "heading": 180.0, "damage": 2})
    state = _with(state, date, planes=planes, reserve={"entente": reserve, "central": 0})
    state, _ = _step(state)
    p1 = _mission(state).planes["P1"]
    assert p1.status == "left" and p1.left_turn == 1
    return state


def test_the_reserve_is_what_the_forces_left_of_each_sides_mission_points() -> None:
    state = _rules().new("wings-1917", "reinforce")
    camp = state.camp
    mission = _mission(state)
    points = {"entente": 0, "central": 0}
    for plane in mission.planes.values():
        assert plane.pilot is not None
        points[plane.side] += sortie_cost(CATALOG, camp.pilots[plane.pilot], camp.date)
        if plane.rockets and not CATALOG.planes[plane.type].two_seater:
            points[plane.side] += 1
    # Balloon busting for the Entente's two players: 4 + 1 (mission) + 1 (flak) = 6 MP; the
    # Central Powers' two players 4 MP, both spent on two period Albatros and rookies.
    assert mission.reserve == {"entente": 6 - points["entente"], "central": 4 - points["central"]}
    assert mission.reserve["entente"] == 2 and mission.reserve["central"] == 0


def test_a_fleeing_plane_may_be_swapped_only_after_two_full_turns() -> None:
    state = _fled()
    assert _asked(state) is None  # turn 2: the first full turn after it fled
    state, _ = _step(state)
    asked = _asked(state)  # turn 3: the second, at whose end the new plane stands
    assert asked is not None
    assert [o.id for o in asked.options] == [reinf.NO, SEND_NIEUPORT]
    assert asked.default == reinf.NO
    assert _asked(state, "central", "program:P3").options[0].id != reinf.NO
    # Its own board says so; the enemy's and the public's know nothing of it.
    rules = _rules()
    assert rules.view(state, "entente").data["mission"]["may_reinforce"] == ["P1"]
    assert rules.view(state, "central").data["mission"]["may_reinforce"] == []
    assert rules.view(state, None).data["mission"]["may_reinforce"] == []
    board = WingsPresenter()._plane_lines(rules.view(state, "entente"), "en")
    assert any("a new plane may take off for it this turn" in text for text, _, _ in board)
    public = WingsPresenter()._plane_lines(rules.view(state, None), "en")
    assert not any("a new plane may take off" in text for text, _, _ in public)


def test_a_swap_costs_half_a_single_seater_rounded_up_and_keeps_the_pilot() -> None:
    state, _ = _step(_fled())
    state, events = _step(state, {"entente": {"program:P1": SEND_NIEUPORT}})
    mission = _mission(state)
    new = mission.planes["P1-2"]
    assert (new.type, new.pilot, new.replaces, new.status) == ("nieuport17", "P1", "P1", "flying")
    assert new.damage == 0 and new.heading == 0.0
    assert new.x == CATALOG.rules.units.ruler / 2  # half a ruler in from the own edge
    assert new.level == CATALOG.rules.altitude.start_level
    assert mission.reserve["entente"] == 3 - 1  # half of a period single-seater's 1, up
    assert [e for e in events if e.kind == "reinforcement" and e.data["plane"] == "P1-2"]


def test_a_two_seater_swap_costs_two_and_an_advanced_one_half_of_three() -> None:
    state = _fled(reserve=5)
    mission = _mission(state)
    camp = state.camp
    assert reinf.cost(CATALOG, camp, mission, "P1", "nieuport17") == 1
    assert reinf.cost(CATALOG, camp.model_copy(update={"date": "1916-02"}), mission, "P1",
                      "nieuport17") == 2  # fmt: skip
    two_seater = next(key for key, p in CATALOG.planes.items() if p.two_seater)
    assert reinf.cost(CATALOG, camp, mission, "P1", two_seater) == 2


def _shot_down(zone: str = "friendly", turn: int = 1, lp: int = 10) -> WingsState:
    """Wings 1917 at the start of turn ``turn + 1`` with P1 shot down in ``turn``."""
    state = _rules().new("wings-1917", "reinforce")
    for _ in range(turn):
        state, _ = _step(state)
    planes = _planes(
        state,
        P1={
            "status": "shot_down",
            "destroyed_turn": turn,
            "crash_zone": zone,
            "pilot_lp": lp,
            "tokens": 1,
        },
    )
    return _with(state, "1916-09", planes=planes, reserve={"entente": 3, "central": 0})


def test_a_shot_down_pilot_takes_off_again_two_full_turns_later_at_the_planes_cost() -> None:
    state = _shot_down()
    assert _asked(state) is None  # turn 2
    state, _ = _step(state)
    asked = _asked(state)  # turn 3
    assert asked is not None
    # Nieuport 17 and SPAD VII in stock, two of each with one of each in the air.
    assert [o.id for o in asked.options] == [reinf.NO, SEND_NIEUPORT, reinf.option_id("spad7")]
    sorties = state.camp.squadrons["entente"].stock["fuel"]
    state, _ = _step(state, {"entente": {"program:P1": reinf.option_id("spad7")}})
    new = _mission(state).planes["P1-2"]
    assert (new.type, new.pilot, new.tokens) == ("spad7", "P1", 1)  # his tokens go with him
    assert _mission(state).reserve["entente"] == 3 - 1  # a period SPAD VII, the same pilot
    stock = state.camp.squadrons["entente"].stock
    assert (stock["fuel"], stock["ammunition"]) == (sorties - 1, sorties - 1)  # J 18: a sortie


def test_a_pilot_down_in_enemy_land_is_replaced_by_a_spare_pilot_who_is_paid_for() -> None:
    state = _shot_down(zone="enemy")
    state, _ = _step(state)
    assert _asked(state) is None  # nobody left to fly it: both pilots were in the air
    spare = Pilot(id="P9", name="Arthur Rhys Davids", side="entente", behaviour="soldier",
                  plane="spad7")  # fmt: skip
    camp = state.camp.model_copy(update={"pilots": {**state.camp.pilots, "P9": spare}})
    state = state.model_copy(update={"campaign": camp})
    asked = _asked(state)
    assert asked is not None
    assert [o.detail for o in asked.options[1:]] == ["reinforce.cost.2", "reinforce.cost.2"]
    state, _ = _step(state, {"entente": {"program:P1": SEND_NIEUPORT}})
    new = _mission(state).planes["P9"]
    assert (new.pilot, new.replaces, new.pilot_lp) == ("P9", "P1", 10)
    assert _mission(state).reserve["entente"] == 3 - 2  # plane 1 + rookie 1


def test_what_the_reserve_cannot_pay_is_excluded_and_it_never_goes_below_zero() -> None:
    state, _ = _step(_shot_down())
    asked = _asked(_with(state, "1916-02"))  # advanced: a SPAD or a Nieuport at 3 MP
    assert asked is not None and [o.detail for o in asked.options[1:]] == ["reinforce.cost.3"] * 2
    tight = _with(state, "1916-02", reserve={"entente": 2, "central": 0})
    assert _asked(tight) is None  # nothing it can afford: not asked at all
    mixed = _with(state, reserve={"entente": 1, "central": 0})
    assert {o.id for o in _asked(mixed).options} == {reinf.NO, SEND_NIEUPORT,
                                                    reinf.option_id("spad7")}  # fmt: skip
    # Two orders given in the same turn for the one MP left (each was affordable alone):
    # the turn's end sends the first in plane order, tells the side of the other, and the
    # reserve stops at zero.
    planes = _planes(mixed, P2={"status": "shot_down", "destroyed_turn": 1})
    mission = _mission(mixed).model_copy(
        update={"planes": planes, "reinforcing": {"P1": "nieuport17", "P2": "spad7"}}
    )
    _camp, mission, events = reinf.launch(CATALOG, mixed.camp, mission)
    assert mission.reserve["entente"] == 0
    assert "P1-2" in mission.planes and "P2-2" not in mission.planes
    short = [e for e in events if e.kind == "reinforcement-short"]
    assert [(e.data["plane"], e.data["reason"], e.secret_for) for e in short] == [
        ("P2", "reserve-short", "entente")
    ]
    assert mission.reinforcing == {}


def test_the_reserve_left_is_lost_when_the_mission_ends() -> None:
    camp = _rules().new("wings-1917", "b").camp  # a seed whose campaign goes on
    happened: list[Any] = []
    turn = 0
    while camp.phase == "mission":
        turn += 1
        choices = wings.defaults(wings.pending(CATALOG, camp))
        camp, events = wings.resolve(CATALOG, camp, choices, Rng("end", turn, "x"))
        happened += events
    lost = [e for e in happened if e.kind == "reserve-lost"]
    assert [(e.secret_for, e.data["points"]) for e in lost] == [("entente", 2)]
    for step in (99, 100):  # the debrief, then the next briefing
        choices = wings.defaults(wings.pending(CATALOG, camp))
        camp, _ = wings.resolve(CATALOG, camp, choices, Rng("end", step, "x"))
    assert camp.mission is not None and camp.mission.number == 2
    # The next mission's reserve is what its own budget leaves, nothing carried over.
    assert camp.mission.reserve == reinf.reserves(CATALOG, camp, camp.mission, _budgets(camp))


def _budgets(camp: Any) -> dict[str, int]:
    """The mission's budgets as the generator sets them (mission table, players)."""
    from engine.rulesets.wings.generator import mission_points

    mission = camp.mission
    enemy = "entente" if camp.active == "central" else "central"
    stock = camp.squadrons[enemy].stock
    fire = CATALOG.rules.fire
    sites = len(mission.objectives) or 1
    points = mission_points(
        CATALOG,
        active_players=camp.squadrons[camp.active].players,
        enemy_players=camp.squadrons[enemy].players,
        kind=mission.kind,
        extra_objectives=sites - 1,
        enemy_extra_aircraft=max(
            0,
            sum(p.side == enemy for p in mission.planes.values())
            - sum(p.side == camp.active for p in mission.planes.values()),
        ),
        enemy_trenches=min(stock.get("trenches", 0), fire.max_trenches),
        enemy_caa=min(stock.get("caa", 0), fire.max_caa),
        enemy_dca=0 if mission.kind == "patrol" else 1,
    )
    return {camp.active: points.active, enemy: points.enemy}


def test_the_new_plane_gets_a_field_of_its_own_and_flies_programs_like_any_other() -> None:
    state, _ = _step(_fled())
    before = plane_slots(_mission(state))
    state, _ = _step(state, {"entente": {"program:P1": SEND_NIEUPORT}})
    slots = plane_slots(_mission(state))
    assert slots["P1-2"] == "plane1" and slots["P1"] == "plane1"
    assert {pid: slots[pid] for pid in before} == before  # nobody else moved
    for side in ("entente", "central"):
        # The planes' fields (a balloon mission adds its owner's winch, seed A.IV.i.3).
        fields = {
            d.field
            for d in _rules().pending(state)
            if d.side == side and d.field.startswith("program:")
        }
        assert len(fields) <= 2  # as many as the side has planes flying
    # The new plane is programmed in a field of its own, named after it.
    assert _asked(state) is None
    asked = _asked(state, field="program:P1-2")
    assert asked is not None and "S S S" in {o.id for o in asked.options}
    x = _mission(state).planes["P1-2"].x
    state, _ = _step(state, {"entente": {"program:P1-2": "S S S"}})
    assert _mission(state).planes["P1-2"].x > x  # it flew its three straights


def test_the_order_is_secret_until_the_turn_flies() -> None:
    """Two runs differing only in the Entente's order: after the program round, the
    Central Powers' view, the public view and the public events are the same."""
    rules = _rules()
    state, _ = _step(_fled())
    outcomes = []
    for pick in (reinf.NO, SEND_NIEUPORT):
        choices = rules.defaults(rules.pending(state))
        choices["entente"]["program:P1"] = pick
        progress = rules.progress(state)
        held, events = rules.resolve(state, choices, Rng("sec", progress.turn, progress.round))
        outcomes.append(
            (
                rules.view(held, "central").model_dump(),
                rules.view(held, None).model_dump(),
                [e.model_dump() for e in rules.public_events(events)],
            )
        )
    assert outcomes[0] == outcomes[1]
    # Sealed in the engine too (a pursuit keeps the order in the mission until it flies).
    mission = _mission(state).model_copy(update={"reinforcing": {"P1": "nieuport17"}})
    camp = state.camp.model_copy(update={"mission": mission})
    assert seen(camp, "central")["mission"]["reinforcing"] == {}
    assert seen(camp, "central")["mission"]["reserve"] == {"central": 0}
    assert seen(camp, "entente")["mission"]["reinforcing"] == {"P1": "nieuport17"}
    public = rules.view(state.model_copy(update={"campaign": camp}), None).data["mission"]
    assert public["reinforcing"] == {} and public["reserve"] == {}


def test_a_pilot_who_flew_two_planes_is_counted_once_at_the_debrief() -> None:
    state, _ = _step(_fled())
    state, _ = _step(state, {"entente": {"program:P1": SEND_NIEUPORT}})
    camp = state.camp
    missions = camp.pilots["P1"].missions
    while camp.phase == "mission":
        camp, _ = wings.resolve(
            CATALOG, camp, wings.defaults(wings.pending(CATALOG, camp)), Rng("deb", 1, "x")
        )
    assert camp.pilots["P1"].missions == missions + 1
    crews = reinf.crews(camp.mission.planes if camp.mission else {})
    assert [p.id for p in crews if p.pilot == "P1"] == ["P1-2"]


def test_the_words_in_both_languages() -> None:
    presenter = WingsPresenter()
    for locale in ("en", "fr"):
        send = presenter.option_text("", "program:P1", SEND_NIEUPORT, locale)
        assert "Nieuport 17" in send
        words = [
            presenter.option_text("", "program:P1", reinf.NO, locale),
            t("wings.reinforce.cost-detail", locale, mp=2),
            t("wings.reinforce.no-detail", locale),
            t("wings.reinforce.reserve", locale, mp=2),
            t("wings.plane-note.may-reinforce", locale),
            t("service.reason.reserve-short", locale),
        ]
        assert all(len(w) <= 100 for w in words)
        if locale == "fr":
            assert not problems(("reinforce", w) for w in [send, *words])


def test_no_order_on_the_missions_last_turn_the_plane_would_never_fly() -> None:
    state, _ = _step(_fled())
    assert _asked(state) is not None  # turn 3 of 8
    assert _asked(_with(state, max_turns=3)) is None


def test_an_order_given_in_a_turn_with_a_pursuit_still_arrives() -> None:
    """A pursuit stops the turn for the pursuer's reordering: the order waits, sealed, in
    the mission and is carried out when the turn is flown."""
    state, _ = _step(_fled())
    planes = _planes(state, P2={"x": 8.0, "y": 11.0, "heading": 0.0, "level": 2},
                     P3={"x": 11.0, "y": 11.0, "heading": 0.0, "level": 2})  # fmt: skip
    state = _with(state, planes=planes, pursuits={"P2": "P3"})
    rules = _rules()
    choices = rules.defaults(rules.pending(state))
    choices["entente"]["program:P1"] = SEND_NIEUPORT
    progress = rules.progress(state)
    paused, _ = rules.resolve(state, choices, Rng("p", progress.turn, progress.round))
    assert rules.progress(paused).round == "reorder"
    assert _mission(paused).reinforcing == {"P1": "nieuport17"}
    assert rules.view(paused, "central").data["mission"]["reinforcing"] == {}
    flown, _ = _step(paused)
    assert "P1-2" in _mission(flown).planes and _mission(flown).reinforcing == {}


def test_random_orders_never_take_the_reserve_below_zero() -> None:
    """Every side's legal options picked at random, turn after turn, with two planes'
    worth of reserve: each plane sent takes its price off and the reserve stays at or above
    zero."""
    import random

    rules = _rules()
    sent = 0
    for seed in range(6):
        pick = random.Random(seed)
        state = _rules().new("wings-1917", f"rand{seed}")
        planes = _planes(
            state,
            P1={"status": "shot_down", "destroyed_turn": 0, "crash_zone": "friendly"},
            P3={"status": "shot_down", "destroyed_turn": 0, "crash_zone": "friendly"},
        )
        state = _with(state, "1916-09", planes=planes, reserve={"entente": 1, "central": 1})
        for turn in range(1, 9):
            if state.camp.phase != "mission":
                break
            choices = rules.defaults(rules.pending(state))
            prices: dict[str, int] = {}
            for decision in rules.pending(state):
                option = pick.choice(decision.options)
                choices[decision.side][decision.field] = option.id
                if option.id.startswith(reinf.PREFIX):
                    prices[decision.side] = prices.get(decision.side, 0) + int(
                        option.detail.removeprefix("reinforce.cost.")
                    )
            before = dict(_mission(state).reserve)
            count = len(_mission(state).planes)
            number = _mission(state).number
            state, _ = _step(state, choices, seed=f"rand{seed}.{turn}")
            if state.camp.phase != "mission" or _mission(state).number != number:
                break  # the mission is over (the step plays the debrief on to the next)
            after = _mission(state).reserve
            assert all(points >= 0 for points in after.values())
            for side in ("entente", "central"):
                assert before[side] - after[side] in (0, prices.get(side, 0))
            sent += len(_mission(state).planes) - count
    assert sent > 0  # the orders were really given and flown


def test_a_dead_or_seriously_wounded_pilot_never_takes_off_again() -> None:
    for lp in (-1, 2):
        state, _ = _step(_shot_down(lp=lp))
        assert _asked(state) is None  # no spare pilot in the squadron, and not him
        mission = _mission(state)
        assert reinf.pilot_for(CATALOG, state.camp, mission, "P1") is None

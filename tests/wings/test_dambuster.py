"""The Dambuster mission (seed 004): release sequence, sight, bounces, band hit test,
blast, searchlights and night AA, the AA guns, second pass and the scenario results."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rng import Rng
from engine.rulesets.wings import dambuster as db
from tests.wings.helpers import catalog

PERFECT = ["SS aim:25", "SS release", "SS", "SS", "SS"]


def fly(
    state: db.DamState, orders: list[str], seed: str = "d"
) -> tuple[db.DamState, list[dict[str, object]]]:
    events: list[dict[str, object]] = []
    for index, order in enumerate(orders):
        plane = db.on_table(state)
        if plane is not None and plane.status != "flying":
            order = "-"
        state, more = db.play(catalog(), state, order, Rng(seed, index, "dam"))
        events += more
    return state, events


def kinds(events: list[dict[str, object]]) -> list[object]:
    return [e["kind"] for e in events]


def test_the_release_needs_two_straights_at_altitude_1_and_an_unhurt_bomb_aimer() -> None:
    state = db.new_dam("eder")
    assert db.check_order(catalog(), state, db.parse_order("BL aim:50")) == "bomb-needs-straight"
    assert db.check_order(catalog(), state, db.parse_order("SS release")) == "not-aimed"
    hurt = state.planes["AJ-L"].model_copy(update={"hurt": ("front",)})
    blind = state.model_copy(update={"planes": {**state.planes, "AJ-L": hurt}})
    assert db.check_order(catalog(), blind, db.parse_order("SS aim:50")) == "bomb-aimer-hurt"
    high = state.planes["AJ-L"].model_copy(update={"level": 2})
    raised = state.model_copy(update={"planes": {**state.planes, "AJ-L": high}})
    assert db.check_order(catalog(), raised, db.parse_order("SS aim:50")) == "bomb-needs-altitude-1"
    aimed, _ = fly(state, ["SS aim:50"])
    assert aimed.planes["AJ-L"].bomb.stage == "aimed"
    assert db.check_order(catalog(), aimed, db.parse_order("TL release")) == "bomb-needs-straight"
    # Not released on the next turn: the aim lapses and the template must be laid again.
    lapsed, events = fly(aimed, ["SS"])
    assert lapsed.planes["AJ-L"].bomb.stage == "aboard" and "aim-lapsed" in kinds(events)


def test_the_release_point_must_lie_on_water() -> None:
    state = db.new_dam("eder")
    near_shore = state.planes["AJ-L"].model_copy(update={"y": 3.3})
    shore = state.model_copy(update={"planes": {**state.planes, "AJ-L": near_shore}})
    assert (
        db.check_order(catalog(), shore, db.parse_order("SS aim:50")) == "release-point-off-water"
    )


def test_a_well_aimed_bomb_bounces_three_rulers_and_hits_the_dam() -> None:
    state, events = fly(db.new_dam("eder"), PERFECT)
    bounces = [e for e in events if e["kind"] == "bomb-bounce"]
    xs = [float(e["x"]) for e in bounces]  # type: ignore[arg-type]
    assert [round(b - a, 3) for a, b in itertools.pairwise(xs)] == [3.0, 2.0]
    bomb = state.planes["AJ-L"].bomb
    assert (bomb.stage, bomb.outcome) == ("exploded", "hit") and state.hits == 1
    # The bomb explodes in the fire phase of the third bounce turn.
    assert kinds(events).index("bomb-exploded") > kinds(events).index("bomb-bounce")


def test_the_sight_gives_the_stop_that_hits_when_flown_straight() -> None:
    state = db.new_dam("eder")
    plane = db._moved(catalog(), state.planes["AJ-L"], "SS")
    offset = db.sight(catalog(), state.layout, plane)
    assert offset is not None
    done, _ = fly(state, [f"SS aim:{offset}", "SS release", "SS", "SS", "SS"])
    assert done.planes["AJ-L"].bomb.outcome == "hit"


@pytest.mark.parametrize(("offset", "outcome"), [(0, "missed"), (100, "dam-contact")])
def test_too_short_falls_in_the_lake_and_too_long_strikes_the_dam_early(
    offset: int, outcome: str
) -> None:
    state, _ = fly(db.new_dam("eder"), [f"SS aim:{offset}", "SS release", "SS", "SS", "SS"])
    assert state.planes["AJ-L"].bomb.outcome == outcome and state.hits == 0


def test_a_bomb_crossing_the_shore_explodes_on_the_ground() -> None:
    state = db.new_dam("eder")
    plane = state.planes["AJ-L"].model_copy(update={"heading": 25.0})
    state = state.model_copy(update={"planes": {**state.planes, "AJ-L": plane}})
    done, _ = fly(state, ["SS aim:0", "SS release", "SS", "SS", "SS"])
    assert done.planes["AJ-L"].bomb.outcome == "ground"


def test_only_a_single_band_over_the_red_line_counts() -> None:
    layout = db.DamLayout()
    x0 = layout.dam[0]
    assert db.bands_over_red_line(layout, x0 + 0.1, 7.5, 0.0) == {1}
    # Across the line at a slant, the red line runs under several bands.
    assert len(db.bands_over_red_line(layout, x0, 7.5, 50.0)) > 1
    assert db.bands_over_red_line(layout, x0 - 2.0, 7.5, 0.0) == set()


def test_a_slanted_marker_over_the_red_line_explodes_without_harm() -> None:
    state = db.new_dam("eder")
    x0 = state.layout.dam[0]
    bomb = db.Bomb(stage="released", x=x0, y=7.5, heading=50.0, bounce=3)
    plane = state.planes["AJ-L"].model_copy(update={"bomb": bomb, "x": 3.0})
    work = db.Run(catalog(), state.model_copy(update={"planes": {"AJ-L": plane}}), Rng("s", 1, "t"))
    work.bomb_last_explosion("AJ-L")
    assert work.planes["AJ-L"].bomb.outcome == "missed" and work.hits == 0
    square = plane.model_copy(update={"bomb": bomb.model_copy(update={"heading": 0.0})})
    work = db.Run(
        catalog(), state.model_copy(update={"planes": {"AJ-L": square}}), Rng("s", 1, "t")
    )
    work.bomb_last_explosion("AJ-L")
    assert work.planes["AJ-L"].bomb.outcome == "hit" and work.hits == 1


def test_the_blast_hits_planes_at_altitude_1_within_half_a_ruler() -> None:
    state = db.new_dam("eder")
    bomber = state.planes["AJ-L"]
    near = bomber.model_copy(update={"x": 12.0, "y": 7.55})
    work = db.Run(
        catalog(),
        state.model_copy(update={"planes": {**state.planes, "AJ-L": near}}),
        Rng("b", 1, "t"),
    )
    work.explode("AJ-L", "missed", (13.5, 7.55))
    assert "damage-card" in kinds(work.events)
    high = near.model_copy(update={"level": 2})
    work = db.Run(
        catalog(),
        state.model_copy(update={"planes": {**state.planes, "AJ-L": high}}),
        Rng("b", 1, "t"),
    )
    work.explode("AJ-L", "missed", (13.5, 7.55))
    assert "damage-card" not in kinds(work.events)


def mohne_with(**changes: object) -> db.DamState:
    state = db.new_dam("mohne")
    plane = state.planes["AJ-G"].model_copy(update=changes)
    return state.model_copy(update={"planes": {**state.planes, "AJ-G": plane}})


def test_at_night_an_unseen_lancaster_draws_two_c_and_keeps_the_lower() -> None:
    # Beside dam gun 1, within a ruler at altitude 1; the other guns are out of reach.
    state = mohne_with(x=17.0, y=5.5, heading=90.0)
    guns = {"dam-1": state.guns["dam-1"]}
    state = state.model_copy(update={"guns": guns})
    dark = db.Run(catalog(), state, Rng("n", 1, "t"))
    dark.aa_fire("AJ-G")
    draws = [catalog().damage_decks["C"].expanded]
    assert draws  # the deck exists
    first = db.draw(catalog(), Rng("n", 1, "t"), "C", dark.where("aa:dam-1:1"))
    second = db.draw(catalog(), Rng("n", 1, "t"), "C", dark.where("aa:dam-1:2"))
    (taken,) = [e for e in dark.events if e["kind"] == "damage-card"]
    kept = min((first, second), key=lambda c: (c.special == "explosion", c.value))
    assert (taken["value"], taken["special"]) == (kept.value, kept.special)
    assert first.special == "explosion"  # this draw shows the player never keeps one
    lit = db.Run(
        catalog(),
        state.model_copy(
            update={
                "planes": {
                    **state.planes,
                    "AJ-G": state.planes["AJ-G"].model_copy(update={"searchlights": True}),
                }
            }
        ),
        Rng("n", 1, "t"),
    )
    lit.aa_fire("AJ-G")
    (taken,) = [e for e in lit.events if e["kind"] == "damage-card"]
    assert taken["value"] == first.value  # distinctly visible: one card, no choice


def test_an_aa_gun_under_the_base_cannot_fire_and_reach_shrinks_with_altitude() -> None:
    layout = db.DamLayout()
    over = mohne_with(x=layout.dam[0], y=layout.dam[1], heading=90.0)
    over = over.model_copy(update={"guns": {"dam-1": over.guns["dam-1"]}})
    work = db.Run(catalog(), over, Rng("a", 1, "t"))
    work.aa_fire("AJ-G")
    assert "aa-fire" not in kinds(work.events)
    # 4 bw from the dot: in reach at altitude 1 (1 R), out of it at altitude 2 (R/2).
    low = mohne_with(x=layout.dam[0] - 4.0 - 1.0, y=layout.dam[1], heading=90.0)
    low = low.model_copy(update={"guns": {"dam-1": low.guns["dam-1"]}})
    work = db.Run(catalog(), low, Rng("a", 1, "t"))
    work.aa_fire("AJ-G")
    assert "aa-fire" in kinds(work.events)
    high = low.model_copy(
        update={
            "planes": {**low.planes, "AJ-G": low.planes["AJ-G"].model_copy(update={"level": 2})}
        }
    )
    work = db.Run(catalog(), high, Rng("a", 1, "t"))
    work.aa_fire("AJ-G")
    assert "aa-fire" not in kinds(work.events)


def test_guns_lose_half_of_each_card_at_night_rounded_down() -> None:
    layout = db.DamLayout()
    state = mohne_with(x=layout.dam[0] - 2.0, y=layout.dam[1], heading=0.0)
    state = state.model_copy(update={"guns": {"dam-1": state.guns["dam-1"]}})
    work = db.Run(catalog(), state, Rng("h", 1, "t"))
    work.plane_fire("AJ-G", locked_front=False)
    (shot,) = [e for e in work.events if e["kind"] == "fire-at-aa"]
    # From altitude 1 at a gun on the ground: long range, one card (seed A.II.a).
    card = db.draw(catalog(), Rng("h", 1, "t"), "A", work.where("mg:front_turret:0"))
    assert shot["damage"] == card.value // 2
    day = db.Run(catalog(), state.model_copy(update={"night": False}), Rng("h", 1, "t"))
    day.plane_fire("AJ-G", locked_front=False)
    (shot,) = [e for e in day.events if e["kind"] == "fire-at-aa"]
    assert shot["damage"] == card.value
    locked = db.Run(catalog(), state, Rng("h", 1, "t"))
    locked.plane_fire("AJ-G", locked_front=True)  # DB 2: no front fire on template turns
    assert "fire-at-aa" not in kinds(locked.events)


def test_a_plane_may_leave_and_start_again_once() -> None:
    state = db.new_dam("eder")
    away = state.planes["AJ-L"].model_copy(update={"x": 0.5, "heading": 180.0})
    state = state.model_copy(update={"planes": {**state.planes, "AJ-L": away}})
    again, events = fly(state, ["SS"])
    plane = again.planes["AJ-L"]
    assert "second-pass" in kinds(events) and plane.reattempt_used
    assert (plane.x, plane.y) == db.DamLayout().start[:2]
    gone = again.model_copy(
        update={
            "planes": {
                **again.planes,
                "AJ-L": plane.model_copy(update={"x": 0.5, "heading": 180.0}),
            }
        }
    )
    after, events = fly(gone, ["SS"])
    assert (
        "left-table" in kinds(events) and after.run == 1 and after.planes["AJ-Z"].status == "flying"
    )


def test_two_hits_destroy_the_dam_and_end_the_eder_raid_decisively() -> None:
    state, _ = fly(db.new_dam("eder"), PERFECT * 2)
    assert state.finished and state.hits == 2
    assert db.result(state) == {"dam_hits": 2, "result": "decisive"}
    assert state.planes["AJ-N"].bomb.stage == "kept"


def test_mohne_victory_points_replay_the_worked_ranges() -> None:
    state = db.new_dam("mohne")
    planes = dict(state.planes)
    for reg, outcome in (("AJ-G", "hit"), ("AJ-M", "hit")):
        planes[reg] = planes[reg].model_copy(
            update={"status": "done", "bomb": db.Bomb(stage="exploded", outcome=outcome)}
        )
    for reg in ("AJ-P", "AJ-A", "AJ-J"):
        planes[reg] = planes[reg].model_copy(update={"bomb": db.Bomb(stage="kept")})
    best = state.model_copy(update={"planes": planes, "hits": 2, "finished": True})
    assert db.result(best)["vp"] == 25 + 3 * 4 and db.result(best)["result"] == "decisive"
    planes = dict(state.planes)
    planes["AJ-G"] = planes["AJ-G"].model_copy(update={"status": "shot_down"})
    planes["AJ-M"] = planes["AJ-M"].model_copy(update={"status": "done", "damage": 21})
    worst = state.model_copy(update={"planes": planes, "hits": 1, "finished": True})
    assert db.result(worst)["vp"] == 10 - 12 - 5 and db.result(worst)["result"] == "defeat"


def test_the_bomb_aboard_costs_the_lancaster_one_more_climb_counter() -> None:
    state = db.new_dam("eder")
    climbs, _ = fly(state, ["CL"] * 5)
    assert climbs.planes["AJ-L"].level == 1  # 5 counters are not enough with the bomb
    climbs, _ = fly(climbs, ["CL"])
    assert climbs.planes["AJ-L"].level == 2


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.integers(min_value=0, max_value=40), min_size=1, max_size=40),
    st.sampled_from(["eder", "mohne"]),
)
def test_any_legal_orders_replay_identically_and_keep_the_state_sane(
    picks: list[int], kind: str
) -> None:
    def run() -> db.DamState:
        state = db.new_dam(kind)  # type: ignore[arg-type]
        for index, pick in enumerate(picks):
            if state.finished:
                break
            legal, _ = db.legal_orders(catalog(), state)
            state, _ = db.play(catalog(), state, legal[pick % len(legal)], Rng("p", index, "dam"))
        return state

    first, second = run(), run()
    assert first == second
    assert 0 <= first.hits <= 2
    assert all(plane.damage >= 0 for plane in first.planes.values())


def test_the_raid_plays_through_the_ruleset_and_replays_identically() -> None:
    import random

    from engine.rulesets.wings import WingsRules

    rules = WingsRules(catalog())
    assert {"dambuster-eder", "dambuster-mohne"} <= set(rules.scenarios())

    def play(seed: str) -> list[str]:
        state = rules.new("dambuster-eder", seed)
        picks = random.Random(seed)
        dumps = []
        while not rules.progress(state).finished:
            progress = rules.progress(state)
            decisions = rules.pending(state)
            assert all(d.side == "entente" for d in decisions)
            choices: dict[str, dict[str, str]] = {}
            for d in decisions:
                choices.setdefault(d.side, {})[d.field] = picks.choice(d.options).id
            state, _ = rules.resolve(state, choices, Rng(seed, progress.turn, progress.round))
            state = rules.load(rules.dump(state))
            dumps.append(rules.dump(state))
            assert len(dumps) < 400
        return dumps

    first = play("raid")
    assert first == play("raid")
    assert rules.view(rules.load(first[-1]), None).finished


def test_the_ruleset_refuses_an_illegal_order_and_keeps_it_sealed() -> None:
    from engine.rulesets.wings import WingsRules
    from engine.rulesets.wings.campaign import IllegalChoice

    rules = WingsRules(catalog())
    state = rules.new("dambuster-eder", "s")
    decision, heading = rules.pending(state)
    assert heading.field == "heading" and heading.default == "0"  # DB 8.d, the first turn
    # No release point marked yet: releasing is not on the menu, and is refused.
    assert "SS release" not in {o.id for o in decision.options}
    assert ("DV", "dive-into-ground") in {(e.id, e.reason) for e in decision.excluded}
    with pytest.raises(IllegalChoice) as refused:
        rules.resolve(state, {"entente": {"plane1": "SS release"}}, Rng("s", 1, "program"))
    assert refused.value.reason == "unknown-option"
    sealed, events = rules.resolve(
        state, {"entente": {"plane1": "SS aim:25", "heading": "0"}}, Rng("s", 1, "program")
    )
    assert events == [] and "SS aim:25" not in str(rules.view(sealed, "central").data)

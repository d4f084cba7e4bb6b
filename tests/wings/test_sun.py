"""Surprise from the sun (seed F.VI.e): the draw, the waiting side, its secret choice to
enter, where it comes in, and the forced entry."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from bot.logtext import describe
from engine.rng import Rng
from engine.rulesets.wings import WingsRules, WingsState, sun
from engine.rulesets.wings.catalog import DamageCard, default_catalog
from engine.rulesets.wings.program import parse_program
from engine.rulesets.wings.state import MissionState, PlaneState
from engine.rulesets.wings.turn import play_turn
from rendering.rulesets.wings import WingsPresenter
from tests.test_french import problems
from tests.wings.helpers import catalog, mission, plane, with_picks

HALF_RULER = 2.5  # R/2 in base widths
# Seeds whose first Wings 1918 mission is flown in clear weather with the sun drawn.
ENTENTE_SUN = "s3"  # a 5: the Entente has it, in the morning
CENTRAL_SUN = "s2"  # a 3: the Central Powers have it, in the morning
NOON_SUN = "sun4"  # a 0 then a 5: the Entente has the noon sun


class _Deck:
    """A stand-in stream whose "shuffled" A deck starts with the given values."""

    def __init__(self, *values: int) -> None:
        self.values = values

    def sample(self, population: list[DamageCard], k: int) -> list[DamageCard]:
        picked = [next(c for c in population if c.value == v) for v in self.values]
        return picked[:k]


@pytest.mark.parametrize(
    ("cards", "side", "noon"),
    [
        ((2, 1), "entente", False),
        ((4, 1), "entente", False),
        ((5, 1), "entente", False),
        ((1, 2), "central", False),
        ((3, 2), "central", False),
        ((0, 2), "entente", True),
        ((0, 4), "entente", True),
        ((0, 5), "entente", True),
        ((0, 1), "central", True),
        ((0, 3), "central", True),
        ((0, 0), None, False),
    ],
)
def test_the_first_a_card_says_who_has_the_sun(
    cards: tuple[int, int], side: str | None, noon: bool
) -> None:
    read, favoured, is_noon = sun.draw(catalog(), _Deck(*cards))  # type: ignore[arg-type]
    assert (favoured, is_noon) == (side, noon)
    assert read == (cards if cards[0] == 0 else cards[:1])


def _rules() -> WingsRules:
    return WingsRules(default_catalog())


def _mission(state: WingsState) -> MissionState:
    mission = state.camp.mission
    assert mission is not None
    return mission


def _step(
    state: WingsState, seed: str, picks: dict[str, dict[str, str]] | None = None
) -> tuple[WingsState, list[Any]]:
    """One whole turn through the seam (program, then whatever rounds close it)."""
    rules = _rules()
    progress = rules.progress(state)
    choices = with_picks(rules, state, picks)
    new, events = rules.resolve(state, choices, Rng(seed, progress.turn, progress.round))
    while rules.progress(new).round != "program" and not rules.progress(new).finished:
        progress = rules.progress(new)
        more_choices = rules.defaults(rules.pending(new))
        new, more = rules.resolve(new, more_choices, Rng(seed, progress.turn, progress.round))
        events += more
    stored = rules.dump_stored(new)
    return rules.load_stored(stored.current, stored.records), events


def test_the_draw_is_public_and_the_favoured_side_waits_off_the_table() -> None:
    state = _rules().new("wings-1918", ENTENTE_SUN)
    mission = _mission(state)
    assert (mission.weather, mission.sun_side, mission.sun_cards) == ("clear", "entente", (5,))
    statuses = {p.side: set() for p in mission.planes.values()}  # type: dict[str, set[str]]
    for p in mission.planes.values():
        statuses[p.side].add(p.status)
    assert statuses == {"entente": {"waiting"}, "central": {"flying"}}
    # The Central Powers program their planes; the Entente only decides whether to enter.
    pending = _rules().pending(state)
    asked = [(d.side, d.field) for d in pending if d.side == "entente"]
    assert asked == [("entente", "program:P1")]
    decision = next(d for d in pending if d.side == "entente")
    assert [o.id for o in decision.options] == ["wait", "enter"]
    assert decision.default == "wait"
    # The draw and its meaning are told to everyone as the campaign is set up, before
    # anyone programs a card; the first turn does not tell it again.
    (drawn,) = [e for e in _rules().opening(state) if e.kind == "sun-drawn"]
    state, events = _step(state, ENTENTE_SUN)
    assert not [e for e in events if e.kind == "sun-drawn"]
    assert drawn.data["side"] == "entente" and drawn.data["cards"] == [5]
    assert drawn.data["planes"] == sorted(
        p.id for p in mission.planes.values() if p.side == "entente"
    )
    public = _rules().view(state, None).data["mission"]
    assert public["sun_side"] == "entente" and public["sun_cards"] == [5]


def test_a_zero_then_a_card_gives_the_noon_sun() -> None:
    mission = _mission(_rules().new("wings-1918", NOON_SUN))
    assert (mission.sun_cards, mission.sun_side, mission.time_of_day) == ((0, 5), "entente", "noon")


def test_the_rule_is_off_in_the_basic_scenario_and_out_of_clear_weather() -> None:
    for seed in (ENTENTE_SUN, CENTRAL_SUN, NOON_SUN):
        mission = _mission(_rules().new("wings-1917-basic", seed))
        assert mission.sun_side is None
        assert all(p.status == "flying" for p in mission.planes.values())
    clouds = _mission(_rules().new("wings-1917", "sealed"))  # medium cloudiness
    assert clouds.weather == "medium" and clouds.sun_side is None
    assert all(p.status == "flying" for p in clouds.planes.values())


def test_waiting_planes_are_not_fled_and_entry_is_forced_after_turn_3() -> None:
    state = _rules().new("wings-1918", ENTENTE_SUN)
    for turn in (1, 2):
        state, events = _step(state, ENTENTE_SUN)  # every side at its defaults: wait
        mission = _mission(state)
        assert state.camp.phase == "mission" and not mission.finished and mission.turn == turn + 1
        assert {p.status for p in mission.planes.values() if p.side == "entente"} == {"waiting"}
        assert not [e for e in events if e.kind in ("left-table", "sun-entered")]
    # Turn 3: nothing left to decide for the Entente; the planes come in as it ends.
    assert not [d for d in _rules().pending(state) if d.side == "entente"]
    state, events = _step(state, ENTENTE_SUN)
    mission = _mission(state)
    assert mission.turn == 4
    # With its defaults the Central Powers flew off the table this turn: with nobody to
    # surprise, the Entente comes in where it would have deployed.
    entered = [e for e in events if e.kind in ("sun-entered", "sun-entered-unopposed")]
    assert {e.data["plane"] for e in entered} == {
        pid for pid, p in mission.planes.items() if p.side == "entente"
    }
    assert all(p.status == "flying" for p in mission.planes.values() if p.side == "entente")


@pytest.mark.parametrize(("turn", "status"), [(1, "waiting"), (2, "waiting"), (3, "flying")])
def test_without_a_choice_the_planes_come_in_at_the_end_of_turn_3(turn: int, status: str) -> None:
    target = plane("c1", "albatros_d3", "central", x=8.0, y=8.0, heading=0.0, level=2)
    own = _entry("morning", target, turn=turn, chosen=False)
    assert own.status == status


def test_entering_when_chosen_places_each_plane_half_a_ruler_out_of_the_sun() -> None:
    state = _rules().new("wings-1918", ENTENTE_SUN)
    state, events = _step(state, ENTENTE_SUN, {"entente": {"program:P1": "enter"}})
    mission = _mission(state)
    assert mission.turn == 2 and mission.time_of_day == "morning"
    entered = [e for e in events if e.kind == "sun-entered"]
    assert len(entered) == len([p for p in mission.planes.values() if p.side == "entente"])
    for event in entered:
        own, enemy = mission.planes[event.data["plane"]], mission.planes[event.data["enemy"]]
        assert math.dist((own.x, own.y), (enemy.x, enemy.y)) == pytest.approx(HALF_RULER)
        facing = math.degrees(math.atan2(enemy.y - own.y, enemy.x - own.x)) % 360
        assert own.heading == pytest.approx(facing, abs=0.01)
        assert own.level == enemy.level  # morning: the same level
    # Each is pursuing its own target on the entry turn (seed step 4), one a target.
    assert mission.pursuits == {
        e.data["plane"]: e.data["enemy"] for e in entered if e.data["plane"] in mission.pursuits
    }
    assert mission.pursuits


def _entry(
    time_of_day: str, target: PlaneState, turn: int = 1, chosen: bool = True, **rules: Any
) -> PlaneState:
    """One waiting Entente plane, its player's choice ``chosen``, at the end of a turn the
    target flies straight on."""
    waiting = plane("e1", "spad7", "entente", x=1.0, y=1.0, level=2, status="waiting")
    m = mission(waiting, target, sun=True, **rules).model_copy(
        update={
            "time_of_day": time_of_day,
            "sun_side": "entente",
            "sun_enter": chosen,
            "turn": turn,
        }
    )
    after, _ = play_turn(catalog(), m, {target.id: parse_program("S S S")}, Rng("sun", 1, "t"))
    return after.planes["e1"]


@pytest.mark.parametrize(
    ("time_of_day", "level", "towards"),
    [
        ("dawn", 1, (1, 0)),
        ("morning", 2, (1, 0)),
        ("noon", 3, (0, 1)),
        ("afternoon", 2, (-1, 0)),
        ("dusk", 1, (-1, 0)),
    ],
)
def test_the_sun_sets_the_entry_level_and_side(
    time_of_day: str, level: int, towards: tuple[int, int]
) -> None:
    target = plane("c1", "albatros_d3", "central", x=8.0, y=8.0, heading=0.0, level=2)
    own = _entry(time_of_day, target)
    # The target flew S S S east first: it stands further on, where the entrant lined up.
    ahead = plane("c1", "albatros_d3", "central", x=8.0, y=8.0, heading=0.0, level=2)
    m = mission(ahead).model_copy(update={"time_of_day": time_of_day})
    moved, _ = play_turn(catalog(), m, {"c1": parse_program("S S S")}, Rng("sun", 1, "t"))
    enemy = moved.planes["c1"]
    assert own.status == "flying" and own.level == level
    dx, dy = own.x - enemy.x, own.y - enemy.y
    assert math.hypot(dx, dy) == pytest.approx(HALF_RULER)
    assert (round(dx / HALF_RULER), round(dy / HALF_RULER)) == towards
    assert own.heading == pytest.approx((math.degrees(math.atan2(-dy, -dx))) % 360, abs=0.01)


def test_against_the_table_edge_it_comes_in_at_the_enemy_s_six_o_clock() -> None:
    # Morning: the sun is east, but the target flies along the east edge, heading north.
    target = plane("c1", "albatros_d3", "central", x=21.5, y=15.0, heading=270.0, level=2)
    own = _entry("morning", target)
    assert own.status == "flying"
    # Behind it: south of it (it flew north), facing north like it.
    assert own.x == pytest.approx(21.5, abs=0.05)
    assert own.heading == pytest.approx(270.0, abs=0.01)


def test_the_entry_level_stays_on_the_table_s_levels() -> None:
    low = plane("c1", "albatros_d3", "central", x=8.0, y=8.0, heading=0.0, level=0)
    assert _entry("dawn", low).level == 0
    high = plane("c1", "albatros_d3", "central", x=8.0, y=8.0, heading=0.0, level=3)
    assert _entry("noon", high, real_ceiling=False).level == 3


def test_the_choice_to_enter_is_secret_until_the_turn_flies() -> None:
    """Two campaigns differing only in the Entente's enter / wait choice look the same to
    the Central Powers and the public until the turn is flown, and the engine's view
    hides it even while it sits in the mission (a pursuit's reorder round)."""
    rules = _rules()
    seen = []
    for choice in ("wait", "enter"):
        state = rules.new("wings-1918", ENTENTE_SUN)
        progress = rules.progress(state)
        choices = rules.defaults(rules.pending(state))
        choices["entente"]["program:P1"] = choice
        after, events = rules.resolve(state, choices, Rng(ENTENTE_SUN, 1, progress.round))
        seen.append(
            json.dumps(
                {
                    "enemy": rules.view(after, "central").model_dump(mode="json"),
                    "public": rules.view(after, None).model_dump(mode="json"),
                    "events": [e.model_dump() for e in events],
                    "pending": [
                        d.model_dump() for d in rules.pending(after) if d.side == "central"
                    ],
                },
                sort_keys=True,
            )
        )
        mission = _mission(state).model_copy(update={"sun_enter": choice == "enter"})
        held = state.model_copy(
            update={"campaign": state.camp.model_copy(update={"mission": mission})}
        )
        seen.append(
            json.dumps(
                {
                    "enemy": rules.view(held, "central").model_dump(mode="json"),
                    "public": rules.view(held, None).model_dump(mode="json"),
                },
                sort_keys=True,
            )
        )
        own = rules.view(held, "entente").data["mission"]["sun_enter"]
        assert own is (choice == "enter")  # his own side sees what it chose
    assert seen[0] == seen[2] and seen[1] == seen[3]


def test_the_panel_and_the_log_word_the_sun_in_both_languages() -> None:
    rules, presenter = _rules(), WingsPresenter()
    state = rules.new("wings-1918", ENTENTE_SUN)
    (asked,) = [d for d in rules.pending(state) if d.side == "entente"]
    words = {}
    for locale in ("en", "fr"):
        words[locale] = [
            *(
                presenter.option_text("wings-1918", "program:P1", o.id, locale)
                for o in asked.options
            ),
            *(presenter.option_description("program:P1", o, locale) for o in asked.options),
            *presenter.status_lines(rules.view(state, "central"), locale)[-1:],
        ]
    assert words["en"][:2] == ["wait out of the sun", "enter out of the sun"]
    assert words["en"][-1] == (
        "The Entente wait in the morning sun, off the table:"
        " they come out of it by the end of turn 3"
    )
    assert not problems([("sun", line) for line in words["fr"]])
    _, events = _step(state, ENTENTE_SUN, {"entente": {"program:P1": "enter"}})
    told = [e for e in [*_rules().opening(state), *events] if e.kind.startswith("sun-")]
    french = [describe(e.kind, e.data, "fr") for e in told]
    assert len(french) == 3 and not problems([("sun-log", line) for line in french])
    assert describe(told[1].kind, told[1].data, "en").startswith("P1 comes out of the sun near P")


def test_a_patrol_does_not_end_while_a_side_waits_in_the_sun() -> None:
    """A patrol ends when a side has no plane left in it: planes waiting to come out of
    the sun are in it (they have not fled), so the turn ends with the mission going on."""
    waiting = plane("e1", "spad7", "entente", x=1.0, y=1.0, level=2, status="waiting")
    target = plane("c1", "albatros_d3", "central", x=8.0, y=8.0, heading=0.0, level=2)
    m = mission(waiting, target, sun=True).model_copy(update={"sun_side": "entente"})
    after, events = play_turn(catalog(), m, {"c1": parse_program("S S S")}, Rng("sun", 1, "t"))
    assert not after.finished and after.winner is None
    assert after.planes["e1"].status == "waiting"
    assert not [e for e in events if e.kind in ("mission-over", "left-table")]

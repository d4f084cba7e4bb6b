"""A plane that flew off the table by accident may come back (seed A.IV.c option)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.rng import Rng
from engine.rulesets.wings import WingsRules, WingsState
from engine.rulesets.wings.catalog import default_catalog
from engine.rulesets.wings.exits import crossing, inward_heading
from engine.rulesets.wings.program import parse_program
from engine.rulesets.wings.state import PlaneState
from engine.rulesets.wings.turn import play_turn
from rendering.i18n import t
from rendering.rulesets.wings import WingsPresenter
from tests.test_french import problems
from tests.wings.helpers import catalog, mission, plane, with_picks
from tests.wings.test_rescue import fly

WIDTH = 22.2  # the wings-1917 table, in base widths


def _rules() -> WingsRules:
    return WingsRules(default_catalog())


def _campaign(scenario: str = "wings-1917", **p1: Any) -> WingsState:
    """The first mission of the scenario with the Entente's P1 (field plane1) moved."""
    state = _rules().new(scenario, "exit")
    mission = state.camp.mission
    assert mission is not None
    planes = dict(mission.planes)
    planes["P1"] = planes["P1"].model_copy(update=p1)
    mission = mission.model_copy(update={"planes": planes})
    return state.model_copy(update={"campaign": state.camp.model_copy(update={"mission": mission})})


def _step(
    state: WingsState, picks: dict[str, dict[str, str]] | None = None
) -> tuple[WingsState, list[Any]]:
    rules = _rules()
    progress = rules.progress(state)
    choices = with_picks(rules, state, picks)
    new, events = rules.resolve(state, choices, Rng("exit", progress.turn, progress.round))
    while rules.progress(new).round != "program" and not rules.progress(new).finished:
        new, more = rules.resolve(new, rules.defaults(rules.pending(new)), Rng("exit", 9, "r"))
        events += more
    stored = rules.dump_stored(new)
    return rules.load_stored(stored.current, stored.records), rules.public_events(events)


def _p1(state: WingsState) -> PlaneState:
    mission = state.camp.mission
    assert mission is not None
    return mission.planes["P1"]


def _asked(state: WingsState) -> Any:
    """The Entente's plane1 decision this round."""
    return next(
        d for d in _rules().pending(state) if (d.side, d.field) == ("entente", "program:P1")
    )


def _off_the_far_edge() -> WingsState:
    """P1 a little short of the Central edge, heading out: its straights take it off over
    the enemy's zone in turn 1."""
    state, events = _step(_campaign(x=21.0, y=2.0, heading=0.0))
    assert [e for e in events if e.kind == "left-table" and e.data["plane"] == "P1"]
    return state


def test_the_turn_after_an_accidental_exit_the_player_is_asked_and_staying_out_is_default() -> None:
    state = _off_the_far_edge()
    p1 = _p1(state)
    assert p1.status == "left" and p1.left_turn == 1
    assert p1.exit_at == (pytest.approx(WIDTH), pytest.approx(2.0))
    decisions = {(d.side, d.field): d for d in _rules().pending(state)}
    asked = decisions[("entente", "program:P1")]
    assert [o.id for o in asked.options] == ["come-back", "stay-out"]
    assert asked.default == "stay-out"  # the base rule: an absent player's plane stays out
    assert not _rules().progress(state).finished
    # Staying out: the plane is gone for good and never asked again.
    state, events = _step(state)
    assert _p1(state).status == "left"
    assert not [e for e in events if e.kind == "came-back"]
    assert ("entente", "program:P1") not in {(d.side, d.field) for d in _rules().pending(state)}


def test_coming_back_costs_two_a_cards_and_the_plane_stands_on_the_edge_facing_in() -> None:
    state = _off_the_far_edge()
    cards_before = len(_p1(state).cards)
    state, events = _step(state, {"entente": {"program:P1": "come-back"}})
    p1 = _p1(state)
    assert p1.status == "flying"
    assert (p1.x, p1.y) == (pytest.approx(WIDTH), pytest.approx(2.0))
    assert p1.heading == 180.0  # square to the Central edge, into the table
    drawn = p1.cards[cards_before:]
    assert len(drawn) == 2 and all(letter == "A" for letter, _ in drawn)
    # The round's public events show it come back, not the cards it drew.
    assert [e.data["plane"] for e in events if e.kind == "came-back"] == ["P1"]
    assert not [e for e in events if e.kind == "damage-card" and e.data["plane"] == "P1"]
    # From the next turn it flies a program like any other plane.
    decision = _asked(state)
    assert "S S S" in {o.id for o in decision.options}


def test_a_plane_that_left_over_its_own_zone_is_home_and_is_not_asked() -> None:
    state, _ = _step(_campaign(x=1.0, y=2.0, heading=180.0))
    assert _p1(state).status == "left"
    assert ("entente", "program:P1") not in {(d.side, d.field) for d in _rules().pending(state)}


def test_base_rules_only_keep_the_plane_out() -> None:
    state, _ = _step(_campaign("wings-1917-basic", x=21.0, y=2.0, heading=0.0))
    assert _p1(state).status == "left"
    assert ("entente", "program:P1") not in {(d.side, d.field) for d in _rules().pending(state)}


def test_a_side_whose_planes_all_left_waits_a_turn_for_their_answer() -> None:
    def duel(**rules: bool) -> Any:
        runaway = plane("E1", type_="spad7", side="entente", x=21.0, y=3.0, heading=0.0)
        stayer = plane("C1", side="central", x=12.0, y=18.0, heading=180.0)
        return fly(mission(runaway, stayer, **rules), {"E1": "S S S", "C1": "S S S"})

    assert duel(come_back=False).finished  # base rule: the patrol is the Central's at once
    waiting = duel(come_back=True)
    assert not waiting.finished and waiting.winner is None
    # The Entente lets it go: the patrol ends after that turn, won by the Central.
    after, _ = play_turn(catalog(), waiting, {"C1": parse_program("S S S")}, Rng("w", 2, "t"))
    assert after.finished and after.winner == "central"


def test_the_crossing_point_and_the_heading_back_in() -> None:
    table = (20.0, 10.0)
    assert crossing((19.0, 5.0), (21.0, 6.0), table) == pytest.approx((20.0, 5.5))
    assert crossing((3.0, 1.0), (2.0, -1.0), table) == pytest.approx((2.5, 0.0))
    assert inward_heading((20.0, 5.5), table) == 180.0
    assert inward_heading((0.0, 5.0), table) == 0.0
    assert inward_heading((7.0, 0.0), table) == 90.0
    assert inward_heading((7.0, 10.0), table) == 270.0


def test_the_panel_words_the_choice_in_both_languages() -> None:
    state = _off_the_far_edge()
    decision = _asked(state)
    presenter = WingsPresenter()
    for locale in ("en", "fr"):
        labels = [
            presenter.option_text("wings-1917", "program:P1", o.id, locale)
            for o in decision.options
        ]
        details = [presenter.option_description("program:P1", o, locale) for o in decision.options]
        assert labels == [t("wings.exit.come-back", locale), t("wings.exit.stay-out", locale)]
        assert all(details) and not any(d.startswith("exit.") for d in details)
        assert all(len(text) <= 100 for text in [*labels, *details])  # a select option's limit
        if locale == "fr":
            assert not problems([("come-back", line) for line in [*labels, *details]])
    assert "come back" in presenter.option_lines("wings-1917", decision, "en")[0]


def test_the_choice_stays_its_sides_own_until_the_turn_is_flown() -> None:
    """A turn held for a pursuit (or an Ace's last card) keeps the come-back orders in the
    mission: the enemy and the public must see the same whichever was given."""
    state = _off_the_far_edge()
    mission = state.camp.mission
    assert mission is not None

    def holding(returning: tuple[str, ...]) -> WingsState:
        held = mission.model_copy(update={"returning": returning, "round": "reorder"})
        return state.model_copy(
            update={"campaign": state.camp.model_copy(update={"mission": held})}
        )

    back, out = holding(("P1",)), holding(())
    rules = _rules()
    for viewer in ("central", None):
        assert rules.view(back, viewer) == rules.view(out, viewer)
    assert rules.view(back, "entente") != rules.view(out, "entente")  # its own side sees it


def test_the_board_says_who_may_come_back_this_turn() -> None:
    state = _off_the_far_edge()
    presenter = WingsPresenter()
    note = t("wings.plane-note.may-come-back", "en")

    def board(state: WingsState, viewer: str | None) -> str:
        return "\n".join(
            text for text, _c, _b in presenter._plane_lines(_rules().view(state, viewer), "en")
        )

    for viewer in ("entente", "central", None):
        assert board(state, viewer).count(note) == 1  # P1's line, on every board
    state, _ = _step(state)  # it stayed out: the chance has gone
    assert note not in board(state, None)


def test_a_plane_lost_to_no_shooter_is_not_said_to_be_lost_to_the_bot() -> None:
    from bot.logtext import describe

    assert describe("exploded", {"plane": "P1", "by": None}, "en") == "P1 explodes"
    assert describe("shot-down", {"plane": "P1", "by": None}, "fr") == "P1 s'écrase"
    assert describe("shot-down", {"plane": "P1", "by": "P3"}, "en") == "P1 shot down by P3"

"""The secrecy of a complex maneuver begun late (seed A.I.b, C) through the seam: two
campaigns whose plane begins a Split-S or a forced dive on the same last card (a stall)
look the same to the enemy and the public, views, events, images and the opened order,
until the owed card is flown."""

from __future__ import annotations

from typing import Any

from engine.rng import Rng
from engine.ruleset import Event, Option
from engine.rulesets.wings import SEQUENCE_MARK, WingsRules, WingsState
from rendering.rulesets.wings import WingsPresenter
from tests.wings.helpers import catalog

SEED = "owed"


def defaults(rules: WingsRules, state: WingsState) -> dict[str, dict[str, str]]:
    picks: dict[str, dict[str, str]] = {"entente": {}, "central": {}}
    for decision in rules.pending(state):
        picks[decision.side][decision.field] = decision.default
    return picks


def owned(option: Option) -> str:
    """The program an option flies, as its own side's panel reads it: a maneuver begun late
    is named in its detail, any other program by its cards."""
    return option.detail if ":" in option.detail else option.label


def turn(rules: WingsRules, state: WingsState, program: str) -> tuple[WingsState, list[Event], str]:
    """One seam turn (program, then reorder) with the Entente's plane1 flying ``program``
    (picked on its own panel); every other field at its default."""
    picks = defaults(rules, state)
    menu = next(d for d in rules.pending(state) if d.side == "entente" and d.field == "program:P1")
    token = rules.read_text(state, menu, program)  # written on its own panel
    assert isinstance(token, str), token
    picks["entente"]["program:P1"] = token
    state, events = rules.resolve(state, picks, Rng(SEED, state.turn, "program"))
    state, flown = rules.resolve(state, defaults(rules, state), Rng(SEED, state.turn, "reorder"))
    return state, [*events, *flown], token


def seen(rules: WingsRules, state: WingsState, viewer: str | None) -> tuple[Any, ...]:
    view = rules.view(state, viewer)
    presenter = WingsPresenter()
    board = presenter.status_board(view, {"entente": True, "central": True}, None, "en")
    panel = [d.model_dump() for d in rules.pending(state) if d.side != "entente"]
    return view.model_dump(), board, presenter.panel_image(view, "en"), panel


def test_what_a_maneuver_still_owes_is_hidden_until_it_is_flown() -> None:
    rules = WingsRules(catalog())
    start = rules.new("wings-1917-basic", SEED)
    split, split_events, split_token = turn(rules, start, "S S split_s: ST")
    dive, dive_events, dive_token = turn(rules, start, "S S forced_dive: ST")
    plain, plain_events, plain_token = turn(rules, start, "S S ST")
    # The campaigns differ: the owner's view says what is owed, and so does his panel.
    owner = [rules.view(s, "entente").data["mission"]["planes"]["P1"] for s in (split, dive)]
    assert [(p["sequence"], p["sequence_flown"]) for p in owner] == [
        ("split_s", 1),
        ("forced_dive", 1),
    ]
    assert seen(rules, split, "entente") != seen(rules, dive, "entente")
    assert seen(rules, split, "entente") != seen(rules, plain, "entente")
    # The enemy and the public see the same views, images and panels...
    for viewer in ("central", None):
        assert seen(rules, split, viewer) == seen(rules, dive, viewer) == seen(rules, plain, viewer)
    # ...and the same public events (the stall revealed as it was flown).
    flown = [e.model_dump() for e in plain_events]
    assert [e.model_dump() for e in split_events] == [e.model_dump() for e in dive_events] == flown
    # The orders opened at the turn's end read as the stall flown plainly: the cards, then a
    # seal that every program flying cards a maneuver could begin with carries.
    presenter = WingsPresenter()
    tokens = (split_token, dive_token, plain_token)
    assert len(set(tokens)) == 3
    for token in tokens:
        cards, mark, seal = token.partition(SEQUENCE_MARK)
        assert (cards, mark) == ("S S ST", SEQUENCE_MARK) and len(seal) == 10
        for locale in ("en", "fr"):
            words = presenter.option_text("wings-1917-basic", "program:P1", token, locale)
            assert words == "S S ST"

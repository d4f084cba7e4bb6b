"""Differential secrecy over the Air Combat hands (issue 28): a card changed in one side's
hand, deep into a random game, changes nothing anyone else can see (the other side's view,
menus and pictures, the public view, the channel's words and pictures) until it is played;
the side's own view does change, so the test can see a hand at all."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rng import Rng
from engine.rulesets.memoir44 import Memoir44Rules
from engine.rulesets.memoir44.deck import with_side
from engine.rulesets.memoir44.setup import Setup, new_game
from engine.rulesets.memoir44.state import SIDES, GameState, other
from rendering.rulesets.memoir44 import Memoir44Presenter
from tests.memoir44.helpers import CATALOG
from tests.memoir44.random_play import play

RULES = Memoir44Rules()
PRESENTER = Memoir44Presenter()


def _swapped(state: GameState, side: str, pick: random.Random) -> GameState | None:
    """The same state with one card of ``side``'s hand traded for a draw-pile card of
    another title; None when there is no such pair."""
    hand = list(state.side(side).hand)
    deck = list(state.deck)
    pairs = [(h, d) for h in hand for d in deck if h.split("#")[0] != d.split("#")[0]]
    if not pairs:
        return None
    mine, theirs = pick.choice(pairs)
    hand[hand.index(mine)] = theirs
    deck[deck.index(theirs)] = mine
    state = with_side(state, side, hand=tuple(hand))  # type: ignore[arg-type]
    return state.model_copy(update={"deck": tuple(deck)})


def _seen_by(state: GameState, viewer: str | None) -> list[object]:
    """Everything ``viewer`` (a side, or the public) is shown of ``state``."""
    view = RULES.view(state, viewer)
    seen: list[object] = [view.model_dump_json()]
    seen.append(PRESENTER.status_board(view, {}, None, "en"))
    seen.append(PRESENTER.board_summary(view, "en"))
    seen.append(PRESENTER.status_lines(view, "fr"))
    if viewer is not None:
        seen.append([d.model_dump_json() for d in RULES.pending(state) if d.side == viewer])
        seen.append(PRESENTER.panel_image(view, "fr"))
        seen.append(PRESENTER.panel_notes("", view, viewer, {}, "en"))
    if view.history:
        turn = view.history[-1].turn
        seen.append(PRESENTER.turn_summary(view, turn, "en"))
        report = PRESENTER.report("", view, turn, 0, "fr")
        seen.append((report.text, report.image))
    return seen


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 14), st.sampled_from(SIDES))
def test_a_card_in_a_hand_shows_to_nobody_else(seed: int, turns: int, side: str) -> None:
    state, _ = new_game(CATALOG, Setup(), Rng(f"seed-{seed}", 0, "setup"))
    state, _ = play(CATALOG, state, seed, turns)
    if state.finished:
        return
    varied = _swapped(state, side, random.Random(seed))
    if varied is None:
        return
    for viewer in (other(side), None):
        assert _seen_by(state, viewer) == _seen_by(varied, viewer), viewer
    # Control: the side itself sees its hand, in its view and its panel's menus and picture.
    assert _seen_by(state, side) != _seen_by(varied, side)


def test_the_draw_pile_is_nobodys() -> None:
    state, _ = new_game(CATALOG, Setup(), Rng("seed", 0, "setup"))
    deck = list(state.deck)
    deck[0], deck[-1] = deck[-1], deck[0]
    varied = state.model_copy(update={"deck": tuple(deck)})
    for viewer in (*SIDES, None):
        assert _seen_by(state, viewer) == _seen_by(varied, viewer)


def test_a_draw_event_says_who_how_many_and_why_never_what() -> None:
    state, events = new_game(CATALOG, Setup(), Rng("seed", 0, "setup"))
    state, more = play(CATALOG, state, 3, 12)
    whys = {"opening", "recon", "kill", "finest-hour", "air-reconnaissance"}
    draws = [e for e in [*events, *more] if e.kind == "m44-drew"]
    assert draws
    for event in draws:
        assert set(event.data) <= {"side", "cards", "why", "short"}, event
        assert event.data["why"] in whys  # a reason (a card played in the open), not a card


def test_a_drafted_flight_shows_on_its_own_panel_only() -> None:
    """The drafting side's picture shows its flight as drafted (a ghost path); another
    side's view never draws it, whatever it is handed."""
    state = RULES.new("western-1944", "ghost")
    card = sorted(c.split("#")[0] for c in state.sides["allies"].hand)[0]
    choice = {"allies": {"command": "probe-centre", "card": card, "plane": "deploy-fighter"}}
    state, _ = RULES.resolve(state, choice, Rng("ghost", 1, "command"))
    own = RULES.view(state, "allies")
    plain = PRESENTER.panel_image(own, "en")
    drafted = PRESENTER.panel_image(own, "en", {"flight": "E6 inf, E7 inf, E8"})
    assert drafted != plain
    other_view = RULES.view(state, "axis")
    assert PRESENTER.panel_image(other_view, "en", {"flight": "E6 inf, E7 inf, E8"}) == (
        PRESENTER.panel_image(other_view, "en")
    )

"""Properties over random games (issue 28): the 30 cards are always somewhere and in one
place only, a lost type never flies again, and the same seed plays the same game."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from engine.rng import Rng
from engine.ruleset import Event
from engine.rulesets.memoir44.setup import Setup, new_game
from engine.rulesets.memoir44.state import SIDES, GameState
from tests.memoir44.helpers import CATALOG, cards_everywhere
from tests.memoir44.random_play import play

SETUPS = st.builds(
    Setup,
    theatre=st.sampled_from(["western", "eastern", "pacific", "mediterranean"]),
    year=st.integers(1939, 1945),
    beach=st.booleans(),
    first=st.sampled_from(["allies", "axis"]),
    turns=st.just(40),
)


def _game(setup: Setup, seed: int, watch: object = None) -> tuple[GameState, list[Event]]:
    state, events = new_game(CATALOG, setup, Rng(f"seed-{seed}", 0, "setup"))
    state, more = play(CATALOG, state, seed, 24, watch)  # type: ignore[arg-type]
    return state, events + more


def _check_cards(state: GameState) -> None:
    everywhere = Counter(cards_everywhere(state))
    assert everywhere == Counter(CATALOG.deck()), "a card is missing or in two places"


@given(SETUPS, st.integers(0, 10_000))
def test_thirty_cards_always_in_exactly_one_place(setup: Setup, seed: int) -> None:
    def watch(_before: GameState, after: GameState, _events: list[Event]) -> None:
        _check_cards(after)

    _check_cards(_game(setup, seed, watch)[0])


@given(SETUPS, st.integers(0, 10_000))
def test_a_lost_type_is_never_deployed_again(setup: Setup, seed: int) -> None:
    def watch(before: GameState, after: GameState, events: list[Event]) -> None:
        for event in events:
            if event.kind == "m44-deployed":
                side = str(event.data["side"])
                assert event.data["type"] not in before.side(side).lost
        for side in SIDES:
            plane = after.side(side).plane
            assert plane is None or plane.type not in after.side(side).lost
            assert set(before.side(side).lost) <= set(after.side(side).lost)  # lost for good

    _game(setup, seed, watch)


@given(SETUPS, st.integers(0, 10_000))
def test_same_seed_same_game(setup: Setup, seed: int) -> None:
    first, first_events = _game(setup, seed)
    second, second_events = _game(setup, seed)
    assert first.model_dump_json() == second.model_dump_json()
    assert first_events == second_events


def test_random_games_reach_kills_landings_and_reactions() -> None:
    """The random player is worth its properties only if it plays the rare parts too."""
    seen: Counter[str] = Counter()
    for seed in range(40):
        _state, events = _game(Setup(), seed)
        seen.update(e.kind for e in events)
        seen.update(f"roll:{e.data['purpose']}" for e in events if e.kind == "m44-roll")
    for kind in (
        "m44-deployed",
        "m44-shot-down",
        "m44-forced-off",
        "m44-landed",
        "m44-withdrawn",
        "m44-ambush",
        "roll:token",
        "roll:dogfight",
        "roll:confirm",
        "roll:ground",
        "m44-reshuffled",
    ):
        assert seen[kind] > 0, kind

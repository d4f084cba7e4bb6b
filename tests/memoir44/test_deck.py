"""The Air Combat deck (issue 28 point 2): draws the rules cause, reshuffles, the one card a
turn limits, and a played card going public."""

from __future__ import annotations

import pytest

from engine.rulesets.memoir44.deck import Refused, play
from engine.rulesets.memoir44.flow import give_command
from engine.rulesets.memoir44.orders import CommandOrder
from tests.memoir44.helpers import (
    CATALOG,
    Loaded,
    answer,
    command,
    empty_hands,
    flight,
    give,
    kinds,
    place,
    start,
)


def test_recon_draws_one_air_combat_card_at_the_end_of_the_turn() -> None:
    state = start()
    before = len(state.sides["allies"].hand)
    after = command(state, "recon-left")
    assert len(after.sides["allies"].hand) == before + 1
    assert after.history[-1].drawn == {"allies": 1}
    # Other Section cards draw nothing.
    assert len(command(state, "probe-left").sides["allies"].hand) == before


def test_recon_in_force_is_not_recon() -> None:
    state = start()
    assert len(command(state, "recon-in-force").sides["allies"].hand) == 3


def test_a_played_card_goes_public_to_the_discards() -> None:
    state = give(empty_hands(start()), "allies", "fire-at-will")
    state, events = give_command(
        CATALOG, state, CommandOrder("probe-centre", "fire-at-will", "deploy-fighter"), Loaded()
    )
    assert kinds(state.discard) == ["fire-at-will"]
    assert not state.sides["allies"].hand
    played = [e for e in events if e.kind == "m44-card"]
    assert played[0].data["card"] == "fire-at-will"
    assert played[0].data["in_force"] is True


def test_a_deployment_ticket_of_another_type_has_no_effect() -> None:
    state = give(empty_hands(start()), "allies", "saturation")
    state = command(state, "probe-centre", "saturation", "deploy-fighter")
    assert state.plan is not None and state.plan.effect is None


@pytest.mark.parametrize(
    ("side", "first", "second", "own_turn", "reason"),
    [
        ("allies", "air-reconnaissance", "rearm-and-refuel", True, "card-own-turn-limit"),
        ("axis", "flak", "evasive-action", False, "card-opponent-turn-limit"),
    ],
    ids=["own-turn", "opponents-turn"],
)
def test_one_card_a_turn(side: str, first: str, second: str, own_turn: bool, reason: str) -> None:
    state = give(empty_hands(start()), side, first, second)
    state, _ = play(state, side, first, own_turn=own_turn)
    with pytest.raises(Refused) as refused:
        play(state, side, second, own_turn=own_turn)
    assert refused.value.reason == reason
    # ... and still one in the other player's turn.
    play(state, side, second, own_turn=not own_turn)


def test_the_limits_start_afresh_each_turn() -> None:
    state = give(empty_hands(start()), "allies", "air-reconnaissance")
    state = command(state, "probe-left", "air-reconnaissance")
    assert state.turn == 2
    assert not state.sides["allies"].card_own


def test_air_reconnaissance_draws_two_at_the_end_of_the_turn() -> None:
    state = give(empty_hands(start()), "allies", "air-reconnaissance")
    state = command(state, "probe-left", "air-reconnaissance")
    assert len(state.sides["allies"].hand) == 2


def test_their_finest_hour_reshuffles_then_each_side_draws() -> None:
    """Section IV's order (the spec's ambiguity, decided in engine/rulesets/memoir44/flow.py):
    the discards go back into a new pile first, then each side draws one from it."""
    state = give(empty_hands(start()), "allies", "air-reconnaissance")
    state = command(state, "probe-left", "air-reconnaissance")  # one card in the discards
    assert len(state.discard) == 1
    pile = len(state.deck)
    state, events = give_command(CATALOG, state, CommandOrder("their-finest-hour"), Loaded())
    kinds_seen = [e.kind for e in events if e.kind in ("m44-reshuffled", "m44-drew")]
    assert kinds_seen == ["m44-reshuffled", "m44-drew", "m44-drew"]
    assert [e.data["side"] for e in events if e.kind == "m44-drew"] == ["axis", "allies"]
    assert state.discard == ()
    assert len(state.deck) == pile + 1 - 2
    # The reshuffled pile is what was drawn from: the discarded card was back in play.
    assert events[[e.kind for e in events].index("m44-reshuffled")].data["cards"] == pile + 1


def test_an_empty_pile_takes_the_discards_back() -> None:
    state = start()
    everything = state.deck
    state = state.model_copy(update={"deck": (), "discard": everything})
    state = command(state, "recon-left")
    assert len(state.sides["allies"].hand) == 4
    assert len(state.deck) == len(everything) - 1 and state.discard == ()


def test_nothing_to_draw_draws_nothing() -> None:
    state = start()
    hand = (*state.sides["allies"].hand, *state.deck)
    state = state.model_copy(
        update={
            "deck": (),
            "sides": {
                **state.sides,
                "allies": state.sides["allies"].model_copy(update={"hand": hand}),
            },
        }
    )
    state, events = give_command(CATALOG, state, CommandOrder("recon-left"), Loaded())
    drew = next(e for e in events if e.kind == "m44-drew")
    assert drew.data["cards"] == 0 and drew.data["short"] == 1


def test_a_kill_draws_the_shooter_a_card() -> None:
    state = place(empty_hands(start()), "axis", "bomber", "C6")
    state = place(state, "allies", "fighter", "E6")
    state = command(state, "probe-centre", action="fly")
    state = flight(state, "D6 dogfight")
    assert state.phase == "reaction"
    state = answer(state, Loaded("grenade", "infantry", "infantry", "grenade"))
    assert state.sides["axis"].plane is None
    assert len(state.sides["allies"].hand) == 1
    assert state.history[-1].drawn == {"allies": 1}

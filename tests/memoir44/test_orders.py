"""The air turn as orders (issue 28 point 3): what the bot refuses, with the rule's reason,
and what it takes on the players' word."""

from __future__ import annotations

import pytest

from engine.rulesets.memoir44.deck import Refused
from engine.rulesets.memoir44.orders import flight_text, parse_flight, parse_shots
from engine.rulesets.memoir44.state import GameState
from tests.memoir44.helpers import answer, command, empty_hands, flight, give, place, start


def refused(call: object, *args: object, **kwargs: object) -> str:
    with pytest.raises(Refused) as caught:
        call(*args, **kwargs)  # type: ignore[operator]
    return caught.value.reason


def deploying(kind: str = "fighter", cmd: str = "probe-centre", **setup: object) -> GameState:
    state = give(empty_hands(start(**setup)), "allies", "air-reconnaissance")
    return command(state, cmd, "air-reconnaissance", f"deploy-{kind}")


# ------------------------------------------------------------------ deploying


def flying(hex_: str, card: str | None = None) -> GameState:
    """The Allies' fighter on ``hex_``, activated by the centre's Section card (boosted by
    ``card``, handed to them first), before its flight."""
    state = start() if card is None else give(start(), "allies", card)
    return command(place(state, "allies", "fighter", hex_), "probe-centre", card, "fly")


def test_deploy_needs_an_air_combat_card() -> None:
    assert refused(command, start(), "probe-centre", None, "deploy-fighter") == "deploy-needs-card"


def test_deploy_needs_a_section_card_not_a_tactic() -> None:
    state = give(empty_hands(start()), "allies", "flak")
    reason = refused(command, state, "close-assault", "flak", "deploy-fighter")
    assert reason == "deploy-needs-section"


def test_one_plane_a_side() -> None:
    state = place(give(empty_hands(start()), "allies", "flak"), "allies", "bomber", "E6")
    assert refused(command, state, "probe-centre", "flak", "deploy-fighter") == "one-plane-a-side"


def test_a_lost_type_cannot_be_deployed_again() -> None:
    state = give(empty_hands(start()), "allies", "flak")
    state = state.model_copy(
        update={
            "sides": {
                **state.sides,
                "allies": state.sides["allies"].model_copy(update={"lost": ("fighter",)}),
            }
        }
    )
    assert refused(command, state, "probe-centre", "flak", "deploy-fighter") == "type-lost"
    command(state, "probe-centre", "flak", "deploy-bomber")  # another type still may


def test_no_deploy_in_the_turn_of_a_withdrawal() -> None:
    # An airborne plane with no ammunition left is withdrawn at the start of its turn...
    state = give(empty_hands(start()), "allies", "flak")
    state = place(state, "allies", "fighter", "E6", mg=0)
    state = command(state, "probe-left")  # Allies' turn 1
    state = command(state, "probe-left")  # Axis' turn 2; Allies' turn 3 begins
    assert state.sides["allies"].plane is None and state.sides["allies"].withdrew
    # ... and may not deploy again that same turn.
    assert (
        refused(command, state, "probe-centre", "flak", "deploy-fighter")
        == "deploy-after-withdrawal"
    )


def test_the_card_must_be_in_the_hand() -> None:
    state = empty_hands(start())
    assert refused(command, state, "probe-centre", "flak", "deploy-fighter") == "card-not-in-hand"


def test_activation_needs_the_plane_in_the_cards_section() -> None:
    state = place(start(), "allies", "fighter", "E1")  # the Allies' left flank
    assert refused(command, state, "probe-right", None, "fly") == "plane-outside-section"
    command(state, "probe-left", None, "fly")


def test_a_boost_card_must_match_the_plane() -> None:
    state = place(give(empty_hands(start()), "allies", "saturation"), "allies", "fighter", "E6")
    assert refused(command, state, "probe-centre", "saturation", "fly") == "card-icon"


# ------------------------------------------------------------------ paths


def test_entry_hex_is_in_the_sections_of_the_card() -> None:
    state = deploying(cmd="probe-left")
    assert refused(flight, state, "E7 E8") == "entry-outside-section"
    flight(state, "E2 E3")


def test_the_axis_left_is_the_allies_right() -> None:
    state = give(empty_hands(start(first="axis")), "axis", "flak")
    state = command(state, "probe-left", "flak", "deploy-fighter")
    assert refused(flight, state, "A1 A2") == "entry-outside-section"
    flight(state, "A12 A13")


def test_path_of_at_most_four_hexes_with_the_entry_counted() -> None:
    state = deploying()
    assert refused(flight, state, "E5 E6 E7 E8 E9") == "path-too-long"
    flight(state, "E5 E6 E7 E8")


def test_no_hex_twice() -> None:
    state = flying("E6")
    assert refused(flight, state, "E7 D7 E7") == "hex-twice"


def test_not_ending_where_it_began() -> None:
    state = flying("E6")
    assert refused(flight, state, "E7 D7 D6 E6") == "ends-where-began"
    assert refused(flight, deploying(), "E6") == "ends-where-began"


def test_each_step_is_to_a_neighbour() -> None:
    state = flying("E6")
    assert refused(flight, state, "E8") == "path-not-adjacent"


def test_no_flying_through_the_enemy_plane() -> None:
    state = place(place(start(), "allies", "fighter", "E6"), "axis", "fighter", "E7")
    state = command(state, "probe-centre", None, "fly")
    assert refused(flight, state, "E7 E8") == "through-enemy-plane"


def test_hex_labels_are_on_the_board() -> None:
    assert refused(parse_flight, "E6 E14", "fighter") == "not-a-hex"
    assert refused(parse_flight, "B13", "fighter") == "not-a-hex"  # short rows hold 12
    assert parse_flight("e6, e7 > d7", "fighter").path == ("E6", "E7", "D7")


def test_out_of_the_sun_flies_six() -> None:
    state = flying("E5", "out-of-the-sun")
    assert refused(flight, state, "E6 E7 E8 E9 E10 E11 E12") == "path-too-long"
    flight(state, "E6 E7 E8 E9 E10 E11")


# ------------------------------------------------------------------ tokens


def test_at_most_three_tokens() -> None:
    state = flying("E5")
    assert refused(flight, state, "E6 inf, E7 inf, E8 inf, E9 inf") == "too-many-tokens"
    flight(state, "E6 inf, E7 inf, E8 inf, E9")


def test_four_tokens_with_strafing_run() -> None:
    state = flying("E5", "strafing-run")
    assert refused(flight, state, "E6 inf, E7 inf, E8 inf, E9 inf, E10 inf") == "too-many-tokens"
    flight(state, "E6 inf, E7 inf, E8 inf, E9 inf, E10")


def test_tokens_on_an_unbroken_chain() -> None:
    state = deploying()
    assert refused(flight, state, "E5 inf, E6, E7 inf, E8") == "chain-broken"
    flight(state, "E5, E6 inf, E7 arm, E8")  # a chain may start after the entry hex


def test_fire_at_will_needs_no_chain() -> None:
    state = give(empty_hands(start()), "allies", "fire-at-will")
    state = command(state, "probe-centre", "fire-at-will", "deploy-fighter")
    flight(state, "E5 inf, E6, E7 inf, E8")


def test_a_token_on_the_last_hex_means_ending_on_a_unit() -> None:
    assert refused(flight, deploying(), "E5, E6 inf") == "token-on-last-hex"


def test_token_kinds_by_type() -> None:
    assert refused(flight, deploying(), "E5 bomb inf, E6") == "fighter-no-bombs"
    assert refused(flight, deploying("bomber"), "E5 mg inf, E6") == "bomber-no-mg"
    # A fighter-bomber names the kind, and may use both in one attack, one per hex.
    assert refused(flight, deploying("fighter_bomber"), "E5 inf, E6") == "token-kind-needed"
    flight(deploying("fighter_bomber"), "E5 mg inf, E6 bomb arm, E7")


def test_ammunition_is_counted() -> None:
    state = place(start(), "allies", "fighter_bomber", "E5", bombs=1)
    state = command(state, "probe-centre", None, "fly")
    assert refused(flight, state, "E6 bomb inf, E7 bomb arm, E8") == "out-of-bombs"
    after = flight(state, "E6 bomb inf, E7 mg arm, E8")
    assert after.sides["allies"].plane is not None
    assert (after.sides["allies"].plane.mg, after.sides["allies"].plane.bombs) == (2, 0)


def test_no_ground_attack_with_top_cover() -> None:
    state = place(give(start(), "allies", "top-cover"), "allies", "fighter", "E5")
    state = command(state, "probe-centre", "top-cover", "fly")
    assert refused(flight, state, "E6 inf, E7") == "card-no-ground-attack"


def test_the_flight_line_reads_back_the_same() -> None:
    order = parse_flight("e5 bomb arm, e6 mg inf e7 objective", "fighter_bomber")
    assert flight_text(order) == "E5 bomb arm, E6 mg inf, E7 objective"
    assert parse_flight(flight_text(order), "fighter_bomber") == order


# ------------------------------------------------------------------ how the move ends


def test_strategic_bombing_by_bombers_and_fighter_bombers_only() -> None:
    assert refused(flight, deploying(), "E5, E6 objective") == "bombing-type"
    state = flight(deploying("bomber"), "E5 inf, E6 objective")
    plane = state.sides["allies"].plane
    assert plane is not None and plane.bombs == 6 - 2  # its token and the objective's bomb


def test_an_objective_bombed_by_the_enemy_cannot_be_bombed_back() -> None:
    state = deploying("bomber").model_copy(update={"bombed": {"E6": "axis"}})
    assert refused(flight, state, "E5, E6 objective") == "bombing-done"


def test_dogfight_needs_the_enemy_plane_adjacent() -> None:
    state = place(deploying(), "axis", "bomber", "B6")
    assert refused(flight, state, "E5, E6 dogfight") == "dogfight-not-adjacent"
    assert refused(flight, deploying(), "E5, E6 dogfight") == "dogfight-no-enemy"
    flight(place(deploying(), "axis", "bomber", "D6"), "E5, E6 dogfight")


def test_bombers_do_not_land_on_carriers() -> None:
    assert refused(flight, deploying("bomber"), "E5, E6 carrier") == "carrier-type"
    flight(deploying("fighter"), "E5, E6 carrier")


def test_a_landed_plane_rearms_at_the_start_of_its_next_turn() -> None:
    state = place(start(), "allies", "fighter", "E5", mg=1)
    state = command(state, "probe-centre", None, "fly")
    state = answer(flight(state, "E6 inf, E7 airfield"))
    plane = state.sides["allies"].plane
    assert plane is not None and (plane.status, plane.mg, plane.refill) == ("airfield", 0, True)
    state = command(state, "probe-left")  # the Axis turn: not yet
    plane = state.sides["allies"].plane
    assert plane is not None and plane.mg == 9 and not plane.refill
    assert state.sides["allies"].plane is not None  # rearmed, so not forced to withdraw


def test_withdrawal_is_forced_at_zero_ammunition_only_when_airborne() -> None:
    state = place(start(), "allies", "fighter", "E5", mg=1)
    state = command(state, "probe-centre", None, "fly")
    state = answer(flight(state, "E6 inf, E7"))
    state = command(state, "probe-left")
    assert state.sides["allies"].plane is None
    assert state.sides["allies"].lost == ()  # a withdrawal loses nothing


def test_voluntary_withdrawal_then_no_deploy() -> None:
    state = place(give(start(), "allies", "flak"), "allies", "fighter", "E5")
    state = command(state, "probe-centre", None, "withdraw")
    assert state.sides["allies"].plane is None
    assert state.history[-1].plan.action == "withdraw"


def test_shots_at_the_enemy_plane() -> None:
    assert [s.dice for s in parse_shots("inf, art, arm", True, False)] == [3, 4, 3]
    assert [s.dice for s in parse_shots("inf+", True, True)] == [4]  # Close Assault
    assert refused(parse_shots, "inf+", True, False) == "close-assault-needed"
    assert refused(parse_shots, "art+", True, True) == "close-assault-unit"
    assert [s.dice for s in parse_shots("inf 2", False, False)] == [2]
    assert refused(parse_shots, "inf 2", True, False) == "shot-dice-airborne"


def test_the_flight_line_reads_french_words() -> None:
    """The French panel's help says inf, bl, art, bombe, duel, objectif: all are read."""
    order = parse_flight("e6 mit inf, e7 bombe bl, e8 art bombe, d8 duel", "fighter_bomber")
    assert [(t.kind, t.target) for t in order.tokens] == [
        ("mg", "infantry"),
        ("bomb", "armour"),
        ("bomb", "artillery"),
    ]
    assert order.finish == "dogfight"
    assert parse_flight("E6 inf, E7 objectif", "bomber").finish == "bombing"
    assert [s.unit for s in parse_shots("bl, inf", True, False)] == ["armour", "infantry"]

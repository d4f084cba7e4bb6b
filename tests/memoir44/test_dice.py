"""Trusted dice (issue 28 point 4) and reactions (point 5): air-to-ground, dogfights,
ground-to-air by unit kind, the confirmation reroll, strategic bombing, Close Assault's
extra die, Ambush and the reaction cards."""

from __future__ import annotations

from engine.rulesets.memoir44.flow import give_command
from engine.rulesets.memoir44.orders import CommandOrder, parse_shots, reaction_triggers
from engine.rulesets.memoir44.state import GameState, Roll
from tests.memoir44.helpers import (
    CATALOG,
    Loaded,
    answer,
    command,
    empty_hands,
    flight,
    give,
    place,
    start,
)


def rolls(state: GameState, purpose: str | None = None) -> list[Roll]:
    done = state.history[-1].rolls
    return [r for r in done if purpose is None or r.purpose == purpose]


def fighter_over(state: GameState, line: str, *faces: str, card: str | None = None) -> GameState:
    """The Allied fighter at E5 flies ``line``; the dice come up ``faces``."""
    state = place(state, "allies", "fighter", "E5")
    state = command(state, "probe-centre", card, "fly")
    state = flight(state, line)
    if state.phase == "reaction":
        state = answer(state, Loaded(*faces))
    return state


# ------------------------------------------------------------------ air to ground


def test_machine_guns_hit_on_the_unit_symbol_only() -> None:
    state = fighter_over(start(), "E6 inf, E7 arm, E8 art, E9", "infantry", "grenade", "star")
    tokens = rolls(state, "token")
    assert [(r.faces, r.hits) for r in tokens] == [
        (("infantry",), 1),
        (("grenade",), 0),  # a grenade is no hit for an MG (III.e)
        (("star",), 0),
    ]


def test_machine_guns_never_hurt_artillery() -> None:
    state = fighter_over(start(), "E6 art, E7", "infantry")
    assert rolls(state, "token")[0].hits == 0


def test_bombs_hit_on_the_symbol_or_a_grenade() -> None:
    state = place(start(), "allies", "bomber", "E5")
    state = command(state, "probe-centre", None, "fly")
    state = answer(flight(state, "E6 arm, E7 art, E8"), Loaded("armour", "grenade"))
    assert [r.hits for r in rolls(state, "token")] == [1, 1]


def test_flags_are_counted_for_the_table() -> None:
    state = fighter_over(start(), "E6 inf, E7", "flag")
    assert rolls(state, "token")[0].flags == 1


def test_example_of_play_heavy_fire() -> None:
    """VI: a fighter-bomber deployed in the centre with Tirs nourris: MG, bomb, MG; each MG
    rolls 2 dice hitting on the symbol or a star, the bomb 1 die as usual."""
    state = give(empty_hands(start()), "allies", "heavy-fire")
    state = command(state, "probe-centre", "heavy-fire", "deploy-fighter_bomber")
    state = flight(state, "E6 mg inf, E7 bomb arm, E8 mg inf, E9")
    plane = state.sides["allies"].plane
    assert plane is not None and (plane.mg, plane.bombs) == (1, 2)
    state = answer(state, Loaded("star", "flag", "grenade", "armour", "infantry"))
    tokens = rolls(state, "token")
    assert [len(r.faces) for r in tokens] == [2, 1, 2]
    assert [r.hits for r in tokens] == [1, 1, 1]


def test_saturation_puts_bombs_with_gaps() -> None:
    state = give(empty_hands(start()), "allies", "saturation")
    state = command(state, "probe-centre", "saturation", "deploy-bomber")
    state = answer(flight(state, "E6 inf, E7, E8 inf, E9 arm, E10"), Loaded())
    assert len(rolls(state, "token")) == 3


def test_their_finest_hour_markers_add_dice() -> None:
    state = place(start(), "allies", "fighter", "E5")
    state = command(state, "their-finest-hour", None, "fly")
    state = flight(state, "E6 inf, E7", markers=2)
    state = answer(state)
    assert len(rolls(state, "token")[0].faces) == 3


def test_strategic_bombing_takes_the_medal_on_a_grenade() -> None:
    state = place(start(), "allies", "bomber", "E5")
    state = command(state, "probe-centre", None, "fly")
    state = flight(state, "E6, E7 objective", Loaded("grenade"))
    assert rolls(state, "bombing")[0].hits == 1
    assert [m.kind for m in state.sides["allies"].medals] == ["bombing"]
    assert state.bombed == {"E7": "allies"}


def test_strategic_bombing_misses_on_anything_else() -> None:
    state = place(start(), "allies", "bomber", "E5")
    state = command(state, "probe-centre", None, "fly")
    state = flight(state, "E6, E7 objective", Loaded("star"))
    assert state.sides["allies"].medals == () and state.bombed == {}


# ------------------------------------------------------------------ dogfights, confirmation


def dogfight(faces: tuple[str, ...], enemy: str = "bomber", card: str | None = None) -> GameState:
    hand = give(empty_hands(start()), "allies", *([card] if card else []))
    state = place(hand, "axis", enemy, "D6")
    state = place(state, "allies", "fighter", "E5")
    state = command(state, "probe-centre", card, "fly")
    state = flight(state, "E6 dogfight")
    return answer(state, Loaded(*faces))


def test_dogfight_rolls_the_dogfight_value_and_a_confirmed_grenade_shoots_down() -> None:
    state = dogfight(("grenade", "star", "grenade", "grenade", "infantry"))
    first = rolls(state, "dogfight")[0]
    assert len(first.faces) == 3 and first.hits == 2  # a fighter's dogfight value
    confirm = rolls(state, "confirm")[0]
    assert confirm.faces == ("grenade", "infantry") and confirm.outcome == "shot-down"
    axis, allies = state.sides["axis"], state.sides["allies"]
    assert axis.plane is None and axis.lost == ("bomber",)
    assert [(m.kind, m.detail) for m in allies.medals] == [("kill", "he111")]
    assert len(allies.hand) == 1  # the kill's card


def test_a_confirmed_flag_forces_off_and_keeps_the_type() -> None:
    state = dogfight(("grenade", "star", "star", "flag"))
    assert rolls(state, "confirm")[0].outcome == "forced-off"
    axis = state.sides["axis"]
    assert axis.plane is None and axis.lost == ()
    assert state.sides["allies"].medals == () and not state.sides["allies"].hand


def test_a_confirmation_without_grenade_or_flag_does_nothing() -> None:
    state = dogfight(("grenade", "star", "star", "star"))
    assert rolls(state, "confirm")[0].outcome == "no-effect"
    assert state.sides["axis"].plane is not None


def test_no_hit_no_confirmation() -> None:
    state = dogfight(("star", "star", "star"))
    assert rolls(state, "confirm") == []


def test_ace_pilot_rerolls_misses_and_a_star_confirms() -> None:
    state = dogfight(("star", "grenade", "flag", "infantry", "grenade", "star"), card="ace-pilot")
    assert rolls(state, "dogfight-first")[0].faces == ("star", "grenade", "flag")
    assert rolls(state, "dogfight")[0].hits == 2
    assert rolls(state, "confirm")[0].outcome == "shot-down"  # star, star: a star counts


def test_top_cover_adds_two_dogfight_dice() -> None:
    state = dogfight((), card="top-cover")
    assert len(rolls(state, "dogfight")[0].faces) == 5


def _axis_may_react(
    card: str, axis: tuple[str, str], allies: tuple[str, str], path: str, trigger: str
) -> GameState:
    """The Axis holding ``card`` and each side's plane placed (kind, hex); the Allies fly
    ``path`` from the centre, and the Axis is offered its reaction on ``trigger``."""
    state = give(empty_hands(start()), "axis", card)
    state = place(place(state, "axis", *axis), "allies", *allies)
    state = flight(command(state, "probe-centre", None, "fly"), path)
    assert trigger in reaction_triggers(state)
    return state


def test_defensive_gunners_fire_back() -> None:
    state = _axis_may_react(
        "defensive-gunners", ("bomber", "D6"), ("fighter", "E5"), "E6 dogfight",
        "dogfight_on_own_plane",
    )  # fmt: skip
    state = answer(
        state,
        Loaded("star", "star", "star", "grenade", "grenade", "grenade"),
        card="defensive-gunners",
    )
    assert rolls(state, "fire-back")[0].hits == 2
    assert state.sides["allies"].plane is None and state.sides["allies"].lost == ("fighter",)
    assert state.sides["axis"].medals[0].detail == "p51"


def test_evasive_action_cancels_the_first_hit() -> None:
    state = give(empty_hands(start()), "axis", "evasive-action")
    state = place(place(state, "axis", "bomber", "D6"), "allies", "fighter", "E5")
    state = command(state, "probe-centre", None, "fly")
    state = flight(state, "E6 dogfight")
    state = answer(state, Loaded("grenade", "star", "star"), card="evasive-action")
    assert rolls(state, "dogfight")[0].hits == 0
    assert rolls(state, "confirm") == []


# ------------------------------------------------------------------ ground to air


def shoot(
    text: str, faces: tuple[str, ...], cmd: str = "attack-centre", **plane: object
) -> GameState:
    state = place(start(), "axis", "fighter", "D7", **plane)
    shots = parse_shots(text, plane.get("status", "airborne") == "airborne", cmd == "close-assault")
    dice = Loaded(*faces)
    state, _events = give_command(CATALOG, state, CommandOrder(cmd, None, "none", shots), dice)
    # A landed plane has no Evasive Action to fear: no window, the shots are rolled at once.
    return answer(state, dice) if state.phase == "reaction" else state


def test_infantry_and_armour_roll_three_artillery_four() -> None:
    state = shoot("inf, art", ())
    assert [len(r.faces) for r in rolls(state, "ground")] == [3, 4]


def test_close_assault_adds_a_die() -> None:
    state = shoot("inf+", (), cmd="close-assault")
    assert [len(r.faces) for r in rolls(state, "close-assault")] == [4]


def test_ground_fire_hits_on_grenades_and_is_confirmed() -> None:
    state = shoot("arm", ("grenade", "flag", "star", "grenade"))
    assert rolls(state, "ground")[0].hits == 1  # the flag is no hit on an airborne plane
    assert rolls(state, "confirm")[0].outcome == "shot-down"
    assert state.sides["axis"].lost == ("fighter",)


def test_a_landed_plane_dies_on_a_flag_without_confirmation() -> None:
    state = shoot("inf 2", ("star", "flag"), status="airfield")
    assert rolls(state, "confirm") == []
    assert state.sides["axis"].plane is None and state.sides["axis"].lost == ("fighter",)
    assert len(state.sides["allies"].medals) == 1


def test_barrage_cannot_target_an_airborne_plane() -> None:
    import pytest

    from engine.rulesets.memoir44.deck import Refused

    state = place(start(), "axis", "fighter", "D7")
    with pytest.raises(Refused, match="barrage-plane"):
        give_command(
            CATALOG,
            state,
            CommandOrder("barrage", None, "none", parse_shots("art", True, False)),
            Loaded(),
        )


# ------------------------------------------------------------------ reactions


def test_a_token_on_a_unit_always_opens_the_window_whatever_the_hand() -> None:
    state = place(empty_hands(start()), "allies", "fighter", "E5")
    state = command(state, "probe-centre", None, "fly")
    state = flight(state, "E6 inf, E7")
    assert state.phase == "reaction" and "token_on_unit" in reaction_triggers(state)


def test_no_token_no_window() -> None:
    state = place(start(), "allies", "fighter", "E5")
    state = command(state, "probe-centre", None, "fly")
    state = flight(state, "E6, E7")
    assert state.phase == "command" and state.turn == 2


def test_an_ambush_that_shoots_the_plane_down_ends_its_attack() -> None:
    state = place(start(), "allies", "fighter", "E5")
    state = command(state, "probe-centre", None, "fly")
    state = flight(state, "E6 inf, E7 inf, E8 inf, E9")
    state = answer(
        state, Loaded("grenade", "star", "star", "grenade"), ambush=2, ambush_unit="infantry"
    )
    assert [r.purpose for r in rolls(state)] == ["ambush", "confirm"]
    assert rolls(state, "ambush")[0].token == 2
    assert state.sides["allies"].plane is None
    assert state.sides["allies"].lost == ("fighter",)
    assert len(state.sides["axis"].medals) == 1


def test_an_ambush_that_misses_lets_the_attack_go_on() -> None:
    state = place(start(), "allies", "fighter", "E5")
    state = command(state, "probe-centre", None, "fly")
    state = flight(state, "E6 inf, E7 inf, E8")
    state = answer(state, ambush=1, ambush_unit="artillery")
    assert [r.purpose for r in rolls(state)] == ["ambush", "token", "token"]
    assert len(rolls(state, "ambush")[0].faces) == 4


def test_flak_fires_two_dice_at_its_token() -> None:
    state = give(empty_hands(start()), "axis", "flak")
    state = place(state, "allies", "fighter", "E5")
    state = command(state, "probe-centre", None, "fly")
    state = flight(state, "E6 inf, E7 inf, E8")
    state = answer(state, card="flak", card_token=2)
    flak = rolls(state, "flak")[0]
    assert (len(flak.faces), flak.token) == (2, 2)


def test_interception_when_the_enemy_ends_within_two_hexes_of_the_fighter() -> None:
    state = _axis_may_react(
        "interception", ("fighter", "C8"), ("bomber", "E5"), "E6, E7", "enemy_plane_near"
    )
    state = answer(state, Loaded("grenade", "grenade", "star", "grenade"), card="interception")
    assert len(rolls(state, "interception")[0].faces) == 3
    assert state.sides["allies"].plane is None


# ------------------------------------------------------------------ the ground game's dice


def test_roll_dice_for_the_table_is_the_battle_die_from_the_stream() -> None:
    import random

    from engine.rulesets.memoir44 import Memoir44Rules

    rules = Memoir44Rules()
    faces = rules.roll_dice(600, random.Random(7))
    assert len(faces) == 600
    counts = {face: faces.count(face) for face in set(faces)}
    assert set(counts) == {f"m44-{f}" for f in ("infantry", "armour", "grenade", "star", "flag")}
    assert 150 < counts["m44-infantry"] < 250  # two faces of six
    assert rules.roll_dice(3, random.Random(7)) == faces[:3]

"""Pearl Harbor solitaire (26.0, authored procedure): legal targets per group, the defence
card and the attack, the second wave, determinism and a whole game to its result."""

from __future__ import annotations

import random

import pytest

from engine.rng import Rng
from engine.rulesets.pearl_harbor import IllegalChoice, PearlRules, PearlState
from engine.zero.loader import default_catalog


@pytest.fixture(scope="module")
def rules() -> PearlRules:
    return PearlRules(default_catalog())


def test_one_player_two_waves(rules: PearlRules) -> None:
    assert rules.side_ids == ("japanese",)
    assert rules.scenarios()["pearl-harbor"].turns == 2
    state = rules.new("pearl-harbor", "x")
    fields = [d.field for d in rules.pending(state)]
    assert fields == ["torpedo", "level", "dive", "fighters"]


def test_targets_follow_the_weapon(rules: PearlRules) -> None:
    state = rules.new("pearl-harbor", "x")
    offered = {d.field: [o.id for o in d.options] for d in rules.pending(state)}
    assert offered["torpedo"] == ["none", "battleship-row", "cruisers"]  # ships only (21.5)
    # Strafing: land targets whose sheet can be strafed (21.71), never ships.
    assert offered["fighters"] == [
        "none",
        "navy-yard",
        "ford-island",
        "hickam",
        "wheeler",
        "kaneohe",
    ]
    assert len(offered["dive"]) == 1 + len(rules.sheet.targets)
    with pytest.raises(IllegalChoice):
        rules.resolve(state, {"japanese": {"torpedo": "hickam"}}, Rng("x", 1, "wave"))


def test_an_attack_draws_a_defence_card_then_its_attack(rules: PearlRules) -> None:
    state = rules.new("pearl-harbor", "attack")
    picks = {"japanese": {"torpedo": "battleship-row"}}
    after, events = rules.resolve(state, picks, Rng("attack", 1, "wave"))
    (attack,) = after.history[0].attacks
    cards = {c.id: c for c in default_catalog().deck.cards}
    row = rules.sheet.defence_for(cards[attack.defence_card].bombing, 0)
    assert attack.defence == row.name and attack.lost == row.lost
    assert len(attack.cards) == max(0, 4 - row.lost + row.cards)
    sheet = default_catalog().targets["4E"]
    expected = sum(2 * sheet.points.get(cards[c].bombing, 0) for c in attack.cards)
    assert attack.points == expected == after.damage.get("battleship-row", 0)
    assert [e.kind for e in events] == ["pearl-attack"]
    # Held-back groups do nothing.
    assert [a.group for a in after.history[0].attacks] == ["torpedo"]


def test_second_wave_has_no_torpedoes_and_ends_the_game(rules: PearlRules) -> None:
    state = rules.new("pearl-harbor", "w")
    state, _ = rules.resolve(state, {"japanese": {}}, Rng("w", 1, "wave"))
    assert [d.field for d in rules.pending(state)] == ["level", "dive", "fighters"]
    state, events = rules.resolve(state, {"japanese": {}}, Rng("w", 2, "wave"))
    assert state.finished and rules.pending(state) == []
    assert state.performance == "defeat" and state.winner == "draw"  # nothing attacked
    assert events[-1].kind == "pearl-ended"


def _play(rules: PearlRules, seed: str) -> PearlState:
    state = rules.new("pearl-harbor", seed)
    picker = random.Random(seed)
    while not state.finished:
        choices = {"japanese": {d.field: picker.choice(d.options).id for d in rules.pending(state)}}
        state, _ = rules.resolve(state, choices, Rng(seed, state.turn, "wave"))
        state = rules.load(rules.dump(state))
    return state


def test_same_seed_same_game_and_a_result(rules: PearlRules) -> None:
    a, b = _play(rules, "s1"), _play(rules, "s1")
    assert rules.dump(a) == rules.dump(b)
    assert rules.dump(a) != rules.dump(_play(rules, "s2"))
    assert a.finished and a.performance in {r.level for r in rules.sheet.performance}
    difference = a.vp["japanese"] - a.vp["allied"]
    assert a.performance == rules.sheet.performance_for(difference)
    assert a.winner == ("draw" if a.performance == "defeat" else "japanese")

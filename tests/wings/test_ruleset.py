"""``WingsRules``: the Wings campaign behind the seam (rounds, fields, secrecy of a pursuit)."""

from __future__ import annotations

import random

from engine.rng import Rng
from engine.rulesets.wings import WingsRules, WingsState
from engine.rulesets.wings.catalog import default_catalog
from engine.rulesets.wings.rounds import FIELDS


def _rules() -> WingsRules:
    return WingsRules(default_catalog())


def _play(rules: WingsRules, seed: str, picks: random.Random) -> list[tuple[WingsState, int]]:
    """Every state the campaign waits in, with the seam turn, to the end."""
    state = rules.new("wings-1917", seed)
    seen = [(state, state.turn)]
    while not rules.progress(state).finished:
        progress = rules.progress(state)
        choices: dict[str, dict[str, str]] = {}
        for decision in rules.pending(state):
            assert decision.allows(decision.default)
            option = picks.choice(decision.options)
            choices.setdefault(decision.side, {})[decision.field] = option.id
        state, _events = rules.resolve(state, choices, Rng(seed, progress.turn, progress.round))
        state = rules.load(rules.dump(state))
        seen.append((state, state.turn))
        assert len(seen) < 300
    return seen


def test_every_round_has_its_own_turn_and_kind_and_the_campaign_is_deterministic() -> None:
    rules = _rules()
    first = _play(rules, "det", random.Random(3))
    second = _play(rules, "det", random.Random(3))
    assert [rules.dump(s) for s, _ in first] == [rules.dump(s) for s, _ in second]
    pairs = [
        (rules.progress(s).turn, rules.progress(s).round)
        for s, _ in first
        if not rules.progress(s).finished
    ]
    assert len(pairs) == len(set(pairs))
    assert rules.progress(first[-1][0]).finished


def test_the_first_round_asks_each_plane_its_program_in_a_field_of_its_own() -> None:
    rules = _rules()
    state = rules.new("wings-1917", "slots")
    assert rules.progress(state).round == "program"
    mission = state.camp.mission
    assert mission is not None
    asked = {(d.side, d.field): d for d in rules.pending(state)}
    # Each plane's program is its own per-unit field, named by its pilot and plane.
    for pid, plane in mission.planes.items():
        decision = asked[(plane.side, f"program:{pid}")]
        pilot = state.camp.pilots[plane.pilot or ""].name
        assert decision.input == "steps" and decision.steps == 3
        assert decision.label.startswith(f"{pilot} · ")
        assert rules.field_spec(decision.field) == FIELDS[0]  # the family's declaration
    # A standing order is asked of a Knight or an Artist only (seed D.VI): here the
    # Entente's Knight flies the second plane. The flak battery arms through the first turn
    # (seed A.IV.h); one side owns a balloon's winch (seed A.IV.i.3).
    others = {key for key, d in asked.items() if not d.field.startswith("program:")}
    assert others - {("entente", "winch"), ("central", "winch")} == {("entente", "order:P2")}
    assert len({key for key in others if key[1] == "winch"}) == 1
    assert all(len(d.options) >= 2 for d in rules.pending(state))


def test_a_pursuer_sees_only_the_first_enemy_card_and_may_reorder() -> None:
    rules = _rules()
    for seed in range(40):
        for state, _turn in _play(rules, f"tail-{seed}", random.Random(seed)):
            decisions = rules.pending(state)
            if rules.progress(state).round != "reorder" or not decisions:
                continue
            mission = state.campaign.mission
            assert mission is not None
            pursuer_side = decisions[0].side
            target_side = "central" if pursuer_side == "entente" else "entente"
            own = rules.view(state, pursuer_side)
            assert own.shown
            for pid in own.shown:
                target = mission.pursuits[pid]
                assert own.shown[pid] == mission.programs[target].cards[0]
                # The rest of the target's program stays sealed to the pursuer...
                assert target not in own.data["mission"]["programs"]
            # ...and nobody else is shown anything.
            assert not rules.view(state, target_side).shown or all(
                mission.planes[p].side == target_side for p in rules.view(state, target_side).shown
            )
            assert rules.view(state, None).shown == {}
            assert rules.view(state, None).data["mission"]["programs"] == {}
            return
    raise AssertionError("no pursuit in 40 campaigns")

"""The carrier campaign loop (25.1-25.9): legal options, resolution, invariants, views."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.rng import Rng
from engine.rulesets.carrier.campaign import IllegalChoice, new_campaign, pending, resolve
from engine.rulesets.carrier.state import State
from engine.rulesets.carrier.view import view
from engine.zero.loader import default_catalog
from engine.zero.types import FleetTactic, RoundKind, Side, StrikeSize
from tests.engine.campaign_helpers import play, random_choices

CATALOG = default_catalog()
SCENARIOS = ["coral-sea", "midway"]


def _orders(
    tactic: str = "medium", ops: str = "none", doctrine: str = "balanced"
) -> dict[str, str]:
    return {"fleet_tactic": tactic, "flight_ops": ops, "doctrine": doctrine}


def _after_orders(state: State, japanese: dict[str, str], allied: dict[str, str]) -> State:
    new, _ = resolve(
        CATALOG,
        state,
        {Side.JAPANESE: japanese, Side.ALLIED: allied},
        Rng("s", state.turn, "orders"),
    )
    return new


def test_first_turn_offers_every_tactic_and_no_strike() -> None:
    state = new_campaign(CATALOG, "coral-sea", "seed")
    decisions = {(d.side, d.field): d for d in pending(CATALOG, state)}
    tactic = decisions[(Side.JAPANESE, "fleet_tactic")]
    assert {o.id for o in tactic.options} == {"close", "medium", "long"}
    ops = decisions[(Side.JAPANESE, "flight_ops")]
    assert "none" in {o.id for o in ops.options}
    assert "large:allied-fleet" in {o.id for o in ops.options}


def test_coral_sea_japanese_large_strike_composition_is_the_seed_example() -> None:
    """25.63 [EX]: 1 L/W A6M2, 1 L/W B5N2, 1 L D3A1; CAP 1 L A6M2 (25.64)."""
    state = new_campaign(CATALOG, "coral-sea", "seed")
    ops = next(
        d for d in pending(CATALOG, state) if d.side == Side.JAPANESE and d.field == "flight_ops"
    )
    detail = next(o.detail for o in ops.options if o.id == "large:allied-fleet")
    assert detail == "1 L/W A6M2, 1 L/W B5N2, 1 L D3A1 — CAP 1 L A6M2"


def test_five_damage_points_cost_the_strike_one_aircraft() -> None:
    """25.63 [EX]: the Japanese fleet at 5 damage points launches one aircraft fewer."""
    state = new_campaign(CATALOG, "coral-sea", "seed")
    tracks = dict(state.tracks)
    tracks["japanese-fleet"] = tracks["japanese-fleet"].model_copy(update={"damage_points": 5})
    damaged = state.model_copy(update={"tracks": tracks})
    ops = next(
        d for d in pending(CATALOG, damaged) if d.side == Side.JAPANESE and d.field == "flight_ops"
    )
    detail = next(o.detail for o in ops.options if o.id == "large:allied-fleet")
    assert detail.startswith("1 L/W A6M2, 1 L/W B5N2, 1 L D3A1") is False
    strike = detail.split(" — ")[0]
    counts = sum(2 if "L/W" in part else int(part.split()[0]) for part in strike.split(", "))
    assert counts == 4


def test_close_never_follows_long_and_large_never_twice() -> None:
    state = new_campaign(CATALOG, "coral-sea", "seed")
    state = _after_orders(
        state, _orders("long", "large:allied-fleet"), _orders("close", "large:japanese-fleet")
    )
    state, _ = resolve(
        CATALOG,
        state,
        {Side.JAPANESE: {"resource": "15"}, Side.ALLIED: {"resource": "15"}},
        Rng("s", 1, "resource"),
    )
    decisions = {(d.side, d.field): d for d in pending(CATALOG, state)}
    japanese_tactic = decisions[(Side.JAPANESE, "fleet_tactic")]
    assert "close" not in {o.id for o in japanese_tactic.options}
    assert ("close", "after-long") in {(e.id, e.reason) for e in japanese_tactic.excluded}
    allied_tactic = decisions[(Side.ALLIED, "fleet_tactic")]
    assert ("long", "after-close") in {(e.id, e.reason) for e in allied_tactic.excluded}
    ops = decisions[(Side.JAPANESE, "flight_ops")]
    assert all(not o.id.startswith("large") for o in ops.options)
    assert any(e.reason == "large-twice" for e in ops.excluded)
    with pytest.raises(IllegalChoice) as info:
        resolve(
            CATALOG,
            state,
            {
                Side.JAPANESE: _orders("close", "none"),
                Side.ALLIED: _orders("medium", "none"),
            },
            Rng("s", 2, "orders"),
        )
    assert info.value.reason == "after-long"


def test_resource_used_once_and_reserved_entries_refused() -> None:
    state = new_campaign(CATALOG, "coral-sea", "seed")
    state = _after_orders(state, _orders(), _orders())
    decisions = {d.side: d for d in pending(CATALOG, state)}
    japanese = decisions[Side.JAPANESE]
    radar = next(e for e in japanese.excluded if e.id == "3")
    assert radar.reason == "other-side"  # Radar is the Allies' (authored 3.7.2)
    state, _ = resolve(
        CATALOG,
        state,
        {Side.JAPANESE: {"resource": "7"}, Side.ALLIED: {"resource": "3"}},
        Rng("s", 1, "resource"),
    )
    state = _after_orders(state, _orders(), _orders())
    decisions = {d.side: d for d in pending(CATALOG, state)}
    assert ("7", "used") in {(e.id, e.reason) for e in decisions[Side.JAPANESE].excluded}
    assert "15" in {o.id for o in decisions[Side.JAPANESE].options}  # No Resource again


def _both_strike(
    seed: str, dice: str, tactics: tuple[str, str], resources: tuple[str, str]
) -> State:
    """Coral Sea's turn 1 on ``seed``: each side (Japanese, Allied) at its tactic sends a
    Large Strike at the other's fleet, then plays its resource, on ``dice``."""
    state = _after_orders(
        new_campaign(CATALOG, "coral-sea", seed),
        _orders(tactics[0], "large:allied-fleet"),
        _orders(tactics[1], "large:japanese-fleet"),
    )
    state, _ = resolve(
        CATALOG,
        state,
        {Side.JAPANESE: {"resource": resources[0]}, Side.ALLIED: {"resource": resources[1]}},
        Rng(dice, 1, "resource"),
    )
    return state


def test_radar_strikes_first_and_lengthens_the_enemy_strike() -> None:
    """25.53 [EX]: Allies #3 Radar, Japanese #7: the Allies strike first; JP strike TB +2."""
    state = _both_strike("seed", "s", ("medium", "medium"), ("7", "3"))
    strikes = [s for s in state.history[-1].strikes if s.kind == "carrier"]
    assert [s.attacker for s in strikes] == [Side.ALLIED, Side.JAPANESE]
    japanese = strikes[1]
    assert japanese.target_bound == 4
    assert strikes[0].target_bound == 2


def test_recovery_draws_both_ranges() -> None:
    """25.71 [EX]: Allies Long + Japanese Medium = 3 cards per Damaged aircraft."""
    for seed in range(40):
        state = _both_strike(f"r{seed}", f"r{seed}", ("medium", "long"), ("15", "15"))
        draws = state.history[-1].recovery
        if draws:
            assert all(len(d.cards) == 3 for d in draws)
            return
    pytest.fail("no Damaged strike aircraft in 40 seeded turns")


@given(
    seed=st.integers(0, 10_000), pick=st.integers(0, 10_000), scenario=st.sampled_from(SCENARIOS)
)
def test_random_campaign_invariants(seed: int, pick: int, scenario: str) -> None:
    final, _events, states = play(CATALOG, scenario, str(seed), pick)
    assert final.finished
    assert len(final.history) <= CATALOG.scenarios[scenario].turns
    for side in Side:
        used = [n for n in final.sides[side].resources_used]
        assert len(used) == len(set(used))  # a resource is never used twice (25.52)
    for before, after in itertools.pairwise(states):
        for key in before.tracks:
            assert after.tracks[key].boxes >= before.tracks[key].boxes  # damage never decreases
        for side in Side:
            assert after.vp[side] >= before.vp[side]
    for record, previous in zip(final.history[1:], final.history, strict=False):
        for side in Side:
            last = previous.picks[side].tactic
            now = record.picks[side].tactic
            assert {last, now} != {FleetTactic.CLOSE, FleetTactic.LONG}
            assert not (
                previous.picks[side].flight_ops.startswith(StrikeSize.LARGE.value)
                and record.picks[side].flight_ops.startswith(StrikeSize.LARGE.value)
            )
    for record in final.history:
        for report in record.strikes:
            if report.target_bound <= 0:
                assert not any(e.phase == "target-bound" for e in report.exchanges)


def test_same_seed_and_choices_give_identical_events() -> None:
    one = play(CATALOG, "coral-sea", "42", 7)
    two = play(CATALOG, "coral-sea", "42", 7)
    assert [e.model_dump_json() for e in one[1]] == [e.model_dump_json() for e in two[1]]
    assert one[0].model_dump_json() == two[0].model_dump_json()
    other = play(CATALOG, "coral-sea", "43", 7)
    assert other[0].model_dump_json() != one[0].model_dump_json()


def test_view_never_carries_the_other_sides_doctrine() -> None:
    rnd = random.Random(5)
    for seed in range(30):
        state = new_campaign(CATALOG, "midway", f"v{seed}")
        while not state.finished:
            choices = random_choices(CATALOG, state, rnd)
            state, _ = resolve(
                CATALOG, state, choices, Rng(f"v{seed}", state.turn, state.round.value)
            )
            if state.round is RoundKind.RESOURCE:
                for viewer in (None, Side.JAPANESE, Side.ALLIED):
                    v = view(CATALOG, state, viewer)
                    for side in Side:
                        if side is not viewer:
                            assert v.sides[side].doctrine is None
                    if viewer is not None:
                        assert v.sides[viewer].doctrine == choices[viewer]["doctrine"]
                    if viewer is None:
                        assert v.previews == ()
                    text = v.model_dump_json()
                    hidden = 2 if viewer is None else 1
                    assert text.count('"doctrine":null') == hidden

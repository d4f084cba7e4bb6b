"""The land ruleset (engine.rulesets.land): legal resources, once per campaign, the mission
flown with both sides' picks, determinism, and whole campaigns to a winner."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.rng import Rng
from engine.ruleset import Decision
from engine.rulesets.land import IllegalChoice, LandRules
from engine.rulesets.land.sheet import load_land_campaign
from engine.rulesets.land.state import LandState
from engine.rulesets.land.view import Draw
from engine.zero.catalog import DataError
from engine.zero.loader import DATA_DIR, default_catalog
from engine.zero.types import AircraftState, Side


@pytest.fixture(scope="module")
def rules() -> LandRules:
    return LandRules(default_catalog())


def _at(rules: LandRules, scenario: str, target: int, seed: str = "t") -> LandState:
    """A fresh campaign whose first mission is ``target`` (as if the card had drawn it)."""
    state = rules.new(scenario, seed)
    draw = Draw(card=1, key="OTS", listed=target, target=target, period=state.draw.period)
    return state.model_copy(update={"draw": draw})


def _choices(japanese: str = "none", allied: str = "none") -> dict[str, dict[str, str]]:
    return {
        "japanese": {"resource": japanese, "doctrine": "balanced"},
        "allied": {"resource": allied, "doctrine": "balanced"},
    }


def _decision(rules: LandRules, state: LandState, side: str, field: str = "resource") -> Decision:
    return next(d for d in rules.pending(state) if d.side == side and d.field == field)


def test_scenarios_are_theatre_and_period(rules: LandRules) -> None:
    keys = set(rules.scenarios())
    assert {"malaya-dec41", "malaya-jan42", "malaya-feb42", "malaya-all"} <= keys
    assert {"philippines-dec41", "philippines-jan-apr42", "burma-dec41-jan42"} <= keys
    assert rules.scenarios()["burma-dec41-jan42"].turns == 6
    assert rules.scenarios()["malaya-all"].turns == 18
    # The theatre's name alone is the whole theatre too (`bot demo --scenario malaya`).
    assert rules.scenarios()["malaya"].turns == 18
    assert rules.new("malaya", "x").periods == ("dec41", "jan42", "feb42")
    with pytest.raises(KeyError):
        rules.new("burma-jun44", "x")


def test_resources_offered_follow_use_and_period(rules: LandRules) -> None:
    # Burma #15 (Japanese attack): Japanese attack-only picks are open, the Allied ones
    # shut, and the Hurricane (#3) does not exist before February 1942.
    state = _at(rules, "burma-dec41-jan42", 15)
    japanese = _decision(rules, state, "japanese")
    allied = _decision(rules, state, "allied")
    assert [o.id for o in japanese.options] == ["none", "J1", "J2", "J3", "J4", "J5", "J6", "J7"]
    assert [(e.id, e.reason) for e in japanese.excluded] == [("J8", "land-defence-only")]
    assert [o.id for o in allied.options] == ["none", "A1", "A2", "A4", "A5", "A7", "A8"]
    assert {(e.id, e.reason) for e in allied.excluded} == {
        ("A6", "land-attack-only"),
        ("A3", "land-not-in-period"),
    }
    assert japanese.default == allied.default == "none"


def test_each_resource_once_per_campaign(rules: LandRules) -> None:
    state = _at(rules, "burma-dec41-jan42", 15)
    state, _ = rules.resolve(state, _choices("J2", "A4"), Rng("t", 1, "mission"))
    assert state.used == {Side.JAPANESE: (2,), Side.ALLIED: (4,)}
    japanese = _decision(rules, state, "japanese")
    assert "J2" not in [o.id for o in japanese.options]
    assert ("J2", "used") in [(e.id, e.reason) for e in japanese.excluded]
    with pytest.raises(IllegalChoice):
        rules.resolve(state, _choices("J2", "none"), Rng("t", 2, "mission"))
    # No resource stays open every mission.
    assert "none" in [o.id for o in japanese.options]


def test_burma_resources_example_24_53(rules: LandRules) -> None:
    # #15 with Japanese #2 (L/W Ki-43) and Allied #4 (Clouds over Target): two Ki-21 and a
    # Ki-43 element fly; Clouds draws a card, whose border decides the shift.
    state = _at(rules, "burma-dec41-jan42", 15)
    after, events = rules.resolve(state, _choices("J2", "A4"), Rng("t", 1, "mission"))
    record = after.history[0]
    flown = [(p.aircraft, p.side, p.group) for p in record.report.aircraft]
    assert flown.count(("Ki-21", Side.JAPANESE, "strike")) == 2
    assert flown.count(("Ki-43", Side.JAPANESE, "strike")) == 2
    assert not [p for p in record.report.aircraft if p.side is Side.ALLIED]  # flak only
    assert record.clouds_card is not None
    card = next(c for c in default_catalog().deck.cards if c.id == record.clouds_card)
    assert record.clouds == (card.border == "blue")
    # 23.24: the Ki-43 does not slow the mission; 7/6 less Ki-21 speed 5.
    assert (record.length.target_bound, record.length.home_bound) == (2, 1)
    assert events[0].kind == "land-resources"
    assert (events[0].data["japanese"], events[0].data["allied"]) == (
        "#2 L/W Ki-43",
        "#4 Clouds over Target",
    )
    assert record.vp[Side.JAPANESE] + record.vp[Side.ALLIED] == sum(
        line.vp for line in record.lines
    )


def test_defender_fighters_come_from_a_resource(rules: LandRules) -> None:
    state = _at(rules, "burma-dec41-jan42", 2)  # Rangoon docks, 4 Ki-21
    after, _ = rules.resolve(state, _choices("none", "A2"), Rng("t", 1, "mission"))
    cap = [p for p in after.history[0].report.aircraft if p.group == "cap"]
    assert [(p.aircraft, p.side) for p in cap] == [("P-40B", Side.ALLIED)] * 2


def test_dogfight_16_flies_both_listed_sides(rules: LandRules) -> None:
    state = _at(rules, "burma-dec41-jan42", 16)
    after, _ = rules.resolve(state, _choices(), Rng("t", 1, "mission"))
    record = after.history[0]
    kinds = sorted(p.aircraft for p in record.report.aircraft)
    assert kinds == ["Buffalo-I"] * 4 + ["Ki-27"] * 4
    assert record.length.single == 6
    assert record.report.target_points == 0 and not record.report.bomb_runs
    assert record.report.target_bound == 6
    assert record.report.kind == "dogfight" and not record.report.hidden


def test_a_coin_gives_the_initiative_in_a_dogfight(rules: LandRules) -> None:
    # The strike engine's interceptor moves first; in a dogfight either listed side may be
    # it, decided by the mission's own stream.
    raiders = set()
    for seed in range(12):
        state = _at(rules, "burma-dec41-jan42", 16, seed=f"coin-{seed}")
        after, _ = rules.resolve(state, _choices(), Rng(f"coin-{seed}", 1, "mission"))
        raiders.add(after.history[0].report.attacker)
    assert raiders == {Side.JAPANESE, Side.ALLIED}
    # On a mission with a target the defender always intercepts.
    state = _at(rules, "burma-dec41-jan42", 2)
    after, _ = rules.resolve(state, _choices("none", "A2"), Rng("t", 1, "mission"))
    assert after.history[0].report.attacker is Side.JAPANESE
    assert after.history[0].report.kind == "land-mission"


def test_evacuation_scores_when_the_bomber_survives(rules: LandRules) -> None:
    state = _at(rules, "philippines-jan-apr42", 17)
    after, _ = rules.resolve(state, _choices(), Rng("t", 1, "mission"))
    record = after.history[0]
    b17 = [p for p in record.report.aircraft if p.aircraft == "B-17E"]
    assert len(b17) == 1 and b17[0].state is not AircraftState.DESTROYED  # nobody intercepts
    assert ("evacuation", 5) in [(line.reason, line.vp) for line in record.lines]


def test_once_only_target_is_replaced_after_it_flew(rules: LandRules) -> None:
    # Malaya #7 (Force Z) flies once; a later draw of it flies #8.
    campaign = rules.campaigns["malaya"]
    deck_card = next(
        c for c in default_catalog().deck.cards if c.title.value == "IMS" and c.burst == 3
    )

    class _OneCard:
        def draw(self, purpose: str):  # type: ignore[no-untyped-def]
            return deck_card

    first = rules._draw(campaign, "dec41", set(), _OneCard())  # type: ignore[arg-type]
    again = rules._draw(campaign, "dec41", {7}, _OneCard())  # type: ignore[arg-type]
    assert (first.listed, first.target) == (7, 7)
    assert (again.listed, again.target) == (7, 8)


def _play(rules: LandRules, scenario: str, seed: str) -> LandState:
    state = rules.new(scenario, seed)
    picker = random.Random(seed)
    while not state.finished:
        choices = rules.drawn(rules.pending(state), picker)
        state, _ = rules.resolve(state, choices, Rng(seed, state.turn, "mission"))
        state = rules.load(rules.dump(state))  # every step survives storage
    return state


def test_same_seed_same_campaign(rules: LandRules) -> None:
    a = _play(rules, "burma-dec41-jan42", "same")
    b = _play(rules, "burma-dec41-jan42", "same")
    assert rules.dump(a) == rules.dump(b)
    c = _play(rules, "burma-dec41-jan42", "other")
    assert rules.dump(a) != rules.dump(c)


@pytest.mark.parametrize(
    "scenario", ["malaya-dec41", "malaya-feb42", "philippines-dec41", "burma-feb-mar42"]
)
def test_whole_campaign_with_random_legal_picks_ends_with_a_winner(
    rules: LandRules, scenario: str
) -> None:
    state = _play(rules, scenario, f"whole-{scenario}")
    assert state.finished
    assert len(state.history) == state.missions == 6
    assert state.winner in ("japanese", "allied", "draw")
    difference = state.vp[Side.JAPANESE] - state.vp[Side.ALLIED]
    assert state.winner == (
        "draw" if difference == 0 else "japanese" if difference > 0 else "allied"
    )
    assert set(state.performance) == {Side.JAPANESE, Side.ALLIED}
    row = rules.campaigns[state.campaign].performance_for(difference)
    assert state.performance[Side.JAPANESE] == row.japanese
    for side in Side:
        assert len(set(state.used[side])) == len(state.used[side])  # never twice
    assert rules.progress(state).finished and rules.pending(state) == []


def test_performance_bands_scale_with_periods(rules: LandRules) -> None:
    burma = rules.campaigns["burma"]
    assert burma.performance_for(25).japanese == "decisive-victory"
    assert burma.performance_for(24).japanese == "victory"
    assert burma.performance_for(-9).japanese == "stalemate"
    assert burma.performance_for(-25).allied == "decisive-victory"
    assert burma.performance_for(25, periods_played=2).japanese == "victory"


def test_every_sheet_places_every_target_on_its_map(tmp_path: Path) -> None:
    for key in ("malaya", "philippines", "burma"):
        sheet = load_land_campaign(key)
        assert all(target.map is not None for target in sheet.targets), key
        assert len({target.map for target in sheet.targets}) == len(sheet.targets), key
    text = (DATA_DIR / "burma.toml").read_text(encoding="utf-8")
    (tmp_path / "burma.toml").write_text(
        text.replace("map = [34, 82]", "map = [34, 182]", 1), encoding="utf-8"
    )
    with pytest.raises(DataError, match=r"entry 'target #15': field 'map'"):
        load_land_campaign("burma", tmp_path)

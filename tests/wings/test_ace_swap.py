"""The Ace of Aces' last-card change (seed D.VII.a) and the optional round that carries it.

An Ace of Aces may change the last card of his program during the movement phase, before
his adversary's last card is revealed: 3 times a game, once every two turns, the forbidden
sequences still holding, one skill token a use. The turn stops after its second maneuver
only when such a pilot is in the air, and only his side is asked.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.rng import Rng
from engine.rulesets.wings import WingsRules, WingsState, ace
from engine.rulesets.wings import campaign as wings
from engine.rulesets.wings.catalog import default_catalog
from engine.rulesets.wings.state import PlaneState, Program
from engine.rulesets.wings.turn import play_turn
from rendering.i18n import t
from rendering.rulesets.wings import WingsPresenter
from tests.test_french import problems
from tests.wings.helpers import with_picks

PILOTAGE = ("acrobat", "genius", "piloting_ace", "ace_of_aces")


def _rules() -> WingsRules:
    return WingsRules(default_catalog())


def _with_plane(state: WingsState, pid: str, **changes: Any) -> WingsState:
    mission = state.camp.mission
    assert mission is not None
    planes = dict(mission.planes)
    planes[pid] = planes[pid].model_copy(update=changes)
    mission = mission.model_copy(update={"planes": planes})
    return state.model_copy(update={"campaign": state.camp.model_copy(update={"mission": mission})})


def _plane(state: WingsState, pid: str) -> PlaneState:
    mission = state.camp.mission
    assert mission is not None
    return mission.planes[pid]


def _ace_campaign(seed: str = "ace", **changes: Any) -> WingsState:
    """Wings 1917 with the Entente's first pilot (P1, field plane1) an Ace of Aces."""
    state = _rules().new("wings-1917", seed)
    return _with_plane(state, "P1", skills=PILOTAGE, **{"tokens": 4, **changes})


def _step(
    rules: WingsRules, state: WingsState, seed: str, picks: dict[str, dict[str, str]] | None = None
) -> tuple[WingsState, list[Any]]:
    progress = rules.progress(state)
    choices = with_picks(rules, state, picks)
    new, events = rules.resolve(state, choices, Rng(seed, progress.turn, progress.round))
    return rules.load_stored(*_stored(rules, new)), events


def _stored(rules: WingsRules, state: WingsState) -> tuple[str, tuple[str, ...]]:
    stored = rules.dump_stored(state)
    return stored.current, stored.records


def _to_swap(
    seed: str = "ace", programs: dict[str, dict[str, str]] | None = None, **changes: Any
) -> tuple[WingsRules, WingsState, list[Any]]:
    rules = _rules()
    state = _ace_campaign(seed, **changes)
    state, _ = _step(rules, state, seed, programs)
    assert rules.progress(state).round == "reorder"
    state, events = _step(rules, state, seed)
    return rules, state, events


def _flown(events: list[Any], pid: str, phase: int) -> str:
    revealed = [e for e in events if e.kind == "card-revealed" and e.data["plane"] == pid]
    return str(revealed[phase - 1].data["card"])


def test_the_ace_changes_his_last_card_after_the_second_maneuver() -> None:
    rules, state, events = _to_swap()
    progress = rules.progress(state)
    assert (progress.turn, progress.round) == (1, "swap")
    # Two maneuvers flown: every plane revealed two cards, no third yet.
    assert {_flown(events, "P1", 1), _flown(events, "P1", 2)} == {"S"}
    assert len([e for e in events if e.kind == "card-revealed"]) == 8
    (decision,) = rules.pending(state)
    assert (decision.side, decision.field, decision.default) == ("entente", "program:P1", "S S S")
    assert decision.options[0].id == "S S S"
    assert "S S TL" in {o.id for o in decision.options}
    state, flown = _step(rules, state, "ace", {"entente": {"program:P1": "S S TL"}})
    assert rules.progress(state).round == "program" and rules.progress(state).turn == 2
    third = [e for e in flown if e.kind == "card-revealed" and e.data["plane"] == "P1"]
    assert [e.data["card"] for e in third] == ["TL"]
    plane = _plane(state, "P1")
    assert (plane.tokens, plane.swaps, plane.swap_turn) == (3, 1, 1)


def test_keeping_the_card_is_the_default_and_costs_nothing() -> None:
    rules, state, _ = _to_swap()
    state, flown = _step(rules, state, "ace")  # the deadline passes: defaults
    assert _flown(flown, "P1", 1) == "S"
    plane = _plane(state, "P1")
    assert (plane.tokens, plane.swaps, plane.swap_turn) == (4, 0, -99)


def test_at_most_once_every_two_turns_and_three_times_a_game() -> None:
    rules, state, _ = _to_swap()
    state, _ = _step(rules, state, "ace", {"entente": {"program:P1": "S S TL"}})
    state, _ = _step(rules, state, "ace")  # turn 2's programs
    state, _ = _step(rules, state, "ace")  # turn 2 flies whole: the Ace is resting
    assert rules.progress(state).turn == 3 and rules.progress(state).round == "program"
    assert ace.may_swap(_plane(state, "P1"), Program(cards=("S", "S", "S")), 3)  # again
    _, used, _ = _to_swap(swaps=3)
    assert rules.progress(used).round == "program"  # three uses spent: straight on to turn 2
    # Out of tokens he is still asked (tokens are his side's secret), and may only keep.
    _, broke, _ = _to_swap(tokens=0)
    assert rules.progress(broke).round == "swap"


def test_the_forbidden_sequences_still_hold() -> None:
    # A rudder jammed to the left (seed A.II.b) forbids left turns in this turn's program.
    rules, state, _ = _to_swap(rudder="L", rudder_until=1)
    (decision,) = rules.pending(state)
    refused = {e.label: e.reason for e in decision.excluded}
    assert refused["TL"] == "rudder-jammed" and not decision.allows("S S TL")
    assert decision.allows("S S TR")
    with pytest.raises(wings.IllegalChoice):
        _step(rules, state, "ace", {"entente": {"program:P1": "S S TL"}})
    with pytest.raises(wings.IllegalChoice):  # the first two cards are flown already
        _step(rules, state, "ace", {"entente": {"program:P1": "TR S S"}})


def test_the_new_card_is_judged_against_the_hand_as_programmed() -> None:
    """A steep second card: a steep last card needs the Genius, rested since two turns."""
    catalog = default_catalog()
    _, state, _ = _to_swap()
    mission = state.camp.mission
    assert mission is not None
    steep = mission.model_copy(update={"programs": {"P1": Program(cards=("S", "HL", "S"))}})
    legal, refused = ace.last_cards(catalog, steep, "P1")
    assert "HR" in legal  # the Genius has rested: two steep cards in a row once
    rested = dict(steep.programmed)
    rested["P1"] = rested["P1"].model_copy(update={"genius_turn": 0})
    legal, refused = ace.last_cards(catalog, steep.model_copy(update={"programmed": rested}), "P1")
    assert "HR" not in legal and ("HR", "steep-after-steep") in refused
    # A Genius this very turn (marked as the turn flies) judges as a rested one.
    marked = dict(steep.programmed)
    marked["P1"] = ace.as_programmed(marked["P1"].model_copy(update={"genius_turn": 1}), 1)
    legal, _ = ace.last_cards(catalog, steep.model_copy(update={"programmed": marked}), "P1")
    assert "HR" in legal


def test_without_an_ace_there_is_no_swap_round() -> None:
    rules = _rules()
    for seed in range(6):
        picks = random.Random(seed)
        state = rules.new("wings-1917", f"plain-{seed}")
        while not rules.progress(state).finished:
            progress = rules.progress(state)
            assert progress.round != "swap"
            choices = rules.drawn(rules.pending(state), picks)
            state, _ = rules.resolve(state, choices, Rng("plain", progress.turn, progress.round))


def test_a_turn_without_an_eligible_ace_flies_as_it_always_did() -> None:
    """The stop is asked for; without an Ace who may use it the turn is the same, card for
    card and draw for draw, as a turn flown without the stop."""
    catalog = default_catalog()
    state = _ace_campaign(swaps=3)  # his three uses spent: a public fact
    mission = state.camp.mission
    assert mission is not None
    programs = {pid: Program(cards=("S", "S", "S")) for pid in mission.planes}
    rng = Rng("same", 1, "reorder")
    stopped, events = play_turn(catalog, mission, programs, rng, aces=True)
    whole, whole_events = play_turn(catalog, mission, programs, rng)
    assert stopped.round == "program"
    assert stopped == whole and events == whole_events


def test_the_enemy_last_card_stays_secret_until_it_is_flown() -> None:
    """Two campaigns differing only in the Central Powers' third cards look the same to
    the Ace's side, card for card, while it decides; they differ once the card flies."""
    seen = []
    for third in ("S", "TL"):
        enemy = {"central": {"program:P3": f"S S {third}", "program:P4": f"S S {third}"}}
        rules, state, events = _to_swap("sealed", programs=enemy)
        assert rules.progress(state).round == "swap"
        ace_view = rules.view(state, "entente")
        public = [e.model_dump() for e in events]
        seen.append(
            json.dumps(
                {
                    "view": ace_view.model_dump(mode="json"),
                    "public": rules.view(state, None).model_dump(mode="json"),
                    "events": public,
                    "pending": [d.model_dump() for d in rules.pending(state)],
                },
                sort_keys=True,
            )
        )
        held = state.camp.mission
        assert held is not None and held.programs["P3"].cards[-1] == third  # it is there
    assert seen[0] == seen[1]


def test_the_view_keeps_the_turn_s_working_notes_to_the_engine() -> None:
    rules, state, _ = _to_swap()
    mission = state.camp.mission
    assert mission is not None and mission.programmed and mission.lp_at_start
    for viewer in ("entente", "central", None):
        data = rules.view(state, viewer).data["mission"]
        assert "programmed" not in data and "lp_at_start" not in data
    assert rules.view(state, "central").data["mission"]["programs"].keys() <= {"P3", "P4"}


def test_the_swap_round_alone_ends_a_turn_it_belongs_to() -> None:
    rules, state, _ = _to_swap()
    after = rules.progress(state)
    assert not rules.ends_turn("reorder", 1, after)  # the turn waits on the Ace
    assert not rules.ends_turn("program", 1, after)
    state, _ = _step(rules, state, "ace")
    assert rules.ends_turn("swap", 1, rules.progress(state))
    plain = _rules().new("wings-1917", "plain")
    plain, _ = _step(rules, plain, "plain")
    plain, _ = _step(rules, plain, "plain")
    assert rules.ends_turn("reorder", 1, rules.progress(plain))


def test_an_ace_in_the_clouds_or_flying_a_declared_maneuver_is_not_asked() -> None:
    plane = _plane(_ace_campaign(), "P1")
    plain = Program(cards=("S", "S", "S"))
    assert ace.may_swap(plane, plain, 1)
    assert not ace.may_swap(plane.model_copy(update={"in_cloud": True}), plain, 1)
    assert not ace.may_swap(plane.model_copy(update={"spin": True}), plain, 1)
    assert not ace.may_swap(plane, plain.model_copy(update={"maneuver": "land"}), 1)
    assert not ace.may_swap(plane.model_copy(update={"swap_turn": 1}), plain, 2)
    assert ace.may_swap(plane.model_copy(update={"swap_turn": 1}), plain, 3)


def test_the_ace_s_words_read_french() -> None:
    keys = ("service.round.swap", "service.reason.not-a-last-card", "wings.help.swap",
            "wings.ace-swap.keep", "wings.ace-swap.swap")  # fmt: skip
    lines = [(key, t(key, "fr")) for key in keys]
    assert all(text not in (key, t(key, "en")) for key, text in lines)
    assert problems(lines) == []


def _public_story(rules: WingsRules, state: WingsState, events: list[Any]) -> tuple[Any, ...]:
    progress = rules.progress(state)
    return (
        (progress.turn, progress.round),
        [(e.kind, e.data) for e in events],
        rules.view(state, "central").model_dump(),
        rules.view(state, None).model_dump(),
    )


def test_the_round_opens_on_public_facts_and_his_tokens_stay_secret() -> None:
    """An Ace with no token left is asked all the same: whether the turn stops must not tell
    the enemy what his side alone knows. His own panel says why he may only keep."""
    rules, rich, rich_events = _to_swap("sealed")
    _, broke, broke_events = _to_swap("sealed", tokens=0)
    # Everything the enemy and the public see is the same, up to the Ace's own tokens.
    assert _public_story(rules, rich, rich_events) == _public_story(rules, broke, broke_events)
    (decision,) = rules.pending(broke)
    assert [o.id for o in decision.options] == ["S S S"]  # keep, the only choice
    assert [(e.id, e.reason) for e in decision.excluded] == [("swap", "no-token-left")]
    presenter = WingsPresenter()
    ((label, reason),) = presenter.excluded_lines("wings-1917", decision, "en")
    assert (label, reason) == ("change the last card (1 token)", "no skill token left")
    after, _ = _step(rules, broke, "sealed")  # the deadline passes: the card is kept
    assert rules.progress(after).turn == 2 and _plane(after, "P1").tokens == 0


def test_an_ace_flying_a_declared_maneuver_is_asked_and_may_only_keep() -> None:
    plane = _plane(_ace_campaign(), "P1")
    landing = Program(cards=("S", "S", "S"), maneuver="land")
    assert ace.round_due(plane, 1) and not ace.may_swap(plane, landing, 1)
    assert ace.why_not(plane, landing) == "declared-maneuver"
    assert ace.why_not(plane.model_copy(update={"tokens": 0}), landing) == "no-token-left"


def test_the_new_refusals_read_french() -> None:
    keys = ("service.reason.no-token-left", "service.reason.declared-maneuver")
    lines = [(key, t(key, "fr")) for key in keys]
    assert all(text not in (key, t(key, "en")) for key, text in lines)
    assert problems(lines) == []

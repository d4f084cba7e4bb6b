"""How a Wings campaign ends (issue 27, part 7): decided at a mission's end, it ends there,
no debrief asked of anyone; the card and /status say how long each mission lasted."""

from __future__ import annotations

import random

from engine.rng import Rng
from engine.rulesets.wings import WingsRules, WingsState
from rendering.rulesets.wings import WingsPresenter
from tests.wings.helpers import catalog

RULES = WingsRules(catalog())


def _played(scenario: str, seed: str) -> tuple[WingsState, list[tuple[int, str]]]:
    """A campaign played to its end at random; the (turn, round) of every round resolved."""
    state = RULES.new(scenario, seed)
    picks = random.Random(seed)
    rounds: list[tuple[int, str]] = []
    while not RULES.progress(state).finished:
        progress = RULES.progress(state)
        choices = RULES.drawn(RULES.pending(state), picks)
        state, _ = RULES.resolve(state, choices, Rng(seed, progress.turn, progress.round))
        rounds.append((progress.turn, progress.round))
    return state, rounds


def test_a_campaign_decided_at_a_mission_s_end_asks_no_debrief() -> None:
    for seed in ("a", "b", "c"):
        state, rounds = _played("wings-1917", seed)
        campaign = state.camp
        # The third and last mission planned decides it: its last turn ends the campaign.
        assert campaign.mission_number == campaign.missions_planned == 3
        assert rounds[-1][1] != "debrief", rounds[-3:]
        assert len([r for r in rounds if r[1] == "debrief"]) == 2  # after missions 1 and 2
        # The mission's report still posts with the turn that ended it.
        assert RULES.view(state, None).reports.get(rounds[-1][0]) == 3


def test_the_card_and_status_say_how_long_each_mission_lasted() -> None:
    state, _ = _played("wings-1917", "a")
    view = RULES.view(state, None)
    presenter = WingsPresenter()
    lasted = [record["turns"] for record in state.camp.history]
    assert all(0 < turns <= 8 for turns in lasted), lasted
    length = presenter.campaign_length("wings-1917", view, "en")
    assert length is not None and length.startswith("3 missions of up to 8 turns; ")
    assert f"mission 1 lasted {lasted[0]} turns" in length
    status = presenter.status_lines(view, "fr")
    assert any(f"la mission 2 a duré {lasted[1]}\u00a0tours" in line for line in status), status
    fresh = RULES.view(RULES.new("wings-1917", "fresh"), None)
    assert presenter.campaign_length("wings-1917", fresh, "en") == "3 missions of up to 8 turns"

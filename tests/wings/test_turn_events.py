"""What a turn's public events carry so the channel can draw and tell it step by step
(issue 27): each move with the card, where the step began, and the level it ended at; the
seam's events with the maneuver (phase) they happened in. Damage values stay secret."""

from __future__ import annotations

from itertools import pairwise

from engine.rng import Rng
from engine.rulesets.wings import WingsRules
from engine.rulesets.wings.turn import play_turn
from tests.wings.helpers import catalog, mission, plane
from tests.wings.test_turn import programs


def test_each_move_says_its_card_start_and_level() -> None:
    climber = plane("c", type_="spad7", side="entente", x=4.0, y=10.0, level=2, counters=0)
    other = plane("o", type_="albatros_d3", side="central", x=18.0, y=3.0, heading=180.0)
    _, events = play_turn(
        catalog(), mission(climber, other), programs(c="S CL DV", o="S S S"), Rng("m", 1, "t")
    )
    moved = [e for e in events if e.kind == "moved" and e.data["plane"] == "c"]
    assert [(e.phase, e.data["card"]) for e in moved] == [(1, "S"), (2, "CL"), (3, "DV")]
    assert moved[0].data["start"] == [4.0, 10.0, 0.0]
    # Each step begins where the last one ended.
    for before, after in pairwise(moved):
        assert after.data["start"] == [before.data["x"], before.data["y"], before.data["heading"]]
    # A SPAD climbs a level on two counters: the climb gains one, the dive loses the level.
    assert [(e.data["level_before"], e.data["level"]) for e in moved] == [(2, 2), (2, 2), (2, 1)]
    assert all(e.secret_for is None for e in moved)


def test_the_seam_events_carry_their_maneuver() -> None:
    rules = WingsRules(catalog())
    state = rules.new("wings-1917", "phase")
    while rules.progress(state).round != "reorder":
        choices: dict[str, dict[str, str]] = {}
        for d in rules.pending(state):
            choices.setdefault(d.side, {})[d.field] = d.default
        progress = rules.progress(state)
        state, _ = rules.resolve(state, choices, Rng("phase", progress.turn, progress.round))
    progress = rules.progress(state)
    _, happened = rules.resolve(state, {}, Rng("phase", progress.turn, progress.round))
    events = rules.public_events(happened)
    moved = [e for e in events if e.kind == "moved"]
    assert moved and {e.data["phase"] for e in moved} == {1, 2, 3}
    assert not [e for e in events if e.kind == "damage-card"]  # the targets' secret

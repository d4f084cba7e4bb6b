"""A round resolves alike from its snapshot alone, its history left out (issue 29).

The service resolves a round from the stored snapshot without the history records when the
ruleset says it may (``Rules.resolves_from_snapshot``), so a resolution at round 20 parses
what one at round 1 does. Every recorded game (``tests/golden_rulesets.py``) is replayed
both ways, round by round: the same events, the same records added to the history, the
same snapshot, the same log detail (a turn's strikes) and reports. A ruleset whose ``resolve`` began
to read its history (or its reports to look past the round's own records) goes red here.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot import secrecy
from engine.rng import Rng
from tests.golden_rulesets import _registry, digest, load

GAMES = load()


def _name(game: dict[str, Any]) -> str:
    return f"{game['ruleset']}-{game['scenario']}-{game['seed']}"


@pytest.mark.parametrize("game", GAMES, ids=_name)
def test_a_round_resolves_alike_without_its_history(game: dict[str, Any]) -> None:
    plugin = _registry().get(game["ruleset"])
    rules = plugin.rules
    seed = f"golden-{game['seed']}"
    state = rules.new(game["scenario"], seed)
    with_history = 0
    for index, recorded in enumerate(game["rounds"]):
        where = f"round {index}"
        stored = rules.dump_stored(state)
        bare = rules.load_stored(stored.current, ())
        assert rules.resolves_from_snapshot(bare), where
        assert rules.progress(bare) == rules.progress(state), where  # the campaign's end reads it
        with_history += bool(stored.length)
        progress = rules.progress(state)
        rng = Rng(seed, progress.turn, progress.round)
        whole_after, events = rules.resolve(state, recorded["choices"], rng)
        rng = Rng(seed, progress.turn, progress.round)
        bare_after, bare_events = rules.resolve(bare, recorded["choices"], rng)
        assert digest(rules.public_events(events)) == recorded["events"], where
        assert bare_events == events, where
        added = rules.dump_stored(bare_after)
        expected = rules.dump_stored(whole_after, since=stored.length)
        assert added.current == expected.current, where
        assert added.records == expected.records, where
        assert added.length + stored.length == expected.length, where
        turn = progress.turn
        told = rules.log_detail(whole_after, turn)
        assert rules.log_detail(bare_after, turn) == told, where
        public = secrecy.Viewer.public()
        assert plugin.presenter.report_count(
            secrecy.view_for(rules, bare_after, public), turn
        ) == plugin.presenter.report_count(secrecy.view_for(rules, whole_after, public), turn)
        state = whole_after
    # Wings keeps its history records in missions' debriefs, a Dambuster raid none at all.
    if game["ruleset"] not in ("wings", "dambuster"):
        assert with_history, "no round was resolved with a history to leave out"


def test_a_land_state_stored_before_flown_was_kept_needs_its_history() -> None:
    rules = _registry().get("land").rules
    game = next(g for g in GAMES if g["ruleset"] == "land")
    seed = f"golden-{game['seed']}"
    state = rules.new(game["scenario"], seed)
    for recorded in game["rounds"][:3]:
        progress = rules.progress(state)
        rng = Rng(seed, progress.turn, progress.round)
        state, _ = rules.resolve(state, recorded["choices"], rng)
    old = state.model_copy(update={"flown": None})  # as stored before the field
    assert not rules.resolves_from_snapshot(old)
    recorded = game["rounds"][3]
    progress = rules.progress(state)
    rng = Rng(seed, progress.turn, progress.round)
    now_after, now_events = rules.resolve(state, recorded["choices"], rng)
    rng = Rng(seed, progress.turn, progress.round)
    old_after, old_events = rules.resolve(old, recorded["choices"], rng)
    assert old_events == now_events
    assert old_after == now_after  # the history says what ``flown`` would have

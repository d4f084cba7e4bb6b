"""A campaign's views need only its latest history records (``Rules.view_records``).

Views of a campaign (panels, the board, a turn's reports and summary), running or finished,
are made from the snapshot and the few latest records the ruleset names (issue 29), so a
late round's views, and the last round's, parse what an early round's do; only the
after-action report reads every record (``bot.drawing.after_action`` parses them off the
event loop). Every recorded game is replayed; after each round every viewer's words are
drawn from the whole state and from the recent one and must match, and the first game of
each ruleset also compares the images byte for byte. A presenter that began to read an
older record (or a ruleset that named too few) goes red.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot import secrecy
from engine.rng import Rng
from tests.golden_rulesets import _registry, load

GAMES = load()
FIRSTS = {
    next(i for i, g in enumerate(GAMES) if g["ruleset"] == key)
    for key in {g["ruleset"] for g in GAMES}
}
IMAGE_ROUNDS = 14  # images are slow to draw: the first rounds of one game per ruleset


def _name(game: dict[str, Any]) -> str:
    return f"{game['ruleset']}-{game['scenario']}-{game['seed']}"


def _drawn(
    presenter: Any, scenario: str, view: Any, side: str | None, turn: int, images: bool
) -> list[Any]:
    out: list[Any] = [
        presenter.board_summary(view, "en"),
        presenter.status_lines(view, "en"),
        presenter.turn_summary(view, turn, "en"),
        presenter.after_action_turn(scenario, view, turn, "en", {}),
    ]
    count = presenter.report_count(view, turn)
    out.append(count)
    for index in range(count):
        report = presenter.report(scenario, view, turn, index, "en")
        out.append((report.text, report.image_name, report.image if images else None))
    if side is not None:
        out.append(presenter.panel_summary(view, side, "en"))
        out.append(presenter.panel_notes(scenario, view, side, {}, "en"))
    if images:
        out.append(presenter.status_board(view, {}, None, "en"))
        if side is not None:
            out.append(presenter.panel_image(view, "en"))
    return out


@pytest.mark.parametrize("index", range(len(GAMES)), ids=[_name(g) for g in GAMES])
def test_a_running_campaigns_views_are_alike_from_its_latest_records(index: int) -> None:
    game = GAMES[index]
    plugin = _registry().get(game["ruleset"])
    rules, presenter, scenario = plugin.rules, plugin.presenter, game["scenario"]
    seed = f"golden-{game['seed']}"
    state = rules.new(scenario, seed)
    windowed = finished = 0
    for number, recorded in enumerate(game["rounds"]):
        progress = rules.progress(state)
        rng = Rng(seed, progress.turn, progress.round)
        state, _events = rules.resolve(state, recorded["choices"], rng)
        stored = rules.dump_stored(state)
        wanted = rules.view_records(rules.load_stored(stored.current, ()))
        if wanted is None or wanted >= stored.length:
            continue
        windowed += 1
        finished += rules.progress(state).finished
        recent = rules.load_stored(stored.current, stored.records[stored.length - wanted :])
        images = index in FIRSTS and number < IMAGE_ROUNDS
        for side in (None, *rules.side_ids):
            viewer = secrecy.Viewer.public() if side is None else secrecy.Viewer.player(side)
            whole_view = secrecy.view_for(rules, state, viewer)
            recent_view = secrecy.view_for(rules, recent, viewer)
            turn = progress.turn
            assert _drawn(presenter, scenario, recent_view, side, turn, images) == _drawn(
                presenter, scenario, whole_view, side, turn, images
            ), f"round {number}, viewer {side}"
    # Wings reads every record (one a mission), a Dambuster raid keeps none: nothing to shorten.
    if game["ruleset"] not in ("wings", "dambuster") and len(game["rounds"]) > 3:
        assert windowed, "no view was drawn from a shorter history"
        # A finished campaign's views too (its last turn's reports and summary, the board).
        assert finished or not rules.progress(state).finished, "the end was drawn whole"


@pytest.mark.parametrize("index", range(len(GAMES)), ids=[_name(g) for g in GAMES])
def test_a_sides_view_is_alike_from_the_records_it_names(index: int) -> None:
    # A side's view (its panel, its board) made from fewer records than the public's, as
    # ``side_view_records`` names (none, for the games whose turn reports come from the
    # public view), is the very view the whole state gives that side, round after round.
    game = GAMES[index]
    rules = _registry().get(game["ruleset"]).rules
    seed = f"golden-{game['seed']}"
    state = rules.new(scenario := game["scenario"], seed)
    shortened = 0
    for number, recorded in enumerate(game["rounds"]):
        progress = rules.progress(state)
        rng = Rng(seed, progress.turn, progress.round)
        state, _events = rules.resolve(state, recorded["choices"], rng)
        stored = rules.dump_stored(state)
        bare = rules.load_stored(stored.current, ())
        wanted = rules.side_view_records(bare)
        if wanted is None or wanted >= stored.length or wanted == rules.view_records(bare):
            continue  # as any view (the test above draws those)
        shortened += 1
        short = rules.load_stored(stored.current, stored.records[stored.length - wanted :])
        for side in rules.side_ids:
            viewer = secrecy.Viewer.player(side)
            whole_view = secrecy.view_for(rules, state, viewer)
            assert secrecy.view_for(rules, short, viewer) == whole_view, (scenario, number, side)
    if game["ruleset"] in ("carrier", "land") and len(game["rounds"]) > 3:
        assert shortened, "no side view was made from a shorter history"

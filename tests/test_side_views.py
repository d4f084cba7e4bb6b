"""A side's view of a running campaign keeps no turn record where its panel and board read
none (carrier, land): what the service's cache keeps of it stays small once its state is
gone (issue 29), and every word and picture of that side's panel and board is the same as
with the records in.

The turn's reports and summary are the public's (``bot.announce`` draws them from the
public view), so the public view and a finished campaign's keep every record they had.
"""

from __future__ import annotations

import gc
import tracemalloc
from typing import Any

import pytest

from bot import secrecy
from engine.rng import Rng
from tests.golden_rulesets import _registry, load

GAMES = [g for g in load() if g["ruleset"] in ("carrier", "land")]
IMAGE_ROUNDS = 4  # images are slow to draw: the first rounds of each game


def _name(game: dict[str, Any]) -> str:
    return f"{game['ruleset']}-{game['scenario']}-{game['seed']}"


def _states(game: dict[str, Any]) -> list[tuple[Any, int]]:
    """Every state of the recorded game, with the turn that was just played."""
    rules = _registry().get(game["ruleset"]).rules
    seed = f"golden-{game['seed']}"
    state, out = rules.new(game["scenario"], seed), []
    for recorded in game["rounds"]:
        progress = rules.progress(state)
        state, _events = rules.resolve(
            state, recorded["choices"], Rng(seed, progress.turn, progress.round)
        )
        out.append((state, progress.turn))
    return out


def _kept_alone(make: Any) -> int:
    """Bytes still allocated once ``make()``'s view is the only thing left of its state."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        view = make()
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
        del view
        return held
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("ruleset", ["carrier", "land"])
def test_a_kept_side_view_holds_no_strike_report(ruleset: str) -> None:
    game = next(g for g in GAMES if g["ruleset"] == ruleset)
    rules = _registry().get(ruleset).rules
    # The running state whose last record holds the most: the view a panel would keep.
    running = [(s, t) for s, t in _states(game) if not rules.progress(s).finished]
    state = max(running, key=lambda st: len("".join(rules.dump_stored(st[0]).records[-1:])))[0]
    stored = rules.dump_stored(state)
    current, records = stored.current, stored.records[-1:]
    side = rules.side_ids[0]

    def view_of(viewer: secrecy.Viewer) -> Any:
        # The state parsed as the cache parses it (its snapshot and latest record), gone
        # once the view is made: only what the view holds of it stays allocated.
        return secrecy.view_for(rules, rules.load_stored(current, records), viewer)

    view_of(secrecy.Viewer.player(side))  # module-level tables filled once, not counted
    view_of(secrecy.Viewer.public())
    side_bytes = _kept_alone(lambda: view_of(secrecy.Viewer.player(side)))
    public_bytes = _kept_alone(lambda: view_of(secrecy.Viewer.public()))
    # The public view keeps the turn's record (its reports: tens of KiB); a side's, none.
    assert public_bytes > 3 * side_bytes, (side_bytes, public_bytes)
    assert side_bytes < 24 * 1024, side_bytes


@pytest.mark.parametrize("index", range(len(GAMES)), ids=[_name(g) for g in GAMES])
def test_a_sides_panel_and_board_read_no_turn_record(index: int) -> None:
    game = GAMES[index]
    plugin = _registry().get(game["ruleset"])
    rules, presenter, scenario = plugin.rules, plugin.presenter, game["scenario"]
    checked = 0
    for number, (state, _turn) in enumerate(_states(game)):
        public = secrecy.view_for(rules, state, secrecy.Viewer.public())
        for side in rules.side_ids:
            view = secrecy.view_for(rules, state, secrecy.Viewer.player(side))
            if rules.progress(state).finished:
                assert view.history == public.history  # the after-action reads them all
                continue
            assert view.history == ()
            full = view.model_copy(update={"history": public.history})
            images = number < IMAGE_ROUNDS
            assert _drawn(presenter, scenario, view, side, images) == _drawn(
                presenter, scenario, full, side, images
            ), f"round {number}, side {side}"
            checked += bool(public.history)
    assert checked, "no side view was drawn beside a turn record"


def _drawn(presenter: Any, scenario: str, view: Any, side: str, images: bool) -> list[Any]:
    out: list[Any] = [
        presenter.board_summary(view, "en"),
        presenter.status_lines(view, "en"),
        presenter.panel_summary(view, side, "en"),
        presenter.panel_notes(scenario, view, side, {}, "en"),
    ]
    if images:
        out.append(presenter.status_board(view, {}, None, "en"))
        out.append(presenter.panel_image(view, "en"))
    return out

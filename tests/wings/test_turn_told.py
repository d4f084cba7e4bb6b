"""The turn shown in the channel (issue 27, part 3): the programs flown by pilot name, the
story of the shots and what came of them, a picture of every path and an animation, all
from the public view after the turn and its public events; damage values stay secret."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from engine.rng import Rng
from engine.rulesets.wings import WingsRules, WingsState
from rendering.rulesets.wings import WingsPresenter
from rendering.rulesets.wings.turn import FIRE, flown
from tests.test_french import problems
from tests.wings.helpers import card_id, catalog, stack

RULES = WingsRules(catalog())
PRESENTER = WingsPresenter()


def _duel(values: tuple[int, int] = (3, 4)) -> WingsState:
    """Turn 1 of 1917 with Cecil Lewis (SPAD VII) 2.3 bw behind Kurt Wolff, both heading
    east, the others far away; the A deck's two top cards of the given values, no special,
    then a smoke card."""
    state = RULES.new("wings-1917", "told")
    mission = state.camp.mission
    assert mission is not None
    planes = dict(mission.planes)
    place = {
        "P1": (3.0, 3.0, 0.0),
        "P2": (8.0, 11.0, 0.0),
        "P3": (10.6, 11.0, 0.0),
        "P4": (19.0, 20.0, 180.0),
    }
    for pid, (x, y, heading) in place.items():
        planes[pid] = planes[pid].model_copy(update={"x": x, "y": y, "heading": heading})
    mission = mission.model_copy(update={"planes": planes})
    cards = [card_id("B", values[0], "none"), card_id("B", values[1], "none")]
    mission = stack(mission, "B", [*cards, card_id("B", 1, "smoke")])
    return state.model_copy(update={"campaign": state.camp.model_copy(update={"mission": mission})})


def _fly(state: WingsState, programs: dict[str, str]) -> tuple[WingsState, list[Any]]:
    """The turn's program and reorder rounds; its public events as the log keeps them."""
    events: list[Any] = []
    while True:
        progress = RULES.progress(state)
        choices: dict[str, dict[str, str]] = {}
        for d in RULES.pending(state):
            choices.setdefault(d.side, {})[d.field] = programs.get(d.field + d.side, d.default)
        state, happened = RULES.resolve(state, choices, Rng("told", progress.turn, progress.round))
        # What the log (and so the channel) gets: the public events (engine.sight).
        events += [(e.kind, e.data) for e in RULES.public_events(happened)]
        if RULES.ends_turn(progress.round, progress.turn, RULES.progress(state)):
            return state, events


PROGRAMS = {"plane2entente": "S S S", "plane1central": "S S S"}


def test_the_story_names_each_pilot_his_cards_and_his_shots() -> None:
    state, events = _fly(_duel(), PROGRAMS)
    told = PRESENTER.turn_told("wings-1917", RULES.view(state, None), events, 1, "en")
    assert told is not None
    lewis = next(line for line in told.lines if line.startswith("**Cecil Lewis**"))
    assert lewis.startswith("**Cecil Lewis** (SPAD VII) flew `S S S` and fired")
    assert "at Kurt Wolff, short range" in lewis
    wolff = next(line for line in told.lines if line.startswith("**Kurt Wolff**"))
    assert "took" in wolff and "damage cards" in wolff
    assert all("P1" not in line and "P3" not in line for line in told.lines)


def test_damage_values_stay_the_target_s_secret() -> None:
    # Two turns alike but for the values of the cards Kurt Wolff draws: the channel's turn
    # (words, picture and animation) is the same byte for byte.
    shown = []
    for values in ((0, 1), (2, 1)):
        state, events = _fly(_duel(values), PROGRAMS)
        # What the channel is told from holds no card's value: only that cards were drawn.
        assert not [data for kind, data in events if kind == "damage-card" or "value" in data]
        told = PRESENTER.turn_told("wings-1917", RULES.view(state, None), events, 1, "en")
        assert told is not None
        shown.append((told.lines, told.images))
    assert shown[0] == shown[1]


def test_the_picture_draws_the_fire_and_the_animation_plays_the_turn() -> None:
    state, events = _fly(_duel(), PROGRAMS)
    told = PRESENTER.turn_told("wings-1917", RULES.view(state, None), events, 1, "en")
    assert told is not None
    (png_name, png, png_alt), (gif_name, gif, gif_alt) = told.images
    assert (png_name, gif_name) == ("turn-1.png", "turn-1.gif")
    still = Image.open(io.BytesIO(png)).convert("RGB")
    assert still.width == 800
    assert FIRE in {colour for _, colour in still.getcolors(1 << 20) or ()}
    animation = Image.open(io.BytesIO(gif))
    assert animation.format == "GIF" and animation.n_frames >= 13
    assert animation.info.get("loop") == 0  # Discord plays it over and over
    assert len(gif) < 8 * 1024 * 1024
    assert "Cecil Lewis" in png_alt and "Cecil Lewis" in gif_alt


def test_a_turn_logged_without_where_moves_began_is_told_the_old_way() -> None:
    state, events = _fly(_duel(), PROGRAMS)
    old = [(kind, {k: v for k, v in data.items() if k != "start"}) for kind, data in events]
    assert not flown(old).steps
    assert PRESENTER.turn_told("wings-1917", RULES.view(state, None), old, 1, "en") is None


def test_the_turn_reads_french() -> None:
    state, events = _fly(_duel(), PROGRAMS)
    told = PRESENTER.turn_told("wings-1917", RULES.view(state, None), events, 1, "fr")
    assert told is not None
    assert any("a volé `S S S` et a tiré" in line for line in told.lines), told.lines
    assert problems([("turn", line) for line in told.lines]) == []
    assert problems([("alt", alt) for _, _, alt in told.images]) == []

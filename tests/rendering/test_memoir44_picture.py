"""The Memoir '44 air war picture holds all it draws: its words under the map end inside the
picture, a margin of paper below them, however many lines there are (the deadline's too)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.secrecy import Viewer, view_for
from engine.rulesets.memoir44 import Memoir44Rules
from rendering.rulesets.memoir44 import Memoir44Presenter
from rendering.rulesets.memoir44.picture import air_picture
from rendering.style import PAPER
from tests.rendering.asked import keys_asked


def _bottom_rows_are_paper(png: bytes, rows: int) -> bool:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    width, height = image.size
    strip = image.crop((0, height - rows, width, height))
    # The PNG is drawn with a palette: paper may come back a step off its colour.
    return all(
        abs(low - paper) <= 3 and abs(high - paper) <= 3
        for (low, high), paper in zip(strip.getextrema(), PAPER, strict=True)
    )


def _opening_view() -> tuple[Memoir44Rules, Any]:
    rules = Memoir44Rules()
    state = rules.new(next(iter(rules.scenarios())), "picture")
    return rules, view_for(rules, state, Viewer.public())


@pytest.mark.parametrize("count", [0, 1, 4, 14])
def test_the_words_under_the_map_end_inside_the_picture(count: int) -> None:
    _, view = _opening_view()
    lines = [f"line {n}: the air war goes on" for n in range(count)]
    assert _bottom_rows_are_paper(air_picture(view, lines, "en"), 12)


@pytest.mark.parametrize("deadline", [None, "2025-05-05 12:00 UTC"])
def test_the_status_board_shows_its_last_line_whole(deadline: str | None) -> None:
    rules, view = _opening_view()
    unlocked = {side: False for side in rules.side_ids}
    png = Memoir44Presenter().status_board(view, unlocked, deadline, "fr")
    assert _bottom_rows_are_paper(png, 12)


@pytest.mark.parametrize("viewer", [None, "axis"])
def test_a_hand_is_the_viewers_own_only_on_its_own_panel(
    viewer: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the game's end every hand opens: the public board says 'in hand', not 'your
    hand' (the replay page's and the channel's last board)."""
    import rendering.rulesets.memoir44.picture as picture

    _, view = _opening_view()
    allies = view.sides["allies"].model_copy(update={"hand": ("air-sortie",)})
    shown = view.model_copy(update={"viewer": viewer, "sides": {**view.sides, "allies": allies}})
    asked = keys_asked(monkeypatch, picture, "_w")
    air_picture(shown, [], "en")
    assert "open-hand" in asked and "your-hand" not in asked
    asked.clear()
    air_picture(shown.model_copy(update={"viewer": "allies"}), [], "en")
    assert "your-hand" in asked and "open-hand" not in asked

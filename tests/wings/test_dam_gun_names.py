"""A raid's AA guns go by one name wherever a player reads them: the map's label, the
status lines under it and the log ("rive 2" in French, never the engine's "shore-2")."""

from __future__ import annotations

import pytest

from bot.logtext import describe
from bot.rulesets import Registry
from bot.secrecy import Viewer
from bot.service_states import view_of
from tests.rendering.phone import recording

NAMES = {"en": ("shore 2", "dam 1"), "fr": ("rive 2", "barrage 1")}


@pytest.mark.parametrize("locale", sorted(NAMES))
def test_the_guns_read_the_same_on_the_map_in_the_status_lines_and_the_log(locale: str) -> None:
    plugin = Registry().get("dambuster")
    state = plugin.rules.new("dambuster-mohne", "gun-names")
    view = view_of(plugin.rules, state, Viewer.public())
    with recording() as images:
        plugin.presenter.status_board(view, {}, None, locale)
    drawn = [text.text for image in images for text in image.texts]
    for name in NAMES[locale]:
        assert name in drawn, drawn  # the map's label
        assert any(name in text and text != name for text in drawn), drawn  # a status line
    assert not any("shore-" in text or "dam-" in text for text in drawn), drawn
    said = describe("aa-fire", {"gun": "shore-2", "plane": "AJ-G"}, locale, ruleset="dambuster")
    assert NAMES[locale][0] in said and "shore-2" not in said, said

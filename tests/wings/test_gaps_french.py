"""Every string the forced landing, rough take-off, clouds and net lines added reads French
(the checks of tests/test_french.py, on lines the demos seldom reach)."""

from __future__ import annotations

from rendering.i18n import t
from tests.test_french import problems

PARAMS = {"plane": "Avion 1", "turn_limit": 5, "turn": 5, "level": 4, "cards": "S S VG",
          "x": "3.2", "y": "7.5", "code": "a1b2c3d4e5", "start": "c-B1", "end": "c-B2",
          "sections": "bord–c-B1 alt 3"}  # fmt: skip
KEYS = (
    "log.forced-down", "log.must-land", "log.took-off-rough", "log.entered-clouds",
    "log.left-clouds", "service.reason.seriously-wounded", "wings.plane-note.must-land",
    "wings.cloud.public", "wings.cloud.own", "wings.cloud.sealed", "wings.cloud.edge",
    "wings.net.line", "wings.net.section", "wings.net.down", "wings.net.edge",
)  # fmt: skip


def test_the_new_lines_read_french() -> None:
    lines = [(key, t(key, "fr", **PARAMS)) for key in KEYS]
    assert all(text != key for key, text in lines)  # every key is in the French catalogue
    same = ("wings.net.section",)  # "c-B1–c-B2 alt 3": ids and a number, alike in both
    assert all(text != t(key, "en", **PARAMS) for key, text in lines if key not in same)
    assert problems(lines) == []

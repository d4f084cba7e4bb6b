"""Ground element ids are short codes (c-I1, c-A1, c-F1), so a French log naming a trench,
an AA post or a flak battery reads without an English word (as objective ids do)."""

from __future__ import annotations

import re

from bot.logtext import describe
from engine.rulesets.wings.generator import defences, flak_battery
from tests.test_french import problems
from tests.wings.helpers import catalog


def test_ground_ids_are_codes_numbered_per_kind() -> None:
    posts = defences(catalog(), "central", trenches=3, caa=2)
    assert list(posts) == ["c-A1", "c-A2", "c-I1", "c-I2", "c-I3"]
    assert [posts[p].kind for p in posts] == ["caa", "caa", "trench", "trench", "trench"]
    assert flak_battery(catalog(), "entente").id == "e-F1"
    # Posts act in id order: the codes keep the kinds' order (caa, dca, trench).
    assert sorted([*posts, "c-F1"]) == ["c-A1", "c-A2", "c-F1", "c-I1", "c-I2", "c-I3"]


def test_a_french_log_naming_ground_posts_has_no_english_word() -> None:
    posts = [
        *defences(catalog(), "central", trenches=3, caa=2),
        flak_battery(catalog(), "central").id,
    ]
    lines = []
    for post in posts:
        for lang in ("en", "fr"):
            shot = describe("shot-down", {"plane": "P1", "by": post}, lang)
            burst = describe("flak-burst", {"battery": post, "planes": "P1"}, lang)
            assert post in shot and post in burst  # the same code in both languages
            if lang == "fr":
                lines += [("shot-down", shot), ("flak-burst", burst)]
    assert problems(lines) == []
    assert not [line for _, line in lines if re.search("trench|caa|dca", line)]

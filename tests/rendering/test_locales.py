"""The render strings exist in English and French, and every key the code names exists."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from bot.i18n import keys
from tests.rendering.fixtures import image_cases

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "rendering" / "locales"


def flat(path: Path) -> set[str]:
    out: set[str] = set()

    def walk(prefix: str, node: dict[str, object]) -> None:
        for key, value in node.items():
            name = f"{prefix}.{key}" if prefix else key
            if isinstance(value, dict):
                walk(name, value)
            else:
                out.add(name)

    walk("", tomllib.loads(path.read_text(encoding="utf-8")))
    return out


def test_same_keys_in_english_and_french() -> None:
    english = flat(LOCALES / "en" / "zero.toml")
    french = flat(LOCALES / "fr" / "zero.toml")
    assert english == french, {"missing in fr": english - french, "only in fr": french - english}
    assert all(key.startswith(("render.", "label.")) for key in english)


def test_every_literal_key_in_the_code_exists() -> None:
    english = keys("en")
    used: set[str] = set()
    for path in (ROOT / "rendering").rglob("*.py"):
        for match in re.finditer(r"\btr\(\s*\"([a-z0-9_.\-]+)\"", path.read_text(encoding="utf-8")):
            used.add(f"render.{match.group(1)}")
    assert used, "the scan found no keys"
    assert used <= english, used - english


@pytest.mark.parametrize(
    "name", ["status_resource_fr", "panel_allied_fr", "strike_fr", "after_action_fr"]
)
def test_french_renders(name: str) -> None:
    assert image_cases()[name]()[:8] == b"\x89PNG\r\n\x1a\n"


def test_french_words_differ_from_english() -> None:
    from rendering.text import tr

    for key in (
        "side.allied",
        "tactic.close",
        "size.large",
        "strike.phase.target-bound",
        "legend.lost",
    ):
        assert tr(key, "fr") != tr(key, "en"), key

"""Line wrapping on the pictures keeps French punctuation with the word it follows."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rendering import style

NBSP = "\u00a0"
WORDS = st.text(alphabet="abcdefghij", min_size=1, max_size=9)


def test_a_colon_never_starts_a_line() -> None:
    font = style.font(26)
    text = f"Frappe japonaise{NBSP}: porte-avions Lexington touché{NBSP}! Retour{NBSP}?"
    for width in range(120, 700, 7):
        for line in style.wrap(text, font, width, max_lines=12):
            assert not line.startswith((":", "!", "?", NBSP)), (width, line)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(WORDS, st.sampled_from(["", f"{NBSP}:", f"{NBSP}!"])), min_size=1))
def test_wrapping_loses_no_word_and_no_no_break_space(parts: list[tuple[str, str]]) -> None:
    text = " ".join(word + tail for word, tail in parts)
    lines = style.wrap(text, style.font(24), 260, max_lines=100)
    assert " ".join(lines) == text

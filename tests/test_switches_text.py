"""The GM's switch text on /campaign new (bot.switches.parse): what it reads and refuses."""

from __future__ import annotations

import pytest

from bot.service_model import ServiceError
from bot.switches import parse


def test_pairs_are_read_whatever_the_spacing_and_case() -> None:
    assert parse("front=Eastern, sun = off  Come-Back=on") == {
        "front": "eastern",
        "sun": "off",
        "come_back": "on",
    }
    assert parse("") == {} and parse(" , ") == {}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("front", "bad-switch"),
        ("=on", "bad-switch"),
        ("sun=", "bad-switch"),
        ("sun=on sun=off", "switch-twice"),
        (" ".join(f"s{n}=on" for n in range(41)), "too-many-switches"),
    ],
)
def test_malformed_text_is_refused(text: str, code: str) -> None:
    with pytest.raises(ServiceError) as refused:
        parse(text)
    assert refused.value.code == code

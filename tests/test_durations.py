from __future__ import annotations

import pytest

from bot.durations import DurationError, format_duration, parse_duration


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("12h", 43200), ("2d", 172800), ("1d12h", 129600), ("90m", 5400), (" 1D 2H ", 93600)],
)
def test_accepted_durations(text: str, seconds: int) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("", "duration.invalid"),
        ("-2h", "duration.invalid"),
        ("soon", "duration.invalid"),
        ("12", "duration.invalid"),
        ("2h30", "duration.invalid"),
        ("1m", "duration.too_short"),
        ("400d", "duration.too_long"),
    ],
)
def test_refused_durations_name_the_problem(text: str, key: str) -> None:
    with pytest.raises(DurationError) as info:
        parse_duration(text)
    assert info.value.key == key


def test_format_round_trips() -> None:
    assert format_duration(parse_duration("1d12h")) == "1d12h"

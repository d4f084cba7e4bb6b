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


def test_a_round_shorter_than_the_default_reminder_gets_one_that_fits() -> None:
    from bot.durations import default_reminders

    assert default_reminders(86400) == (6 * 3600,)
    assert default_reminders(3600) == (15 * 60,)  # a 1 h round: 15 min before its end
    assert default_reminders(6 * 3600) == (90 * 60,)
    assert default_reminders(120) == ()  # no reminder under a minute

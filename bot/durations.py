"""Durations as players type them: ``12h``, ``2d``, ``1d12h``, ``90m``."""

from __future__ import annotations

import re

from bot.limits import MAX_REMINDERS

# [0-9], not \d: \d also matches other scripts' digits ("٣h" would be three hours).
_PART = re.compile(r"([0-9]+)\s*([dhm])")
# More significant digits than this exceed any maximum in minutes, and int() of thousands of
# digits is slow (and refused past 4300): such a number is too long without being read.
_MAX_DIGITS = 9
_UNITS = {"d": 86400, "h": 3600, "m": 60}
MIN_SECONDS = 60 * 10  # a round shorter than ten minutes cannot be played by post
MAX_SECONDS = 86400 * 30


class DurationError(ValueError):
    """The text is not a duration Sortie accepts; ``key`` names the translated message."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def parse_duration(text: str, *, minimum: int = MIN_SECONDS, maximum: int = MAX_SECONDS) -> int:
    """Seconds for ``text``; refuses empty, malformed, negative, too short and absurd values."""
    cleaned = text.strip().lower().replace(" ", "")
    if not cleaned or cleaned.startswith("-"):
        raise DurationError("duration.invalid")
    position = 0
    total = 0
    for match in _PART.finditer(cleaned):
        if match.start() != position:
            raise DurationError("duration.invalid")
        digits = match.group(1).lstrip("0")
        if len(digits) > _MAX_DIGITS:
            raise DurationError("duration.too_long")
        total += int(digits or "0") * _UNITS[match.group(2)]
        position = match.end()
    if position != len(cleaned) or position == 0:
        raise DurationError("duration.invalid")
    if total < minimum:
        raise DurationError("duration.too_short")
    if total > maximum:
        raise DurationError("duration.too_long")
    return total


def parse_reminders(text: str) -> tuple[int, ...]:
    """Reminder offsets such as ``12h,1h``: at most ``MAX_REMINDERS``, each at least a minute."""
    parts = [part for part in text.split(",") if part.strip()]
    if len(parts) > MAX_REMINDERS:  # counted before parsing: 1000 parts are not even read
        raise DurationError("duration.too_many")
    return tuple(parse_duration(part, minimum=60) for part in parts)


def default_reminders(round_seconds: int) -> tuple[int, ...]:
    """The reminder a GM gets without asking: 6 hours before the deadline, or a quarter of
    a round too short for that (a 1 h round: 15 min before), never under a minute."""
    if round_seconds > 6 * 3600:
        return (6 * 3600,)
    quarter = round_seconds // 4 // 60 * 60
    return (quarter,) if quarter >= 60 else ()


def format_duration(seconds: int) -> str:
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [
        f"{days}d" if days else "",
        f"{hours}h" if hours else "",
        f"{minutes}m" if minutes else "",
    ]
    return "".join(parts) or "0m"

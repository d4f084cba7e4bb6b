"""Time as a dependency: services read ``clock.now()``, never ``datetime.now()``.

``SystemClock`` is the real one; ``ManualClock`` only moves when told, which is how the
tests and the offline demo play a week-long campaign in a second, with the same timestamps
every run.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware, in UTC."""
        ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock that stands still until ``advance`` or ``set`` moves it."""

    def __init__(self, start: datetime | None = None) -> None:
        start = start or datetime(2025, 5, 4, 12, 0, tzinfo=UTC)
        if start.tzinfo is None:
            raise ValueError("ManualClock needs a timezone-aware start")
        self._now = start.astimezone(UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, seconds: float = 0, **delta: float) -> datetime:
        self._now += timedelta(seconds=seconds, **delta)
        return self._now

    def set(self, when: datetime) -> None:
        if when.tzinfo is None:
            raise ValueError("naive datetime")
        self._now = when.astimezone(UTC)


def epoch(moment: datetime) -> int:
    """Whole UNIX seconds: the unit of every time stored in the database."""
    return int(moment.timestamp())


def from_epoch(seconds: int) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)

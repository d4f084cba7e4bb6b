"""The sun's surprise (seed F.VI.e) as the Wings boards and panels tell it: public facts
(the draw, who waits off the table), read from the view alone."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rendering.i18n import t


def sun_lines(data: Mapping[str, Any], locale: str) -> list[str]:
    """One line while the favoured side waits off the table, else none."""
    mission = data.get("mission") or {}
    side = mission.get("sun_side")
    planes = mission.get("planes") or {}
    if side is None or not any(p.get("status") == "waiting" for p in planes.values()):
        return []
    return [
        t(
            "wings.sun.waiting-line",
            locale,
            side=t(f"service.side.{side}", locale),
            time=t(f"log.value.{mission.get('time_of_day', 'morning')}", locale),
            turn=mission.get("sun_entry_by", "?"),
        )
    ]

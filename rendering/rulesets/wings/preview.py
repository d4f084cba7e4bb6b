"""A side's drafted programs before Lock, on its own order panel (issue 27, part 2).

Each time a draft changes, the panel's table is drawn again for that side: every own plane
whose program is drafted flies its three cards as a ghost path from where it stands, with
the guns' arcs at each step and its climbs and dives; the enemy stands where it was last
seen. Only the side's own view and drafts come in, so nothing of the other side's choices
can show (the differential secrecy test holds the picture to that).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from PIL import Image

from rendering.i18n import t
from rendering.rulesets.wings.flight import (
    cards_in,
    ghost_overlay,
    key_lines,
    levels,
    preview_box,
    program_path,
)
from rendering.rulesets.wings.map import SIDE_INK, table_map

MUTED = (95, 95, 95)
Line = tuple[str, tuple[int, int, int], bool]


def drafted_programs(view: Any, drafts: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """Own plane id -> the three cards its drafted program flies, for every plane of the
    viewer's side on the table whose draft names three cards of its deck (a program sealed
    in the clouds, on the ground or a choice of another kind draws nothing)."""
    mission = view.data.get("mission") or {}
    flight = view.flight or {}
    result: dict[str, tuple[str, ...]] = {}
    if not drafts or not mission or view.viewer is None:
        return result
    for pid, slot in view.slots.items():
        # Each plane's field is named after it (``program:P3``); a campaign begun before
        # numbered them by slot (``plane1``).
        field = f"program:{pid}" if f"program:{pid}" in drafts else slot
        plane = (mission.get("planes") or {}).get(pid)
        if plane is None or plane["side"] != view.viewer or field not in drafts:
            continue
        if plane["status"] != "flying" or plane.get("in_cloud"):
            continue
        kind = (flight.get("types") or {}).get(plane["type"])
        if kind is None:
            continue
        codes = cards_in(drafts[field], kind["cards"])
        if len(codes) == 3:
            result[pid] = codes
    return result


def preview_board(
    view: Any, drafted: Mapping[str, tuple[str, ...]], width: int, locale: str
) -> Image.Image | None:
    """The table with the drafted programs flown, zoomed on them; None with no draft."""
    if not drafted:
        return None
    mission = view.data["mission"]
    flight = view.flight
    paths = []
    for pid, codes in drafted.items():
        plane = mission["planes"][pid]
        start = (float(plane["x"]), float(plane["y"]), float(plane["heading"]))
        for poses in program_path(flight["types"][plane["type"]], start, codes):
            paths.append(poses)
    box = preview_box(mission, flight, paths)
    overlay = ghost_overlay(mission, flight, drafted)
    return table_map(mission, view.slots, width, locale, box=box, overlay=overlay)


def preview_lines(
    view: Any,
    drafted: Mapping[str, tuple[str, ...]],
    locale: str,
    slot: Callable[[Any, str, str], str],
    pilot: Callable[[Any, str], str],
) -> list[Line]:
    """Above the table's key: each drafted program in words, and what the marks mean."""
    if not drafted:
        return []
    mission = view.data["mission"]
    lines: list[Line] = [(t("wings.preview.title", locale), (30, 30, 30), True)]
    for pid, codes in sorted(drafted.items()):
        plane = mission["planes"][pid]
        kind = view.flight["types"][plane["type"]]
        heights = levels(plane, kind, codes)
        text = t(
            "wings.preview.plane",
            locale,
            slot=slot(view, pid, locale),
            pilot=pilot(view, pid),
            cards=" ".join(codes),
            levels=" → ".join(heights) if len(set(heights)) > 1 else heights[0],
        )
        lines.append((text, SIDE_INK.get(plane["side"], (30, 30, 30)), False))
    lines += [(text, MUTED, False) for text in key_lines(locale)]
    return lines

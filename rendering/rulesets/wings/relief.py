"""The relief's lines on the Wings boards and panels (seed F.V): what the map shades, in
words, with the rule a player programs against."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rendering.i18n import t


def relief_lines(data: Mapping[str, Any], locale: str) -> list[str]:
    """The rule once, then each relief with its floor and where it lies (its corners'
    extent, in base widths as the map's grid); none on a flat table."""
    zones = (data.get("mission") or {}).get("relief") or []
    if not zones:
        return []
    lines = [t("wings.relief.rule", locale)]
    for zone in zones:
        xs = [float(x) for x, _ in zone["corners"]]
        ys = [float(y) for _, y in zone["corners"]]
        lines.append(
            t(
                "wings.relief.line",
                locale,
                relief=zone["id"],
                floor=zone["floor"],
                x0=f"{min(xs):.1f}",
                x1=f"{max(xs):.1f}",
                y0=f"{min(ys):.1f}",
                y1=f"{max(ys):.1f}",
            )
        )
    return lines

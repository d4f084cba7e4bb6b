"""The standard 13 x 9 Memoir '44 board as geometry only: hex labels, neighbours, distance
and the three sections. Nothing here knows terrain or units; those stay at the table.

Labels are ours (the board prints none): a row letter, ``A`` on the Axis edge to ``I`` on
the Allied edge, then the hex's place in its row counted from the Allies' left, 1 to 13 on
the long rows (A, C, E, G, I) and 1 to 12 on the short ones. Inside we use "doubled"
columns (x 0 to 24, even on long rows, odd on short ones), where neighbours are (+-2, 0)
and (+-1, +-1) and the section lines fall on x = 7 and x = 17: hexes cut by a line belong
to both sections (memoir44-authored-data.md 2.3). Left and right are each player's own,
so the Axis's left is the Allies' right.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.rulesets.memoir44.catalog import Section

ROWS = "ABCDEFGHI"
COLUMNS = 25  # doubled columns 0..24
_LABEL = re.compile(r"^([A-Ia-i])\s*(\d{1,2})$")


def _x(row: int, place: int) -> int:
    return 2 * (place - 1) + (row % 2)


def row_length(row: int) -> int:
    return 13 if row % 2 == 0 else 12


def parse(text: str) -> tuple[int, int] | None:
    """(row, x) of a label such as ``C4`` or ``c 4``, or None if it is not on the board."""
    match = _LABEL.match(text.strip())
    if match is None:
        return None
    row = ROWS.index(match.group(1).upper())
    place = int(match.group(2))
    if not 1 <= place <= row_length(row):
        return None
    return row, _x(row, place)


def label(row: int, x: int) -> str:
    return f"{ROWS[row]}{(x - row % 2) // 2 + 1}"


def normal(text: str) -> str | None:
    """The label as we print it (``c 4`` -> ``C4``), or None off the board."""
    spot = parse(text)
    return None if spot is None else label(*spot)


def every_hex() -> tuple[str, ...]:
    return tuple(
        label(row, _x(row, place)) for row in range(9) for place in range(1, row_length(row) + 1)
    )


def distance(a: str, b: str) -> int:
    first, second = parse(a), parse(b)
    assert first is not None and second is not None, (a, b)
    rows = abs(first[0] - second[0])
    cols = abs(first[1] - second[1])
    return rows + max(0, (cols - rows) // 2)


def adjacent(a: str, b: str) -> bool:
    return distance(a, b) == 1


def neighbours(hexlabel: str) -> tuple[str, ...]:
    spot = parse(hexlabel)
    assert spot is not None, hexlabel
    row, x = spot
    out: list[str] = []
    for drow, dx in ((0, -2), (0, 2), (-1, -1), (-1, 1), (1, -1), (1, 1)):
        r, c = row + drow, x + dx
        if 0 <= r < 9 and 0 <= c < COLUMNS and c % 2 == r % 2:
            out.append(label(r, c))
    return tuple(out)


def _allied_sections(x: int) -> set[Section]:
    found: set[Section] = set()
    if x <= 7:
        found.add("left")
    if 7 <= x <= 17:
        found.add("centre")
    if x >= 17:
        found.add("right")
    return found


_MIRROR: dict[Section, Section] = {"left": "right", "centre": "centre", "right": "left"}


def sections(hexlabel: str, side: str) -> frozenset[Section]:
    """The sections a hex belongs to, named from ``side``'s own edge of the board."""
    spot = parse(hexlabel)
    assert spot is not None, hexlabel
    found = _allied_sections(spot[1])
    if side == "axis":
        found = {_MIRROR[s] for s in found}
    return frozenset(found)


def in_sections(hexlabel: str, side: str, wanted: Sequence[Section]) -> bool:
    return bool(sections(hexlabel, side) & set(wanted))

"""Several log events in one SQLite row (issue 13: a campaign's share of the file).

A round's resolution writes dozens of events at once (a strike alone tells every duel, flak
row and bombing run, ``bot.strikelog``), each a few dozen bytes of data; as rows of their
own their keys, headers and two index entries weighed more than the data. So the SQLite
store keeps a run of events written together, for the same turn, as one row: ``lines``
says how many events it holds, ``data`` holds them all as a JSON list, deflated together.

A bundle of ``n`` events takes the ``n`` sequence numbers they would have had one by one:
the row's ``seq`` is the last of them and the events read back as ``seq - n + 1`` to
``seq``, so /log, the export and every reader see exactly the events that were written, with
the numbers they always had. A row with ``lines = 1`` (every row written before this, and
any event written alone) is one event as before.

PostgreSQL writes one row per event; a copy from SQLite to PostgreSQL opens the bundles
(``db.transfer``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from db.repository import EventRow, NewEvent, StorageError

# The kind a bundle row carries in the ``kind`` column: only for someone reading the file
# by hand, the readers go by ``lines``.
KIND = "bundle"


def runs(events: Sequence[NewEvent]) -> list[list[NewEvent]]:
    """The events cut where the turn changes: each run becomes one row (the ``turn`` column
    is filtered on, so a row holds one turn only)."""
    out: list[list[NewEvent]] = []
    for event in events:
        if out and out[-1][0].turn == event.turn:
            out[-1].append(event)
        else:
            out.append([event])
    return out


def bundle_data(run: Sequence[NewEvent], dumps: Any) -> tuple[str, str]:
    """(source column, data JSON) of a run's row. Each line is ``[kind, data]``, with the
    event's source third where it differs from the row's (the first event's)."""
    source = run[0].source
    lines: list[list[Any]] = []
    for event in run:
        line: list[Any] = [event.kind, dict(event.data)]
        if event.source != source:
            line.append(event.source)
        lines.append(line)
    return source, dumps(lines)


def expand(row: EventRow, lines: int, items: Any) -> list[EventRow]:
    """The events a stored row holds, oldest first: ``row`` itself when it holds one,
    else one per line of ``items`` (the bundle's decoded JSON), in ``row``'s place."""
    if lines <= 1:
        return [row]
    if not isinstance(items, list) or len(items) != lines:
        raise StorageError(f"event row {row.seq} should hold {lines} events")
    first = row.seq - lines + 1
    out = []
    for index, item in enumerate(items):
        kind, data, *rest = item
        out.append(
            replace(
                row,
                seq=first + index,
                kind=str(kind),
                data=dict(data),
                source=str(rest[0]) if rest else row.source,
            )
        )
    return out


def window(
    rows: Iterable[tuple[list[EventRow], int]], newest_first: bool, limit: int, offset: int
) -> list[EventRow]:
    """Events ``offset`` to ``offset + limit`` of rows given in reading order, each as its
    expanded events (oldest first) and the running total of events up to and including it."""
    out: list[EventRow] = []
    skip: int | None = None
    for events, upto in rows:
        lines = len(events)
        if newest_first:
            events.reverse()
        if skip is None:
            skip = max(0, offset - (upto - lines))
        out.extend(events)
    return out[skip or 0 :][:limit]


def unbundled(row: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A stored events row (column -> value, ``data`` as JSON text) as one row per event,
    for a store that keeps one row per event."""
    lines = int(row.get("lines") or 1)
    if lines <= 1:
        return [dict(row)]
    items = json.loads(row["data"])
    if not isinstance(items, list) or len(items) != lines:
        raise StorageError(f"event row {row['seq']} should hold {lines} events")
    first = int(row["seq"]) - lines + 1
    out = []
    for index, item in enumerate(items):
        kind, data, *rest = item
        out.append(
            {
                **row,
                "seq": first + index,
                "kind": kind,
                "data": json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False),
                "source": rest[0] if rest else row["source"],
                "lines": 1,
            }
        )
    return out

"""Deflated JSON in the SQLite file (issue 13: a campaign's share of the file).

The big text columns (a snapshot's state, a history record, an event's data, an outbox
payload, an audit row's data, a lock's canonical choice) are JSON that repeats its keys
and names over and over, so SQLite stores them deflated, as a BLOB whose first byte names
how it was packed. A TEXT value is JSON as it was written before this, or a value too small
to gain from packing:
SQLite keeps the storage class of each value, so an old row and a new row are told apart
without a flag column, and no migration has to rewrite the old rows.

The service never sees a packed value: the SQLite repository packs on write and unpacks on
read. PostgreSQL keeps TEXT (its TOAST already compresses the long values), so a copy from
SQLite to PostgreSQL unpacks (``db.transfer``).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from db.repository import StorageError

# First byte of a packed value. A value once written keeps its mark forever, so a mark is
# never reused for another way of packing.
DEFLATE = 0x01  # raw deflate (no zlib header: the mark says what it is), no dictionary
# Raw deflate primed with a dictionary of typical values (``db/dictionaries``): an event's
# data is a few hundred bytes, too short to repeat itself, but it repeats the keys and
# words every other event has. A dictionary file is never edited once released: a better
# one comes as a new file under a new mark, and the old one stays to read the old rows.
# They were built from the offline demos (three of the games, seed 7), not from the
# benchmark's campaigns: events-1 holds a few values of each kind of event, the commonest
# kinds last (deflate reaches nearer text more cheaply); history-1, outbox-1 and state-1
# the last records, payloads and states of each demo, the default game's last.
EVENTS_1 = 0x02
HISTORY_1 = 0x03
OUTBOX_1 = 0x04
STATE_1 = 0x05
DICTIONARIES = {
    EVENTS_1: "events-1.txt",
    HISTORY_1: "history-1.txt",
    OUTBOX_1: "outbox-1.txt",
    STATE_1: "state-1.txt",
}

# Below this many bytes the mark and deflate's own overhead eat the gain.
SMALLEST = 48
_LEVEL = 9
_WINDOW = -15  # negative: raw deflate, no header or checksum (SQLite's pages have their own)


@cache
def _dictionary(mark: int) -> bytes:
    if mark == DEFLATE:
        return b""
    return (Path(__file__).parent / "dictionaries" / DICTIONARIES[mark]).read_bytes()


# Values packed ahead in another process: a resolution's worker packs the new snapshot's
# state and the round's history records (``bot.resolver``), which cost the bot's event
# loop 0.2 to 0.4 ms a resolution at level 9. (mark, text) -> the packed value, each taken
# by the one ``pack`` that stores it. Deflate is deterministic for the same zlib, level and
# dictionary, and a worker is this program forked, so a value found here is the very value
# ``pack`` would make (``tests/service/test_packed_ahead.py``); one made by another zlib is
# refused at the door. Bounded: the values of a resolution planned again and never written
# are dropped, oldest first.
_AHEAD: dict[tuple[int, str], str | bytes] = {}
AHEAD_KEPT = 64


def packed_ahead(values: Iterable[tuple[int, str, str | bytes]], made_by: str) -> None:
    """Keep ``(mark, text, packed)`` values packed elsewhere for the ``pack`` to come;
    ``made_by``: the packing process's ``zlib.ZLIB_RUNTIME_VERSION``."""
    if made_by != zlib.ZLIB_RUNTIME_VERSION:
        return
    for mark, text, packed in values:
        _AHEAD[(mark, text)] = packed
    while len(_AHEAD) > AHEAD_KEPT:
        del _AHEAD[next(iter(_AHEAD))]


def pack(text: str, mark: int = DEFLATE) -> str | bytes:
    """``text`` as stored: deflated behind ``mark``, or as is when that is not smaller."""
    if _AHEAD:
        ready = _AHEAD.pop((mark, text), None)
        if ready is not None:
            return ready
    raw = text.encode()
    if len(raw) < SMALLEST:
        return text
    words = _dictionary(mark)
    if words:
        squeezer = zlib.compressobj(_LEVEL, zlib.DEFLATED, _WINDOW, 9, zdict=words)
    else:
        squeezer = zlib.compressobj(_LEVEL, zlib.DEFLATED, _WINDOW, 9)
    packed = bytes((mark,)) + squeezer.compress(raw) + squeezer.flush()
    return packed if len(packed) < len(raw) else text


def unpack(value: str | bytes) -> str:
    """The JSON text of a stored value, packed or not."""
    if isinstance(value, str):
        return value
    if not value:
        raise StorageError("an empty packed value")
    mark = value[0]
    if mark != DEFLATE and mark not in DICTIONARIES:
        raise StorageError(f"a value packed with an unknown mark {mark:#04x}")
    words = _dictionary(mark)
    try:
        if words:
            opener = zlib.decompressobj(_WINDOW, zdict=words)
            return (opener.decompress(value[1:]) + opener.flush()).decode()
        return zlib.decompress(value[1:], _WINDOW).decode()
    except (zlib.error, UnicodeDecodeError) as exc:
        raise StorageError(f"a packed value does not unpack: {exc}") from exc

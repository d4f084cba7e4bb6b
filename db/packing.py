"""Deflated JSON in the SQLite file (issue 13: a campaign's share of the file).

The big text columns (a snapshot's state, a history record, an event's data, an outbox
payload, an audit row's data) are JSON that repeats its keys and names over and over, so
SQLite stores them deflated, as a BLOB whose first byte names how it was packed. A TEXT
value is JSON as it was written before this, or a value too small to gain from packing:
SQLite keeps the storage class of each value, so an old row and a new row are told apart
without a flag column, and no migration has to rewrite the old rows.

The service never sees a packed value: the SQLite repository packs on write and unpacks on
read. PostgreSQL keeps TEXT (its TOAST already compresses the long values), so a copy from
SQLite to PostgreSQL unpacks (``db.transfer``).
"""

from __future__ import annotations

import zlib

from db.repository import StorageError

# First byte of a packed value. A value once written keeps its mark forever, so a mark is
# never reused for another way of packing.
DEFLATE = 0x01  # raw deflate (no zlib header: the mark says what it is), no dictionary

# Below this many bytes the mark and deflate's own overhead eat the gain.
SMALLEST = 48
_LEVEL = 9
_WINDOW = -15  # negative: raw deflate, no header or checksum (SQLite's pages have their own)


def pack(text: str) -> str | bytes:
    """``text`` as stored: deflated behind its mark, or as is when that is not smaller."""
    raw = text.encode()
    if len(raw) < SMALLEST:
        return text
    squeezer = zlib.compressobj(_LEVEL, zlib.DEFLATED, _WINDOW, 9)
    packed = bytes((DEFLATE,)) + squeezer.compress(raw) + squeezer.flush()
    return packed if len(packed) < len(raw) else text


def unpack(value: str | bytes) -> str:
    """The JSON text of a stored value, packed or not."""
    if isinstance(value, str):
        return value
    if not value:
        raise StorageError("an empty packed value")
    mark = value[0]
    if mark == DEFLATE:
        try:
            return zlib.decompress(value[1:], _WINDOW).decode()
        except (zlib.error, UnicodeDecodeError) as exc:
            raise StorageError(f"a packed value does not unpack: {exc}") from exc
    raise StorageError(f"a value packed with an unknown mark {mark:#04x}")

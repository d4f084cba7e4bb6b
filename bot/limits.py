"""Limits on what people type and on what the bot answers.

Belongs here: the few bounds that keep hostile or careless input from turning into a
message Discord refuses (over 2000 characters: the user then gets no answer at all), a
"reason" nobody can see, or a thousand reminders per round. Pure functions, no Discord.
"""

from __future__ import annotations

import unicodedata

MESSAGE_LIMIT = 2000  # Discord refuses message content longer than this
VALUE_LIMIT = 100  # a value quoted back in a refusal: enough to recognise it
MAX_REMINDERS = 10  # each reminder is a DM per side per round
# A text written for one field (a modal's text input): far above any order a game reads,
# far below Discord's 4,000, so a pasted page is refused before any ruleset parses it.
TEXT_INPUT_LIMIT = 200

# Characters that draw nothing although they are letters or symbols to Unicode.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Whitespace, format characters (the no-width space and joiners, BOM, word joiner...), controls,
# unassigned and private-use code points, and combining marks with nothing to combine with.
_INVISIBLE_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me"})


def is_blank(text: str) -> bool:
    """True when ``text`` shows nothing: only spaces, no-width or other invisible characters."""
    return not any(
        ch not in _BLANK_LETTERS and unicodedata.category(ch) not in _INVISIBLE_CATEGORIES
        for ch in text
    )


def plain(text: str) -> str:
    """``text`` without control characters (NUL and the like; line breaks and tabs kept).

    A reason typed in Discord may hold them; PostgreSQL refuses a NUL in any text column,
    so one left in would fail the GM's action on that backend (and a SQLite store holding
    one could not be copied to PostgreSQL).
    """
    if text.isprintable():
        return text
    return "".join(ch for ch in text if ch in "\n\t" or unicodedata.category(ch) != "Cc")


def clip(text: str, limit: int = VALUE_LIMIT) -> str:
    """``text`` cut to at most ``limit`` characters, an ellipsis marking the cut."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)] + "…"

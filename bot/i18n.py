"""The translation layer lives in ``rendering.i18n`` (words are presentation, and images
need them without reaching up into the application); the bot's modules import it here."""

from rendering.i18n import (
    LOCALE_DIR,
    SUPPORTED,
    _catalog,
    field_word,
    keys,
    normalize,
    set_default_locale,
    t,
    word,
)

__all__ = [
    "LOCALE_DIR",
    "SUPPORTED",
    "_catalog",
    "field_word",
    "keys",
    "normalize",
    "set_default_locale",
    "t",
    "word",
]

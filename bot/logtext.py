"""One readable line per log event, in the reader's language.

The log stores events as a kind plus data; this module is the only place that turns them
into sentences, so the channel, ``/log`` and the exported report read the same. An event
kind without a template still shows, as its kind and its data, so nothing is ever hidden.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import _catalog, normalize, t


def _flat(data: Mapping[str, Any]) -> dict[str, str]:
    flat: dict[str, str] = {}
    for key, value in data.items():
        if isinstance(value, Mapping):
            for inner, item in value.items():
                flat[f"{key}_{inner}"] = _text(item)
        flat[key] = _text(value)
    return flat


def _text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(_text(v) for v in value) or "—"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_text(v)}" for k, v in value.items())
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def describe(
    kind: str, data: Mapping[str, Any], locale: Any = None, *, turn: int | None = None
) -> str:
    """The event as a sentence. ``turn`` is the event's own turn (a column, not in ``data``),
    which some templates name; without it they show "?" there."""
    key = f"log.{kind}"
    lang = normalize(locale)
    if key in _catalog(lang) or key in _catalog("en"):
        params = {} if turn is None else {"turn": str(turn)}
        return t(key, lang, **{**params, **_flat(data)})
    details = "; ".join(f"{k}: {_text(v)}" for k, v in data.items())
    return f"{kind} ({details})" if details else kind

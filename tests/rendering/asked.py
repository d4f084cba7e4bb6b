"""Which text keys a drawing asks for: the words it chose, whatever a language says."""

from __future__ import annotations

from typing import Any

import pytest


def keys_asked(monkeypatch: pytest.MonkeyPatch, module: Any, lookup: str) -> list[str]:
    """Wraps ``module``'s text lookup named ``lookup`` (a ``(key, locale, **values)``
    function) for this test; the list fills with every key asked, in order."""
    asked: list[str] = []
    words = getattr(module, lookup)

    def recording(key: str, locale: str, **values: object) -> str:
        asked.append(key)
        return str(words(key, locale, **values))

    monkeypatch.setattr(module, lookup, recording)
    return asked

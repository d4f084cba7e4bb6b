"""The carrier decision lists are remembered per state (issue 13), without changing them."""

from __future__ import annotations

from engine.campaign import new_campaign, pending
from engine.loader import default_catalog
from engine.types import Side


def test_pending_is_the_same_list_every_time_and_callers_cannot_spoil_it() -> None:
    catalog = default_catalog()
    state = new_campaign(catalog, "coral-sea", "memo")
    first = pending(catalog, state)
    assert {d.side for d in first} == {s.value for s in Side}
    first.clear()  # a caller's own copy: the next caller still gets every decision
    again = pending(catalog, state)
    assert again and again == pending(catalog, state.model_copy())
    assert again is not pending(catalog, state)

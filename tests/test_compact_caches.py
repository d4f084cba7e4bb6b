"""What the service's caches keep holds no fields-set per model (``engine.compact``): a
kept state and a kept view of a recorded game take far fewer bytes than the same objects
as parsed and built, and read, dump and copy the same (issue 29)."""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict

from bot import secrecy, service_states
from bot.round_views import WHOLE
from engine.compact import share_fields_sets
from engine.rng import Rng
from tests.golden_rulesets import _registry, load

GAMES = ("carrier", "land", "wings")  # the games the capacity benchmark plays


def _late_state(ruleset: str) -> tuple[Any, Any]:
    """A recorded game's rules and its state two thirds of the way through, as stored."""
    game = next(g for g in load() if g["ruleset"] == ruleset)
    rules = _registry().get(ruleset).rules
    seed = f"golden-{game['seed']}"
    state = rules.new(game["scenario"], seed)
    for recorded in game["rounds"][: 2 * len(game["rounds"]) // 3]:
        progress = rules.progress(state)
        state, _events = rules.resolve(
            state, recorded["choices"], Rng(seed, progress.turn, progress.round)
        )
    return rules, rules.dump_stored(state)


def _models(root: Any) -> list[BaseModel]:
    found: list[BaseModel] = []
    seen: set[int] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, BaseModel):
            found.append(obj)
            stack.extend(obj.__dict__.values())
        elif isinstance(obj, (list, tuple)):
            stack.extend(obj)
        elif isinstance(obj, dict):
            stack.extend(obj.values())
    return found


def _kept_bytes(make: Callable[[], Any], keep: Callable[[Any], None]) -> int:
    """Bytes still allocated once ``make()``'s result went through ``keep``."""
    keep(make())  # tables filled once, not counted
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = make()
        keep(kept)
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("ruleset", GAMES)
def test_a_kept_state_and_view_hold_one_fields_set_per_class(ruleset: str) -> None:
    rules, stored = _late_state(ruleset)

    def parsed() -> Any:
        return rules.load_stored(stored.current, stored.records)

    def view() -> Any:
        return secrecy.view_for(rules, parsed(), secrecy.Viewer.public())

    states = service_states._States(1 << 40)
    memo = service_states._Memo(1 << 40)
    key = (id(rules), 1, 0, len(stored.records), stored.current, WHOLE)

    def keep_state(state: Any) -> None:
        states.put(rules, key, state, 1)

    def keep_view(value: Any) -> None:
        memo.put(rules, key, "view:public", value)

    state = parsed()
    keep_state(state)
    models = _models(state)
    frozen = [m for m in models if type(m).model_config.get("frozen")]
    sets = {id(m.__pydantic_fields_set__) for m in frozen}
    kinds = {(type(m), frozenset(m.__pydantic_fields_set__)) for m in frozen}
    assert len(frozen) > 20  # a late state: many models
    assert len(sets) == len(kinds)  # one set per class and names, not one per model

    as_parsed = _kept_bytes(parsed, lambda _state: None)
    as_kept = _kept_bytes(parsed, keep_state)
    views_built = _kept_bytes(view, lambda _view: None)
    views_kept = _kept_bytes(view, keep_view)
    # Wings' states and views are mostly plain data (numbers, text); the carrier's and
    # land's are models (a carrier state about 2.8 times smaller kept).
    # A Wings view is one model around plain data: nothing to share.
    most, views_most = {"carrier": (0.5, 0.5), "land": (0.5, 0.5), "wings": (0.75, 1.0)}[ruleset]
    assert as_kept <= most * as_parsed, (as_kept, as_parsed)
    assert views_kept <= views_most * views_built, (views_kept, views_built)


@pytest.mark.parametrize("ruleset", GAMES)
def test_a_compacted_state_reads_dumps_and_plays_the_same(ruleset: str) -> None:
    rules, stored = _late_state(ruleset)
    state = rules.load_stored(stored.current, stored.records)
    fresh = rules.load_stored(stored.current, stored.records)
    assert share_fields_sets(state) > 0
    assert state == fresh
    assert state.model_dump_json() == fresh.model_dump_json()
    again = rules.dump_stored(state)
    assert (again.current, again.records) == (stored.current, stored.records)
    models, fresh_models = _models(state), _models(fresh)
    assert [m.model_fields_set for m in models] == [m.model_fields_set for m in fresh_models]
    assert share_fields_sets(state) == 0  # walked once


class _Inner(BaseModel):
    model_config = ConfigDict(frozen=True)
    a: int
    b: int = 0


class _Loose(BaseModel):  # not frozen: assignment adds to its own set
    inner: _Inner
    c: int = 0


class _Outer(BaseModel):
    model_config = ConfigDict(frozen=True)
    inners: tuple[_Inner, ...]
    loose: _Loose
    data: dict[str, Any]


def test_shared_sets_are_never_written_through() -> None:
    outer = _Outer(
        inners=(_Inner(a=1), _Inner(a=2, b=3), _Inner(a=4)),
        loose=_Loose(inner=_Inner(a=5)),
        data={"plain": [1, 2, 3]},
    )
    assert share_fields_sets(outer) == 5  # outer, three inners, the loose one's inner
    first, full, third = outer.inners
    assert first.__pydantic_fields_set__ is third.__pydantic_fields_set__
    assert first.model_fields_set == {"a"} and full.model_fields_set == {"a", "b"}
    copied = first.model_copy(update={"b": 9})
    assert copied.model_fields_set == {"a", "b"} and third.model_fields_set == {"a"}
    outer.loose.c = 1
    assert outer.loose.model_fields_set == {"inner", "c"}
    assert outer.loose.inner.model_fields_set == {"a"}

"""Frozen models sharing their class's fields-set, so that what the application keeps of
them (parsed states, views, decisions) holds no set per model (issue 29).

pydantic gives each model a set of the names of the fields it was given
(``__pydantic_fields_set__``): validation (a state parsed from storage, a view built with
its constructor) and unpickling make one per model, 216 bytes empty, 728 with five to
eighteen names, 2,264 beyond, against the model's own 80: about half of what the
service's caches held. pydantic only reads it, and copies it before adding to it
(``model_copy``); a frozen model is never assigned to. So the frozen models of a class
holding the same names can share one set: what ``engine.zero.trusted`` gives the models
it builds, and ``share_fields_sets`` the models of an object kept for long.
"""

from __future__ import annotations

import typing
from typing import Any

from pydantic import BaseModel

# Per class: the set of all its field names the frozen models ``engine.zero.trusted``
# builds share, or ``None`` for a class that is not frozen (its models' sets are theirs:
# assignment adds to them).
_full: dict[type[BaseModel], set[str] | None] = {}
# The same for the models ``share_fields_sets`` walked: another set with the same names,
# so that a model holding it is known to have been walked, and everything it holds with it
# (a model ``trusted`` built may hold models with sets of their own).
_walked: dict[type[BaseModel], set[str] | None] = {}
# Walked models' sets with some names left out (a field left at its default), per class
# and names; and those sets' ids.
_partial: dict[tuple[type[BaseModel], frozenset[str]], set[str]] = {}
_partial_ids: set[int] = set()
_set_fields = BaseModel.__dict__["__pydantic_fields_set__"].__set__
# Per class: its fields whose declared type names a model (``Decision``, ``list[Unit]``,
# ``dict[str, Side] | None``): the only ones the walk goes into. A field declared as
# numbers, text or ``Any`` (a view's plain data) holds no model a walk would share a set
# for, and walking thousands of its numbers cost more than all the rest.
_model_fields: dict[type[BaseModel], tuple[str, ...]] = {}


def _names_a_model(annotation: Any) -> bool:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return True
    return any(_names_a_model(arg) for arg in typing.get_args(annotation))


def _fields_with_models(cls: type[BaseModel]) -> tuple[str, ...]:
    if cls in _model_fields:
        return _model_fields[cls]
    names = tuple(
        name for name, info in cls.model_fields.items() if _names_a_model(info.annotation)
    )
    _model_fields[cls] = names
    return names


def _frozen_names(cls: type[BaseModel]) -> set[str] | None:
    return set(cls.model_fields) if cls.model_config.get("frozen") else None


def fields_set_of(cls: type[BaseModel]) -> set[str] | None:
    """The fields-set the frozen models of ``cls`` given all its fields share when built
    without validation (``engine.zero.trusted``); ``None`` for a class that is not frozen."""
    if cls in _full:
        return _full[cls]
    shared = _full[cls] = _frozen_names(cls)
    return shared


def _walked_set(cls: type[BaseModel], names: set[str]) -> set[str] | None:
    """The set walked models of ``cls`` holding ``names`` share (``None``: not frozen)."""
    if cls in _walked:
        full = _walked[cls]
    else:
        full = _walked[cls] = _frozen_names(cls)
    if full is None or names == full:
        return full
    key = (cls, frozenset(names))
    shared = _partial.get(key)
    if shared is None:
        shared = _partial[key] = set(names)
        _partial_ids.add(id(shared))
    return shared


def share_fields_sets(root: object) -> int:
    """Give every frozen model reachable from ``root`` (through the fields of models whose
    declared type names a model, lists, tuples and dict values) the set its class's
    walked models holding the same names share, in place of one of its own; how many
    models changed.

    A model already holding such a set was walked before, with all it holds (a frozen
    model's fields never change): the walk stops there, so a state made on top of a kept
    one, or a view holding a kept state's records, costs only its own models. An object
    reached twice in one walk is walked once."""
    changed = 0
    stack: list[object] = [root]
    seen: set[int] = set()
    while stack:
        obj = stack.pop()
        if isinstance(obj, BaseModel):
            names = obj.__pydantic_fields_set__
            cls = type(obj)
            if (cls in _walked and names is _walked[cls]) or id(names) in _partial_ids:
                continue  # walked before
            shared = _walked_set(cls, names)
            if shared is None:  # not frozen: its own set, and its fields walked once
                if id(obj) in seen:
                    continue
                seen.add(id(obj))
            else:
                _set_fields(obj, shared)
                changed += 1
            held = obj.__dict__
            for name in _fields_with_models(cls):
                value = held.get(name)
                if value is not None:
                    stack.append(value)
        elif isinstance(obj, (list, tuple)) and id(obj) not in seen:
            seen.add(id(obj))
            stack.extend(obj)
        elif isinstance(obj, dict) and id(obj) not in seen:
            seen.add(id(obj))
            stack.extend(obj.values())
    return changed

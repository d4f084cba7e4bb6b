"""Frozen models built from values the engine made itself, without validation.

A strike ends with thousands of small report models (every card drawn, every exchange);
validating them cost a quarter of a strike's time (issue 13). ``trusted`` takes every
field by name, in any order, stores them in the model's own field order (the order
``model_dump_json`` writes) and checks nothing else, so the caller must pass values of
the declared types (a tuple where the model says tuple, the enum where it says enum).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

M = TypeVar("M", bound=BaseModel)

_set = object.__setattr__
_new = object.__new__
# The slots every model has beside its ``__dict__``, set through their descriptors (the
# model is frozen, and going through ``object.__setattr__`` for each costs more).
_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_private = BaseModel.__dict__["__pydantic_private__"].__set__
_names: dict[type[BaseModel], tuple[str, ...]] = {}


def trusted(cls: type[M], /, **values: Any) -> M:
    """``cls`` holding ``values``; a field left out is a ``KeyError``, an extra one too."""
    names = _names.get(cls)
    if names is None:
        names = _names[cls] = tuple(cls.model_fields)
    if tuple(values) != names:  # named out of the model's order, or wrongly
        if len(values) != len(names):
            extra = sorted(set(values) ^ set(names))
            raise KeyError(f"{cls.__name__}: fields {extra} given or missing")
        values = {name: values[name] for name in names}
    return _made(cls, values, names)


def _made(cls: type[M], values: dict[str, Any], names: tuple[str, ...]) -> M:
    """The model itself around ``values``, a dict of every field in the model's order."""
    model = _new(cls)
    _set(model, "__dict__", values)
    _fields_set(model, set(names))
    _extra(model, None)
    _private(model, None)
    return model


def trusted_rows(cls: type[M], rows: Iterable[tuple[Any, ...]]) -> tuple[M, ...]:
    """One ``cls`` per row, each row holding every field in the model's own order (the
    cheapest way to build the thousands of card draws a campaign records)."""
    names = _names.get(cls)
    if names is None:
        names = _names[cls] = tuple(cls.model_fields)
    width = len(names)
    built: list[M] = []
    for row in rows:
        if len(row) != width:
            raise KeyError(f"{cls.__name__}: {len(row)} values for {width} fields")
        model = _new(cls)
        _set(model, "__dict__", dict(zip(names, row, strict=True)))
        _fields_set(model, set(names))
        _extra(model, None)
        _private(model, None)
        built.append(model)
    return tuple(built)


# Per model: every field at its default, in the model's order (a required one at
# ``PydanticUndefined``), the names of the required ones and the fields made by a factory.
_Template = tuple[dict[str, Any], frozenset[str], tuple[tuple[str, Any], ...], tuple[str, ...]]
_templates: dict[type[BaseModel], _Template] = {}


def _template(cls: type[BaseModel]) -> _Template:
    fields = cls.model_fields
    defaults = {name: info.default for name, info in fields.items()}
    required = frozenset(
        name
        for name, info in fields.items()
        if info.default is PydanticUndefined and info.default_factory is None
    )
    factories = tuple(
        (name, info.default_factory)
        for name, info in fields.items()
        if info.default_factory is not None
    )
    return defaults, required, factories, tuple(fields)


def trusted_defaults(cls: type[M], /, **values: Any) -> M:
    """``trusted``, with the fields left out at their declared defaults (a default
    factory is called for each model, so no two models share a mutable default)."""
    template = _templates.get(cls)
    if template is None:
        template = _templates[cls] = _template(cls)
    defaults, required, factories, names = template
    full = defaults.copy()
    full.update(values)  # a known field keeps its place in the model's order
    if len(full) != len(names):
        unknown = sorted(values.keys() - defaults.keys())
        raise KeyError(f"{cls.__name__}: unknown fields {unknown}")
    if not required <= values.keys():
        raise KeyError(f"{cls.__name__}: required fields {sorted(required - values.keys())}")
    for name, factory in factories:
        if name not in values:
            full[name] = factory()
    return _made(cls, full, names)


def trusted_copy(model: M, /, **update: Any) -> M:
    """``model`` with some fields replaced, like ``model_copy(update=...)`` at a fraction
    of its cost; the new values must be of the declared types, and only fields named."""
    cls = type(model)
    names = _names.get(cls)
    if names is None:
        names = _names[cls] = tuple(cls.model_fields)
    values = model.__dict__.copy()
    values.update(update)
    if len(values) != len(names):
        raise KeyError(f"{cls.__name__}: unknown fields {sorted(update.keys() - set(names))}")
    return _made(cls, values, names)

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

from engine.compact import fields_set_of

M = TypeVar("M", bound=BaseModel)

_new = object.__new__
# A model's ``__dict__`` and the slots every model has beside it, set through their
# descriptors (the model is frozen, and ``object.__setattr__`` for each costs more).
_dict = BaseModel.__dict__["__dict__"].__set__
_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_private = BaseModel.__dict__["__pydantic_private__"].__set__
_shared: dict[type[BaseModel], tuple[tuple[str, ...], set[str]]] = {}  # names, fields-set

# Per class: its field names in order, and the fields-set its models share when the class
# is frozen (every field set): pydantic only reads it, and copies it before adding to it
# (``model_copy``), and a frozen model is never assigned to. A set per model is one more
# object to allocate and for the garbage collector to walk, hundreds per turn (issue 13).
# ``None``: not frozen, a set for each model.
_Kind = tuple[tuple[str, ...], set[str] | None]
_kinds: dict[type[BaseModel], _Kind] = {}


def _kind(cls: type[BaseModel]) -> _Kind:
    kind = _kinds.get(cls)
    if kind is None:
        names = tuple(cls.model_fields)
        kind = _kinds[cls] = (names, fields_set_of(cls))
    return kind


def trusted(cls: type[M], /, **values: Any) -> M:
    """``cls`` holding ``values``; a field left out is a ``KeyError``, an extra one too."""
    kind = _kinds.get(cls) or _kind(cls)
    names = kind[0]
    if tuple(values) != names:  # named out of the model's order, or wrongly
        if len(values) != len(names):
            extra = sorted(set(values) ^ set(names))
            raise KeyError(f"{cls.__name__}: fields {extra} given or missing")
        values = {name: values[name] for name in names}
    return _made(cls, values, kind)


def _made(cls: type[M], values: dict[str, Any], kind: _Kind) -> M:
    """The model itself around ``values``, a dict of every field in the model's order."""
    model = _new(cls)
    _dict(model, values)
    shared = kind[1]
    _fields_set(model, set(kind[0]) if shared is None else shared)
    _extra(model, None)
    _private(model, None)
    return model


def trusted_dicts(cls: type[M], rows: Iterable[dict[str, Any]]) -> tuple[M, ...]:
    """One ``cls`` per dict, each dict holding every field in the model's own order and
    becoming the model's ``__dict__`` as it is (the cheapest way to build the thousands of
    card draws a campaign records: a dict display at the call site costs less than any
    conversion here).

    Only the first row's keys are checked: the rows of one call come from the same few
    dict displays, and ``tests/engine/test_golden.py`` holds every byte of the output.
    The models of a class share one fields-set: pydantic only reads it, and copies it
    before adding to it (``model_copy``), so sharing saves a set per model."""
    known = _shared.get(cls)
    if known is None:
        shared = fields_set_of(cls)  # the set the walk of ``engine.compact`` gives them too
        known = _shared[cls] = (
            tuple(cls.model_fields),
            set(cls.model_fields) if shared is None else shared,
        )
    names, shared = known
    new, set_dict, fields_set, extra, private = _new, _dict, _fields_set, _extra, _private
    built: list[M] = []
    append = built.append
    for row in rows:
        if not built and tuple(row) != names:
            raise KeyError(f"{cls.__name__}: fields {tuple(row)}, expected {names}")
        model = new(cls)
        set_dict(model, row)
        fields_set(model, shared)
        extra(model, None)
        private(model, None)
        append(model)
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
        raise KeyError(f"{cls.__name__}: required fields {sorted(required.difference(values))}")
    for name, factory in factories:
        if name not in values:
            full[name] = factory()
    return _made(cls, full, _kinds.get(cls) or _kind(cls))


def trusted_copy(model: M, /, **update: Any) -> M:
    """``model`` with some fields replaced, like ``model_copy(update=...)`` at a fraction
    of its cost; the new values must be of the declared types, and only fields named."""
    cls = type(model)
    kind = _kinds.get(cls) or _kind(cls)
    values = model.__dict__.copy()
    values.update(update)
    if len(values) != len(kind[0]):
        unknown = sorted(update.keys() - set(kind[0]))
        raise KeyError(f"{cls.__name__}: unknown fields {unknown}")
    return _made(cls, values, kind)

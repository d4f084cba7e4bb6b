"""Who may see each piece of a game, and from when: the labels, and the gate that keeps.

A ruleset labels its state where it declares it. A pydantic field says whose it is and when
it opens with ``Annotated``::

    class Plane(BaseModel):
        side: Owner[str]                 # whose the plane is (public)
        x: Public[float]                 # everyone sees where it flies
        damage: Own[int]                 # its side's, opened when the campaign ends
        deck: Sealed[tuple[int, ...]]    # nobody's, opened when the campaign ends
        programs: Annotated[dict[str, str], own(key="planes")]  # each entry its plane's side's

A field with no label is secret: its owner's if one is in scope (the nearest enclosing
model with an ``Owner`` field, or an entry of a mapping ``own(key=SIDE)``), nobody's until
the campaign ends otherwise. A new field is therefore hidden until someone says it may be
shown; a list of keys to delete would be public by default instead.

``keep`` is the one gate: it walks a state and returns only what the viewer may see, as a
tree of dicts where a part is partly hidden and the state's own objects where a part is
wholly public. It never copies a value in order to take something out of it.

Events carry a label too (``Event.sight``), or their ruleset declares one per kind; a kind
with neither is secret. An event is published as it happens only if its label is public;
any other is kept sealed by the application and opens when the campaign ends.

Opening times (``Opens``): ``reveal`` with the round's reveal, ``turn-end`` when the turn
closes, ``campaign-end`` when the campaign is over, ``never``. A state holds a value for as
long as the rules need it; a value labelled to open at the reveal or the turn's end is one
the rules clear (or make public by another field) once it opens, so the gate keeps it closed
while the state still holds it. Everything but ``never`` opens when the campaign is over.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic_core import to_jsonable_python

Opens = Literal["reveal", "turn-end", "campaign-end", "never"]
Audience = Literal["public", "owner", "sealed"]
OPENS: tuple[Opens, ...] = ("reveal", "turn-end", "campaign-end", "never")

# ``own(key=SIDE)``: the mapping's keys are side ids, each entry its side's.
SIDE = "@side"


@dataclass(frozen=True)
class Sight:
    """A label: who sees a value now (``audience``) and when it opens to everyone.

    ``public``: everyone, now. ``owner``: the side that owns it (and the GM of a campaign
    whose secrets he may read), everyone once it opens. ``sealed``: nobody until it opens.

    The owner is the one in scope unless the label names another way to find it:
    ``key``/``item``: each entry of a mapping (by its key) or sequence (by its value) is
    owned by the side ``SIDE`` names, or by the owner of the item of that id in the sibling
    mapping named (``key="planes"``: a program per plane id is its plane's side's);
    ``by``: the owner is the value of the sibling field named.

    ``unless``: the value is public while the sibling flag named is false (a plane's last
    card is seen, unless it flies in the clouds). ``glimpse``: the owner of a sibling entry
    (same mapping) whose field of that name lists this entry's key sees it too (an expert
    eye watching a plane). ``owner_sees``: for a sealed value, what its owner may see of it
    (face-down ammunition: how many cards). ``side``: the owner of the value and of all
    it holds is this side, whatever is in scope (a one-sided game's crew).
    """

    audience: Audience
    opens: Opens = "campaign-end"
    key: str | None = None
    item: str | None = None
    by: str | None = None
    unless: str | None = None
    glimpse: str | None = None
    owner_sees: Callable[[Any], Any] | None = None
    side: str | None = None

    @property
    def public(self) -> bool:
        return self.audience == "public"

    def __reduce__(self) -> tuple[Any, ...]:
        # Compiled (scripts/build_native.py), a frozen dataclass is a native class whose
        # default pickle and copy set each field through the frozen ``__setattr__``, which
        # refuses: an event's own label crosses from a resolving worker with the event.
        return (
            Sight,
            (
                self.audience,
                self.opens,
                self.key,
                self.item,
                self.by,
                self.unless,
                self.glimpse,
                self.owner_sees,
                self.side,
            ),
        )


class _OwnerMark:
    """Marks the field that names a model's owning side."""

    def __repr__(self) -> str:
        return "OWNER"


OWNER = _OwnerMark()
PUBLIC = Sight("public", "reveal")


_RECORDS: set[type[BaseModel]] = set()
M = TypeVar("M", bound=BaseModel)


def is_public_record(model: type[BaseModel]) -> bool:
    return model in _RECORDS


def public_record(model: type[M]) -> type[M]:
    """Marks a model as a public record: its unlabelled fields are public (a played turn, a
    strike report, a table's layout). A field of it may still carry a narrower label; a
    model it holds is judged by its own labels."""
    _RECORDS.add(model)
    plan.cache_clear()
    _wholly_public.cache_clear()
    _WALKS.clear()
    return model


def own(opens: Opens = "campaign-end", **rules: Any) -> Sight:
    """Its owner's until ``opens`` (see ``Sight`` for the owner rules)."""
    return Sight("owner", opens, **rules)


def sealed(opens: Opens = "campaign-end", **rules: Any) -> Sight:
    """Nobody's until ``opens``."""
    return Sight("sealed", opens, **rules)


# What a value with no label gets: its owner's, or nobody's, until the campaign ends.
UNLABELLED = own()
_OWNED = own()  # what a sealed value's owner is asked as, for what he may see of it

T = TypeVar("T")
Public = Annotated[T, PUBLIC]
Own = Annotated[T, own()]
Sealed = Annotated[T, sealed()]
Owner = Annotated[T, OWNER, PUBLIC]


@dataclass(frozen=True)
class Eyes:
    """Who looks: a side's player, the GM (``peek``: in a campaign whose secrets he may
    read, every side's), or anyone (the channel, a spectator, an export)."""

    side: str | None = None
    peek: bool = False

    @classmethod
    def public(cls) -> Eyes:
        return cls()

    @classmethod
    def of(cls, side: str) -> Eyes:
        return cls(side=side)

    @classmethod
    def gm(cls, peek: bool) -> Eyes:
        return cls(peek=peek)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Eyes, (self.side, self.peek))  # pickled and copied compiled too (``Sight``)


def sees(sight: Sight | None, owner: str | None, eyes: Eyes, finished: bool) -> bool:
    """Whether ``eyes`` may see a value so labelled, owned by ``owner``, now."""
    sight = sight or UNLABELLED
    if sight.public:
        return True
    if finished and sight.opens != "never":
        return True
    if sight.audience == "owner" and owner is not None:
        return eyes.peek or eyes.side == owner
    return False


@dataclass(frozen=True)
class Derived:
    """A fact worked out from a model (not stored in it), labelled like a field: the gate
    adds ``name`` to the model's kept part when the label lets the viewer see it.
    ``compute`` gets the model and the state the gate walks."""

    model: type[BaseModel]
    name: str
    sight: Sight
    compute: Callable[[Any, Any], Any]


# -- the plan of a model: its fields' labels and shapes, worked out once per class ---------


@dataclass(frozen=True)
class _Shape:
    kind: Literal["leaf", "model", "optional", "mapping", "sequence"]
    model: type[BaseModel] | None = None
    inner: _Shape | None = None


_LEAF = _Shape("leaf")


@dataclass(frozen=True)
class _Field:
    name: str
    sight: Sight | None
    shape: _Shape
    # Public with no rule to apply: kept as it is (a leaf) or walked, no question asked.
    plain: bool = False


@dataclass(frozen=True)
class _Plan:
    fields: tuple[_Field, ...]
    owner: str | None  # the field naming the owning side
    glimpses: tuple[str, ...] = ()  # the fields named by a ``glimpse`` rule


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _shape(tp: Any) -> _Shape:
    origin = get_origin(tp)
    if origin is Annotated:
        return _shape(get_args(tp)[0])
    if _is_model(tp):
        return _Shape("model", model=tp)
    if origin in (Union, types.UnionType):
        present = [a for a in get_args(tp) if a is not type(None)]
        if len(present) == 1:
            inner = _shape(present[0])
            return _LEAF if inner.kind == "leaf" else _Shape("optional", inner=inner)
        return _LEAF
    if origin in (dict, Mapping, typing.Mapping):
        inner = _shape(get_args(tp)[1])
        return _LEAF if inner.kind == "leaf" else _Shape("mapping", inner=inner)
    if origin in (tuple, list, Sequence, typing.Sequence):
        args = get_args(tp)
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            return _LEAF
        inner = _shape(args[0]) if args else _LEAF
        return _LEAF if inner.kind == "leaf" else _Shape("sequence", inner=inner)
    return _LEAF


def _labels(metadata: Sequence[Any]) -> tuple[Sight | None, bool]:
    sights = [m for m in metadata if isinstance(m, Sight)]
    if len(sights) > 1:
        raise TypeError(f"a field carries one label, not {sights}")
    return (sights[0] if sights else None), any(m is OWNER for m in metadata)


@cache
def plan(model: type[BaseModel]) -> _Plan:
    """Each field of ``model`` with its label (None: unlabelled) and the shape to walk."""
    fields: list[_Field] = []
    owner: str | None = None
    record = model in _RECORDS
    for name, info in model.model_fields.items():
        if info.exclude is True:
            continue  # never written out with the model (an event's own label): not a fact
        sight, is_owner = _labels(info.metadata)
        if sight is None and record:
            sight = PUBLIC
        if is_owner:
            if owner is not None:
                raise TypeError(f"{model.__name__} names two owners: {owner}, {name}")
            owner = name
        for sibling in (sight.by, sight.unless) if sight is not None else ():
            # The gate reads a sibling in the model's fields (``__dict__``), as it reads all.
            if sibling is not None and sibling not in model.model_fields:
                raise TypeError(f"{model.__name__}.{name}'s label names no field: {sibling}")
        plain = (
            sight is not None
            and sight.public
            and not (sight.unless or sight.side or sight.by or sight.key or sight.item)
            and not sight.glimpse
        )
        fields.append(_Field(name, sight, _shape(info.annotation), plain))
    glimpses = {f.sight.glimpse for f in fields if f.sight and f.sight.glimpse}
    return _Plan(tuple(fields), owner, tuple(sorted(glimpses)))


def labels(model: type[BaseModel]) -> dict[str, Sight | None]:
    """Each field's label (None: unlabelled, so secret): for tests and docs."""
    return {f.name: f.sight for f in plan(model).fields}


@cache
def _wholly_public(model: type[BaseModel], derived: frozenset[type[BaseModel]]) -> bool:
    """Every field, all the way down, is public: the gate keeps such a part as it is."""
    if model in derived:
        return False
    for field in plan(model).fields:
        sight = field.sight
        if sight is None or not sight.public or sight.unless or sight.glimpse:
            return False
        shape = field.shape
        while shape.inner is not None:
            shape = shape.inner
        if shape.model is not None and not _wholly_public(shape.model, derived):
            return False
    return True


# -- the gate ------------------------------------------------------------------------------

_NOBODY: frozenset[str] = frozenset()  # no side glimpses an entry

# Per set of models with derived facts (a ruleset's), per model class: whether the gate
# keeps its models as they are (``_wholly_public``), and its plan. One look-up per model
# walked, keyed by the class alone (two cached calls each hash a key tuple).
_WALKS: dict[frozenset[type[BaseModel]], dict[type[BaseModel], tuple[bool, _Plan]]] = {}


class _Gate:
    def __init__(
        self, eyes: Eyes, finished: bool, derived: Sequence[Derived], root: BaseModel
    ) -> None:
        self.eyes, self.finished, self.root = eyes, finished, root
        self.derived: dict[type[BaseModel], list[Derived]] = {}
        for fact in derived:
            self.derived.setdefault(fact.model, []).append(fact)
        self._derived_models = frozenset(self.derived)
        walks = _WALKS.get(self._derived_models)
        if walks is None:
            walks = _WALKS[self._derived_models] = {}
        self._walks = walks

    def sees(self, sight: Sight | None, owner: str | None) -> bool:
        return sees(sight, owner, self.eyes, self.finished)

    def model(
        self, obj: BaseModel, owner: str | None, glimpsed: frozenset[str], whole: bool = True
    ) -> Any:
        cls = type(obj)
        walk = self._walks.get(cls)
        if walk is None:
            walk = self._walks[cls] = (_wholly_public(cls, self._derived_models), plan(cls))
        if whole and walk[0]:
            return obj
        found = walk[1]
        # A model's fields are its ``__dict__``'s entries: read there, not by ``getattr``.
        values: dict[str, Any] = obj.__dict__
        if found.owner is not None:
            owner = values[found.owner] or owner
        out: dict[str, Any] = {}
        for field in found.fields:
            if field.plain:
                value = values[field.name]
                shape = field.shape
                out[field.name] = value if shape is _LEAF else self.value(shape, value, owner)
                continue
            sight = field.sight or UNLABELLED
            value = values[field.name]
            here = sight.side or owner
            if sight.by is not None:
                here = values[sight.by]
            if sight.key is not None or sight.item is not None:
                out[field.name] = self.entries(obj, sight, field.shape, value, here)
                continue
            if sight.unless is not None and not values[sight.unless]:
                sight = PUBLIC
            if not self.sees(sight, here):
                if sight.glimpse is not None and self.eyes.side in glimpsed:
                    pass  # an eye of the viewer's side watches this one
                elif sight.owner_sees is not None and self.sees(_OWNED, here):
                    out[field.name] = None if value is None else sight.owner_sees(value)
                    continue
                else:
                    continue
            out[field.name] = self.value(field.shape, value, here)
        for fact in self.derived.get(cls, ()):
            value = fact.compute(obj, self.root)
            if fact.sight.key is not None or fact.sight.item is not None:
                out[fact.name] = self.entries(obj, fact.sight, _LEAF, value, owner)
            elif self.sees(fact.sight, owner):
                out[fact.name] = value
        return out

    def value(self, shape: _Shape, value: Any, owner: str | None) -> Any:
        if value is None or shape.kind == "leaf":
            return value
        if shape.kind == "model":
            return self.model(value, owner, _NOBODY)
        assert shape.inner is not None
        if shape.kind == "optional":
            return self.value(shape.inner, value, owner)
        if shape.kind == "mapping":
            glimpses = self.glimpses(shape.inner, value)
            return {
                k: (
                    self.model(v, owner, glimpses.get(k, _NOBODY))
                    if shape.inner.kind == "model" and v is not None
                    else self.value(shape.inner, v, owner)
                )
                for k, v in value.items()
            }
        return tuple(self.value(shape.inner, v, owner) for v in value)

    def glimpses(self, inner: _Shape, entries: Mapping[str, Any]) -> dict[str, frozenset[str]]:
        """Entry key -> the sides whose entries' glimpse fields list it."""
        if inner.kind != "model" or inner.model is None:
            return {}
        found_plan = plan(inner.model)
        if not found_plan.glimpses:
            return {}
        owner_field = found_plan.owner
        found: dict[str, set[str]] = {}
        for entry in entries.values():
            side = getattr(entry, owner_field) if owner_field else None
            for name in found_plan.glimpses:
                for watched in getattr(entry, name) or ():
                    if side is not None:
                        found.setdefault(watched, set()).add(side)
        return {k: frozenset(v) for k, v in found.items()}

    def owner_of(self, obj: BaseModel, rule: str, ident: Any) -> str | None:
        if rule == SIDE:
            return str(ident)
        entries = getattr(obj, rule)
        entry = entries.get(ident) if isinstance(entries, Mapping) else None
        if not isinstance(entry, BaseModel):
            return None
        owner_field = plan(type(entry)).owner
        return None if owner_field is None else getattr(entry, owner_field)

    def entries(
        self, obj: BaseModel, sight: Sight, shape: _Shape, value: Any, owner: str | None
    ) -> Any:
        """A mapping or sequence whose entries each have their own owner."""
        if value is None:
            return None
        inner = shape.inner if shape.kind in ("mapping", "sequence") else _LEAF
        inner = inner or _LEAF
        if sight.key is not None:
            kept = {}
            for k, v in value.items():
                who = self.owner_of(obj, sight.key, k)
                if self.sees(sight, who):
                    kept[k] = self.value(inner, v, who)
            return kept
        assert sight.item is not None
        items = []
        for v in value:
            who = self.owner_of(obj, sight.item, v)
            if self.sees(sight, who):
                items.append(self.value(inner, v, who))
        return tuple(items) if isinstance(value, tuple) else items


def keep(
    state: BaseModel,
    eyes: Eyes,
    *,
    finished: bool,
    derived: Sequence[Derived] = (),
) -> Any:
    """What ``eyes`` may see of ``state`` now: a dict of the fields kept (a part wholly
    public below it is the state's own object, shared, never copied)."""
    return _Gate(eyes, finished, derived, state).model(state, None, _NOBODY, whole=False)


def keep_json(
    state: BaseModel,
    eyes: Eyes,
    *,
    finished: bool,
    derived: Sequence[Derived] = (),
) -> Any:
    """``keep`` as JSON-ready data (what ``model_dump(mode="json")`` gives of what is kept)."""
    return to_jsonable_python(keep(state, eyes, finished=finished, derived=derived))


def jsonable(value: Any) -> Any:
    """What ``pydantic_core.to_jsonable_python`` gives of ``value``, equal and of the same
    types, the plain parts converted here: text, numbers, booleans, ``None``, and dicts
    keyed by text, lists and tuples (a list) of them, each of exactly that type. Compiled,
    several times cheaper than its inference per value (a Wings view's kept campaign: some
    560 values, most of them plain; issue 29). Anything else (a model, an enum, a set, a
    dict keyed otherwise) is converted by ``to_jsonable_python``, as it was."""
    kind = type(value)
    if kind is str or kind is int or kind is float or kind is bool or value is None:
        return value
    if kind is dict:
        entries: dict[Any, Any] = value
        out: dict[str, Any] = {}
        for key, item in entries.items():
            if type(key) is not str:
                return to_jsonable_python(value)  # its keys made text its way
            out[key] = jsonable(item)
        return out
    if kind is list or kind is tuple:
        items: Sequence[Any] = value
        return [jsonable(item) for item in items]
    return to_jsonable_python(value)


def kinds(public: Sequence[str] = (), owned: Sequence[str] = ()) -> Mapping[str, Sight]:
    """A ruleset's event labels by kind: ``public`` ones told to all as they happen,
    ``owned`` ones each its side's (the event names the side) until the campaign ends."""
    labels = {kind: own() for kind in owned}
    labels.update({kind: PUBLIC for kind in public})
    return MappingProxyType(labels)


def event_sight(sight: Sight | None, kind: str, declared: Mapping[str, Sight]) -> Sight:
    """An event's label: its own, else its kind's as the ruleset declares it, else secret."""
    return sight or declared.get(kind) or UNLABELLED

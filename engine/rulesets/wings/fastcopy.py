"""Model copies for the turn's inner loops (``turn``): the same objects
pydantic's ``model_copy`` and ``model_construct`` make, without their generic paths, for
values the engine has already typed. A turn makes thousands of them.
"""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel

from engine.rulesets.wings.state import PlaneState

ModelT = TypeVar("ModelT", bound=BaseModel)


def evolve(plane: PlaneState, changes: dict[str, object]) -> PlaneState:
    """``plane.model_copy(update=changes)`` without pydantic's generic copy: a turn makes
    thousands of these, every value already typed by the engine."""
    fields = dict(plane.__dict__)
    fields.update(changes)
    copy = built(PlaneState, fields)
    object.__setattr__(
        copy, "__pydantic_fields_set__", plane.__pydantic_fields_set__ | changes.keys()
    )
    return copy


def built(cls: type[ModelT], fields: dict[str, object]) -> ModelT:
    """An instance from already valid field values, skipping validation and defaults (every
    field must be given)."""
    model = cls.__new__(cls)
    object.__setattr__(model, "__dict__", fields)
    object.__setattr__(model, "__pydantic_fields_set__", set(fields))
    object.__setattr__(model, "__pydantic_extra__", None)
    object.__setattr__(model, "__pydantic_private__", None)
    return model

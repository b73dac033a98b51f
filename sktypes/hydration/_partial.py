"""Partial twins of types and schemas: what a *prefix* of a valid answer may look like.

``partial_type(Order)`` is a subclass of ``Order`` whose fields are all optional
(default ``None``), recursively: ``list[Item]`` becomes ``list[PartialItem]`` and so on.
Validating a closed-up prefix against the twin gives the best value so far, and the
result is still an ``Order`` instance. Field constraints (``min_length``…) are dropped
from the twin — a prefix may not meet them yet; the final, complete value is checked
against the real type. Recursive models stay non-partial below their first level.

``partial_schema`` does the same for JSON Schemas: no ``required``, no minimums on
sizes.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import functools
import operator
import types
import typing
from typing import Any

import typing_extensions
from pydantic import BaseModel, Field, create_model

from sktypes.schema._walk import transform

__all__ = ["partial_schema", "partial_type"]


def partial_type(tp: Any) -> Any:
    """Return the partial twin of ``tp`` (``tp`` itself when nothing needs relaxing)."""
    try:
        return _cached(tp)
    except TypeError:  # unhashable type expression
        return _partial(tp, frozenset())
    except Exception:  # a type pydantic cannot rebuild: fall back to the type itself
        return tp


@functools.lru_cache(maxsize=512)
def _cached(tp: Any) -> Any:
    return _partial(tp, frozenset())


def _optional(tp: Any) -> Any:
    return tp if tp is Any else typing.Optional[tp]  # noqa: UP045 - tp is a runtime value


def _partial(tp: Any, seen: frozenset[Any]) -> Any:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Annotated:
        return _partial(args[0], seen)  # constraints do not hold for prefixes
    if origin is typing.Union or origin is types.UnionType:
        return functools.reduce(operator.or_, (_partial(a, seen) for a in args))
    if origin in (list, set, frozenset, collections.abc.Sequence) and len(args) == 1:
        return types.GenericAlias(origin, (_partial(args[0], seen),))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return types.GenericAlias(tuple, (_partial(args[0], seen), ...))
    if origin is dict and len(args) == 2:
        return types.GenericAlias(dict, (args[0], _partial(args[1], seen)))
    if not isinstance(tp, type) or tp in seen:
        return tp
    if issubclass(tp, BaseModel):
        return _partial_model(tp, seen | {tp})
    if typing_extensions.is_typeddict(tp):
        return _partial_typeddict(tp, seen | {tp})
    if dataclasses.is_dataclass(tp):
        return _partial_dataclass(tp, seen | {tp})
    return tp


def _partial_model(cls: type[BaseModel], seen: frozenset[Any]) -> Any:
    fields: dict[str, Any] = {}
    for name, info in cls.model_fields.items():
        inner = _partial(info.annotation, seen)
        alias, valias = info.alias, info.validation_alias
        if info.is_required():
            field = Field(default=None, alias=alias, validation_alias=valias)
        elif info.default_factory is not None:
            factory: Any = info.default_factory
            field = Field(default_factory=factory, alias=alias, validation_alias=valias)
        else:
            field = Field(default=info.default, alias=alias, validation_alias=valias)
        fields[name] = (_optional(inner), field)
    model: Any = create_model(
        f"Partial{cls.__name__}", __base__=cls, __module__=cls.__module__, **fields
    )
    return model


def _partial_typeddict(tp: Any, seen: frozenset[Any]) -> Any:
    hints = typing.get_type_hints(tp, include_extras=True)
    fields: dict[str, Any] = {}
    for name, hint in hints.items():
        inner = hint
        if typing.get_origin(inner) in (
            typing.Required,
            typing.NotRequired,
            typing_extensions.Required,
            typing_extensions.NotRequired,
        ):
            inner = typing.get_args(inner)[0]
        fields[name] = typing_extensions.NotRequired[_partial(inner, seen)]
    make: Any = typing_extensions.TypedDict
    new = make(f"Partial{tp.__name__}", fields)
    new.__module__ = tp.__module__
    config = getattr(tp, "__pydantic_config__", None)
    if config is not None:
        new.__pydantic_config__ = config
    return new


def _partial_dataclass(cls: type, seen: frozenset[Any]) -> Any:
    hints = typing.get_type_hints(cls, include_extras=True)
    specs: list[tuple[str, Any, Any]] = []
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        inner = _partial(hints.get(f.name, Any), seen)
        if f.default is not dataclasses.MISSING:
            spec: Any = dataclasses.field(default=f.default)
        elif f.default_factory is not dataclasses.MISSING:
            spec = dataclasses.field(default_factory=f.default_factory)
        else:
            spec = dataclasses.field(default=None)
        specs.append((f.name, _optional(inner), spec))
    params = getattr(cls, "__dataclass_params__", None)
    frozen = bool(getattr(params, "frozen", False))
    twin = dataclasses.make_dataclass(f"Partial{cls.__name__}", specs, bases=(cls,), frozen=frozen)
    twin.__module__ = cls.__module__
    return twin


_RELAX = ("required", "minItems", "minLength", "minProperties", "minContains")


def _relax(node: dict[str, Any]) -> dict[str, Any]:
    for key in _RELAX:
        node.pop(key, None)
    return node


def partial_schema(schema: Any) -> Any:
    """Return ``schema`` relaxed for prefixes: nothing required, no minimum sizes."""
    return transform(schema, _relax)

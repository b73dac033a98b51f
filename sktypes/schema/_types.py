"""Python types → draft 2020-12 JSON Schema, through pydantic, cached per type.

pydantic's generator does the work; this module adds what a model-facing schema needs:

- titles are dropped (they cost tokens and say nothing a property name does not);
- ``Decimal`` strings carry a pattern, so a schema check rejects what pydantic rejects;
- ``typing.TypedDict`` (refused by pydantic on Python 3.11) is rebuilt as its
  ``typing_extensions`` twin;
- schemas of fixed types (``int``, ``datetime``…) come from a table, not from pydantic;
- every result is cached per (type, mode) as an immutable :class:`JsonDocument`.
"""

from __future__ import annotations

import datetime as dt
import functools
import operator
import sys
import types
import typing
import uuid
from pathlib import Path
from typing import Any, Literal

import typing_extensions
from pydantic import TypeAdapter
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode, JsonSchemaValue
from pydantic_core import CoreSchema, core_schema

from sktypes.errors import IntrospectionError
from sktypes.jsondoc import JsonDocument
from sktypes.schema._walk import transform

__all__ = ["DECIMAL_PATTERN", "Mode", "compat_type", "type_adapter", "type_schema"]

Mode = Literal["validation", "serialization"]

DECIMAL_PATTERN = r"^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$"

_FIXED: dict[Any, dict[str, Any]] = {
    int: {"type": "integer"},
    str: {"type": "string"},
    float: {"type": "number"},
    bool: {"type": "boolean"},
    type(None): {"type": "null"},
    None: {"type": "null"},
    dt.datetime: {"type": "string", "format": "date-time"},
    dt.date: {"type": "string", "format": "date"},
    dt.time: {"type": "string", "format": "time"},
    dt.timedelta: {"type": "string", "format": "duration"},
    uuid.UUID: {"type": "string", "format": "uuid"},
    Path: {"type": "string", "format": "path"},
    bytes: {"type": "string", "format": "binary"},
    Any: {},
    object: {},
}


class ModelSchemaGenerator(GenerateJsonSchema):
    """pydantic's generator, tuned for model-facing schemas (no titles, strict decimals)."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        """Never emit field titles."""
        return False

    def decimal_schema(self, schema: core_schema.DecimalSchema) -> JsonSchemaValue:
        """Accept numbers, and strings only when they spell a decimal number."""
        out = super().decimal_schema(schema)
        if self.mode == "validation":
            for option in out.get("anyOf", ()):
                if option.get("type") == "string":
                    option.setdefault("pattern", DECIMAL_PATTERN)
        elif out.get("type") == "string":
            out.setdefault("pattern", DECIMAL_PATTERN)
        return out

    def generate(self, schema: CoreSchema, mode: JsonSchemaMode = "validation") -> JsonSchemaValue:
        """Generate, then drop ``title`` keywords everywhere (never property names)."""
        out = super().generate(schema, mode=mode)
        return typing.cast(JsonSchemaValue, transform(out, _drop_title))


def _drop_title(node: dict[str, Any]) -> dict[str, Any]:
    node.pop("title", None)
    return node


# --- typing.TypedDict compatibility -------------------------------------------------


def _is_plain_typeddict(tp: Any) -> bool:
    return (
        sys.version_info < (3, 12)
        and isinstance(tp, type)
        and typing.is_typeddict(tp)
        and type(tp).__module__ == "typing"
    )


@functools.lru_cache(maxsize=1024)
def _rebuild_typeddict(tp: type) -> Any:
    hints = typing.get_type_hints(tp, include_extras=True)
    fields: dict[str, Any] = {}
    for name, hint in hints.items():
        inner = _strip_required(hint)
        inner = compat_type(inner)
        if name in getattr(tp, "__required_keys__", ()):
            fields[name] = typing_extensions.Required[inner]
        else:
            fields[name] = typing_extensions.NotRequired[inner]
    make: Any = typing_extensions.TypedDict  # the functional form, with a computed name
    new = make(tp.__name__, fields)
    new.__doc__ = tp.__doc__
    new.__module__ = tp.__module__
    new.__qualname__ = tp.__qualname__
    return new


def _strip_required(hint: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin in (
        typing.Required,
        typing.NotRequired,
        typing_extensions.Required,
        typing_extensions.NotRequired,
    ):
        return typing.get_args(hint)[0]
    return hint


def compat_type(tp: Any) -> Any:
    """Return ``tp`` with every ``typing.TypedDict`` replaced by a pydantic-ready twin.

    Only needed on Python 3.11; on 3.12+ (and for types without a plain TypedDict) the
    type comes back unchanged, so the common path costs one walk of the type arguments.
    """
    if sys.version_info >= (3, 12):
        return tp
    if _is_plain_typeddict(tp):
        return _rebuild_typeddict(tp)
    args = typing.get_args(tp)
    if not args:
        return tp
    new_args = tuple(compat_type(a) for a in args)
    if all(a is b for a, b in zip(args, new_args, strict=True)):
        return tp
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        return typing.Annotated[(new_args[0], *tp.__metadata__)]
    if origin is types.UnionType or origin is typing.Union:
        return functools.reduce(operator.or_, new_args)
    if isinstance(tp, types.GenericAlias):
        return types.GenericAlias(origin, new_args)
    copy_with = getattr(tp, "copy_with", None)
    if copy_with is not None:
        return copy_with(new_args)
    return tp


# --- cached adapters and schemas ------------------------------------------------------


def _hashable(tp: Any) -> bool:
    try:
        hash(tp)
    except TypeError:
        return False
    return True


_CACHE_LIMIT = 4096
_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}


def type_adapter(tp: Any) -> TypeAdapter[Any]:
    """Return a (cached) pydantic ``TypeAdapter`` for ``tp`` (TypedDicts made compatible)."""
    cacheable = _hashable(tp)
    if cacheable:
        hit = _ADAPTERS.get(tp)
        if hit is not None:
            return hit
    try:
        adapter: TypeAdapter[Any] = TypeAdapter(compat_type(tp))
    except Exception as exc:  # pydantic raises several kinds for unsupported types
        raise IntrospectionError(
            f"type {_type_name(tp)} has no JSON Schema: {str(exc).splitlines()[0]}"
        ) from None
    if cacheable:
        if len(_ADAPTERS) > _CACHE_LIMIT:
            _ADAPTERS.clear()  # types made per request must not pile up
        _ADAPTERS[tp] = adapter
    return adapter


_SCHEMAS: dict[tuple[Any, str], JsonDocument] = {}


def type_schema(tp: Any, mode: Mode = "validation") -> JsonDocument:
    """Return the draft 2020-12 schema of ``tp`` (``$defs`` at its root when needed)."""
    fixed = _FIXED.get(tp) if _hashable(tp) else None
    if fixed is not None:
        key = (tp, mode)
        hit = _SCHEMAS.get(key)
        if hit is None:
            hit = _SCHEMAS[key] = JsonDocument.from_value(fixed)
        return hit
    cacheable = _hashable(tp)
    if cacheable:
        hit = _SCHEMAS.get((tp, mode))
        if hit is not None:
            return hit
    adapter = type_adapter(tp)
    try:
        raw = adapter.json_schema(
            mode=mode, ref_template="#/$defs/{model}", schema_generator=ModelSchemaGenerator
        )
    except Exception as exc:  # PydanticInvalidForJsonSchema and friends
        raise IntrospectionError(
            f"type {_type_name(tp)} has no JSON Schema: {str(exc).splitlines()[0]}"
        ) from None
    doc = JsonDocument.from_value(raw)
    if cacheable:
        if len(_SCHEMAS) > _CACHE_LIMIT:
            _SCHEMAS.clear()
        _SCHEMAS[(tp, mode)] = doc
    return doc


def _type_name(tp: Any) -> str:
    name = getattr(tp, "__qualname__", None)
    return name if isinstance(name, str) else repr(tp)

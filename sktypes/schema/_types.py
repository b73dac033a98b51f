"""Python types → draft 2020-12 JSON Schema, through pydantic, cached per type.

pydantic's generator does the work; this module adds what a model-facing schema needs:

- titles are dropped (they cost tokens and say nothing a property name does not);
- ``Decimal`` strings carry a pattern, so a schema check rejects what pydantic rejects;
- ``typing.TypedDict`` (refused by pydantic on Python 3.11) is rebuilt as its
  ``typing_extensions`` twin;
- schemas of fixed types (``int``, ``datetime``…) come from the one type table
  (:data:`sktypes.schema.SCALAR_TYPES`, which also reads them back), not from pydantic;
- every result is cached per (type, mode) as an immutable :class:`JsonDocument`.
"""

from __future__ import annotations

import collections.abc
import decimal
import functools
import operator
import sys
import types
import typing
from typing import Any, Literal

import typing_extensions
from pydantic import TypeAdapter
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode, JsonSchemaValue
from pydantic_core import CoreSchema, core_schema

from sktypes._identity import ValueCache
from sktypes.errors import IntrospectionError
from sktypes.jsondoc import JsonDocument, thaw
from sktypes.schema._table import DECIMAL_PATTERN, SCALAR_TYPES
from sktypes.schema._walk import transform

__all__ = ["DECIMAL_PATTERN", "Mode", "compat_type", "type_adapter", "type_schema"]

Mode = Literal["validation", "serialization"]

_FIXED: dict[Any, dict[str, Any]] = {
    row.python: thaw(row.schema)
    for row in SCALAR_TYPES
    if row.python is not decimal.Decimal  # its schema differs by mode: pydantic's rule
}
_FIXED.update({None: {"type": "null"}, Any: {}, object: {}})


class ModelSchemaGenerator(GenerateJsonSchema):
    """pydantic's generator, tuned for model-facing schemas (no titles, strict decimals)."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        """Never emit field titles."""
        return False

    def decimal_schema(self, schema: core_schema.DecimalSchema) -> JsonSchemaValue:
        """Accept numbers, and strings only when they spell a decimal number.

        The pattern is sktypes' own whatever pydantic writes: pydantic 2.12-2.13 write one
        that refuses exponents (``"1e3"``, which their validator accepts), 2.14 none.
        """
        out = super().decimal_schema(schema)
        if self.mode == "validation":
            for option in out.get("anyOf", ()):
                if option.get("type") == "string":
                    option["pattern"] = DECIMAL_PATTERN
        elif out.get("type") == "string":
            out["pattern"] = DECIMAL_PATTERN
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


_ADAPTERS: ValueCache[Any, TypeAdapter[Any]] = ValueCache(4096)


def _cache_key(tp: Any) -> Any:
    """A cache key that tells ``Union[A, B]`` from ``Union[B, A]``.

    typing's unions compare equal whatever their order, but the schema lists the options
    in order; generic aliases are keyed by their text as well.
    """
    return (tp, repr(tp)) if typing.get_args(tp) else tp


def type_adapter(tp: Any) -> TypeAdapter[Any]:
    """Return a (cached) pydantic ``TypeAdapter`` for ``tp`` (TypedDicts made compatible)."""
    cacheable = _hashable(tp)
    if cacheable:
        hit = _ADAPTERS.get(_cache_key(tp))
        if hit is not None:
            return hit
    try:
        adapter: TypeAdapter[Any] = TypeAdapter(compat_type(tp))
    except Exception as exc:  # pydantic raises several kinds for unsupported types
        raise IntrospectionError(
            f"type {_type_name(tp)} has no JSON Schema: {str(exc).splitlines()[0]}"
        ) from None
    if cacheable:
        _ADAPTERS.put(_cache_key(tp), adapter)  # bounded: types made per request go first
    return adapter


_SCHEMAS: ValueCache[tuple[Any, Mode], JsonDocument] = ValueCache(4096)


def type_schema(tp: Any, mode: Mode = "validation") -> JsonDocument:
    """Return the draft 2020-12 schema of ``tp`` (``$defs`` at its root when needed)."""
    fixed = _FIXED.get(tp) if _hashable(tp) else None
    if fixed is not None:
        key = (tp, mode)
        hit = _SCHEMAS.get(key)
        if hit is None:
            hit = _SCHEMAS.put(key, JsonDocument.from_value(fixed))
        return hit
    cacheable = _hashable(tp)
    if cacheable:
        hit = _SCHEMAS.get((_cache_key(tp), mode))
        if hit is not None:
            return hit
    composed = _compose(tp, mode)
    if composed is not None:
        doc = JsonDocument.from_value(composed)
        if cacheable:
            _SCHEMAS.put((_cache_key(tp), mode), doc)
        return doc
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
        _SCHEMAS.put((_cache_key(tp), mode), doc)
    return doc


# --- composing container schemas from cached parts -----------------------------------

_ARRAYS: dict[Any, bool] = {  # origin -> uniqueItems
    list: False,
    collections.abc.Sequence: False,
    collections.abc.MutableSequence: False,
    set: True,
    frozenset: True,
    collections.abc.Set: True,
    collections.abc.MutableSet: True,
}
_MAPPINGS = frozenset({dict, collections.abc.Mapping, collections.abc.MutableMapping})
_SCALARS = (str, int, bool)


def _compose(tp: Any, mode: Mode) -> dict[str, Any] | None:
    """Build the schema of a container, union or literal from its parts' cached schemas.

    The result is what pydantic itself generates for these types (a test checks that on
    random compositions); anything involving a class returns ``None`` and goes to pydantic.
    Most parameter types are such compositions of scalars, so a cold function rarely needs
    a new ``TypeAdapter``.
    """
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Literal:
        return _literal(args)
    if origin is None or not args or not all(_plain(a) for a in args):
        return None
    if origin in _ARRAYS and len(args) == 1:
        return _wrap([args[0]], mode, lambda item: _array(item, unique=_ARRAYS[origin]))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _wrap([args[0]], mode, lambda item: _array(item, unique=False))
    if origin in _MAPPINGS and len(args) == 2 and args[0] is str:
        return _wrap(
            [args[1]], mode, lambda value: {"additionalProperties": value, "type": "object"}
        )
    if origin is typing.Union or origin is types.UnionType:
        rest = [a for a in args if a is not type(None)]
        parts = rest + [type(None)] * (len(rest) != len(args))
        return _wrap(parts, mode, lambda *bodies: {"anyOf": list(bodies)})
    return None


def _plain(tp: Any) -> bool:
    """A type whose schema never becomes a ``$defs`` entry: fixed scalars and compositions.

    Classes (models, enums, dataclasses…) are inlined at the root of their own schema but
    referenced from containers, under names pydantic chooses: those go to pydantic.
    """
    if tp is Ellipsis or (_hashable(tp) and tp in _FIXED and tp is not object):
        return True
    origin = typing.get_origin(tp)
    if origin is typing.Literal:
        return True
    composable = origin in _ARRAYS or origin in _MAPPINGS or origin is tuple
    composable = composable or origin is typing.Union or origin is types.UnionType
    return composable and all(_plain(a) for a in typing.get_args(tp))


def _array(item: Any, *, unique: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"items": item, "type": "array"}
    if unique:
        out["uniqueItems"] = True
    return out


def _literal(values: tuple[Any, ...]) -> dict[str, Any] | None:
    if not values or not all(v is None or type(v) in _SCALARS for v in values):
        return None  # enums and bytes literals: pydantic's rules
    kinds = {type(v) for v in values}
    names = {str: "string", int: "integer", bool: "boolean", type(None): "null"}
    out: dict[str, Any] = {"const": values[0]} if len(values) == 1 else {"enum": list(values)}
    if len(kinds) == 1:
        out["type"] = names[kinds.pop()]
    return out


def _wrap(parts: list[Any], mode: Mode, build: Any) -> dict[str, Any] | None:
    """Combine the parts' (cached, ``$defs``-free) schemas with ``build``."""
    try:
        bodies = [type_schema(part, mode).value for part in parts]
    except IntrospectionError:
        return None
    out: dict[str, Any] = build(*bodies)
    return out


def _type_name(tp: Any) -> str:
    name = getattr(tp, "__qualname__", None)
    return name if isinstance(name, str) else repr(tp)

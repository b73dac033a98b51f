"""JSON Schema in sktypes: one typed model to read schemas, and Python types → schemas.

Reading: :func:`parse` turns a schema into a :class:`SchemaModel` of small frozen nodes,
one class per kind (object, array/tuple, string, integer/number, boolean, null,
enum/const, union, intersection, reference, any/never), built once per schema and cached.
Every keyword maps to a node field or is listed in ``SchemaModel.unsupported`` with its
JSON pointer. ``docs/concepts/schema-model.md`` describes the nodes.

Writing: ``json_schema(tp)`` is draft 2020-12 with shared definitions under ``$defs``;
``dialect="openai-strict" | "openapi-3.0" | "gemini"`` rewrites it for that consumer
(see README's type-support table for what each type becomes in each dialect).
:data:`SCALAR_TYPES` is the one table between Python scalar types and schemas (formats
included), used in both directions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from sktypes._identity import IdentityCache, ValueCache
from sktypes.errors import SchemaError
from sktypes.jsondoc import FrozenDict, JsonDocument
from sktypes.schema._dialects import DIALECTS, GEMINI_RECURSION_DEPTH, Dialect, to_dialect
from sktypes.schema._inline import inline_refs
from sktypes.schema._model import Flavor, SchemaModel, Unsupported
from sktypes.schema._nodes import (
    NO_DEFAULT,
    AnyNode,
    ArrayNode,
    BooleanNode,
    ConstNode,
    Discriminator,
    EnumNode,
    IntegerNode,
    IntersectionNode,
    NeverNode,
    Node,
    NullNode,
    NumberNode,
    ObjectNode,
    OpaqueNode,
    Property,
    RefNode,
    StringNode,
    UnionNode,
    strip_null,
)
from sktypes.schema._parse import parse_document
from sktypes.schema._table import SCALAR_TYPES, ScalarType, scalar_type_for, scalar_type_of
from sktypes.schema._types import compat_type, type_adapter

__all__ = [
    # reading: the schema model
    "parse",
    "SchemaModel",
    "Unsupported",
    "Flavor",
    "Node",
    "AnyNode",
    "NeverNode",
    "NullNode",
    "BooleanNode",
    "IntegerNode",
    "NumberNode",
    "StringNode",
    "ArrayNode",
    "ObjectNode",
    "Property",
    "EnumNode",
    "ConstNode",
    "UnionNode",
    "Discriminator",
    "IntersectionNode",
    "RefNode",
    "OpaqueNode",
    "NO_DEFAULT",
    "strip_null",
    # the Python type <-> schema table
    "SCALAR_TYPES",
    "ScalarType",
    "scalar_type_for",
    "scalar_type_of",
    # writing: types -> schemas, dialects
    "DIALECTS",
    "GEMINI_RECURSION_DEPTH",
    "Dialect",
    "compat_type",
    "dialect_problems",
    "inline_refs",
    "json_schema",
    "to_dialect",
    "type_adapter",
]

_BY_IDENTITY: dict[Flavor, IdentityCache[Any, SchemaModel]] = {
    "json-schema": IdentityCache(4096),
    "openapi-3.0": IdentityCache(1024),
}
_BY_TEXT: dict[Flavor, ValueCache[bytes, SchemaModel]] = {
    "json-schema": ValueCache(4096),
    "openapi-3.0": ValueCache(1024),
}


def parse(
    schema: JsonDocument | Mapping[str, Any] | bool, flavor: Flavor = "json-schema"
) -> SchemaModel:
    """Return the schema model of ``schema`` (built once, then cached).

    A frozen schema (a :class:`JsonDocument` or a view's frozen mapping) is remembered by
    identity, which costs nothing to look up; a plain dict by its canonical JSON text. Both
    caches are bounded.

    Args:
        schema: a JSON Schema: a :class:`JsonDocument`, a mapping (a view's frozen schema
            or a plain dict) or a boolean schema.
        flavor: ``"json-schema"`` (draft 2020-12, what views carry) or ``"openapi-3.0"``
            (an OpenAPI 3.0 Schema Object: ``nullable``, boolean exclusive bounds, ``$ref``
            siblings ignored).

    Raises:
        SchemaError: the value is not JSON (a schema built in Python with other objects).
    """
    if flavor not in _BY_IDENTITY:
        raise SchemaError(f"unknown schema flavor {flavor!r}; choose json-schema or openapi-3.0")
    if isinstance(schema, (JsonDocument, FrozenDict)):
        hit = _BY_IDENTITY[flavor].get(schema)
        if hit is None:
            model = parse_document(JsonDocument.from_value(schema), flavor)
            hit = _BY_IDENTITY[flavor].put(schema, model)
        return hit
    try:
        text = orjson.dumps(schema, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # frozen parts inside a plain dict
        text = b""
    cached = _BY_TEXT[flavor].get(text) if text else None
    if cached is not None:
        return cached
    try:
        document = JsonDocument.from_value(schema)  # written order kept (the key is sorted)
    except Exception as exc:
        raise SchemaError(f"not a JSON Schema: {exc}") from None
    model = parse_document(document, flavor)
    if text:
        _BY_TEXT[flavor].put(text, model)
    return model


def json_schema(tp: Any, dialect: str = "json-schema") -> dict[str, Any]:
    """Return the JSON Schema of a Python type in ``dialect`` (a new, mutable dict).

    Raises:
        IntrospectionError: pydantic cannot describe the type.
        SchemaError: the dialect cannot express the type (e.g. a mapping in openai-strict).
    """
    from sktypes.schema._types import type_schema

    if dialect not in DIALECTS:
        raise SchemaError(f"unknown dialect {dialect!r}; choose one of {', '.join(DIALECTS)}")
    base = type_schema(tp).to_python()
    return base if dialect == "json-schema" else to_dialect(base, dialect)


def dialect_problems(schema: Any, dialect: str) -> list[str]:
    """Return every way ``schema`` breaks ``dialect`` (``pointer: message``); empty if none.

    Imported on first use: the meta-schema machinery (jsonschema) is not needed to build views.
    """
    from sktypes.schema._check import dialect_problems as check

    return check(schema, dialect)

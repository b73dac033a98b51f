"""The one table between Python scalar types and JSON Schema, used in both directions.

Out (``json_schema(datetime)``): each type's schema comes from :data:`SCALAR_TYPES`.
Back (stubs, generated code, hydration of schema targets): :func:`scalar_type_for` reads a
node's JSON type and ``format`` and names the same Python type, so a type that goes out
as a schema comes back as itself.

One deliberate asymmetry: ``format: email`` reads back as ``str``. pydantic's ``EmailStr``
needs the ``email-validator`` package, which sktypes (and the code it generates) does
not depend on; JSON Schema validation still checks the format.
"""

from __future__ import annotations

import datetime as dt
import decimal
import ipaddress
import pathlib
import uuid
from dataclasses import dataclass
from typing import Any, Final

from pydantic import AnyUrl, Base64Bytes

from sktypes._base64 import Base64
from sktypes.jsondoc import FrozenDict, freeze
from sktypes.schema._nodes import (
    BooleanNode,
    IntegerNode,
    Node,
    NullNode,
    NumberNode,
    StringNode,
    UnionNode,
)

__all__ = ["DECIMAL_PATTERN", "SCALAR_TYPES", "ScalarType", "scalar_type_for", "scalar_type_of"]

DECIMAL_PATTERN: Final = r"^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$"
"""What a ``Decimal`` accepts as a string (pydantic's rule, written as a schema pattern)."""


@dataclass(frozen=True, slots=True)
class ScalarType:
    """One row of the table.

    Attributes:
        python: the Python type (or annotated type, for ``Base64Bytes`` and ``Base64``).
        module: the module generated code imports it from (``builtins``: none).
        name: its name in that module.
        schema: the schema it goes out as (draft 2020-12, validation mode).
        kind: the JSON type it reads back from.
        formats: the ``format`` values it reads back from (empty: the plain JSON type).
    """

    python: Any
    module: str
    name: str
    schema: FrozenDict
    kind: str
    formats: tuple[str, ...] = ()

    @property
    def annotation(self) -> str:
        """How source code spells it: ``int``, ``datetime.datetime``, ``None``."""
        return self.name if self.module == "builtins" else f"{self.module}.{self.name}"


def _row(
    python: Any, module: str, name: str, schema: dict[str, Any], formats: tuple[str, ...] = ()
) -> ScalarType:
    kind = schema.get("type", "string")
    return ScalarType(python, module, name, freeze(schema), kind, formats)


_DECIMAL_SCHEMA = {
    "anyOf": [{"type": "number"}, {"pattern": DECIMAL_PATTERN, "type": "string"}],
}

SCALAR_TYPES: Final[tuple[ScalarType, ...]] = (
    _row(str, "builtins", "str", {"type": "string"}),
    _row(int, "builtins", "int", {"type": "integer"}),
    _row(float, "builtins", "float", {"type": "number"}),
    _row(bool, "builtins", "bool", {"type": "boolean"}),
    _row(type(None), "builtins", "None", {"type": "null"}),
    _row(
        dt.datetime,
        "datetime",
        "datetime",
        {"type": "string", "format": "date-time"},
        ("date-time",),
    ),
    _row(dt.date, "datetime", "date", {"type": "string", "format": "date"}, ("date",)),
    _row(dt.time, "datetime", "time", {"type": "string", "format": "time"}, ("time",)),
    _row(
        dt.timedelta,
        "datetime",
        "timedelta",
        {"type": "string", "format": "duration"},
        ("duration",),
    ),
    _row(uuid.UUID, "uuid", "UUID", {"type": "string", "format": "uuid"}, ("uuid",)),
    _row(bytes, "builtins", "bytes", {"type": "string", "format": "binary"}, ("binary",)),
    _row(Base64, "sktypes.generated", "Base64", {"type": "string", "format": "byte"}, ("byte",)),
    _row(
        Base64Bytes,
        "pydantic",
        "Base64Bytes",
        {"type": "string", "format": "base64"},
        ("base64",),
    ),
    _row(decimal.Decimal, "decimal", "Decimal", _DECIMAL_SCHEMA, ("decimal",)),
    _row(pathlib.Path, "pathlib", "Path", {"type": "string", "format": "path"}, ("path",)),
    _row(
        AnyUrl, "pydantic", "AnyUrl", {"type": "string", "format": "uri", "minLength": 1}, ("uri",)
    ),
    _row(
        ipaddress.IPv4Address,
        "ipaddress",
        "IPv4Address",
        {"type": "string", "format": "ipv4"},
        ("ipv4",),
    ),
    _row(
        ipaddress.IPv6Address,
        "ipaddress",
        "IPv6Address",
        {"type": "string", "format": "ipv6"},
        ("ipv6",),
    ),
)
"""Every scalar type with a fixed schema, in the order lookups try them."""

_BY_TYPE: dict[Any, ScalarType] = {row.python: row for row in SCALAR_TYPES}
_BY_TYPE[None] = _BY_TYPE[type(None)]
_BY_FORMAT: dict[tuple[str, str], ScalarType] = {
    (row.kind if row.python is not decimal.Decimal else "string", f): row
    for row in SCALAR_TYPES
    for f in row.formats
}
_BY_FORMAT[("number", "decimal")] = _BY_TYPE[decimal.Decimal]
_PLAIN: dict[str, ScalarType] = {
    "string": _BY_TYPE[str],
    "integer": _BY_TYPE[int],
    "number": _BY_TYPE[float],
    "boolean": _BY_TYPE[bool],
    "null": _BY_TYPE[type(None)],
}


def scalar_type_of(tp: Any) -> ScalarType | None:
    """The row for a Python type (``None`` when it is not a scalar with a fixed schema)."""
    try:
        return _BY_TYPE.get(tp)
    except TypeError:  # an unhashable type expression
        return None


def scalar_type_for(node: Node) -> ScalarType | None:
    """The Python type a scalar node reads back as (``None`` for other nodes).

    Reads the JSON type and ``format``; an unknown format gives the plain type (``str``).
    pydantic's ``Decimal`` schema (a number, or a string with :data:`DECIMAL_PATTERN`) and
    ``format: decimal`` give ``Decimal``. ``contentEncoding: base64`` (how OpenAPI 3.1 and
    JSON Schema say ``format: byte``) gives ``Base64``: bytes in Python, base64 on the wire.
    """
    if isinstance(node, NullNode):
        return _PLAIN["null"]
    if isinstance(node, BooleanNode):
        return _PLAIN["boolean"]
    if isinstance(node, (StringNode, IntegerNode, NumberNode)):
        if node.format is not None:
            hit = _BY_FORMAT.get((node.kind, node.format))
            if hit is not None:
                return hit
        if isinstance(node, StringNode):
            if node.pattern == DECIMAL_PATTERN:
                return _BY_TYPE[decimal.Decimal]
            if (node.content_encoding or "").lower() == "base64":  # OpenAPI 3.1's format: byte
                return _BY_FORMAT[("string", "byte")]
        return _PLAIN[node.kind]
    if isinstance(node, UnionNode) and len(node.options) == 2 and not node.one_of:
        kinds = {type(o) for o in node.options}
        if kinds == {NumberNode, StringNode}:
            text = next(o for o in node.options if isinstance(o, StringNode))
            if text.pattern == DECIMAL_PATTERN or text.format == "decimal":
                return _BY_TYPE[decimal.Decimal]
    return None

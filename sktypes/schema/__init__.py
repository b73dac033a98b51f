"""Python types → JSON Schema in four dialects.

``json_schema(tp)`` is draft 2020-12 with shared definitions under ``$defs``;
``dialect="openai-strict" | "openapi-3.0" | "gemini"`` rewrites it for that consumer
(see README's type-support table for what each type becomes in each dialect).
"""

from __future__ import annotations

from typing import Any

from sktypes.errors import SchemaError
from sktypes.schema._dialects import DIALECTS, GEMINI_RECURSION_DEPTH, Dialect, to_dialect
from sktypes.schema._types import compat_type, type_adapter, type_schema

__all__ = [
    "DIALECTS",
    "GEMINI_RECURSION_DEPTH",
    "Dialect",
    "compat_type",
    "dialect_problems",
    "json_schema",
    "to_dialect",
    "type_adapter",
]


def json_schema(tp: Any, dialect: str = "json-schema") -> dict[str, Any]:
    """Return the JSON Schema of a Python type in ``dialect`` (a new, mutable dict).

    Raises:
        IntrospectionError: pydantic cannot describe the type.
        SchemaError: the dialect cannot express the type (e.g. a mapping in openai-strict).
    """
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

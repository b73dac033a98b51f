"""Check a model's arguments against a function view, and any value against a schema.

Both are doors onto hydration's checks, nothing more: :func:`validate_arguments` asks the
view's argument contract (:class:`sktypes.hydration.ArgumentContract`), which decides for
every door into a function alike; :func:`value_problems` and :func:`schema_problems` ask
the schema check (:class:`sktypes.hydration.SchemaCheck`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sktypes._identity import by_identity
from sktypes.errors import ErrorDetail
from sktypes.hydration import SchemaCheck, argument_contract
from sktypes.jsondoc import JsonDocument
from sktypes.views import FunctionView

__all__ = ["json_path", "schema_problems", "validate_arguments", "value_problems"]


def json_path(parts: Any) -> str:
    """Render a jsonschema error path as ``$.a[0].b``."""
    out = "$"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def validate_arguments(
    view: FunctionView, arguments: Mapping[str, Any], *, strict: bool = False
) -> None:
    """Raise :class:`ArgumentsError` listing every way ``arguments`` break ``view``.

    The view's argument contract decides, exactly as when the function is invoked (through
    the kernel, an integration or the MCP server): missing and unknown arguments (unless
    the function takes ``**kwargs``), types, enums, formats, bounds, and the native types
    (a date, a model). Lax coercions are accepted (``"2"`` for an integer) unless
    ``strict``. Each error has a JSON path (``$.date``) and the offending input.
    """
    argument_contract(view).check(arguments, strict=strict)


def value_problems(schema: JsonDocument, value: Any) -> list[ErrorDetail]:
    """Every way the JSON ``value`` breaks ``schema`` (empty when it fits).

    The schema check the argument contract uses (formats as lenient as the hydrator), for
    any value: a function's result against its return schema, say. The check is compiled
    once per schema document (kept by identity: a view's schema is the same object on
    every call). A schema that cannot be used (an unresolvable ``$ref``) is one problem at
    ``$``.
    """
    return _check(schema).problems(value)


def schema_problems(schema: JsonDocument, value: Any) -> list[tuple[tuple[Any, ...], str, Any]]:
    """:func:`value_problems` as data: ``(path parts, message, offending value)`` each.

    The path parts are keys and indexes into ``value`` (a JSON pointer's tokens); the same
    schema check, read without rendering paths (response drift names JSON pointers).
    """
    return _check(schema).located(value)


@by_identity
def _check(schema: JsonDocument) -> SchemaCheck:
    return SchemaCheck(schema)

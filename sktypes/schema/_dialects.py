"""Draft 2020-12 schemas → provider dialects: openai-strict, openapi-3.0, gemini.

Each dialect reads the schema through the schema model (:func:`sktypes.schema.parse`) and
writes it with an :class:`~sktypes.schema._emit.Emitter` of its own: one method per node
kind, changed where the provider cannot take what 2020-12 says. ``allOf`` parts arrive
merged (the model merges whatever is exactly mergeable, at any depth). What a dialect
cannot carry is dropped and, when it constrains values, written into the ``description``
so the model still reads it (``(minLength: 3)``); what it cannot express at all raises
:class:`SchemaError` naming the JSON pointer.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Literal

from sktypes.errors import SchemaError
from sktypes.schema._dialect_gemini import GEMINI_RECURSION_DEPTH, _Gemini
from sktypes.schema._dialect_openai import _OpenAIStrict
from sktypes.schema._dialect_openapi30 import _OpenAPI30
from sktypes.schema._model import SchemaModel

__all__ = ["DIALECTS", "GEMINI_RECURSION_DEPTH", "Dialect", "to_dialect"]

Dialect = Literal["json-schema", "openai-strict", "openapi-3.0", "gemini"]
"""The name of a JSON Schema dialect ``json_schema`` and ``to_dialect`` write."""
DIALECTS: tuple[Dialect, ...] = ("json-schema", "openai-strict", "openapi-3.0", "gemini")
"""Every dialect, in a stable order."""


def to_dialect(schema: dict[str, Any], dialect: str) -> dict[str, Any]:
    """Return ``schema`` (draft 2020-12) rewritten for ``dialect`` (a new dict)."""
    if dialect == "json-schema":
        return copy.deepcopy(schema)
    writer = _WRITERS.get(dialect)
    if writer is None:
        raise SchemaError(f"unknown dialect {dialect!r}; choose one of {', '.join(DIALECTS)}")
    from sktypes.schema import parse

    out: dict[str, Any] = writer(parse(schema)).convert()
    return out


_WRITERS: dict[str, Callable[[SchemaModel], Any]] = {
    "openai-strict": _OpenAIStrict,
    "openapi-3.0": _OpenAPI30,
    "gemini": _Gemini,
}

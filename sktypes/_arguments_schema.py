"""The arguments object's schema: a view's parameter schemas combined into one.

Each parameter schema is self-contained (its own ``$defs``); the arguments object's schema
hoists the definitions into one ``$defs`` (renaming a clash) and lists every parameter under
``properties``, the required ones under ``required``, and refuses other members unless the
function takes ``**kwargs``. What :attr:`sktypes.FunctionView.parameters_schema` returns and
what the argument contract (:mod:`sktypes.hydration`) checks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sktypes._identity import IdentityCache
from sktypes.jsondoc import JsonDocument, thaw
from sktypes.schema._walk import rename_refs

if TYPE_CHECKING:
    from sktypes.views import FunctionView, ParameterView

__all__ = ["build_parameters_schema", "parameters_document"]

_COMBINED: IdentityCache[tuple[ParameterView, ...], dict[bool, JsonDocument]] = IdentityCache()
"""Combined parameters schemas, keyed by the parameters tuple's identity: views made from
one another (``dataclasses.replace`` binding a method) share it, and hashing a view by
value would cover every schema it holds."""


def parameters_document(view: FunctionView) -> JsonDocument:
    """The arguments object's schema as one frozen document, built once per parameters tuple.

    :attr:`FunctionView.parameters_schema` is a mutable copy of it.
    """
    return _parameters_schema(view)


def _parameters_schema(view: FunctionView) -> JsonDocument:
    by_extra = _COMBINED.get(view.parameters)
    if by_extra is None:
        by_extra = _COMBINED.put(view.parameters, {})
    doc = by_extra.get(view.accepts_extra)
    if doc is None:
        doc = by_extra[view.accepts_extra] = JsonDocument(
            _combine(view.parameters, view.accepts_extra)
        )
    return doc


def build_parameters_schema(
    parameters: Sequence[ParameterView], accepts_extra: bool = False
) -> dict[str, Any]:
    """Combine parameter schemas into one object schema, merging their ``$defs``.

    Two parameters whose ``$defs`` use one name for different schemas would clash; the
    later one is renamed (``Name__2``) and its references rewritten.
    """
    combined: dict[str, Any] = thaw(_combine(parameters, accepts_extra))
    return combined


def _combine(parameters: Sequence[ParameterView], accepts_extra: bool) -> dict[str, Any]:
    """The combined schema, built from the parameters' frozen schemas without copying them."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    defs: dict[str, Any] = {}
    for p in parameters:
        frozen: Mapping[str, Any] = p.schema.value if p.schema is not None else {}
        local_defs = frozen.get("$defs")
        schema: dict[str, Any] = {k: v for k, v in frozen.items() if k != "$defs"}
        if local_defs:
            renames: dict[str, str] = {}
            for name, sub in local_defs.items():
                new = name
                n = 2
                while new in defs and defs[new] != sub:
                    new = f"{name}__{n}"
                    n += 1
                if new != name:
                    renames[name] = new
            if renames:  # rare: rewrite a thawed copy
                schema = rename_refs(thaw(schema), renames)
                local_defs = {
                    renames.get(k, k): rename_refs(thaw(v), renames) for k, v in local_defs.items()
                }
            defs.update(local_defs)
        if p.description and "description" not in schema:
            schema["description"] = p.description
        properties[p.name] = schema
        if p.is_required:
            required.append(p.name)
    out: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        out["required"] = required
    if not accepts_extra:
        out["additionalProperties"] = False
    if defs:
        out["$defs"] = defs
    return out

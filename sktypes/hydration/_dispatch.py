"""Which target a ``hydrate`` call reads into: one per type, schema or view, kept for reuse.

Types and schemas are many and shared, so their targets are kept in bounded caches (by type,
and by the identity of the schema model); a function view's target is its argument
contract, which the view keeps itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sktypes._identity import IdentityCache, ValueCache
from sktypes.hydration._contract import argument_contract
from sktypes.hydration._targets import SchemaTarget, Target, TypeTarget
from sktypes.jsondoc import JsonDocument
from sktypes.schema import SchemaModel, parse
from sktypes.views import FunctionView, ParameterView, ReturnParameterView

__all__ = ["target_for"]

_TYPES: ValueCache[Any, TypeTarget] = ValueCache(2048)
_SCHEMAS: IdentityCache[SchemaModel, dict[str, SchemaTarget]] = IdentityCache(2048)


def _type_target(tp: Any) -> TypeTarget:
    try:
        hit = _TYPES.get(tp)
    except TypeError:  # unhashable type expression
        return TypeTarget(tp)
    if hit is None:
        hit = _TYPES.put(tp, TypeTarget(tp))
    return hit


def _schema_target(
    schema: Mapping[str, Any] | bool | JsonDocument, name: str = "value"
) -> SchemaTarget:
    model = parse(schema)
    by_name = _SCHEMAS.get(model)
    if by_name is None:
        by_name = _SCHEMAS.put(model, {})
    hit = by_name.get(name)
    if hit is None:
        hit = by_name[name] = SchemaTarget(model, name)
    return hit


def target_for(target: Any) -> Target:
    """Return the target for a type, a view (its argument contract) or a JSON Schema."""
    if isinstance(target, FunctionView):
        return argument_contract(target).target()
    if isinstance(target, (ParameterView, ReturnParameterView)):
        if target.native_type is not None:
            return _type_target(target.native_type)
        if target.schema is None:
            return _schema_target({})
        name = target.name if isinstance(target, ParameterView) else "return value"
        return _schema_target(target.schema, name)
    if isinstance(target, JsonDocument):
        return _schema_target(target)
    if isinstance(target, (Mapping, bool)):
        return _schema_target(target)  # a JSON Schema (``true``/``false`` are schemas too)
    return _type_target(target)

"""Example values of a schema: witnesses for ``incompatible`` verdicts, and finite domains.

Examples are *guesses*: whoever uses one validates it first (``Context.counter``), so a
wrong guess only costs an ``unknown``, never a wrong verdict.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from sktypes.plan._jsonpath import PathError, Segment, resolve_pointer
from sktypes.plan._verdict import MISSING, Context, Side

__all__ = [
    "FORMAT_SAMPLES",
    "KINDS",
    "deref",
    "embed",
    "example",
    "example_of_kind",
    "finite_values",
    "int_bound",
    "kinds_of",
]

KINDS = ("null", "boolean", "integer", "number", "string", "array", "object")
"""The JSON types, in the order examples prefer them (``null`` last)."""

FORMAT_SAMPLES: dict[str, str] = {
    "date": "2000-01-01",
    "date-time": "2000-01-01T00:00:00+00:00",
    "time": "00:00:00+00:00",
    "email": "a@example.com",
    "idn-email": "a@example.com",
    "hostname": "example.com",
    "idn-hostname": "example.com",
    "ipv4": "127.0.0.1",
    "ipv6": "::1",
    "uuid": "00000000-0000-0000-0000-000000000000",
    "uri": "https://example.com/",
    "uri-reference": "https://example.com/",
    "iri": "https://example.com/",
    "regex": "a",
    "duration": "P1D",
    "json-pointer": "/a",
}
_MAX_DEPTH = 12
_MAX_ENUMERATED_INTEGERS = 256


def deref(schema: Any, root: Any) -> Any:
    """Follow a top-level local ``$ref``; siblings that assert become an ``allOf``.

    Returns the schema unchanged when the reference cannot be followed.
    """
    for _ in range(32):
        if not isinstance(schema, Mapping) or not isinstance(schema.get("$ref"), str):
            return schema
        try:
            target = resolve_pointer(root, schema["$ref"])
        except PathError:
            return schema
        siblings = {k: v for k, v in schema.items() if k not in ("$ref", "$defs")}
        schema = {"allOf": [target, siblings]} if siblings else target
    return schema


def kinds_of(schema: Any) -> set[str] | None:
    """The JSON types a schema's ``type`` keyword allows; ``None`` when it has none."""
    if not isinstance(schema, Mapping) or "type" not in schema:
        return None
    t = schema["type"]
    return {t} if isinstance(t, str) else set(t)


def example(schema: Any, root: Any, depth: int = 0) -> Any:
    """A small value that is likely valid for ``schema`` (``MISSING`` if none is found)."""
    schema = deref(schema, root)
    if schema is True:
        return None
    if not isinstance(schema, Mapping) or depth > _MAX_DEPTH:
        return MISSING
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), Sequence) and schema["enum"]:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf"):
        for option in schema.get(key) or ():
            value = example(_with_base(schema, key, option), root, depth + 1)
            if value is not MISSING:
                return value
    if schema.get("allOf"):
        merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
        for part in schema["allOf"]:
            part = deref(part, root)
            if isinstance(part, Mapping):
                merged.update(part)
        return example(merged, root, depth + 1)
    kinds = kinds_of(schema)
    kind = _guess_kind(schema) if kinds is None else next(k for k in KINDS if k in kinds)
    return example_of_kind(schema, root, kind, depth)


def _with_base(schema: Mapping[str, Any], key: str, option: Any) -> Any:
    base = {k: v for k, v in schema.items() if k != key}
    return {"allOf": [base, option]} if base else option


def _guess_kind(schema: Mapping[str, Any]) -> str:
    if any(k in schema for k in ("properties", "required", "additionalProperties")):
        return "object"
    if any(k in schema for k in ("items", "prefixItems", "minItems")):
        return "array"
    if any(k in schema for k in ("minLength", "maxLength", "pattern", "format")):
        return "string"
    if any(k in schema for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")):
        return "number"
    return "null"


def example_of_kind(schema: Mapping[str, Any], root: Any, kind: str, depth: int = 0) -> Any:
    """A small value of JSON type ``kind`` that is likely valid for ``schema``."""
    if kind == "null":
        return None
    if kind == "boolean":
        return False
    if kind in ("integer", "number"):
        return _number(schema, kind == "integer")
    if kind == "string":
        fmt = schema.get("format")
        if isinstance(fmt, str) and fmt in FORMAT_SAMPLES:
            return FORMAT_SAMPLES[fmt]
        return "a" * _count(schema.get("minLength"))
    if kind == "array":
        prefix = [example(s, root, depth + 1) for s in schema.get("prefixItems") or ()]
        need = _count(schema.get("minItems")) - len(prefix)
        if need > 0:
            prefix.extend([example(schema.get("items", True), root, depth + 1)] * need)
        return MISSING if MISSING in prefix else prefix
    props = schema.get("properties") or {}
    out: dict[str, Any] = {}
    for name in schema.get("required") or ():
        sub = props.get(name, schema.get("additionalProperties", True))
        out[name] = example(sub, root, depth + 1)
    return MISSING if MISSING in out.values() else out


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _num(value: Any) -> float | int | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


def _number(schema: Mapping[str, Any], integral: bool) -> int | float:
    lo, hi = _num(schema.get("minimum")), _num(schema.get("maximum"))
    xlo, xhi = _num(schema.get("exclusiveMinimum")), _num(schema.get("exclusiveMaximum"))
    step = _num(schema.get("multipleOf")) or 1
    value: int | float = 0
    if lo is not None and value < lo:
        value = lo
    if xlo is not None and value <= xlo:
        value = xlo + (1 if integral else step)
    if hi is not None and value > hi:
        value = hi
    if xhi is not None and value >= xhi:
        value = xhi - (1 if integral else step)
    if step and value % step:
        value = math.ceil(value / step) * step
    if integral:
        return math.ceil(value)
    return value


def finite_values(schema: Any, side: Side, ctx: Context) -> list[Any] | None:
    """Every value a schema admits, when there are few and they can be listed exactly.

    Lists the candidates from ``const``/``enum``/``boolean``/``null``/a small integer range
    and keeps those the validator accepts. ``None`` when the domain is not known to be small
    (or the validator cannot tell).
    """
    schema = deref(schema, ctx.roots[side])
    if not isinstance(schema, Mapping):
        return None
    candidates: list[Any]
    kinds = kinds_of(schema)
    if "const" in schema:
        candidates = [schema["const"]]
    elif isinstance(schema.get("enum"), Sequence) and not isinstance(schema["enum"], str):
        candidates = list(schema["enum"])
    elif kinds is not None and kinds <= {"null", "boolean"}:
        candidates = ([None] if "null" in kinds else []) + (
            [False, True] if "boolean" in kinds else []
        )
    elif kinds == {"integer"}:
        lo = int_bound(schema, "minimum", "exclusiveMinimum", 1)
        hi = int_bound(schema, "maximum", "exclusiveMaximum", -1)
        if lo is None or hi is None or hi - lo > _MAX_ENUMERATED_INTEGERS:
            return None
        candidates = list(range(lo, hi + 1))
    else:
        return None
    out: list[Any] = []
    for value in candidates:
        ok = ctx.valid(side, schema, value)
        if ok is None:
            return None
        if ok:
            out.append(value)
    return out


def int_bound(
    schema: Mapping[str, Any], inclusive: str, exclusive: str, direction: int
) -> int | None:
    """The tightest integer bound (``direction`` 1: lower, -1: upper)."""
    bounds: list[int] = []
    inc, exc = _num(schema.get(inclusive)), _num(schema.get(exclusive))
    if inc is not None:
        bounds.append(math.ceil(inc) if direction > 0 else math.floor(inc))
    if exc is not None:
        bounds.append(math.floor(exc) + 1 if direction > 0 else math.ceil(exc) - 1)
    if not bounds:
        return None
    return max(bounds) if direction > 0 else min(bounds)


def embed(schema: Any, root: Any, segments: Sequence[Segment], value: Any, depth: int = 0) -> Any:
    """An instance of ``schema`` that holds ``value`` at ``segments`` (a guess; validate it)."""
    if not segments:
        return value
    schema = deref(schema, root)
    if isinstance(schema, Mapping):
        for key in ("anyOf", "oneOf"):
            for option in schema.get(key) or ():
                got = embed(_with_base(schema, key, option), root, segments, value, depth + 1)
                if got is not MISSING:
                    return got
        if schema.get("allOf"):
            merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
            for part in schema["allOf"]:
                part = deref(part, root)
                if isinstance(part, Mapping):
                    merged.update(part)
            schema = merged
    if depth > _MAX_DEPTH or not isinstance(schema, Mapping):
        return MISSING
    head, rest = segments[0], segments[1:]
    if isinstance(head, str):
        base = example_of_kind(schema, root, "object", depth)
        props = schema.get("properties") or {}
        child = props.get(head, schema.get("additionalProperties", True))
        inner = embed(child, root, rest, value, depth + 1)
        if base is MISSING or inner is MISSING:
            return MISSING
        return {**base, head: inner}
    prefix = schema.get("prefixItems") or ()
    items: list[Any] = []
    for i in range(head):
        items.append(example(prefix[i] if i < len(prefix) else schema.get("items", True), root))
    child = prefix[head] if head < len(prefix) else schema.get("items", True)
    items.append(embed(child, root, rest, value, depth + 1))
    return MISSING if MISSING in items else items

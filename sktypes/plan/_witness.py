"""Example values of a schema: witnesses for ``incompatible`` verdicts, and finite domains.

Read from the schema model's nodes. Examples are *guesses*: whoever uses one validates it
first (``Context.counter``), so a wrong guess only costs an ``unknown``, never a wrong
verdict.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from sktypes.jsondoc import thaw
from sktypes.plan._jsonpath import Segment
from sktypes.plan._verdict import MISSING, Context, Side
from sktypes.schema import (
    AnyNode,
    ArrayNode,
    BooleanNode,
    ConstNode,
    EnumNode,
    IntegerNode,
    IntersectionNode,
    NeverNode,
    Node,
    NullNode,
    ObjectNode,
    OpaqueNode,
    RefNode,
    StringNode,
    UnionNode,
)
from sktypes.schema._nodes import _Numeric

__all__ = [
    "FORMAT_SAMPLES",
    "KINDS",
    "deref",
    "embed",
    "example",
    "example_of_kind",
    "finite_values",
    "int_bound",
    "kind_of",
    "member_node",
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
_MAX_REF_HOPS = 32


def deref(node: Node) -> Node:
    """Follow references to the node they name (the reference itself if it cannot be)."""
    for _ in range(_MAX_REF_HOPS):
        if not isinstance(node, RefNode) or node.model is None or not node.model.can_resolve(node):
            return node
        node = node.target
    return node


def kind_of(node: Node) -> str | None:
    """The JSON type a node declares (``None`` for any, implied, or composed nodes)."""
    if isinstance(node, (NullNode, BooleanNode)):
        return node.kind
    if isinstance(node, (StringNode, _Numeric, ArrayNode, ObjectNode)) and not node.implied:
        return node.kind
    return None


def example(node: Node, depth: int = 0) -> Any:
    """A small value that is likely valid for ``node`` (``MISSING`` if none is found)."""
    node = deref(node)
    if depth > _MAX_DEPTH:
        return MISSING
    if isinstance(node, AnyNode):
        return None
    if isinstance(node, (NeverNode, OpaqueNode, RefNode)):
        return MISSING
    if isinstance(node, ConstNode):
        return thaw(node.value)
    if isinstance(node, EnumNode):
        return thaw(node.values[0]) if node.values else MISSING
    if isinstance(node, UnionNode):
        for option in node.options:
            value = example(option, depth + 1)
            if value is not MISSING:
                return value
        return MISSING
    if isinstance(node, IntersectionNode):
        for part in node.parts:
            if not isinstance(part, OpaqueNode):
                value = example(part, depth + 1)
                if value is not MISSING:
                    return value
        return MISSING
    return example_of_kind(node, node.kind, depth)


def example_of_kind(node: Node, kind: str, depth: int = 0) -> Any:
    """A small value of JSON type ``kind`` that is likely valid for ``node``."""
    node = deref(node)
    if kind == "null":
        return None
    if kind == "boolean":
        return False
    if kind in ("integer", "number"):
        numeric = node if isinstance(node, _Numeric) else None
        return _number(numeric, kind == "integer")
    if kind == "string":
        text = node if isinstance(node, StringNode) else None
        if text is not None and text.format in FORMAT_SAMPLES:
            return FORMAT_SAMPLES[text.format]
        return "a" * _count(text.min_length if text is not None else None)
    if kind == "array":
        if not isinstance(node, ArrayNode):
            return []
        prefix = [example(p, depth + 1) for p in node.prefix_items]
        need = _count(node.min_items) - len(prefix)
        if need > 0:
            prefix.extend([example(node.items, depth + 1)] * need)
        return MISSING if MISSING in prefix else prefix
    if not isinstance(node, ObjectNode):
        return {}
    out: dict[str, Any] = {}
    for name in node.required:
        out[name] = example(member_node(node, name), depth + 1)
    return MISSING if MISSING in out.values() else out


def member_node(node: ObjectNode, name: str) -> Node:
    """What an object says about its member ``name``: the property, else ``additional``."""
    prop = node.prop(name)
    return prop.node if prop is not None else node.additional


def _count(value: int | None) -> int:
    return value if value is not None and value > 0 else 0


def _number(node: _Numeric | None, integral: bool) -> int | float:
    if node is None:
        return 0
    lo, hi = node.minimum, node.maximum
    xlo, xhi = node.exclusive_minimum, node.exclusive_maximum
    step = node.multiple_of or 1
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


def finite_values(node: Node, side: Side, ctx: Context) -> list[Any] | None:
    """Every value a node admits, when there are few and they can be listed exactly.

    Lists the candidates from ``const``/``enum``/``boolean``/``null``/a small integer range
    (through unions and intersections) and keeps those the validator accepts. ``None``
    when the domain is not known to be small (or the validator cannot tell).
    """
    candidates = _candidates(deref(node), 0)
    if candidates is None:
        return None
    out: list[Any] = []
    for value in candidates:
        ok = ctx.valid(side, node, value)
        if ok is None:
            return None
        if ok and not any(value == x and type(value) is type(x) for x in out):
            out.append(value)
    return out


def _candidates(node: Node, depth: int) -> list[Any] | None:
    if depth > _MAX_DEPTH:
        return None
    node = deref(node)
    if isinstance(node, ConstNode):
        return [thaw(node.value)]
    if isinstance(node, EnumNode):
        return [thaw(v) for v in node.values]
    if isinstance(node, NullNode):
        return [None]
    if isinstance(node, BooleanNode):
        return [False, True]
    if isinstance(node, NeverNode):
        return []
    if isinstance(node, IntegerNode) and not node.implied:
        lo = int_bound(node, 1)
        hi = int_bound(node, -1)
        if lo is None or hi is None or hi - lo > _MAX_ENUMERATED_INTEGERS:
            return None
        return list(range(lo, hi + 1))
    if isinstance(node, UnionNode):
        out: list[Any] = []
        for option in node.options:
            some = _candidates(option, depth + 1)
            if some is None:
                return None
            out.extend(some)
        return out
    if isinstance(node, IntersectionNode):
        for part in node.parts:
            some = _candidates(part, depth + 1)
            if some is not None:
                return some  # the whole node is checked on each by the caller
        return None
    return None


def int_bound(node: _Numeric, direction: int) -> int | None:
    """The tightest integer bound (``direction`` 1: lower, -1: upper)."""
    bounds: list[int] = []
    inc = node.minimum if direction > 0 else node.maximum
    exc = node.exclusive_minimum if direction > 0 else node.exclusive_maximum
    if inc is not None:
        bounds.append(math.ceil(inc) if direction > 0 else math.floor(inc))
    if exc is not None:
        bounds.append(math.floor(exc) + 1 if direction > 0 else math.ceil(exc) - 1)
    if not bounds:
        return None
    return max(bounds) if direction > 0 else min(bounds)


def embed(node: Node, segments: Sequence[Segment], value: Any, depth: int = 0) -> Any:
    """An instance of ``node`` that holds ``value`` at ``segments`` (a guess; validate it)."""
    if not segments:
        return value
    node = deref(node)
    if depth > _MAX_DEPTH:
        return MISSING
    if isinstance(node, UnionNode):
        for option in node.options:
            got = embed(option, segments, value, depth + 1)
            if got is not MISSING:
                return got
        return MISSING
    if isinstance(node, IntersectionNode):
        for part in node.parts:
            got = embed(part, segments, value, depth + 1)
            if got is not MISSING:
                return got
        return MISSING
    head, rest = segments[0], segments[1:]
    if isinstance(head, str):
        if not isinstance(node, (ObjectNode, AnyNode)):
            return MISSING
        base = example_of_kind(node, "object", depth)
        child = member_node(node, head) if isinstance(node, ObjectNode) else AnyNode()
        inner = embed(child, rest, value, depth + 1)
        if base is MISSING or inner is MISSING:
            return MISSING
        return {**base, head: inner}
    if not isinstance(node, (ArrayNode, AnyNode)):
        return MISSING
    prefix = node.prefix_items if isinstance(node, ArrayNode) else ()
    items = node.items if isinstance(node, ArrayNode) else AnyNode()
    out: list[Any] = []
    for i in range(head):
        out.append(example(prefix[i] if i < len(prefix) else items))
    child = prefix[head] if head < len(prefix) else items
    out.append(embed(child, rest, value, depth + 1))
    return MISSING if MISSING in out else out

"""What a schema node admits: its JSON kinds, and whether a listed value meets its constraints.

:func:`kinds_of` over-estimates the JSON types a node may admit (following references
through a :data:`Resolver`); :func:`multiple_of` is jsonschema's arithmetic for
``multipleOf``. Merges (:mod:`._merge`) and readers of the model decide with these.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any, Final

from sktypes.schema._nodes import (
    ArrayNode,
    BooleanNode,
    ConstNode,
    EnumNode,
    IntersectionNode,
    NeverNode,
    Node,
    NullNode,
    NumberNode,
    ObjectNode,
    RefNode,
    StringNode,
    UnionNode,
    _Numeric,
    json_kind,
)

__all__ = ["ALL_KINDS", "Resolver", "kinds_of", "multiple_of"]

ALL_KINDS: Final = frozenset({"null", "boolean", "integer", "number", "string", "array", "object"})

Resolver = Callable[[RefNode], "Node | None"]
"""Follows a reference for a merge; ``None`` when it cannot (unknown target, or a cycle)."""

_TYPED = (StringNode, _Numeric, ArrayNode, ObjectNode)


def kinds_of(node: Node, resolve: Resolver, _seen: frozenset[str] = frozenset()) -> frozenset[str]:
    """The JSON types a node may admit (an over-estimate; ``integer`` is in ``number``'s)."""
    if isinstance(node, NeverNode):
        return frozenset()
    if isinstance(node, (NullNode, BooleanNode)):
        return frozenset({node.kind})
    if isinstance(node, _TYPED):
        return ALL_KINDS if node.implied else _kinds_of_typed(node)
    if isinstance(node, ConstNode):
        return frozenset({json_kind(node.value)})
    if isinstance(node, EnumNode):
        return frozenset(json_kind(v) for v in node.values)
    if isinstance(node, UnionNode):
        out: frozenset[str] = frozenset()
        for o in node.options:
            out |= kinds_of(o, resolve, _seen)
        return out
    if isinstance(node, IntersectionNode):
        out = ALL_KINDS
        for p in node.parts:
            out &= kinds_of(p, resolve, _seen)
        return out
    if isinstance(node, RefNode):
        if node.ref in _seen:
            return ALL_KINDS
        target = resolve(node)
        return ALL_KINDS if target is None else kinds_of(target, resolve, _seen | {node.ref})
    return ALL_KINDS


def _kinds_of_typed(node: Node) -> frozenset[str]:
    if isinstance(node, NumberNode):
        return frozenset({"integer", "number"})
    return frozenset({node.kind})


def _fits(value: Any, node: StringNode | _Numeric) -> bool:
    """Whether a listed value meets a string's or number's constraints (no ``format``)."""
    if isinstance(node, StringNode):
        if not isinstance(value, str):
            return node.implied
        n = len(value)
        return (
            (node.min_length is None or n >= node.min_length)
            and (node.max_length is None or n <= node.max_length)
            and (node.pattern is None or re.search(node.pattern, value) is not None)
        )
    kind = json_kind(value)
    if kind not in _kinds_of_typed(node):
        return node.implied and kind not in ("integer", "number")
    return (
        (node.minimum is None or value >= node.minimum)
        and (node.maximum is None or value <= node.maximum)
        and (node.exclusive_minimum is None or value > node.exclusive_minimum)
        and (node.exclusive_maximum is None or value < node.exclusive_maximum)
        and (node.multiple_of is None or multiple_of(value, node.multiple_of))
    )


def multiple_of(value: int | float, step: int | float) -> bool:
    """Whether ``value`` is a multiple of ``step``, with jsonschema's arithmetic."""
    if isinstance(step, float):
        quotient = value / step
        try:
            return bool(int(quotient) == quotient)
        except OverflowError:
            return (Fraction(value) / Fraction(step)).denominator == 1
    return not bool(value % step)

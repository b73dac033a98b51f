"""A quick, compiled yes-check for JSON Schema, in front of the full validator.

:func:`compile_check` turns a schema into a predicate that answers ``True`` only when the
full draft 2020-12 validation (jsonschema, with the caller's format checker) finds no
error. ``False`` means "not sure": the caller then runs jsonschema, which reports the
real errors (or finds none).

The check is compiled from the schema model (:func:`sktypes.schema.parse`), one small
closure per node, and is exact for everything the model represents: types (``1.0`` is an
integer), bounds and ``multipleOf`` (jsonschema's arithmetic), lengths, ``pattern``,
``format`` (through the caller's checker), ``enum``/``const`` (JSON equality: ``1`` is not
``true``), arrays and tuples (``prefixItems``, ``uniqueItems``, ``contains``), objects
(``properties``, ``required``, ``additionalProperties``, ``patternProperties``,
``propertyNames``, counts), ``anyOf``, ``oneOf``, merged ``allOf``, ``$ref`` (recursive
schemas included). A schema holding a keyword the model does not represent (an
:class:`~sktypes.schema.OpaqueNode`: ``not``, ``if``...) is not compiled (``None``), so
correctness never depends on this module knowing every keyword.

Typical function parameters (strings, numbers, enums, flat objects, lists of them) are
checked in about a microsecond instead of the tens of jsonschema's iterative validation.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from sktypes.jsondoc import json_equal, json_hash
from sktypes.schema import parse
from sktypes.schema._kinds import multiple_of
from sktypes.schema._nodes import (
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
    NumberNode,
    ObjectNode,
    RefNode,
    StringNode,
    UnionNode,
    _Numeric,
)

__all__ = ["Check", "compile_check", "compile_node"]

Check = Callable[[Any], bool]
FormatCheck = Callable[[Any, str], bool]

_MAX_DEPTH = 64


class _Unsupported(Exception):
    """The schema holds something this module does not compile."""


def compile_check(schema: Any, formats: FormatCheck | None = None) -> Check | None:
    """Return a yes-check for ``schema``, or ``None`` when it cannot be compiled.

    Args:
        schema: a JSON Schema (draft 2020-12): a mapping, a ``JsonDocument`` or a boolean.
        formats: ``(value, format) -> bool`` — the full validator's format checker; without
            it, schemas with ``format`` are not compiled.
    """
    try:
        model = parse(schema)
    except Exception:  # not JSON: the full validator reports it
        return None
    return compile_node(model.root, formats)


def compile_node(node: Node, formats: FormatCheck | None = None) -> Check | None:
    """The exact check of one node (``None`` when it holds what cannot be compiled)."""
    try:
        return _Compiler(formats).compile(node, 0)
    except _Unsupported:
        return None


class _Compiler:
    """One compilation: the caller's format checker and the references compiled so far."""

    def __init__(self, formats: FormatCheck | None) -> None:
        self.formats = formats
        self.refs: dict[str, Check] = {}

    def compile(self, node: Node, depth: int) -> Check:
        if depth > _MAX_DEPTH:
            raise _Unsupported
        maker = _MAKERS.get(type(node))
        if maker is None:  # opaque keywords (and anything new)
            raise _Unsupported
        return maker(self, node, depth)

    def ref(self, node: Node, depth: int) -> Check:
        assert isinstance(node, RefNode)
        known = self.refs.get(node.ref)
        if known is not None:
            return known
        if node.model is None or not node.model.can_resolve(node):
            raise _Unsupported  # jsonschema raises on a reference it cannot follow
        cell: list[Check] = []
        self.refs[node.ref] = lambda v: cell[0](v)  # a recursive schema calls itself
        cell.append(self.compile(node.target, depth + 1))
        return cell[0]


# --- per kind ----------------------------------------------------------------------------


def _always(_: Any) -> bool:
    return True


def _never(_: Any) -> bool:
    return False


def _is_integer(v: Any) -> bool:
    if isinstance(v, bool):
        return False
    return isinstance(v, int) or (isinstance(v, float) and v.is_integer())


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _all(checks: list[Check]) -> Check:
    if not checks:
        return _always
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda v: first(v) and second(v)
    every = tuple(checks)

    def run(v: Any) -> bool:
        for check in every:  # noqa: SIM110 - a loop is faster than all() over a generator
            if not check(v):
                return False
        return True

    return run


def _typed(kind_check: Check, implied: bool, checks: list[Check]) -> Check:
    """``checks`` for values of the node's kind; others fail, or pass when implied."""
    inner = _all(checks)
    if implied:
        if inner is _always:
            return _always
        return lambda v: not kind_check(v) or inner(v)
    if inner is _always:
        return kind_check
    return lambda v: kind_check(v) and inner(v)


def _format(c: _Compiler, fmt: str | None) -> list[Check]:
    if fmt is None:
        return []
    if c.formats is None:
        raise _Unsupported
    formats = c.formats
    return [lambda v: formats(v, fmt)]


def _null(c: _Compiler, node: Node, depth: int) -> Check:
    return lambda v: v is None


def _boolean(c: _Compiler, node: Node, depth: int) -> Check:
    return lambda v: isinstance(v, bool)


def _numeric(c: _Compiler, node: Node, depth: int) -> Check:
    assert isinstance(node, _Numeric)
    checks: list[Check] = []
    if node.minimum is not None:
        lo = node.minimum
        checks.append(lambda v: v >= lo)
    if node.exclusive_minimum is not None:
        xlo = node.exclusive_minimum
        checks.append(lambda v: v > xlo)
    if node.maximum is not None:
        hi = node.maximum
        checks.append(lambda v: v <= hi)
    if node.exclusive_maximum is not None:
        xhi = node.exclusive_maximum
        checks.append(lambda v: v < xhi)
    if node.multiple_of is not None:
        step = node.multiple_of
        checks.append(lambda v: multiple_of(v, step))
    checks.extend(_format(c, node.format))
    kind = _is_integer if isinstance(node, IntegerNode) else _is_number
    implied_kind = _is_number  # an implied number's bounds apply to every number
    return _typed(implied_kind if node.implied else kind, node.implied, checks)


def _string(c: _Compiler, node: Node, depth: int) -> Check:
    assert isinstance(node, StringNode)
    checks: list[Check] = []
    if node.min_length is not None:
        shortest = node.min_length
        checks.append(lambda v: len(v) >= shortest)
    if node.max_length is not None:
        longest = node.max_length
        checks.append(lambda v: len(v) <= longest)
    if node.pattern is not None:
        search = re.compile(node.pattern).search
        checks.append(lambda v: search(v) is not None)
    checks.extend(_format(c, node.format))
    return _typed(lambda v: isinstance(v, str), node.implied, checks)


def _array(c: _Compiler, node: Node, depth: int) -> Check:
    assert isinstance(node, ArrayNode)
    checks: list[Check] = []
    if node.min_items is not None:
        fewest = node.min_items
        checks.append(lambda v: len(v) >= fewest)
    if node.max_items is not None:
        most = node.max_items
        checks.append(lambda v: len(v) <= most)
    prefix = tuple(c.compile(p, depth + 1) for p in node.prefix_items)
    items = c.compile(node.items, depth + 1)
    if prefix:
        size = len(prefix)

        def positions(v: list[Any]) -> bool:
            for check, x in zip(prefix, v, strict=False):
                if not check(x):
                    return False
            return items is _always or all(items(x) for x in v[size:])

        checks.append(positions)
    elif items is not _always:
        checks.append(lambda v: all(items(x) for x in v))
    if node.unique_items:
        checks.append(_unique)
    if node.contains is not None:
        checks.append(_contains(c.compile(node.contains, depth + 1), node))
    return _typed(lambda v: isinstance(v, list), node.implied, checks)


def _unique(v: list[Any]) -> bool:
    buckets: dict[int, list[Any]] = {}
    for x in v:
        same = buckets.setdefault(json_hash(x), [])
        if any(json_equal(x, y) for y in same):
            return False
        same.append(x)
    return True


def _contains(match: Check, node: ArrayNode) -> Check:
    fewest = 1 if node.min_contains is None else node.min_contains
    most = node.max_contains

    def check(v: list[Any]) -> bool:
        n = sum(1 for x in v if match(x))
        return n >= fewest and (most is None or n <= most)

    return check


def _object(c: _Compiler, node: Node, depth: int) -> Check:
    assert isinstance(node, ObjectNode)
    checks: list[Check] = []
    if node.required:
        keys = frozenset(node.required)
        checks.append(lambda v: keys <= v.keys())
    if node.min_properties is not None:
        fewest = node.min_properties
        checks.append(lambda v: len(v) >= fewest)
    if node.max_properties is not None:
        most = node.max_properties
        checks.append(lambda v: len(v) <= most)
    props = {p.name: c.compile(p.node, depth + 1) for p in node.properties}
    patterns = tuple(
        (re.compile(pattern).search, c.compile(sub, depth + 1))
        for pattern, sub in node.pattern_properties
    )
    extra: Check | None = None
    if not isinstance(node.additional, AnyNode) or node.additional.annotations():
        extra = c.compile(node.additional, depth + 1)
        if extra is _always:
            extra = None
    if patterns or extra is not None or any(p is not _always for p in props.values()):
        checks.append(_members(props, patterns, extra))
    if node.property_names is not None:
        names = c.compile(node.property_names, depth + 1)
        if names is not _always:
            checks.append(lambda v: all(names(k) for k in v))
    return _typed(lambda v: isinstance(v, dict), node.implied, checks)


def _members(
    props: dict[str, Check],
    patterns: tuple[tuple[Callable[[str], Any], Check], ...],
    extra: Check | None,
) -> Check:
    def check(v: dict[str, Any]) -> bool:
        for key, item in v.items():
            prop = props.get(key)
            matched = prop is not None
            if prop is not None and not prop(item):
                return False
            for search, sub in patterns:
                if search(key) is not None:
                    matched = True
                    if not sub(item):
                        return False
            if not matched and extra is not None and not extra(item):
                return False
        return True

    return check


def _enum(c: _Compiler, node: Node, depth: int) -> Check:
    assert isinstance(node, EnumNode)
    values = node.values
    if all(isinstance(x, str) for x in values):
        members = frozenset(values)
        return lambda v: isinstance(v, str) and v in members
    return lambda v: any(json_equal(v, x) for x in values)


def _const(c: _Compiler, node: Node, depth: int) -> Check:
    assert isinstance(node, ConstNode)
    value = node.value
    return lambda v: json_equal(v, value)


def _union(c: _Compiler, node: Node, depth: int) -> Check:
    assert isinstance(node, UnionNode)
    options = tuple(c.compile(o, depth + 1) for o in node.options)
    if node.one_of:  # every compiled check is exact: exactly one option holds
        return lambda v: sum(1 for o in options if o(v)) == 1
    if any(o is _always for o in options):
        return _always
    return lambda v: any(o(v) for o in options)


def _intersection(c: _Compiler, node: Node, depth: int) -> Check:
    assert isinstance(node, IntersectionNode)
    return _all([c.compile(p, depth + 1) for p in node.parts])


Maker = Callable[[_Compiler, Node, int], Check]

_MAKERS: dict[type[Node], Maker] = {
    AnyNode: lambda c, n, d: _always,
    NeverNode: lambda c, n, d: _never,
    NullNode: _null,
    BooleanNode: _boolean,
    IntegerNode: _numeric,
    NumberNode: _numeric,
    StringNode: _string,
    ArrayNode: _array,
    ObjectNode: _object,
    EnumNode: _enum,
    ConstNode: _const,
    UnionNode: _union,
    IntersectionNode: _intersection,
    RefNode: _Compiler.ref,
}

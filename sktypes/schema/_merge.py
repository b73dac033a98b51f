"""Conjunction of nodes: what ``allOf`` and sibling keywords mean, merged when exact.

:func:`conjoin` returns one node that admits exactly the values both nodes admit, when a
single node can say that (two objects become one object at any depth, bounds tighten,
an ``enum`` loses the members a ``type`` excludes, a union distributes over the other
side); otherwise an :class:`IntersectionNode` of the parts. Nothing is approximated: a
merge that would change which values are valid is not made.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from sktypes.jsondoc import json_equal
from sktypes.schema._kinds import (
    _TYPED,
    ALL_KINDS,
    Resolver,
    _fits,
    _kinds_of_typed,
    kinds_of,
    multiple_of,
)
from sktypes.schema._nodes import (
    ANNOTATION_FIELDS,
    NO_DEFAULT,
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
    OpaqueNode,
    Property,
    RefNode,
    StringNode,
    UnionNode,
    _Numeric,
    json_kind,
)

__all__ = ["ALL_KINDS", "Resolver", "conjoin", "kinds_of", "make_union", "multiple_of"]

_MAX_DISTRIBUTE = 16
_MAX_DEPTH = 48


class _CannotMerge(Exception):
    """One constraint of the two sides cannot be said by one node."""


def conjoin(a: Node, b: Node, resolve: Resolver, depth: int = 0) -> Node:
    """A node for "``a`` and ``b``" (annotations: ``a``'s first, then ``b``'s)."""
    parts: list[Node] = []
    for part in (*_flat(a), *_flat(b)):
        _add(parts, part, resolve, depth)
    if not parts:
        core: Node = AnyNode()
    elif any(isinstance(p, NeverNode) for p in parts):
        core = NeverNode()
    elif len(parts) == 1:
        core = parts[0]
    else:
        core = IntersectionNode(parts=tuple(parts))
    return _annotate(core, a, b)


def _flat(node: Node) -> tuple[Node, ...]:
    if isinstance(node, IntersectionNode):
        return node.parts
    if isinstance(node, AnyNode):
        return ()
    return (node,)


def _add(parts: list[Node], new: Node, resolve: Resolver, depth: int) -> None:
    """Merge ``new`` into the first part it merges with, or append it."""
    for i, old in enumerate(parts):
        merged = _pair(old, new, resolve, depth)
        if merged is not None:
            parts[i : i + 1] = _flat(merged)
            return
    parts.append(new)


def _annotate(core: Node, a: Node, b: Node) -> Node:
    """``core`` with annotations taken from ``a``, then ``b``, where ``core`` has none."""
    changes: dict[str, Any] = {}
    for name in ANNOTATION_FIELDS:
        if not _unset(name, getattr(core, name)):
            continue
        for donor in (a, b):
            value = getattr(donor, name)
            if not _unset(name, value):
                changes[name] = value
                break
    if not core.pointer:
        changes["pointer"] = a.pointer or b.pointer
    return core.replace(**changes) if changes else core


def _unset(name: str, value: Any) -> bool:
    if name == "default":
        return value is NO_DEFAULT
    return value in (None, (), False) or (name == "extra" and not value)


# --- one pair ----------------------------------------------------------------------------


def _pair(x: Node, y: Node, resolve: Resolver, depth: int) -> Node | None:
    """One node for ``x`` and ``y``, or ``None`` when they must stay separate parts."""
    if depth > _MAX_DEPTH:
        return None
    if isinstance(x, NeverNode) or isinstance(y, NeverNode):
        return NeverNode()
    if x == y:
        return x
    if isinstance(x, OpaqueNode) or isinstance(y, OpaqueNode):
        return None
    for first, second, ahead in ((x, y, True), (y, x, False)):
        if isinstance(first, RefNode):
            return _ref(first, second, resolve, depth, ahead)
    for first, second, ahead in ((x, y, True), (y, x, False)):
        if isinstance(first, UnionNode):
            return _distribute(first, second, resolve, depth, ahead)
    for first, second in ((x, y), (y, x)):
        if isinstance(first, (EnumNode, ConstNode)):
            return _values(first, second, resolve)
    try:
        return _typed(x, y, resolve, depth)
    except _CannotMerge:
        return None


def _ref(ref: RefNode, other: Node, resolve: Resolver, depth: int, ahead: bool) -> Node | None:
    """Merge through a reference (``ahead``: the reference's side comes first)."""
    if isinstance(other, RefNode) and other.ref == ref.ref:
        return ref
    if _bare(other) and kinds_of(ref, resolve) <= _kinds_of_typed(other):
        return ref  # {"$ref": X, "type": "object"} where X is an object: the reference
    target = resolve(ref)
    if target is None:
        return None
    merged = _in_order(target, other, ahead, resolve, depth + 1)
    if isinstance(merged, IntersectionNode) and len(merged.parts) >= len(_flat(target)) + len(
        _flat(other)
    ):
        return None  # nothing merged: keep the reference as it is written
    if _same_ignoring_name(merged, target):
        return ref
    # the referring side describes the result (a subtype's description, not its base's)
    own: dict[str, Any] = {k: v for k, v in other.annotations().items() if k != "extra"}
    if isinstance(merged, ObjectNode) and ref.name is not None:
        own["bases"] = (ref.name,)
    return merged.replace(**own) if own else merged


def _same_ignoring_name(merged: Node, target: Node) -> bool:
    if isinstance(merged, ObjectNode) and isinstance(target, ObjectNode):
        return merged.replace(name=target.name, bases=target.bases) == target
    return merged == target


def _bare(node: Node) -> bool:
    """A declared ``type`` and nothing else that constrains (annotations aside)."""
    if isinstance(node, (NullNode, BooleanNode)):
        return True
    if not isinstance(node, _TYPED) or node.implied:
        return False
    return node == type(node)(**{f: getattr(node, f) for f in ANNOTATION_FIELDS})


def make_union(
    options: list[Node], *, one_of: bool = False, template: UnionNode | None = None
) -> Node:
    """A union of ``options``, simplified without changing its meaning.

    ``never`` options are dropped, nested ``anyOf`` flattened, a single option returned as
    itself, and an ``AnyNode`` option makes an ``anyOf`` union ``AnyNode``.
    """
    flat: list[Node] = []
    for o in options:
        if isinstance(o, NeverNode):
            continue
        if isinstance(o, UnionNode) and not o.one_of and not one_of and not o.discriminator:
            inner = o.options if not o.annotations() else (o,)
            flat.extend(inner)
        else:
            flat.append(o)
    if not one_of:
        unique: list[Node] = []
        for o in flat:
            if o not in unique:
                unique.append(o)
        flat = unique
        if any(isinstance(o, AnyNode) and not o.annotations() for o in flat):
            return AnyNode()
    if not flat:
        return NeverNode()
    if len(flat) == 1:
        return flat[0]
    if template is not None:
        return template.replace(options=tuple(flat), one_of=one_of)
    return UnionNode(options=tuple(flat), one_of=one_of)


def _in_order(first: Node, second: Node, ahead: bool, resolve: Resolver, depth: int) -> Node:
    return (
        conjoin(first, second, resolve, depth) if ahead else conjoin(second, first, resolve, depth)
    )


def _distribute(
    union: UnionNode, other: Node, resolve: Resolver, depth: int, ahead: bool
) -> Node | None:
    if _bare(other) and kinds_of(union, resolve) <= _kinds_of_typed(other):
        return union
    if isinstance(other, UnionNode):
        if len(union.options) * len(other.options) > _MAX_DISTRIBUTE:
            return None
    elif len(union.options) > _MAX_DISTRIBUTE:
        return None
    options = [_in_order(o, other, ahead, resolve, depth + 1) for o in union.options]
    return make_union(options, one_of=union.one_of, template=union)


def _values(node: EnumNode | ConstNode, other: Node, resolve: Resolver) -> Node | None:
    values = [node.value] if isinstance(node, ConstNode) else list(node.values)
    if isinstance(other, (EnumNode, ConstNode)):
        others = [other.value] if isinstance(other, ConstNode) else list(other.values)
        kept = [v for v in values if any(json_equal(v, o) for o in others)]
    elif isinstance(other, (NullNode, BooleanNode)) or _bare(other):
        kinds = _kinds_of_typed(other)
        kept = [v for v in values if json_kind(v) in kinds]
    elif isinstance(other, (StringNode, _Numeric)) and other.format is None:
        fits = [_fits(v, other) for v in values]
        kept = [v for v, ok in zip(values, fits, strict=True) if ok]
    elif isinstance(other, _TYPED) and other.implied and _bare(other.replace(implied=False)):
        kept = values
    else:
        return None  # checking a value against these constraints needs a validator
    if not kept:
        return NeverNode()
    if isinstance(node, ConstNode):
        return node
    if isinstance(other, ConstNode):
        return other
    return node.replace(values=tuple(kept))


# --- typed nodes -------------------------------------------------------------------------


def _typed(x: Node, y: Node, resolve: Resolver, depth: int) -> Node | None:
    kx, ky = _kind(x), _kind(y)
    if kx is None or ky is None:
        return None
    if kx != ky:
        if {kx, ky} == {"integer", "number"}:
            return _numbers(x, y)
        implied_x, implied_y = _implied(x), _implied(y)
        if implied_x and implied_y:
            return None
        if implied_x:
            return y
        if implied_y:
            return x
        return NeverNode()
    if isinstance(x, (NullNode, BooleanNode)):
        return x
    if isinstance(x, _Numeric):
        return _numbers(x, y)
    if isinstance(x, StringNode) and isinstance(y, StringNode):
        return _strings(x, y)
    if isinstance(x, ArrayNode) and isinstance(y, ArrayNode):
        return _arrays(x, y, resolve, depth)
    if isinstance(x, ObjectNode) and isinstance(y, ObjectNode):
        return _objects(x, y, resolve, depth)
    return None


def _kind(node: Node) -> str | None:
    if isinstance(node, (NullNode, BooleanNode, *_TYPED)):
        return node.kind
    return None


def _implied(node: Node) -> bool:
    return isinstance(node, _TYPED) and node.implied


def _both(a: Any, b: Any, pick: Callable[[Any, Any], Any]) -> Any:
    if a is None:
        return b
    if b is None:
        return a
    return pick(a, b)


def _equal_or_one(a: Any, b: Any) -> Any:
    if a is None:
        return b
    if b is None or a == b:
        return a
    raise _CannotMerge


def _numbers(x: Node, y: Node) -> Node:
    assert isinstance(x, _Numeric)
    assert isinstance(y, _Numeric)
    # an integer and a number are an integer (an implied number's bounds apply to it too)
    integer = isinstance(x, IntegerNode) or isinstance(y, IntegerNode)
    base: _Numeric = y if integer and not isinstance(x, IntegerNode) else x
    cls: type[_Numeric] = IntegerNode if integer else NumberNode
    step = _multiple(x.multiple_of, y.multiple_of)
    fields = {f: getattr(base, f) for f in ANNOTATION_FIELDS}
    return cls(
        **fields,
        minimum=_both(x.minimum, y.minimum, max),
        maximum=_both(x.maximum, y.maximum, min),
        exclusive_minimum=_both(x.exclusive_minimum, y.exclusive_minimum, max),
        exclusive_maximum=_both(x.exclusive_maximum, y.exclusive_maximum, min),
        multiple_of=step,
        format=_equal_or_one(x.format, y.format),
        implied=x.implied and y.implied,
        pointer=base.pointer,
    )


def _multiple(a: int | float | None, b: int | float | None) -> int | float | None:
    if a is None or b is None or a == b:
        return a if b is None else b
    if isinstance(a, int) and isinstance(b, int) and a > 0 and b > 0:
        return math.lcm(a, b)
    raise _CannotMerge


def _strings(x: StringNode, y: StringNode) -> StringNode:
    return x.replace(
        min_length=_both(x.min_length, y.min_length, max),
        max_length=_both(x.max_length, y.max_length, min),
        pattern=_equal_or_one(x.pattern, y.pattern),
        format=_equal_or_one(x.format, y.format),
        content_encoding=x.content_encoding or y.content_encoding,
        content_media_type=x.content_media_type or y.content_media_type,
        implied=x.implied and y.implied,
    )


def _arrays(x: ArrayNode, y: ArrayNode, resolve: Resolver, depth: int) -> ArrayNode:
    size = max(len(x.prefix_items), len(y.prefix_items))
    prefix = tuple(conjoin(_at(x, i), _at(y, i), resolve, depth + 1) for i in range(size))
    if x.contains is not None and y.contains is not None and x.contains != y.contains:
        raise _CannotMerge
    holder = x if x.contains is not None else y
    return x.replace(
        items=conjoin(x.items, y.items, resolve, depth + 1),
        prefix_items=prefix,
        min_items=_both(x.min_items, y.min_items, max),
        max_items=_both(x.max_items, y.max_items, min),
        unique_items=x.unique_items or y.unique_items,
        contains=holder.contains,
        min_contains=holder.min_contains,
        max_contains=holder.max_contains,
        implied=x.implied and y.implied,
    )


def _at(array: ArrayNode, index: int) -> Node:
    return array.prefix_items[index] if index < len(array.prefix_items) else array.items


def _objects(x: ObjectNode, y: ObjectNode, resolve: Resolver, depth: int) -> ObjectNode:
    """Two objects as one: exact unless pattern properties meet a closed other side."""
    if (x.pattern_properties and not isinstance(y.additional, AnyNode)) or (
        y.pattern_properties and not isinstance(x.additional, AnyNode)
    ):
        raise _CannotMerge
    merged: dict[str, Node] = {}
    for p in x.properties:
        merged[p.name] = p.node
    for p in y.properties:
        merged[p.name] = (
            conjoin(merged[p.name], p.node, resolve, depth + 1)
            if p.name in merged
            else conjoin(p.node, _member(x, p.name, resolve, depth), resolve, depth + 1)
        )
    y_names = {p.name for p in y.properties}
    for p in x.properties:
        if p.name not in y_names:
            merged[p.name] = conjoin(p.node, _member(y, p.name, resolve, depth), resolve, depth + 1)
    required = tuple(dict.fromkeys((*x.required, *y.required)))
    names = set(required)
    if x.property_names is not None and y.property_names is not None:
        property_names: Node | None = conjoin(
            x.property_names, y.property_names, resolve, depth + 1
        )
    else:
        property_names = x.property_names or y.property_names
    return x.replace(
        properties=tuple(Property(n, node, n in names) for n, node in merged.items()),
        required=required,
        additional=conjoin(x.additional, y.additional, resolve, depth + 1),
        pattern_properties=x.pattern_properties + y.pattern_properties,
        property_names=property_names,
        min_properties=_both(x.min_properties, y.min_properties, max),
        max_properties=_both(x.max_properties, y.max_properties, min),
        name=None,
        bases=(),
        discriminator=x.discriminator or y.discriminator,
        implied=x.implied and y.implied,
    )


def _member(obj: ObjectNode, name: str, resolve: Resolver, depth: int) -> Node:
    """What ``obj`` says about a member ``name`` it does not declare."""
    matching = [node for pattern, node in obj.pattern_properties if re.search(pattern, name)]
    if not matching:
        return obj.additional
    out = matching[0]
    for node in matching[1:]:
        out = conjoin(out, node, resolve, depth + 1)
    return out

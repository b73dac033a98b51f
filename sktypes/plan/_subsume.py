"""JSON Schema subsumption: is every value valid for the source also valid for the target?

:func:`compatibility` answers with a :class:`Compatibility` verdict, reading both schemas
through the schema model (:func:`sktypes.schema.parse`): ``allOf`` parts arrive merged,
nullables as unions with ``null``, ``type`` lists as unions. The engine here handles what
applies to every JSON type — references, finite domains (``enum``, ``const``, booleans,
small integer ranges), unions, intersections and kinds — and hands each JSON type to its
keyword family in :mod:`._keywords`.

Soundness: ``compatible`` only comes from rules that are true for every value (recursive
schemas are compared co-inductively, only through a member or item; a source keyword the
model keeps as written is ignored, which only widens the source), and ``incompatible``
only with a witness that the validator accepts for the source and rejects for the target.
Whatever is neither is ``unknown``. "Valid" means valid for
``jsonschema.Draft202012Validator`` with its format checker (the validator sktypes uses).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from sktypes.jsondoc import JsonDocument
from sktypes.plan._keywords import (
    array_keywords,
    number_keywords,
    object_keywords,
    string_keywords,
)
from sktypes.plan._verdict import (
    MISSING,
    Compatibility,
    Context,
    Side,
    Verdict,
    compatible,
    merge_results,
    show,
    unknown,
)
from sktypes.plan._witness import KINDS, example, example_of_kind, finite_values, kind_of
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
    NumberNode,
    ObjectNode,
    OpaqueNode,
    RefNode,
    SchemaModel,
    StringNode,
    UnionNode,
    parse,
)
from sktypes.schema._nodes import _Numeric

__all__ = ["HANDLED_KEYWORDS", "compatibility", "disjoint", "node_compatibility"]

HANDLED_KEYWORDS = frozenset(
    {
        "type", "enum", "const", "$ref", "allOf", "anyOf", "oneOf",
        "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
        "maxLength", "minLength", "pattern", "format",
        "maxItems", "minItems", "uniqueItems", "items", "prefixItems",
        "properties", "required", "additionalProperties", "patternProperties",
        "maxProperties", "minProperties",
    }
)  # fmt: skip
"""Target keywords the check compares; any other asserting keyword makes the pair unknown
(unless a witness settles it)."""

_KIND_SAMPLES: dict[str, Any] = {
    "null": None,
    "boolean": False,
    "integer": 0,
    "number": 0.5,
    "string": "",
    "array": [],
    "object": {},
}
_ARTICLE = {"integer": "an integer", "array": "an array", "object": "an object", "null": "null"}
_BARE: dict[str, Node] = {
    "null": NullNode(),
    "boolean": BooleanNode(),
    "integer": IntegerNode(),
    "number": NumberNode(),
    "string": StringNode(),
    "array": ArrayNode(),
    "object": ObjectNode(),
}


def compatibility(
    source: Any,
    target: Any,
    *,
    source_root: Any = None,
    target_root: Any = None,
    budget: int = 20_000,
) -> Compatibility:
    """Check that every value valid for ``source`` is valid for ``target``.

    Args:
        source: the schema of the values that will be passed (a dict, ``True``/``False``
            or a :class:`JsonDocument`).
        target: the schema those values must satisfy.
        source_root: the document the source's ``$ref`` s point into (default: itself).
        target_root: the document the target's ``$ref`` s point into (default: itself).
        budget: how many sub-schema comparisons to make before answering ``unknown``.

    Returns:
        ``compatible``, ``incompatible`` (with a witness value) or ``unknown``, with a reason.
    """
    s_model, s = _side(source, source_root)
    t_model, t = _side(target, target_root)
    return node_compatibility(s, s_model, t, t_model, budget=budget)


def node_compatibility(
    s: Node, s_model: SchemaModel, t: Node, t_model: SchemaModel, *, budget: int = 20_000
) -> Compatibility:
    """:func:`compatibility` for nodes of two schema models."""
    ctx = Context(s_model, t_model, budget)
    ctx.sub = _sub
    return _sub(s, t, ctx)


def _side(schema: Any, root: Any) -> tuple[SchemaModel, Node]:
    value = schema.value if isinstance(schema, JsonDocument) else schema
    if root is None:
        model = parse(schema)
        return model, model.root
    model = parse(root)
    root_value = root.value if isinstance(root, JsonDocument) else root
    return model, (model.root if value is root_value else model.subschema(value))


def _sub(s: Node, t: Node, ctx: Context) -> Compatibility:
    ctx.budget -= 1
    if ctx.budget < 0:
        return unknown("the schemas are too large to compare")
    if _accepts_all(t):
        return compatible("the target takes any value")
    if isinstance(s, NeverNode):
        return compatible("the source admits no value")
    if isinstance(t, NeverNode):
        if finite_values(s, "s", ctx) == []:
            return compatible("the source admits no value")
        return ctx.counter(s, t, _examples(s, ctx), "the target admits no value")
    if s == t and (ctx.same_roots or not _has_refs(s)):
        return compatible("the same schema")
    key = (id(s), id(t))
    entered = ctx.active.get(key)
    if entered is not None:
        if ctx.descents > entered[0]:
            return compatible("recursive schemas, compared member by member")
        return unknown("a reference cycle that does not go through a member or an item")
    ctx.active[key] = (ctx.descents, s, t)
    try:
        return _compare(s, t, ctx)
    finally:
        del ctx.active[key]


def _accepts_all(t: Node) -> bool:
    return isinstance(t, AnyNode)


def _has_refs(node: Node) -> bool:
    todo = [node]
    seen = 0
    while todo and seen < 10_000:
        seen += 1
        current = todo.pop()
        if isinstance(current, RefNode):
            return True
        todo.extend(current.children())
    return False


def _compare(s: Node, t: Node, ctx: Context) -> Compatibility:
    if isinstance(s, RefNode):
        if s.model is None or not s.model.can_resolve(s):
            return unknown(f"cannot follow the source's $ref {s.ref!r}")
        return ctx.sub(s.target, t, ctx)
    if isinstance(t, RefNode):
        if t.model is None or not t.model.can_resolve(t):
            return unknown(f"cannot follow the target's $ref {t.ref!r}")
        return ctx.sub(s, t.target, ctx)
    values = finite_values(s, "s", ctx)
    if values is not None:
        return _enumerated(values, t, ctx)
    if isinstance(s, OpaqueNode):
        # a keyword kept as written only narrows the source: without it, a wider source
        r = ctx.sub(AnyNode(), t, ctx)
        if r.verdict is Verdict.COMPATIBLE:
            return r
        return ctx.counter(s, t, [r.witness, *_examples(s, ctx)], r.reason)
    if isinstance(s, UnionNode):
        return _source_union(s, t, ctx)
    if isinstance(s, IntersectionNode):
        return _source_all(s, t, ctx)
    if isinstance(t, UnionNode):
        return _target_one(s, t, ctx) if t.one_of else _target_any(s, t, ctx)
    if isinstance(t, IntersectionNode):
        return merge_results(ctx.sub(s, p, ctx) for p in t.parts)
    if isinstance(t, OpaqueNode):
        if t.keyword == "not" and _not_disjoint(s, t, ctx):
            return compatible("the source never holds what the target excludes")
        reason = (
            "the target excludes values the source may hold"
            if t.keyword == "not"
            else f"the target uses {t.keyword}, which the check does not compare"
        )
        return ctx.counter(s, t, _examples(s, ctx), reason)
    if isinstance(t, (EnumNode, ConstNode)):
        reason = "the target takes listed values only, and the source is not known to be one"
        return ctx.counter(s, t, _examples(s, ctx), reason)
    kind = kind_of(s)
    if kind is not None:
        return _by_kind(kind, s, t, ctx)
    return merge_results(_by_kind(k, s, t, ctx) for k in KINDS if k in _kinds_here(s))


def _kinds_here(s: Node) -> tuple[str, ...]:
    """The kinds to compare an undeclared source over (an implied node: all of them)."""
    return KINDS


def _enumerated(values: Sequence[Any], t: Node, ctx: Context) -> Compatibility:
    for v in values:
        ok = ctx.valid("t", t, v)
        if ok is None:
            return unknown("the validator cannot use the target schema")
        if not ok:
            return Compatibility(
                Verdict.INCOMPATIBLE, f"the source admits {show(v)}, which the target rejects", v
            )
    return compatible("every value the source admits is valid for the target")


def _source_union(s: UnionNode, t: Node, ctx: Context) -> Compatibility:
    def branches() -> Iterator[Compatibility]:
        for i, option in enumerate(s.options):
            r = ctx.sub(option, t, ctx)
            if r.verdict is Verdict.COMPATIBLE:
                yield r
                continue
            reason = f"alternative {i + 1} of the source: {r.reason}"
            if r.verdict is Verdict.UNKNOWN:
                yield unknown(reason)
            else:
                yield ctx.counter(s, t, [r.witness], reason)

    return merge_results(branches(), "every alternative of the source fits")


def _source_all(s: IntersectionNode, t: Node, ctx: Context) -> Compatibility:
    witnesses: list[Any] = []
    reasons: list[str] = []
    for part in s.parts:
        if isinstance(part, OpaqueNode):
            continue  # it only narrows the source further
        r = ctx.sub(part, t, ctx)
        if r.verdict is Verdict.COMPATIBLE:
            return compatible("one part of the source's allOf fits")
        reasons.append(r.reason)
        if r.verdict is Verdict.INCOMPATIBLE:
            witnesses.append(r.witness)
    first = reasons[0] if reasons else "its parts are not compared"
    return ctx.counter(s, t, witnesses, f"no part of the source's allOf fits ({first})")


def _target_any(s: Node, t: UnionNode, ctx: Context) -> Compatibility:
    results: list[Compatibility] = []
    for option in t.options:
        r = ctx.sub(s, option, ctx)
        if r.verdict is Verdict.COMPATIBLE:
            return compatible("an alternative of the target takes every source value")
        results.append(r)
    witnesses = [r.witness for r in results if r.verdict is Verdict.INCOMPATIBLE]
    return ctx.counter(s, t, witnesses + _examples(s, ctx), _alternatives_reason(results))


def _alternatives_reason(results: Sequence[Compatibility]) -> str:
    if len(results) == 1:
        return results[0].reason
    shown = [r.reason for r in results if "may be null" not in r.reason][:2] or [results[0].reason]
    return "no alternative of the target takes every source value: " + " / ".join(shown)


def _target_one(s: Node, t: UnionNode, ctx: Context) -> Compatibility:
    results: list[Compatibility] = []
    for i, option in enumerate(t.options):
        r = ctx.sub(s, option, ctx)
        if r.verdict is not Verdict.COMPATIBLE:
            results.append(r)
            continue
        others = [o for j, o in enumerate(t.options) if j != i]
        if all(disjoint(s, "s", o, "t", ctx) or disjoint(option, "t", o, "t", ctx) for o in others):
            return compatible("exactly one alternative of the target takes every source value")
        reason = "the source fits an alternative of the target's oneOf but may also fit another"
        return ctx.counter(s, t, _examples(s, ctx), reason)
    witnesses = [r.witness for r in results if r.verdict is Verdict.INCOMPATIBLE]
    return ctx.counter(s, t, witnesses + _examples(s, ctx), _alternatives_reason(results))


def _not_disjoint(s: Node, t: OpaqueNode, ctx: Context) -> bool:
    """Whether the source never meets what a target ``not`` excludes."""
    excluded = ctx.models["t"].subschema(t.value)
    return disjoint(s, "s", excluded, "t", ctx)


def _by_kind(kind: str, s: Node, t: Node, ctx: Context) -> Compatibility:
    t_kind = kind_of(t)
    t_kinds = None if t_kind is None else {t_kind}
    numeric = kind in ("integer", "number") and t_kinds is not None and "number" in t_kinds
    partly = kind == "number" and t_kinds is not None and "integer" in t_kinds
    s_k = _narrow(s, kind)
    if t_kinds is not None and kind not in t_kinds and not numeric and not partly:
        sample = example_of_kind(s_k, kind)
        untyped = "" if kind_of(s) is not None else " (the source declares no type)"
        verb = "is" if kind_of(s) == kind else "may be"
        reason = (
            f"the source {verb} {_ARTICLE.get(kind, 'a ' + kind)}{untyped}; "
            f"the target takes {' or '.join(sorted(t_kinds))}"
        )
        return ctx.counter(s_k, t, [sample, _KIND_SAMPLES[kind]], reason)
    if kind in ("null", "boolean"):
        values = finite_values(s_k, "s", ctx)
        if values is None:
            return unknown("the validator cannot use the source schema")
        return _enumerated(values, t, ctx)
    family = _family(kind)
    if t_kinds is None and not (
        isinstance(t, (StringNode, _Numeric, ArrayNode, ObjectNode)) and _family(t.kind) == family
    ):
        return compatible(f"the target says nothing about {kind}s")
    if kind in ("integer", "number"):
        assert isinstance(t, _Numeric)
        return number_keywords(_typed(s_k, _Numeric), t, ctx, kind, s_k)
    if kind == "string":
        assert isinstance(t, StringNode)
        return string_keywords(_typed(s_k, StringNode), t, ctx, s_k)
    if kind == "array":
        assert isinstance(t, ArrayNode)
        return array_keywords(_typed(s_k, ArrayNode), t, ctx, s_k)
    assert isinstance(t, ObjectNode)
    return object_keywords(_typed(s_k, ObjectNode), t, ctx, s_k)


def _family(kind: str) -> str:
    return "number" if kind in ("integer", "number") else kind


def _narrow(s: Node, kind: str) -> Node:
    """The source restricted to values of JSON type ``kind``."""
    if isinstance(s, (StringNode, _Numeric, ArrayNode, ObjectNode)) and _family(s.kind) == _family(
        kind
    ):
        if kind == "integer" and isinstance(s, NumberNode):
            return IntegerNode(
                minimum=s.minimum,
                maximum=s.maximum,
                exclusive_minimum=s.exclusive_minimum,
                exclusive_maximum=s.exclusive_maximum,
                multiple_of=s.multiple_of,
                format=s.format,
            )
        return s.replace(implied=False) if s.implied else s
    return _BARE[kind]


def _typed(node: Node, cls: type[Any]) -> Any:
    return node if isinstance(node, cls) else None


def _examples(s: Node, ctx: Context) -> list[Any]:
    out = [example(s)]
    kind = kind_of(s)
    for k in KINDS:
        if kind is None or k == kind:
            out.append(example_of_kind(_narrow(s, k), k))
            out.append(_KIND_SAMPLES[k])
    return [x for x in out if x is not MISSING]


def disjoint(a: Node, a_side: Side, b: Node, b_side: Side, ctx: Context, depth: int = 0) -> bool:
    """``True`` only when no value is valid for both ``a`` and ``b`` (``False``: not known)."""
    a, b = _deref(a), _deref(b)
    if isinstance(a, NeverNode) or isinstance(b, NeverNode):
        return True
    if depth > 8:
        return False
    ka, kb = kind_of(a), kind_of(b)
    if ka is not None and kb is not None and not _kinds_meet({ka}, {kb}):
        return True
    pairs = ((a, a_side, b, b_side), (b, b_side, a, a_side))
    for x, xs, y, ys in pairs:
        values = finite_values(x, xs, ctx)
        if values is not None and all(ctx.valid(ys, y, v) is False for v in values):
            return True
    for x, xs, y, ys in pairs:
        if isinstance(x, UnionNode) and all(
            disjoint(o, xs, y, ys, ctx, depth + 1) for o in x.options
        ):
            return True
        if isinstance(x, IntersectionNode) and any(
            disjoint(p, xs, y, ys, ctx, depth + 1) for p in x.parts
        ):
            return True
    if isinstance(a, ObjectNode) and isinstance(b, ObjectNode):
        common = set(a.required) & set(b.required)
        for name in common:
            pa, pb = a.prop(name), b.prop(name)
            if (
                pa is not None
                and pb is not None
                and disjoint(pa.node, a_side, pb.node, b_side, ctx, depth + 1)
            ):
                return True
    return False


def _deref(node: Node) -> Node:
    for _ in range(32):
        if not isinstance(node, RefNode) or node.model is None or not node.model.can_resolve(node):
            return node
        node = node.target
    return node


def _kinds_meet(a: set[str], b: set[str]) -> bool:
    if a & b:
        return True
    return ("integer" in a and "number" in b) or ("number" in a and "integer" in b)

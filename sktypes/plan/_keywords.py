"""Subsumption per keyword family, for a source already narrowed to one JSON type.

Each function answers "is every ``kind`` value valid for ``s`` also valid for ``t``?" for
the keywords of its family only, read from the schema model's nodes (the engine has
handled references, finite domains, unions and intersections). ``s`` is the source
narrowed to the kind (a typed node, or ``None`` when the source says nothing about that
kind); ``t`` a typed node of the target. A family proves ``compatible`` by comparing
fields, and claims ``incompatible`` only through ``Context.counter`` with a checked
witness.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from typing import Any

from sktypes.plan._verdict import (
    FORMAT_CHECKER,
    MISSING,
    Compatibility,
    Context,
    Verdict,
    compatible,
    merge_results,
)
from sktypes.plan._witness import FORMAT_SAMPLES, example, example_of_kind
from sktypes.schema import (
    AnyNode,
    ArrayNode,
    IntegerNode,
    NeverNode,
    Node,
    ObjectNode,
    RefNode,
    StringNode,
)
from sktypes.schema._merge import conjoin
from sktypes.schema._nodes import _Numeric

__all__ = ["array_keywords", "number_keywords", "object_keywords", "string_keywords"]

Bound = tuple[float | int, bool]
"""A bound's value and whether it is exclusive."""


def _bound(
    inclusive: float | None, exclusive: float | None, lower: bool, integral: bool
) -> Bound | None:
    """The tightest bound of one side; integral values turn it inclusive and whole."""
    found: list[Bound] = []
    if inclusive is not None:
        found.append((inclusive, False))
    if exclusive is not None:
        found.append((exclusive, True))
    if not found:
        return None
    if integral:
        whole = [
            (math.floor(v) + 1 if x else math.ceil(v))
            if lower
            else (math.ceil(v) - 1 if x else math.floor(v))
            for v, x in found
        ]
        return (max(whole) if lower else min(whole)), False
    if lower:
        return max(found, key=lambda b: (b[0], b[1]))
    return min(found, key=lambda b: (b[0], not b[1]))


def _within(s: Bound | None, t: Bound | None, lower: bool) -> bool:
    """Is the source's bound at least as tight as the target's?"""
    if t is None:
        return True
    if s is None:
        return False
    if s[0] != t[0]:
        return s[0] > t[0] if lower else s[0] < t[0]
    return s[1] or not t[1]


def _integral_step(step: Any) -> bool:
    return isinstance(step, int) and not isinstance(step, bool) and step > 0


def number_keywords(
    s: _Numeric | None, t: _Numeric, ctx: Context, kind: str, s_node: Node
) -> Compatibility:
    """Compare ``minimum``/``maximum`` (and exclusive forms) and ``multipleOf``."""
    s_step = s.multiple_of if s is not None else None
    t_step = t.multiple_of
    integral = kind == "integer" or _integral_step(s_step)
    s_lo = _bound(s.minimum, s.exclusive_minimum, True, integral) if s is not None else None
    s_hi = _bound(s.maximum, s.exclusive_maximum, False, integral) if s is not None else None
    t_lo = _bound(t.minimum, t.exclusive_minimum, True, integral)
    t_hi = _bound(t.maximum, t.exclusive_maximum, False, integral)
    problems: list[str] = []
    if not _within(s_lo, t_lo, True):
        problems.append(
            f"the source allows values below the target's lower bound {t_lo and t_lo[0]}"
        )
    if not _within(s_hi, t_hi, False):
        problems.append(
            f"the source allows values above the target's upper bound {t_hi and t_hi[0]}"
        )
    if t_step is not None and not _step_fits(s_step, t_step, integral):
        problems.append(f"the source allows values that are not multiples of {t_step}")
    if kind == "number" and isinstance(t, IntegerNode) and not t.implied and not integral:
        problems.append("the source allows fractions and the target takes integers only")
    if not problems:
        return compatible("bounds and multiples fit")
    anchors = [b[0] for b in (s_lo, s_hi, t_lo, t_hi) if b is not None]
    steps = [x for x in (s_step, t_step) if x]
    raw: list[Any] = [0, 1, -1, 0.5, -0.5, 10**9, -(10**9)] + steps + [a * 3 for a in steps]
    for a in anchors:
        raw += [a, a - 1, a + 1, a - 0.5, a + 0.5]
    values: list[Any] = [int(v) if kind == "integer" and float(v).is_integer() else v for v in raw]
    return ctx.counter(s_node, t, values, "; ".join(problems))


def _step_fits(s_step: Any, t_step: Any, integral: bool) -> bool:
    if s_step == t_step and type(s_step) is type(t_step):
        return True  # the same computation on the same value
    if t_step in (1, 1.0) and integral:
        return True
    return _integral_step(t_step) and _integral_step(s_step) and s_step % t_step == 0


def string_keywords(
    s: StringNode | None, t: StringNode, ctx: Context, s_node: Node
) -> Compatibility:
    """Compare ``minLength``/``maxLength``, ``pattern`` and (asserted) ``format``."""
    problems: list[str] = []
    s_min = (s.min_length if s is not None else None) or 0
    t_min = t.min_length or 0
    s_max = s.max_length if s is not None else None
    t_max = t.max_length
    if s_min < t_min:
        problems.append(f"the source allows strings shorter than {t_min}")
    if t_max is not None and (s_max is None or s_max > t_max):
        problems.append(f"the source allows strings longer than {t_max}")
    pattern = t.pattern
    if pattern is not None and (s.pattern if s is not None else None) != pattern:
        problems.append(f"the target requires the pattern {pattern!r}")
    fmt = t.format
    s_fmt = s.format if s is not None else None
    if fmt is not None and fmt in FORMAT_CHECKER.checkers and s_fmt != fmt:
        problems.append(f"the target requires format {fmt!r} and the source does not promise it")
    if not problems:
        return compatible("lengths, pattern and format fit")
    lengths = {0, 1, s_min, t_min, t_min - 1, 64}
    if t_max is not None:
        lengths |= {t_max, t_max + 1}
    if s_max is not None:
        lengths.add(s_max)
    candidates: list[Any] = ["a" * n for n in sorted(lengths) if 0 <= n <= 10_000]
    candidates += [" " * max(s_min, 1), "0" * max(s_min, 1)]
    candidates += [v for k, v in FORMAT_SAMPLES.items() if k != fmt] + [example(s_node)]
    return ctx.counter(s_node, t, candidates, "; ".join(problems))


def array_keywords(s: ArrayNode | None, t: ArrayNode, ctx: Context, s_node: Node) -> Compatibility:
    """Compare ``minItems``/``maxItems``, ``uniqueItems``, ``prefixItems`` and ``items``."""
    if t.contains is not None:
        reason = "the target uses contains, which the check does not compare"
        candidates = [example_of_kind(s_node, "array"), [], [example(s.items if s else AnyNode())]]
        return ctx.counter(s_node, t, candidates, reason)
    problems: list[str] = []
    s_min = (s.min_items if s is not None else None) or 0
    t_min = t.min_items or 0
    s_max = s.max_items if s is not None else None
    t_max = t.max_items
    if s_min < t_min:
        problems.append(f"the source allows fewer than {t_min} items")
    if t_max is not None and (s_max is None or s_max > t_max):
        problems.append(f"the source allows more than {t_max} items")
    s_unique = s is not None and s.unique_items
    if t.unique_items and not (s_unique or (s_max or 2) <= 1):
        problems.append("the target requires unique items")
    if problems:
        s_items: Node = s.items if s is not None else AnyNode()
        item = example(s_items)
        sizes = sorted({s_min, t_min - 1, (t_max or 0) + 1, 2})
        candidates = [[item] * n for n in sizes if n >= 0 and item is not MISSING]
        candidates.append(example_of_kind(s_node, "array"))
        return ctx.counter(s_node, t, candidates, "; ".join(problems))
    return merge_results(_element_results(s, t, s_node, ctx), "items fit")


def _element_results(
    s: ArrayNode | None, t: ArrayNode, s_node: Node, ctx: Context
) -> Iterator[Compatibility]:
    s_prefix = s.prefix_items if s is not None else ()
    t_prefix = t.prefix_items
    s_items: Node = s.items if s is not None else AnyNode()
    t_items = t.items
    s_max = s.max_items if s is not None else None
    reach = max(len(s_prefix), len(t_prefix))
    for i in range(reach):
        if s_max is not None and i >= s_max:
            return
        s_i = s_prefix[i] if i < len(s_prefix) else s_items
        t_i = t_prefix[i] if i < len(t_prefix) else t_items
        if isinstance(s_i, NeverNode):
            continue
        yield _lift_item(ctx.descend(s_i, t_i), i, s, s_node, t, ctx)
    if not isinstance(s_items, NeverNode) and (s_max is None or s_max > reach):
        yield _lift_item(ctx.descend(s_items, t_items), reach, s, s_node, t, ctx)


def _lift_item(
    r: Compatibility, index: int, s: ArrayNode | None, s_node: Node, t: Node, ctx: Context
) -> Compatibility:
    if r.verdict is Verdict.COMPATIBLE:
        return r
    reason = f"item [{index}]: {r.reason}"
    if r.verdict is Verdict.UNKNOWN:
        return Compatibility(Verdict.UNKNOWN, reason)
    prefix = s.prefix_items if s is not None else ()
    items: Node = s.items if s is not None else AnyNode()
    arr = [example(prefix[i] if i < len(prefix) else items) for i in range(index)]
    arr.append(r.witness)
    need = ((s.min_items if s is not None else None) or 0) - len(arr)
    arr += [example(items)] * max(need, 0)
    return ctx.counter(s_node, t, [arr] if MISSING not in arr else [], reason)


def _member(obj: ObjectNode | None, name: str) -> Node:
    """Everything an object says about member ``name`` (``NeverNode``: it cannot occur)."""
    if obj is None:
        return AnyNode()
    parts: list[Node] = []
    prop = obj.prop(name)
    if prop is not None:
        parts.append(prop.node)
    for pattern, sub in obj.pattern_properties:
        try:
            if re.search(pattern, name):
                parts.append(sub)
        except re.error:
            parts.append(AnyNode())  # unknown regex dialect: assume it may match
    if not parts:
        return obj.additional
    out = parts[0]
    for part in parts[1:]:
        out = conjoin(out, part, _target)
    return out


def _target(ref: RefNode) -> Node | None:
    return ref.target


def object_keywords(
    s: ObjectNode | None, t: ObjectNode, ctx: Context, s_node: Node
) -> Compatibility:
    """Compare ``required``, members (declared, by pattern, undeclared) and counts."""
    if t.property_names is not None:
        reason = "the target uses propertyNames, which the check does not compare"
        base = example_of_kind(s_node, "object")
        named = (
            [{**base, key: None} for key in ("a", "0", "A b", "extra_member")]
            if base is not MISSING
            else []
        )
        return ctx.counter(s_node, t, [base, *named], reason)
    s_required = set(s.required) if s is not None else set()
    missing = [n for n in t.required if n not in s_required]
    if missing:
        names = ", ".join(repr(n) for n in missing)
        return ctx.counter(
            s_node,
            t,
            [example_of_kind(s_node, "object")],
            f"the target requires {names}, which the source does not promise",
        )
    counts = _count_problem(s, t)
    if counts:
        full = {p.name: example(_member(s, p.name)) for p in s.properties} if s is not None else {}
        candidates = [example_of_kind(s_node, "object"), full]
        return ctx.counter(s_node, t, candidates, counts)
    return merge_results(_member_results(s, t, s_node, ctx), "members fit")


def _count_problem(s: ObjectNode | None, t: ObjectNode) -> str:
    s_min = max((s.min_properties if s is not None else None) or 0, len(s.required) if s else 0)
    t_min, t_max = t.min_properties or 0, t.max_properties
    if s_min < t_min:
        return f"the source allows fewer than {t_min} members"
    if t_max is None:
        return ""
    s_max = s.max_properties if s is not None else None
    if s is not None and s.closed:
        n = len(s.properties)
        s_max = n if s_max is None else min(s_max, n)
    if s_max is None or s_max > t_max:
        return f"the source allows more than {t_max} members"
    return ""


def _member_results(
    s: ObjectNode | None, t: ObjectNode, s_node: Node, ctx: Context
) -> Iterator[Compatibility]:
    t_names = {p.name for p in t.properties}
    s_names = [p.name for p in s.properties] if s is not None else []
    for name in [*(p.name for p in t.properties), *(n for n in s_names if n not in t_names)]:
        t_p = _member(t, name)
        if isinstance(t_p, AnyNode):
            continue
        s_p = _member(s, name)
        if isinstance(s_p, NeverNode):
            continue
        yield _lift_member(ctx.descend(s_p, t_p), name, s_node, t, ctx)
    if not t.pattern_properties and isinstance(t.additional, AnyNode):
        return
    # members the source does not declare: whatever their names, the target may apply a
    # pattern's schema or its additionalProperties to them
    s_extra: Node = s.additional if s is not None else AnyNode()
    if s is not None and s.pattern_properties:
        yield Compatibility(Verdict.UNKNOWN, "the source's patternProperties are not compared")
        return
    if isinstance(s_extra, NeverNode):
        return
    taken = t_names | set(s_names)
    patterns = [p for p, _ in t.pattern_properties]
    places = [(sub, _name_matching(p, taken)) for p, sub in t.pattern_properties]
    places.append((t.additional, _name_matching(None, taken, avoid=patterns)))
    for t_extra, name in places:
        if isinstance(t_extra, AnyNode):
            continue
        r = ctx.descend(s_extra, t_extra)
        if r.verdict is not Verdict.COMPATIBLE:
            r = Compatibility(r.verdict, f"undeclared members: {r.reason}", r.witness)
        yield _lift_member(r, name, s_node, t, ctx)


def _name_matching(pattern: str | None, taken: set[str], avoid: Sequence[str] = ()) -> str:
    """A member name for a witness: one ``pattern`` matches (or no ``avoid`` pattern does)."""
    guesses = ["extra", "a", "x", "0", "A", "_"]
    if pattern is not None:
        guesses.insert(0, re.sub(r"[\^$\\]", "", pattern))
    for guess in guesses:
        for name in (guess, guess + "_", guess + "1"):
            if name in taken:
                continue
            try:
                if pattern is not None and not re.search(pattern, name):
                    continue
                if any(re.search(p, name) for p in avoid):
                    continue
            except re.error:
                continue
            return name
    return "extra_"


def _lift_member(r: Compatibility, name: str, s_node: Node, t: Node, ctx: Context) -> Compatibility:
    if r.verdict is Verdict.COMPATIBLE:
        return r
    reason = f"member {name!r}: {r.reason}"
    if r.verdict is Verdict.UNKNOWN:
        return Compatibility(Verdict.UNKNOWN, reason)
    base = example_of_kind(s_node, "object")
    candidates = [] if base is MISSING else [{**base, name: r.witness}]
    return ctx.counter(s_node, t, candidates, reason)

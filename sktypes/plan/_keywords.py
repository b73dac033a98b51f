"""Subsumption per keyword family, for a source already narrowed to one JSON type.

Each function answers "is every ``kind`` value valid for ``s`` also valid for ``t``?" for
the keywords of its family only (the engine has handled ``type``, ``enum``/``const``,
combinators and ``$ref``). A family proves ``compatible`` by comparing keywords, and claims
``incompatible`` only through ``Context.counter`` with a checked witness.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
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
from sktypes.plan._witness import FORMAT_SAMPLES, example, example_of_kind, kinds_of

__all__ = ["array_keywords", "number_keywords", "object_keywords", "string_keywords"]

Bound = tuple[float | int, bool]
"""A bound's value and whether it is exclusive."""


def _num(value: Any) -> float | int | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


def _bound(
    schema: Mapping[str, Any], inc: str, exc: str, lower: bool, integral: bool
) -> Bound | None:
    """The tightest bound of one side; integral values turn it inclusive and whole."""
    found: list[Bound] = []
    if (v := _num(schema.get(inc))) is not None:
        found.append((v, False))
    if (v := _num(schema.get(exc))) is not None:
        found.append((v, True))
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
    s: Mapping[str, Any], t: Mapping[str, Any], ctx: Context, kind: str
) -> Compatibility:
    """Compare ``minimum``/``maximum`` (and exclusive forms) and ``multipleOf``."""
    s_step, t_step = s.get("multipleOf"), t.get("multipleOf")
    integral = kind == "integer" or _integral_step(s_step)
    s_lo = _bound(s, "minimum", "exclusiveMinimum", True, integral)
    s_hi = _bound(s, "maximum", "exclusiveMaximum", False, integral)
    t_lo = _bound(t, "minimum", "exclusiveMinimum", True, integral)
    t_hi = _bound(t, "maximum", "exclusiveMaximum", False, integral)
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
    t_kinds = kinds_of(t)
    if kind == "number" and t_kinds is not None and "number" not in t_kinds and not integral:
        problems.append("the source allows fractions and the target takes integers only")
    if not problems:
        return compatible("bounds and multiples fit")
    anchors = [b[0] for b in (s_lo, s_hi, t_lo, t_hi) if b is not None]
    steps = [x for x in (_num(s_step), _num(t_step)) if x]
    raw = [0, 1, -1, 0.5, -0.5, 10**9, -(10**9)] + steps + [a * 3 for a in steps]
    for a in anchors:
        raw += [a, a - 1, a + 1, a - 0.5, a + 0.5]
    values: list[Any] = [int(v) if kind == "integer" and float(v).is_integer() else v for v in raw]
    return ctx.counter({**s, "type": kind}, t, values, "; ".join(problems))


def _step_fits(s_step: Any, t_step: Any, integral: bool) -> bool:
    if s_step == t_step and type(s_step) is type(t_step):
        return True  # the same computation on the same value
    if t_step in (1, 1.0) and integral:
        return True
    return _integral_step(t_step) and _integral_step(s_step) and s_step % t_step == 0


def string_keywords(s: Mapping[str, Any], t: Mapping[str, Any], ctx: Context) -> Compatibility:
    """Compare ``minLength``/``maxLength``, ``pattern`` and (asserted) ``format``."""
    problems: list[str] = []
    s_min, t_min = _int(s.get("minLength")) or 0, _int(t.get("minLength")) or 0
    s_max, t_max = _int(s.get("maxLength")), _int(t.get("maxLength"))
    if s_min < t_min:
        problems.append(f"the source allows strings shorter than {t_min}")
    if t_max is not None and (s_max is None or s_max > t_max):
        problems.append(f"the source allows strings longer than {t_max}")
    pattern = t.get("pattern")
    if pattern is not None and s.get("pattern") != pattern:
        problems.append(f"the target requires the pattern {pattern!r}")
    fmt = t.get("format")
    if isinstance(fmt, str) and fmt in FORMAT_CHECKER.checkers and s.get("format") != fmt:
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
    candidates += [v for k, v in FORMAT_SAMPLES.items() if k != fmt] + [example(s, ctx.roots["s"])]
    return ctx.counter({**s, "type": "string"}, t, candidates, "; ".join(problems))


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def array_keywords(s: Mapping[str, Any], t: Mapping[str, Any], ctx: Context) -> Compatibility:
    """Compare ``minItems``/``maxItems``, ``uniqueItems``, ``prefixItems`` and ``items``."""
    s_typed = {**s, "type": "array"}
    problems: list[str] = []
    s_min, t_min = _int(s.get("minItems")) or 0, _int(t.get("minItems")) or 0
    s_max, t_max = _int(s.get("maxItems")), _int(t.get("maxItems"))
    if s_min < t_min:
        problems.append(f"the source allows fewer than {t_min} items")
    if t_max is not None and (s_max is None or s_max > t_max):
        problems.append(f"the source allows more than {t_max} items")
    if t.get("uniqueItems") is True and not (s.get("uniqueItems") is True or (s_max or 2) <= 1):
        problems.append("the target requires unique items")
    if problems:
        root = ctx.roots["s"]
        item = example(s.get("items", True), root)
        sizes = sorted({s_min, t_min - 1, (t_max or 0) + 1, 2})
        candidates = [[item] * n for n in sizes if n >= 0 and item is not MISSING]
        candidates.append(example(s_typed, root))
        return ctx.counter(s_typed, t, candidates, "; ".join(problems))
    return merge_results(_element_results(s, t, s_typed, ctx), "items fit")


def _element_results(
    s: Mapping[str, Any], t: Mapping[str, Any], s_typed: Mapping[str, Any], ctx: Context
) -> Iterator[Compatibility]:
    s_prefix: Sequence[Any] = s.get("prefixItems") or ()
    t_prefix: Sequence[Any] = t.get("prefixItems") or ()
    s_items, t_items = s.get("items", True), t.get("items")
    s_max = _int(s.get("maxItems"))
    reach = max(len(s_prefix), len(t_prefix))
    for i in range(reach):
        if s_max is not None and i >= s_max:
            return
        s_i = s_prefix[i] if i < len(s_prefix) else s_items
        t_i = t_prefix[i] if i < len(t_prefix) else t_items
        if t_i is None or s_i is False:
            continue
        yield _lift_item(ctx.descend(s_i, t_i), i, s_typed, t, ctx)
    if t_items is not None and s_items is not False and (s_max is None or s_max > reach):
        yield _lift_item(ctx.descend(s_items, t_items), reach, s_typed, t, ctx)


def _lift_item(
    r: Compatibility, index: int, s: Mapping[str, Any], t: Any, ctx: Context
) -> Compatibility:
    if r.verdict is Verdict.COMPATIBLE:
        return r
    reason = f"item [{index}]: {r.reason}"
    if r.verdict is Verdict.UNKNOWN:
        return Compatibility(Verdict.UNKNOWN, reason)
    root = ctx.roots["s"]
    prefix: Sequence[Any] = s.get("prefixItems") or ()
    items = [
        example(prefix[i] if i < len(prefix) else s.get("items", True), root) for i in range(index)
    ]
    arr = [*items, r.witness]
    need = (_int(s.get("minItems")) or 0) - len(arr)
    arr += [example(s.get("items", True), root)] * max(need, 0)
    return ctx.counter(s, t, [arr] if MISSING not in arr else [], reason)


def _property_schema(s: Mapping[str, Any], name: str) -> Any:
    """Everything the source says about member ``name`` (``False``: it cannot occur)."""
    parts: list[Any] = []
    props = s.get("properties") or {}
    if name in props:
        parts.append(props[name])
    for pattern, sub in (s.get("patternProperties") or {}).items():
        try:
            if re.search(pattern, name):
                parts.append(sub)
        except re.error:
            parts.append(True)  # unknown regex dialect: assume it may match
    if not parts:
        return s.get("additionalProperties", True)
    return parts[0] if len(parts) == 1 else {"allOf": parts}


def object_keywords(s: Mapping[str, Any], t: Mapping[str, Any], ctx: Context) -> Compatibility:
    """Compare ``required``, ``properties``, ``additionalProperties`` and property counts."""
    s_typed = {**s, "type": "object"}
    root = ctx.roots["s"]
    s_required = set(s.get("required") or ())
    missing = [n for n in t.get("required") or () if n not in s_required]
    if missing:
        names = ", ".join(repr(n) for n in missing)
        return ctx.counter(
            s_typed,
            t,
            [example_of_kind(s_typed, root, "object")],
            f"the target requires {names}, which the source does not promise",
        )
    counts = _count_problem(s, t)
    if counts:
        full = {n: example(_property_schema(s, n), root) for n in s.get("properties") or ()}
        candidates = [example_of_kind(s_typed, root, "object"), full]
        return ctx.counter(s_typed, t, candidates, counts)
    return merge_results(_member_results(s, t, s_typed, ctx), "members fit")


def _count_problem(s: Mapping[str, Any], t: Mapping[str, Any]) -> str:
    s_min = max(_int(s.get("minProperties")) or 0, len(set(s.get("required") or ())))
    t_min, t_max = _int(t.get("minProperties")) or 0, _int(t.get("maxProperties"))
    if s_min < t_min:
        return f"the source allows fewer than {t_min} members"
    if t_max is None:
        return ""
    s_max = _int(s.get("maxProperties"))
    closed = s.get("additionalProperties") is False and not s.get("patternProperties")
    if closed:
        n = len(s.get("properties") or {})
        s_max = n if s_max is None else min(s_max, n)
    if s_max is None or s_max > t_max:
        return f"the source allows more than {t_max} members"
    return ""


def _member_results(
    s: Mapping[str, Any], t: Mapping[str, Any], s_typed: Mapping[str, Any], ctx: Context
) -> Iterator[Compatibility]:
    t_props: Mapping[str, Any] = t.get("properties") or {}
    for name, t_p in t_props.items():
        s_p = _property_schema(s, name)
        if s_p is False:
            continue
        yield _lift_member(ctx.descend(s_p, t_p), name, s_typed, t, ctx)
    t_extra = t.get("additionalProperties")
    if t_extra is None or t_extra is True:
        return
    for name in s.get("properties") or {}:
        if name not in t_props:
            s_p = _property_schema(s, name)
            if s_p is not False:
                yield _lift_member(ctx.descend(s_p, t_extra), name, s_typed, t, ctx)
    s_extra = s.get("additionalProperties", True)
    if s.get("patternProperties"):
        yield Compatibility(Verdict.UNKNOWN, "the source's patternProperties are not compared")
    elif s_extra is not False:
        name = "extra"
        while name in t_props or name in (s.get("properties") or {}):
            name += "_"
        r = ctx.descend(s_extra, t_extra)
        if r.verdict is not Verdict.COMPATIBLE:
            r = Compatibility(r.verdict, f"undeclared members: {r.reason}", r.witness)
        yield _lift_member(r, name, s_typed, t, ctx)


def _lift_member(
    r: Compatibility, name: str, s: Mapping[str, Any], t: Any, ctx: Context
) -> Compatibility:
    if r.verdict is Verdict.COMPATIBLE:
        return r
    reason = f"member {name!r}: {r.reason}"
    if r.verdict is Verdict.UNKNOWN:
        return Compatibility(Verdict.UNKNOWN, reason)
    base = example_of_kind(s, ctx.roots["s"], "object")
    candidates = [] if base is MISSING else [{**base, name: r.witness}]
    return ctx.counter(s, t, candidates, reason)

"""JSON Schema subsumption: is every value valid for the source also valid for the target?

:func:`compatibility` answers with a :class:`Compatibility` verdict. The engine here
handles what applies to every JSON type — boolean schemas, ``$ref``, finite domains
(``enum``, ``const``, booleans, small integer ranges), ``anyOf``/``oneOf``/``allOf``/``not``
and ``type`` — and hands each JSON type to its keyword family in :mod:`._keywords`.

Soundness: ``compatible`` only comes from rules that are true for every value (recursive
schemas are compared co-inductively, only through a member or item), and
``incompatible`` only with a witness that the validator accepts for the source and rejects
for the target. Whatever is neither is ``unknown``. "Valid" means valid for
``jsonschema.Draft202012Validator`` with its format checker (the validator sktypes uses).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import orjson

from sktypes.jsondoc import JsonDocument, thaw
from sktypes.plan._keywords import (
    array_keywords,
    number_keywords,
    object_keywords,
    string_keywords,
)
from sktypes.plan._verdict import (
    ASSERTING,
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
from sktypes.plan._witness import (
    KINDS,
    deref,
    example,
    example_of_kind,
    finite_values,
    kinds_of,
)

__all__ = ["HANDLED_KEYWORDS", "compatibility", "disjoint"]

HANDLED_KEYWORDS = frozenset(
    {
        "type", "enum", "const", "$ref", "allOf", "anyOf", "oneOf", "not",
        "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
        "maxLength", "minLength", "pattern", "format",
        "maxItems", "minItems", "uniqueItems", "items", "prefixItems",
        "properties", "required", "additionalProperties", "maxProperties", "minProperties",
    }
)  # fmt: skip
"""Target keywords the check compares; any other asserting keyword makes the pair unknown."""

_UNHANDLED = ASSERTING - HANDLED_KEYWORDS
_COMBINATORS = ("allOf", "anyOf", "oneOf", "not")
_NO_MERGE = frozenset({"if", "then", "else", "contains", "minContains", "maxContains"})
_ANNOTATIONS = frozenset(
    {"title", "description", "default", "examples", "$comment", "deprecated", "readOnly",
     "writeOnly", "$defs", "definitions", "$schema", "$id", "$anchor", "discriminator"}
)  # fmt: skip
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
    s, t = _plain(source), _plain(target)
    ctx = Context(
        s if source_root is None else _plain(source_root),
        t if target_root is None else _plain(target_root),
        budget,
    )
    ctx.sub = _sub
    return _sub(s, t, ctx)


def _plain(schema: Any) -> Any:
    return schema.to_python() if isinstance(schema, JsonDocument) else thaw(schema)


def _canon(schema: Any) -> bytes:
    try:
        return orjson.dumps(schema, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return repr(schema).encode()


def _sub(s: Any, t: Any, ctx: Context) -> Compatibility:
    ctx.budget -= 1
    if ctx.budget < 0:
        return unknown("the schemas are too large to compare")
    if _accepts_all(t):
        return compatible("the target takes any value")
    if s is False:
        return compatible("the source admits no value")
    if s is True:
        s = {}
    if not isinstance(s, Mapping):
        return unknown("the source is not a schema")
    if t is False:
        if finite_values(s, "s", ctx) == []:
            return compatible("the source admits no value")
        return ctx.counter(s, t, _examples(s, ctx), "the target admits no value")
    if not isinstance(t, Mapping):
        return unknown("the target is not a schema")
    key = (_canon(s), _canon(t))
    if key[0] == key[1] and (b'"$ref"' not in key[0] or ctx.same_roots):
        return compatible("the same schema")
    entered = ctx.active.get(key)
    if entered is not None:
        if ctx.descents > entered:
            return compatible("recursive schemas, compared member by member")
        return unknown("a reference cycle that does not go through a member or an item")
    ctx.active[key] = ctx.descents
    try:
        return _compare(s, t, ctx)
    finally:
        del ctx.active[key]


def _accepts_all(t: Any) -> bool:
    return t is True or (isinstance(t, Mapping) and not any(k in ASSERTING for k in t))


def _compare(s: Mapping[str, Any], t: Mapping[str, Any], ctx: Context) -> Compatibility:
    if "$dynamicRef" in s or "$dynamicRef" in t:
        return unknown("$dynamicRef is not followed")
    if "$ref" in s:
        resolved = deref(s, ctx.roots["s"])
        if resolved is s:
            return unknown(f"cannot follow the source's $ref {s['$ref']!r}")
        return ctx.sub(resolved, t, ctx)
    if "$ref" in t:
        resolved = deref(t, ctx.roots["t"])
        if resolved is t:
            return unknown(f"cannot follow the target's $ref {t['$ref']!r}")
        return ctx.sub(s, resolved, ctx)
    values = finite_values(s, "s", ctx)
    if values is not None:
        return _enumerated(values, t, ctx)
    for key in ("anyOf", "oneOf"):
        if key in s:
            return _source_union(s, key, t, ctx)
    if "allOf" in s:
        return _source_all(s, t, ctx)
    s_kinds = kinds_of(s)
    if s_kinds is not None and len(s_kinds) > 1:
        return merge_results(ctx.sub({**s, "type": k}, t, ctx) for k in KINDS if k in s_kinds)
    if any(k in t for k in _COMBINATORS):
        return _target_combinators(s, t, ctx)
    if "enum" in t or "const" in t:
        reason = "the target takes listed values only, and the source is not known to be one"
        return ctx.counter(s, t, _examples(s, ctx), reason)
    unhandled = sorted(k for k in t if k in _UNHANDLED)
    if unhandled:
        reason = f"the target uses {', '.join(unhandled)}, which the check does not compare"
        return ctx.counter(s, t, _examples(s, ctx), reason)
    return merge_results(_by_kind(kind, s, t, ctx) for kind in KINDS if kind in (s_kinds or KINDS))


def _enumerated(values: Sequence[Any], t: Any, ctx: Context) -> Compatibility:
    for v in values:
        ok = ctx.valid("t", t, v)
        if ok is None:
            return unknown("the validator cannot use the target schema")
        if not ok:
            return Compatibility(
                Verdict.INCOMPATIBLE, f"the source admits {show(v)}, which the target rejects", v
            )
    return compatible("every value the source admits is valid for the target")


def _has_assertions(schema: Mapping[str, Any]) -> bool:
    return any(k not in _ANNOTATIONS and not k.startswith("x-") for k in schema)


def _conj(base: Mapping[str, Any], option: Any) -> Any:
    """``base`` and ``option`` together (a shallow merge when their keywords do not meet)."""
    if not _has_assertions(base):
        return option
    if (
        isinstance(option, Mapping)
        and not (set(base) & set(option)) - _ANNOTATIONS
        and not _NO_MERGE & (set(base) | set(option))
        and "$ref" not in option
    ):
        return {**base, **option}
    return {"allOf": [base, option]}


def _source_union(s: Mapping[str, Any], key: str, t: Any, ctx: Context) -> Compatibility:
    base = {k: v for k, v in s.items() if k != key}

    def branches() -> Iterator[Compatibility]:
        for i, option in enumerate(s[key]):
            r = ctx.sub(_conj(base, option), t, ctx)
            if r.verdict is Verdict.COMPATIBLE:
                yield r
                continue
            reason = f"alternative {i + 1} of the source: {r.reason}"
            if r.verdict is Verdict.UNKNOWN:
                yield unknown(reason)
            else:
                yield ctx.counter(s, t, [r.witness], reason)

    return merge_results(branches(), "every alternative of the source fits")


def _source_all(s: Mapping[str, Any], t: Any, ctx: Context) -> Compatibility:
    base = {k: v for k, v in s.items() if k != "allOf"}
    parts = [deref(p, ctx.roots["s"]) for p in s["allOf"]]
    merged: dict[str, Any] | None = dict(base)
    for part in parts:
        if merged is None or not isinstance(part, Mapping) or _NO_MERGE & set(part):
            merged = None
            break
        clash = {k for k in set(merged) & set(part) if merged[k] != part[k]} - _ANNOTATIONS
        if clash:
            merged = None
            break
        merged.update(part)
    if merged is not None:
        # a superset of the source (keywords such as additionalProperties see more
        # siblings), so "compatible" holds; a witness is checked against the source itself
        r = ctx.sub(merged, t, ctx)
        if r.verdict is not Verdict.INCOMPATIBLE:
            return r
        return ctx.counter(s, t, [r.witness], r.reason)
    witnesses: list[Any] = []
    reasons: list[str] = []
    for part in [base, *parts]:
        r = ctx.sub(part, t, ctx)
        if r.verdict is Verdict.COMPATIBLE:
            return compatible("one part of the source's allOf fits")
        reasons.append(r.reason)
        if r.verdict is Verdict.INCOMPATIBLE:
            witnesses.append(r.witness)
    return ctx.counter(s, t, witnesses, f"no part of the source's allOf fits ({reasons[0]})")


def _target_combinators(s: Mapping[str, Any], t: Mapping[str, Any], ctx: Context) -> Compatibility:
    base = {k: v for k, v in t.items() if k not in _COMBINATORS}
    parts: list[Any] = [base] if _has_assertions(base) else []
    parts.extend(t.get("allOf") or ())
    parts.extend({k: t[k]} for k in ("anyOf", "oneOf", "not") if k in t)
    if len(parts) != 1:
        return merge_results(ctx.sub(s, p, ctx) for p in parts)
    only = parts[0]
    if isinstance(only, Mapping) and "anyOf" in only and len(only) == 1:
        return _target_any(s, only["anyOf"], t, ctx)
    if isinstance(only, Mapping) and "oneOf" in only and len(only) == 1:
        return _target_one(s, only["oneOf"], t, ctx)
    if isinstance(only, Mapping) and "not" in only and len(only) == 1:
        if disjoint(s, "s", only["not"], "t", ctx):
            return compatible("the source never holds what the target excludes")
        return ctx.counter(
            s, t, _examples(s, ctx), "the target excludes values the source may hold"
        )
    return ctx.sub(s, only, ctx)


def _target_any(
    s: Mapping[str, Any], options: Sequence[Any], t: Any, ctx: Context
) -> Compatibility:
    results: list[Compatibility] = []
    for option in options:
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


def _target_one(
    s: Mapping[str, Any], options: Sequence[Any], t: Any, ctx: Context
) -> Compatibility:
    results: list[Compatibility] = []
    for i, option in enumerate(options):
        r = ctx.sub(s, option, ctx)
        if r.verdict is not Verdict.COMPATIBLE:
            results.append(r)
            continue
        others = [o for j, o in enumerate(options) if j != i]
        if all(disjoint(s, "s", o, "t", ctx) or disjoint(option, "t", o, "t", ctx) for o in others):
            return compatible("exactly one alternative of the target takes every source value")
        reason = "the source fits an alternative of the target's oneOf but may also fit another"
        return ctx.counter(s, t, _examples(s, ctx), reason)
    witnesses = [r.witness for r in results if r.verdict is Verdict.INCOMPATIBLE]
    return ctx.counter(s, t, witnesses + _examples(s, ctx), _alternatives_reason(results))


def _by_kind(kind: str, s: Mapping[str, Any], t: Mapping[str, Any], ctx: Context) -> Compatibility:
    s_k = {**s, "type": kind}
    t_kinds = kinds_of(t)
    numeric = kind in ("integer", "number") and t_kinds is not None and "number" in t_kinds
    partly = kind == "number" and t_kinds is not None and "integer" in t_kinds
    if t_kinds is not None and kind not in t_kinds and not numeric and not partly:
        sample = example_of_kind(s_k, ctx.roots["s"], kind)
        untyped = "" if "type" in s else " (the source declares no type)"
        verb = "is" if s.get("type") == kind else "may be"
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
    if kind in ("integer", "number"):
        return number_keywords(s, t, ctx, kind)
    if kind == "string":
        return string_keywords(s, t, ctx)
    if kind == "array":
        return array_keywords(s, t, ctx)
    return object_keywords(s, t, ctx)


def _examples(s: Any, ctx: Context) -> list[Any]:
    root = ctx.roots["s"]
    out = [example(s, root)]
    if isinstance(s, Mapping):
        for kind in KINDS:
            if kind in (kinds_of(s) or KINDS):
                out.append(example_of_kind({**s, "type": kind}, root, kind))
                out.append(_KIND_SAMPLES[kind])
    return [x for x in out if x is not MISSING]


def disjoint(a: Any, a_side: Side, b: Any, b_side: Side, ctx: Context, depth: int = 0) -> bool:
    """``True`` only when no value is valid for both ``a`` and ``b`` (``False``: not known)."""
    a, b = deref(a, ctx.roots[a_side]), deref(b, ctx.roots[b_side])
    if a is False or b is False:
        return True
    if not isinstance(a, Mapping) or not isinstance(b, Mapping) or depth > 8:
        return False
    ka, kb = kinds_of(a), kinds_of(b)
    if ka is not None and kb is not None and not _kinds_meet(ka, kb):
        return True
    pairs = ((a, a_side, b, b_side), (b, b_side, a, a_side))
    for x, xs, y, ys in pairs:
        values = finite_values(x, xs, ctx)
        if values is not None and all(ctx.valid(ys, y, v) is False for v in values):
            return True
    for x, xs, y, ys in pairs:
        for key in ("anyOf", "oneOf"):
            if key in x:
                base = {k: v for k, v in x.items() if k != key}
                options = [_conj(base, o) for o in x[key]]
                if all(disjoint(o, xs, y, ys, ctx, depth + 1) for o in options):
                    return True
        if any(disjoint(p, xs, y, ys, ctx, depth + 1) for p in x.get("allOf") or ()):
            return True
    if ka == {"object"} or kb == {"object"}:
        a_props, b_props = a.get("properties") or {}, b.get("properties") or {}
        common = set(a.get("required") or ()) & set(b.get("required") or ())
        for name in common & set(a_props) & set(b_props):
            if disjoint(a_props[name], a_side, b_props[name], b_side, ctx, depth + 1):
                return True
    return False


def _kinds_meet(a: set[str], b: set[str]) -> bool:
    if a & b:
        return True
    return ("integer" in a and "number" in b) or ("number" in a and "integer" in b)

"""JSON instances for property tests: drawing them from schemas, comparing them as JSON means.

:func:`same_json` is JSON equality (``true`` is not ``1``, ``1`` is ``1.0``, no key added or
lost) where two spellings of one date, time, UUID or decimal count as the same value: a
generated model turns ``"2020-01-01T00:00:00+00:00"`` into a ``datetime`` and writes it back
as ``"2020-01-01T00:00:00Z"``.
"""

from __future__ import annotations

import datetime
import decimal
import re
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

__all__ = ["instances", "same_json", "unroll"]

_DATETIME = re.compile(r"^\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d")
_DATE = re.compile(r"^\d{4}-\d\d-\d\d$")
_TIME = re.compile(r"^\d\d:\d\d(:\d\d)?")
_UUID = re.compile(r"^[0-9a-fA-F-]{32,36}$")


def _datetime(text: str) -> Any:
    return datetime.datetime.fromisoformat(text.replace("z", "Z"))


_PARSERS: list[tuple[re.Pattern[str], Callable[[str], Any]]] = [
    (_DATETIME, _datetime),
    (_DATE, datetime.date.fromisoformat),
    (_TIME, datetime.time.fromisoformat),
    (_UUID, uuid.UUID),
]


def _same_text(a: str, b: str) -> bool:
    if a == b:
        return True
    for pattern, parse in _PARSERS:
        if pattern.match(a) and pattern.match(b):
            try:
                return bool(parse(a) == parse(b))
            except ValueError:
                return False
    try:
        return decimal.Decimal(a) == decimal.Decimal(b)
    except decimal.InvalidOperation:
        return False


def same_json(a: Any, b: Any) -> bool:
    """``a`` and ``b`` are the same JSON value (see the module docstring)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, str) and isinstance(b, str):
        return _same_text(a, b)
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    return a is None and b is None


def instances(schema: Mapping[str, Any], depth: int = 3) -> st.SearchStrategy[Any]:
    """Instances of a (draft 2020-12, self-contained) schema, from hypothesis-jsonschema.

    hypothesis-jsonschema inlines every reference and refuses recursive ones, so recursive
    definitions are unrolled first: ``depth`` copies of each, the last one's recursive
    references replaced by ``false`` (an instance of the unrolled schema is an instance of
    the original, at most ``depth`` levels deep).
    """
    return from_schema(unroll(dict(schema), depth))


def unroll(schema: dict[str, Any], depth: int) -> dict[str, Any]:
    """``schema`` with its recursive ``$defs`` unrolled ``depth`` times (see :func:`instances`)."""
    defs: dict[str, Any] = dict(schema.get("$defs") or {})
    recursive = {name for name in defs if name in _reach(defs[name], defs)}
    if not recursive:
        return schema

    def rewrite(node: Any, level: int) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                name = ref[len("#/$defs/") :]
                if name in recursive:
                    if level > depth:
                        return False
                    return {**node, "$ref": f"#/$defs/{name}__{level}"}
            return {k: rewrite(v, level) for k, v in node.items()}
        if isinstance(node, list):
            return [rewrite(v, level) for v in node]
        return node

    out_defs = {n: rewrite(d, 1) for n, d in defs.items() if n not in recursive}
    for name in recursive:
        for level in range(1, depth + 1):
            out_defs[f"{name}__{level}"] = rewrite(defs[name], level + 1)
    root = {k: v for k, v in schema.items() if k != "$defs"}
    return {**rewrite(root, 1), "$defs": out_defs}


def _refs(node: Any) -> set[str]:
    if isinstance(node, dict):
        ref = node.get("$ref")
        found = (
            {ref[len("#/$defs/") :]}
            if isinstance(ref, str) and ref.startswith("#/$defs/")
            else set()
        )
        return found.union(*(_refs(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_refs(v) for v in node))
    return set()


def _reach(node: Any, defs: Mapping[str, Any]) -> set[str]:
    """Every definition ``node`` reaches through references."""
    seen: set[str] = set()
    todo = list(_refs(node))
    while todo:
        name = todo.pop()
        if name in seen or name not in defs:
            continue
        seen.add(name)
        todo.extend(_refs(defs[name]))
    return seen

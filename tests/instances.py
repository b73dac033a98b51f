"""JSON instances for property tests: drawing them from schemas, comparing them as JSON means.

:func:`same_json` is JSON equality (``true`` is not ``1``, ``1`` is ``1.0``, no key added or
lost) where two spellings of one date, time, UUID, IPv6 address or decimal count as the same
value: a generated model turns ``"2020-01-01T00:00:00+00:00"`` into a ``datetime`` and writes
it back as ``"2020-01-01T00:00:00Z"``, and ``"0fa7::1"`` (RFC 4291 allows leading zeros) into
an ``IPv6Address`` written back as ``"fa7::1"``. :func:`first_difference` says where two values
part (a JSON pointer and both sides), for a failure's one line.
"""

from __future__ import annotations

import datetime
import decimal
import ipaddress
import json
import re
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

__all__ = ["first_difference", "instances", "same_json", "unroll"]

_DATETIME = re.compile(r"^\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d")
_DATE = re.compile(r"^\d{4}-\d\d-\d\d$")
_TIME = re.compile(r"^\d\d:\d\d(:\d\d)?")
_UUID = re.compile(r"^[0-9a-fA-F-]{32,36}$")
_IPV6 = re.compile(r"^[0-9a-fA-F:.]*:[0-9a-fA-F:.]*(/\d+)?$")


def _datetime(text: str) -> Any:
    return datetime.datetime.fromisoformat(text.replace("z", "Z"))


_PARSERS: list[tuple[re.Pattern[str], Callable[[str], Any]]] = [
    (_DATETIME, _datetime),
    (_DATE, datetime.date.fromisoformat),
    (_TIME, datetime.time.fromisoformat),
    (_UUID, uuid.UUID),
    (_IPV6, ipaddress.ip_interface),
]


def _same_text(a: str, b: str) -> bool:
    if a == b:
        return True
    for pattern, parse in _PARSERS:
        if pattern.match(a) and pattern.match(b):
            try:
                return bool(parse(a) == parse(b))
            except ValueError:  # not that kind after all ("12:34::1" is no time)
                continue
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


def first_difference(a: Any, b: Any, where: str = "") -> str | None:
    """Where ``a`` and ``b`` part as JSON values (:func:`same_json`), ``None`` when they do not.

    The JSON pointer of the first place that differs and what each side holds there: a key
    one side lacks, an array of another length, or two different scalars.
    """
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in [*a, *(k for k in b if k not in a)]:
            here = f"{where}/{str(key).replace('~', '~0').replace('/', '~1')}"
            if key not in b:
                return f"{here}: only in the first ({_brief(a[key])})"
            if key not in a:
                return f"{here}: only in the second ({_brief(b[key])})"
            found = first_difference(a[key], b[key], here)
            if found is not None:
                return found
        return None
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        for index, (x, y) in enumerate(zip(a, b, strict=False)):
            found = first_difference(x, y, f"{where}/{index}")
            if found is not None:
                return found
        if len(a) != len(b):
            return f"{where or '/'}: {len(a)} items against {len(b)}"
        return None
    return None if same_json(a, b) else f"{where or '/'}: {_brief(a)} against {_brief(b)}"


def _brief(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


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

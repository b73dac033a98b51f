"""Lax-mode coercions pydantic and jsonschema do not do by themselves.

- Enums by member *name* (``"HIGH"`` for ``Priority.HIGH = 3``), after pydantic refused
  the value: a documented fallback, tried only when the text names exactly one member.
- For JSON Schema targets, numeric and boolean strings where the schema wants a number,
  an integer or a boolean (pydantic does this itself for type targets), read from the
  schema model: the string's place admits no string but a number, integer or boolean.
"""

from __future__ import annotations

import dataclasses
import enum
import re
import typing
from collections.abc import Iterator, Sequence
from typing import Any

import typing_extensions
from pydantic import BaseModel, ValidationError

from sktypes.errors import MAX_DETAILS
from sktypes.hydration._errors import data_path, first_errors
from sktypes.jsondoc import json_equal
from sktypes.schema._kinds import kinds_of
from sktypes.schema._nodes import (
    ArrayNode,
    IntersectionNode,
    Node,
    ObjectNode,
    RefNode,
    UnionNode,
    json_kind,
)

__all__ = ["coerce_schema_strings", "enum_classes", "enum_name_fix"]


def enum_classes(tp: Any) -> list[type[enum.Enum]]:
    """Every ``Enum`` reachable from ``tp`` (through models, dataclasses, TypedDicts, args)."""
    found: list[type[enum.Enum]] = []
    seen: set[int] = set()
    todo: list[Any] = [tp]
    while todo and len(seen) < 10_000:
        current = todo.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        todo.extend(typing.get_args(current))
        if not isinstance(current, type):
            continue
        if issubclass(current, enum.Enum):
            found.append(current)
        elif issubclass(current, BaseModel):
            todo.extend(f.annotation for f in current.model_fields.values())
        elif dataclasses.is_dataclass(current) or typing_extensions.is_typeddict(current):
            try:
                todo.extend(typing.get_type_hints(current).values())
            except Exception:  # unresolvable forward references: nothing to add
                continue
    return found


def _member_by_name(name: str, enums: Sequence[type[enum.Enum]], expected: str) -> Any:
    hits = []
    for cls in enums:
        for member_name, member in cls.__members__.items():
            same = member_name == name or member_name.casefold() == name.casefold()
            if same and (not expected or repr(member.value) in expected):
                hits.append(member.value)
    return hits[0] if len(hits) == 1 else None


def _set(data: Any, path: Sequence[str | int], value: Any) -> Any:
    if not path:
        return value
    node = data
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return data


MAX_ENUM_FIXES = 10_000
"""Most enum member names one answer may have fixed (a bound on the work of a failure)."""


def enum_name_fix(
    exc: ValidationError, raw: str | bytes, enums: Sequence[type[enum.Enum]]
) -> Any | None:
    """Replace enum member names by their values; ``None`` when nothing could be fixed.

    ``raw`` is the JSON text (parsed only when every problem is an enum value).

    Only an answer whose every problem is an enum value is fixed, and at most
    :data:`MAX_ENUM_FIXES` of them: past that the errors are not rendered to find out.
    """
    fixed = False
    if exc.error_count() > MAX_ENUM_FIXES:
        return None
    if any(e["type"] != "enum" for e in first_errors(exc, MAX_DETAILS)):
        return None  # decided from the first errors, without rendering them all
    errors = exc.errors(include_url=False)
    if any(e["type"] != "enum" for e in errors):
        return None  # other problems remain: report them all as they are
    from sktypes.hydration._targets import loads

    data = loads(raw)
    for err in errors:
        raw = err.get("input")
        if not isinstance(raw, str):
            return None
        expected = str((err.get("ctx") or {}).get("expected", ""))
        value = _member_by_name(raw, enums, expected)
        if value is None:
            return None
        try:
            data = _set(data, data_path(list(err["loc"]), data), value)
        except (KeyError, IndexError, TypeError):
            return None
        fixed = True
    return data if fixed else None


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
_MAX_CANDIDATES = 8
_MAX_DEPTH = 64


def _coerce(text: str, wanted: frozenset[str]) -> tuple[bool, Any]:
    s = text.strip()
    if "integer" in wanted:
        try:
            return True, int(s)
        except ValueError:
            pass
    if "number" in wanted:
        try:
            number = float(s)
        except ValueError:
            pass
        else:
            if number == number and abs(number) != float("inf"):
                return True, int(number) if number.is_integer() and "." not in s else number
    if "boolean" in wanted:
        low = s.lower()
        if low in _TRUE or low in _FALSE:
            return True, low in _TRUE
    return False, None


def coerce_schema_strings(node: Node, value: Any) -> list[Any]:
    """Copies of ``value`` with numeric/boolean strings turned into what ``node`` wants.

    A string is coerced where the schema admits no string there but a number, an integer
    or a boolean; through objects, arrays, references, intersections and unions (one
    candidate per union option that fits the value's shape). Returns the candidates that
    differ from ``value`` (at most a few), for the caller to validate; empty when no
    string could be coerced.
    """
    out: list[Any] = []
    for candidate in _candidates(node, value, 0):
        if candidate is not value and not any(json_equal(candidate, c) for c in out):
            out.append(candidate)
            if len(out) >= _MAX_CANDIDATES:
                break
    return out


def _candidates(node: Node, value: Any, depth: int) -> Iterator[Any]:
    """``value`` as ``node`` would have it (``value`` itself when nothing changes)."""
    if depth > _MAX_DEPTH:
        yield value
        return
    if isinstance(node, RefNode):
        yield from _candidates(node.target, value, depth + 1)
        return
    if isinstance(value, str):
        kinds = kinds_of(node, _resolve)
        if "string" not in kinds and kinds & _COERCIBLE:
            ok, new = _coerce(value, kinds)
            yield new if ok else value
        else:
            yield value
        return
    if isinstance(node, UnionNode):
        shaped = [o for o in node.options if _fits_shape(o, value)]
        for option in shaped or node.options[:1]:
            yield from _candidates(option, value, depth + 1)
        return
    if isinstance(node, IntersectionNode):
        current = [value]
        for part in node.parts:
            current = [c for v in current for c in _candidates(part, v, depth + 1)][
                :_MAX_CANDIDATES
            ]
        yield from current
        return
    if isinstance(value, dict) and isinstance(node, ObjectNode):
        yield _object(node, value, depth)
    elif isinstance(value, list) and isinstance(node, ArrayNode):
        yield _array(node, value, depth)
    else:
        yield value


def _object(node: ObjectNode, value: dict[str, Any], depth: int) -> dict[str, Any]:
    out = value
    for key, item in value.items():
        prop = node.prop(key)
        if prop is not None:
            child: Node = prop.node
        else:
            matching = [sub for pattern, sub in node.pattern_properties if re.search(pattern, key)]
            child = matching[0] if matching else node.additional
        new = next(_candidates(child, item, depth + 1))
        if new is not item:
            if out is value:
                out = dict(value)
            out[key] = new
    return out


def _array(node: ArrayNode, value: list[Any], depth: int) -> list[Any]:
    out = value
    for i, item in enumerate(value):
        child = node.prefix_items[i] if i < len(node.prefix_items) else node.items
        new = next(_candidates(child, item, depth + 1))
        if new is not item:
            if out is value:
                out = list(value)
            out[i] = new
    return out


def _fits_shape(node: Node, value: Any) -> bool:
    """Whether ``node`` may admit values of ``value``'s JSON type."""
    kind = json_kind(value)
    kinds = kinds_of(node, _resolve)
    return kind in kinds or (kind == "integer" and "number" in kinds)


def _resolve(ref: RefNode) -> Node | None:
    return ref.target


_COERCIBLE = frozenset({"integer", "number", "boolean"})

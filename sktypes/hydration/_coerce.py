"""Lax-mode coercions pydantic and jsonschema do not do by themselves.

- Enums by member *name* (``"HIGH"`` for ``Priority.HIGH = 3``), after pydantic refused
  the value: a documented fallback, tried only when the text names exactly one member.
- For JSON Schema targets, numeric and boolean strings where the schema wants a number,
  an integer or a boolean (pydantic does this itself for type targets).
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import typing
from collections.abc import Sequence
from typing import Any

import typing_extensions
from jsonschema import Draft202012Validator
from pydantic import BaseModel, ValidationError

from sktypes.hydration._errors import data_path

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


def enum_name_fix(exc: ValidationError, data: Any, enums: Sequence[type[enum.Enum]]) -> Any | None:
    """Replace enum member names by their values; ``None`` when nothing could be fixed."""
    fixed = False
    errors = exc.errors(include_url=False)
    if any(e["type"] != "enum" for e in errors):
        return None  # other problems remain: report them all as they are
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


def _coerce(text: str, wanted: Sequence[str]) -> tuple[bool, Any]:
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


def coerce_schema_strings(validator: Draft202012Validator, value: Any) -> Any | None:
    """Turn numeric/boolean strings the schema refuses into numbers/booleans.

    Returns the coerced copy, or ``None`` when no string could be coerced.
    """
    try:
        errors = list(validator.iter_errors(value))
    except (Exception, RecursionError):
        return None
    todo: list[Any] = []
    for err in errors:
        todo.extend(err.context or ())
        todo.append(err)
    out = copy.deepcopy(value)
    changed = False
    for err in todo:
        if err.validator != "type" or not isinstance(err.instance, str):
            continue
        wanted = err.validator_value
        wanted = [wanted] if isinstance(wanted, str) else list(wanted)
        ok, new = _coerce(err.instance, wanted)
        if ok:
            try:
                out = _set(out, list(err.absolute_path), new)
            except (KeyError, IndexError, TypeError):
                continue
            changed = True
    return out if changed else None

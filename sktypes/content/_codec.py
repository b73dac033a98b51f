"""JSON forms of arbitrary values, and native values back from them.

Results and metadata must be JSON-representable: pydantic models, dataclasses, dates,
enums and the like become their JSON form (pydantic-core's ``to_jsonable_python``, by
alias); anything else is a :class:`ContentError` naming the place, never a silent
``str(value)``.
"""

from __future__ import annotations

import math
from typing import Any

import orjson
from pydantic_core import to_jsonable_python

from sktypes._documents import big_integer_at, json_too_deep
from sktypes.errors import ContentError, ErrorDetail, HydrationError
from sktypes.limits import DEFAULT_LIMITS

__all__ = [
    "dumps",
    "loads",
    "find_bad_value",
    "find_non_finite",
    "from_json_value",
    "to_json_value",
    "to_plain_json",
]

_PLAIN = (str, int, bool, float)


def loads(text: str | bytes) -> Any:
    """Parse JSON text as a model or a store sends it, within the document limits.

    Raises:
        orjson.JSONDecodeError: the text is not JSON.
        ContentError: it nests deeper than :data:`sktypes.limits.DEFAULT_LIMITS` allows, or
            holds an integer beyond 64 bits (orjson would read it as an inexact float, and
            :func:`dumps` could not write it back); ``where`` is its line and column.
    """
    if isinstance(text, str):
        try:
            raw = text.encode("utf-8")
        except UnicodeEncodeError:
            raise ContentError("not valid JSON: a lone surrogate") from None
    else:
        raw = bytes(text)
    limit = DEFAULT_LIMITS.max_depth
    if json_too_deep(raw, limit):
        raise ContentError(f"nested deeper than {limit} levels")
    at = big_integer_at(raw)
    if at is not None:
        line = raw.count(b"\n", 0, at) + 1
        column = at - raw.rfind(b"\n", 0, at)
        raise ContentError(
            "an integer beyond 64 bits cannot be read exactly (and could not be written back); "
            "write it as a string",
            line=line,
            column=column,
        )
    return orjson.loads(raw)


def to_json_value(value: Any, where: str) -> Any:
    """Return the JSON form of ``value``; raise :class:`ContentError` when it has none."""
    if value is None or type(value) in _PLAIN:
        return value
    try:
        return to_jsonable_python(value, by_alias=True)
    except Exception as exc:  # pydantic-core raises its own error types for unknown values
        raise ContentError(
            f"{type(value).__name__} is not JSON-representable ({exc})", where=where
        ) from None


def _default(value: Any) -> Any:
    """Orjson's hook for values it does not know (pydantic models, sets, ...)."""
    return to_jsonable_python(value, by_alias=True)


def dumps(value: Any, *, indent: bool = False) -> bytes:
    """JSON bytes for a value holding native parts; :class:`ContentError` names a bad one.

    Integers beyond 64 bits are refused, and so are NaN and infinities: JSON has no form for
    them (orjson would write ``null``, losing the value silently). Orjson writes every
    non-finite float as ``null``, so the value is only searched for one when the output
    holds a ``null`` at all.
    """
    try:
        out = orjson.dumps(value, default=_default, option=orjson.OPT_INDENT_2 if indent else 0)
    except TypeError as exc:
        where, bad = find_bad_value(value)
        what = f"{type(bad).__name__} is not JSON-representable" if where else str(exc)
        raise ContentError(what, where=where or None) from None
    if b"null" in out:
        where = find_non_finite(value)
        if where:
            raise ContentError("NaN and infinities have no JSON form", where=where)
    return out


def find_non_finite(node: Any, path: str = "$") -> str:
    """The path of the first NaN or infinity in ``node`` (native parts included), or ``""``."""
    kind = type(node)
    if kind is float:
        return "" if math.isfinite(node) else path
    if kind in (str, int, bool) or node is None:
        return ""
    if kind is dict:
        for k, v in node.items():
            found = find_non_finite(v, f"{path}.{k}")
            if found:
                return found
        return ""
    if kind in (list, tuple):
        for i, v in enumerate(node):
            found = find_non_finite(v, f"{path}[{i}]")
            if found:
                return found
        return ""
    if isinstance(node, float):
        return "" if math.isfinite(node) else path
    try:
        plain = _default(node)
    except Exception:  # not JSON at all: dumps reported it already
        return ""
    return "" if plain is node else find_non_finite(plain, path)


def to_plain_json(value: Any) -> Any:
    """The value with every native part turned into JSON (dicts, lists, scalars)."""
    return orjson.loads(dumps(value))


def find_bad_value(node: Any, path: str = "$") -> tuple[str, Any]:
    """The path and value of the first part of ``node`` that cannot become JSON.

    Returns ``("", None)`` when every part can.
    """
    if type(node) is dict:
        for k, v in node.items():
            if not isinstance(k, str):
                return path, k
            found = find_bad_value(v, f"{path}.{k}")
            if found[0]:
                return found
        return "", None
    if type(node) in (list, tuple):
        for i, v in enumerate(node):
            found = find_bad_value(v, f"{path}[{i}]")
            if found[0]:
                return found
        return "", None
    try:
        orjson.dumps(node, default=_default)
    except TypeError:
        return path, node
    return "", None


def from_json_value(tp: Any, value: Any, where: str = "$") -> Any:
    """Turn a JSON value into an instance of the native type ``tp`` (``sktypes.hydrate``).

    Raises:
        HydrationError: the value does not fit ``tp``; every problem is listed with its
            JSON path under ``where``.
    """
    if tp is Any or tp is object:
        return value
    from sktypes.hydration import hydrate

    try:
        return hydrate(tp, value, repair=False)
    except HydrationError as exc:
        errors = [
            ErrorDetail(where + e.path[1:] if e.path.startswith("$") else where, e.message, e.input)
            for e in exc.errors
        ]
        raise HydrationError(errors, summary=f"cannot hydrate {where}") from None

"""Error building: pydantic and jsonschema failures → :class:`ErrorDetail` lists.

Paths are JSON paths over the *data* (``$.items[0].qty``). pydantic puts union member
tags (``Cat``, ``function-after[...]``) into its locations; they are not keys of the data,
so they are dropped by walking the parsed value alongside the location.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import pydantic_core
from pydantic import ValidationError

from sktypes.errors import MAX_DETAILS, ErrorDetail, snippet

__all__ = [
    "Details",
    "Invalid",
    "data_path",
    "details_from_pydantic",
    "data_for",
    "first_errors",
    "json_syntax_message",
    "join_path",
    "line_col",
    "path_of",
]

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class Details(list[ErrorDetail]):
    """The first problems found, and how many there were in all (``total``)."""

    total: int = 0


class Invalid(Exception):
    """Internal: the value does not fit the target (already rendered as details).

    ``total`` counts every problem when ``details`` holds only the first ones.
    """

    def __init__(self, details: Sequence[ErrorDetail], total: int | None = None) -> None:
        super().__init__(details[0].message if details else "invalid")
        self.details = list(details)
        self.total = max(total or getattr(details, "total", 0), len(self.details))


def join_path(base: str, part: str | int) -> str:
    """Append a key or an index to a JSON path (``$.a`` + ``0`` → ``$.a[0]``)."""
    if isinstance(part, int):
        return f"{base}[{part}]"
    if _IDENT.match(part):
        return f"{base}.{part}"
    return f"{base}[{_quote(part)}]"


def _quote(key: str) -> str:
    return '"' + key.replace("\\", "\\\\").replace('"', '\\"') + '"'


def path_of(parts: Iterable[str | int], base: str = "$") -> str:
    """Render a sequence of keys and indices as a JSON path."""
    out = base
    for part in parts:
        out = join_path(out, part)
    return out


def data_path(loc: Sequence[str | int], data: Any) -> list[str | int]:
    """Keep the parts of a pydantic location that address the data (drop union tags)."""
    out: list[str | int] = []
    current: Any = data
    last = len(loc) - 1
    for i, part in enumerate(loc):
        if isinstance(current, list) and isinstance(part, int):
            out.append(part)
            current = current[part] if 0 <= part < len(current) else None
        elif isinstance(current, dict) and isinstance(part, str) and part in current:
            out.append(part)
            current = current[part]
        elif isinstance(current, dict) and isinstance(part, str) and i == last:
            out.append(part)  # a missing key: the last part names it
        elif current is None or i == last:
            out.append(part)
        # else: a union member tag, not a key of the data
    return out


def json_syntax_message(exc: ValidationError) -> str | None:
    """The parser's message when ``exc`` says the text is not JSON (else ``None``).

    pydantic reports unparsable text as its only error, so only a one-error exception is
    looked into: a failure with 600,000 errors is not rendered to find out.
    """
    if exc.error_count() != 1:
        return None
    (err,) = exc.errors(include_url=False, include_context=False, include_input=False)
    return str(err["msg"]) if err["type"] == "json_invalid" else None


_RENDER_ALL = 4
"""Up to ``limit * _RENDER_ALL`` errors, pydantic renders them all (``errors()``)."""
_PREFIX = 1 << 16
"""The first prefix of an answer read for the data around its first errors (bytes)."""


def first_errors(exc: ValidationError, limit: int) -> list[dict[str, Any]]:
    """The first ``limit`` errors of ``exc`` (``loc``, ``msg``, ``type``; ``input`` if cheap).

    ``errors()`` turns every error into Python objects: for an answer with 600,000
    problems that costs several times pydantic's own validation. Past a few times
    ``limit``, the errors are serialized in one step (``json()``, without their inputs) and
    only the first ``limit`` are parsed, from a prefix of that text (pydantic's partial
    parser drops the one the prefix cuts); the caller reads each input from the data.
    """
    if exc.error_count() <= limit * _RENDER_ALL:
        return [dict(e) for e in exc.errors(include_url=False, include_context=False)[:limit]]
    last = _LAST[0]
    if last is not None and last[0] is exc and last[1] >= limit:
        return last[2][:limit]  # the same failure asked again (enum fix, then details)
    raw = exc.json(include_url=False, include_context=False, include_input=False)
    size = 4096
    while True:
        found = pydantic_core.from_json(raw[:size], allow_partial=True)
        if len(found) > limit or size >= len(raw):
            break
        size *= 4
    out = [{**err, "loc": tuple(err.get("loc", ()))} for err in found[:limit]]
    _LAST[0] = (exc, limit, out)
    return out


_LAST: list[tuple[ValidationError, int, list[dict[str, Any]]] | None] = [None]
"""The last failure rendered by :func:`first_errors` (one: it holds the exception)."""


def data_for(text: str | bytes, locations: Sequence[Sequence[str | int]]) -> Any:
    """The parsed answer, as far as ``locations`` need it.

    A growing prefix is parsed (pydantic's partial parser) until every location lies in a
    part that the prefix holds whole (a location through the last item of a container may
    be cut); the whole text at worst. The first errors of a long answer are near its
    start: their paths and inputs cost a prefix, not the answer.
    """
    from sktypes.hydration._targets import loads

    size = _PREFIX
    while size < len(text):
        try:
            partial = pydantic_core.from_json(text[:size], allow_partial=True)
        except ValueError:
            break
        if all(_whole(partial, loc) for loc in locations):
            return partial
        size *= 16
    return loads(text)


def _whole(data: Any, loc: Sequence[str | int]) -> bool:
    """Whether a prefix's ``data`` holds the part ``loc`` is in, whole.

    A prefix cuts only the last item of each open container: a container with an item
    after it was closed before the cut, and so is everything inside it.
    """
    current = data
    for part in data_path(list(loc), data):
        if isinstance(current, list) and isinstance(part, int) and 0 <= part < len(current):
            if part < len(current) - 1:
                return True
            current = current[part]
        elif isinstance(current, dict) and part in current:
            if part != next(reversed(current)):
                return True
            current = current[part]
        else:
            return False  # not there (yet): only the whole text can say
    return False


def _value_at(data: Any, loc: Sequence[str | int]) -> Any:
    """The part of ``data`` a pydantic location points at (union tags skipped)."""
    current = data
    for part in data_path(list(loc), data):
        listed = isinstance(current, list) and isinstance(part, int) and 0 <= part < len(current)
        if not listed and not (isinstance(current, dict) and part in current):
            break  # a missing key: pydantic's input is the object that misses it
        current = current[part]
    return current


def details_from_pydantic(
    exc: ValidationError,
    data: Any = None,
    base: str = "$",
    limit: int = MAX_DETAILS,
    *,
    text: str | bytes | None = None,
) -> Details:
    """Turn a pydantic error into details; the parsed JSON cleans the paths.

    The JSON is ``data``, or read from ``text`` as far as the errors need it
    (:func:`data_for`). Only the first ``limit`` problems become details (``.total``
    counts them all): a 1 MB answer can hold 600,000 problems, and nobody reads past the
    first few; rendering them costs what the cap allows, not what the answer holds
    (:func:`first_errors`).
    """
    details = Details()
    details.total = exc.error_count()
    errors = first_errors(exc, limit)
    if data is None and text is not None:
        data = data_for(text, [e.get("loc", ()) for e in errors])
    for err in errors:
        loc = list(err.get("loc", ()))
        parts = data_path(loc, data) if data is not None else loc
        kind = err.get("type", "")
        value = err["input"] if "input" in err else _value_at(data, loc)
        shown = "" if kind == "missing" else snippet(value)
        message = str(err.get("msg", "invalid value"))
        if kind == "extra_forbidden":
            message = "unknown field (not allowed here)"
        elif kind == "missing":
            message = "required field is missing"
        details.append(ErrorDetail(path_of(parts, base), message, shown))
    return details


def line_col(text: str, pos: int) -> str:
    """``line L, column C`` (1-based) of a position in ``text``."""
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return f"line {line}, column {col}"

"""Error building: pydantic and jsonschema failures → :class:`ErrorDetail` lists.

Paths are JSON paths over the *data* (``$.items[0].qty``). pydantic puts union member
tags (``Cat``, ``function-after[...]``) into its locations; they are not keys of the data,
so they are dropped by walking the parsed value alongside the location.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import ValidationError

from sktypes.errors import MAX_DETAILS, ErrorDetail, snippet

__all__ = [
    "Details",
    "Invalid",
    "data_path",
    "details_from_pydantic",
    "join_path",
    "line_col",
    "member_of",
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


def member_of(path: str) -> str | None:
    """The first key of a JSON path written by :func:`path_of` (``$.a[0]`` → ``a``), if any."""
    if path.startswith("$."):
        end = len(path)
        for stop in (".", "["):
            found = path.find(stop, 2)
            if found != -1:
                end = min(end, found)
        return path[2:end]
    if path.startswith('$["'):
        i = 3
        chars: list[str] = []
        while i < len(path):
            ch = path[i]
            if ch == "\\" and i + 1 < len(path):
                chars.append(path[i + 1])
                i += 2
                continue
            if ch == '"':
                return "".join(chars)
            chars.append(ch)
            i += 1
    return None


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


def details_from_pydantic(
    exc: ValidationError, data: Any = None, base: str = "$", limit: int = MAX_DETAILS
) -> Details:
    """Turn a pydantic error into details; ``data`` (the parsed JSON) cleans the paths.

    Only the first ``limit`` problems become details (``.total`` counts them all): a 1 MB
    answer can hold 300,000 problems, and nobody reads past the first few.
    """
    details = Details()
    details.total = exc.error_count()
    for err in exc.errors(include_url=False, include_context=False)[:limit]:
        loc = list(err.get("loc", ()))
        parts = data_path(loc, data) if data is not None else loc
        kind = err.get("type", "")
        shown = "" if kind == "missing" else snippet(err.get("input"))
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

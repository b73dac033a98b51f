"""Operation filters: keep the operations a user wants as tools (``--include``/``--exclude``).

A pattern is a shell-style glob (``fnmatch``, case-sensitive) with an optional kind:

- ``tag:NAME`` — an operation with a matching tag;
- ``id:NAME`` (or ``operationId:NAME``) — a matching operationId or function name;
- ``path:/users/*`` (or any pattern starting with ``/``), optionally after an HTTP method:
  ``GET /users/*`` — a matching path template (``*`` also crosses ``/``);
- a bare ``NAME`` — a matching tag, operationId or function name.

With includes, an operation is kept when any include matches; then any exclude drops it. A
pattern that matches nothing is an error: a typo must not silently generate no tools.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import TypeVar

from sktypes.errors import SktypesError
from sktypes.openapi._model import OpenApiPlugin, Operation
from sktypes.views import FunctionView

__all__ = ["Candidate", "FilterError", "operation_candidate", "select", "select_operations"]

_METHODS = {"GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE", "QUERY"}

T = TypeVar("T")


class FilterError(SktypesError):
    """An ``--include``/``--exclude`` pattern is malformed or matches no operation."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """What a pattern can match on one function: names, tags, method and path."""

    names: tuple[str, ...]
    tags: tuple[str, ...] = ()
    method: str = ""
    path: str = ""


def _matches(pattern: str, c: Candidate) -> bool:
    kind, sep, value = pattern.partition(":")
    if sep and kind in ("tag", "id", "operationId", "path"):
        if kind == "tag":
            return any(fnmatchcase(t, value) for t in c.tags)
        if kind == "path":
            return _path_matches(value, c)
        return any(fnmatchcase(n, value) for n in c.names)
    if pattern.startswith("/") or pattern.split(" ", 1)[0].upper() in _METHODS:
        return _path_matches(pattern, c)
    return any(fnmatchcase(x, pattern) for x in (*c.tags, *c.names))


def _path_matches(pattern: str, c: Candidate) -> bool:
    method, _, path = pattern.rpartition(" ")
    if method and method.upper() != c.method.upper():
        return False
    return bool(c.path) and fnmatchcase(c.path, path)


def select(
    items: Sequence[T],
    candidates: Sequence[Candidate],
    include: Iterable[str] = (),
    exclude: Iterable[str] = (),
    *,
    source: str | None = None,
) -> list[T]:
    """Return the items whose candidate passes the filters (same order).

    Raises:
        FilterError: a pattern is empty or matches none of the candidates.
    """
    include, exclude = list(include), list(exclude)
    for option, patterns in (("--include", include), ("--exclude", exclude)):
        for pattern in patterns:
            if not pattern.strip():
                raise FilterError(f"{option}: an empty pattern", file=source)
            if not any(_matches(pattern, c) for c in candidates):
                raise FilterError(f"{option} {pattern!r} matches no operation", file=source)
    kept = []
    for item, c in zip(items, candidates, strict=True):
        if include and not any(_matches(p, c) for p in include):
            continue
        if any(_matches(p, c) for p in exclude):
            continue
        kept.append(item)
    return kept


def operation_candidate(op: Operation, view: FunctionView | None = None) -> Candidate:
    """What patterns match on an OpenAPI operation: its ids, names, tags, method and path.

    ``view``: the view it is served as, when not its own (a renamed plugin).
    """
    view = view or op.view
    names = (op.operation_id, op.name, view.name, view.fully_qualified_name)
    return Candidate(
        names=tuple(dict.fromkeys(n for n in names if n)),
        tags=tuple(op.tags),
        method=op.method,
        path=op.path,
    )


def select_operations(
    plugin: OpenApiPlugin, include: Iterable[str] = (), exclude: Iterable[str] = ()
) -> OpenApiPlugin:
    """Return ``plugin`` with only the operations the filters keep (views alike).

    Raises:
        FilterError: a pattern matches no operation of ``plugin``.
    """
    include, exclude = tuple(include), tuple(exclude)
    if not include and not exclude:
        return plugin
    operations = plugin.operations
    candidates = [operation_candidate(op) for op in operations]
    kept = select(operations, candidates, include, exclude, source=plugin.source)
    return dataclasses.replace(plugin, operations=kept)
